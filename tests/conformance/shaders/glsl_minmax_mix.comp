#version 450
// min, max, clamp, mix (float and bool selector), step, smoothstep.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) readonly buffer C { float c[]; };
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
const uint K = 10u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i], t = c[i];
    o[i * K + 0u] = min(x, y);
    o[i * K + 1u] = max(x, y);
    o[i * K + 2u] = clamp(x, -0.5, 0.75);
    o[i * K + 3u] = mix(x, y, t);
    o[i * K + 4u] = mix(x, y, t > 0.5);
    o[i * K + 5u] = step(y, x);
    o[i * K + 6u] = smoothstep(-0.5, 0.5, x);
    vec3 v = clamp(vec3(x, y, t), vec3(-0.25), vec3(y, 0.5, x));
    o[i * K + 7u] = v.x + v.y + v.z;
    vec4 m = mix(vec4(x), vec4(y), vec4(t, 1.0 - t, 0.0, 1.0));
    o[i * K + 8u] = m.x - m.y + m.z * 2.0 + m.w * 3.0;
    o[i * K + 9u] = smoothstep(vec2(0.0), vec2(1.0, 2.0), vec2(t, t * 2.0)).y;
}
