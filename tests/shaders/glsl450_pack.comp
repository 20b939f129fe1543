#version 450
// pack*/unpack* on vec4/uint inputs.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer V { vec4 v[]; };
layout(set = 0, binding = 1) readonly buffer U { uvec2 u[]; };
layout(set = 0, binding = 2) readonly buffer D { double d[]; };
layout(set = 0, binding = 3) writeonly buffer OU { uint ou[]; };    // 5 per item
layout(set = 0, binding = 4) writeonly buffer OF { vec4 of[]; };    // 4 per item
layout(set = 0, binding = 5) writeonly buffer OD { double od[]; };
layout(set = 0, binding = 6) writeonly buffer OD2 { uvec2 ou2[]; };
layout(push_constant) uniform P { uint n; } p;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    vec4 x = v[i];
    ou[5 * i + 0] = packSnorm4x8(x);
    ou[5 * i + 1] = packUnorm4x8(x);
    ou[5 * i + 2] = packSnorm2x16(x.xy);
    ou[5 * i + 3] = packUnorm2x16(x.zw);
    ou[5 * i + 4] = packHalf2x16(x.yz);
    uint w = u[i].x;
    of[4 * i + 0] = vec4(unpackSnorm2x16(w), unpackUnorm2x16(w));
    of[4 * i + 1] = vec4(unpackHalf2x16(w), 0.0, 0.0);
    of[4 * i + 2] = unpackSnorm4x8(w);
    of[4 * i + 3] = unpackUnorm4x8(w);
    od[i] = packDouble2x32(u[i]);
    ou2[i] = unpackDouble2x32(d[i]);
}
