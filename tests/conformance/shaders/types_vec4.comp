#version 450
// vec4/uvec4: arithmetic, constructors from smaller vectors, swizzles.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
layout(set = 0, binding = 3) writeonly buffer P { uvec4 p[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i];
    uvec4 u = b[i];
    o[i * 3u + 0u] = x * x.wzyx + vec4(x.xy, 1.0, 2.0);
    o[i * 3u + 1u] = vec4(x.z, x.xy * 0.5, -x.w) / vec4(1.0, 2.0, 4.0, 8.0);
    o[i * 3u + 2u] = vec4(vec3(x.w), x.y) - vec4(vec2(x.x), vec2(x.zz));
    p[i * 2u + 0u] = u * 3u + u.yzwx;
    p[i * 2u + 1u] = uvec4(u.xy ^ u.zw, u.xx + u.ww);
}
