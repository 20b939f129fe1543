#version 450
// switch inside a loop: break leaves the switch, continue the loop, return
// the shader.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint acc = 0u;
    for (uint k = 0u; k < 16u; k++) {
        uint op = (x >> (2u * (k % 16u))) & 3u;
        switch (op) {
        case 0u:
            acc += k;
            break;
        case 1u:
            acc *= 3u;
            continue;
        case 2u:
            if (acc > 1000000u) {
                o[i * 2u] = acc;
                o[i * 2u + 1u] = 0xffu;
                return;
            }
            acc ^= 0x55u;
        default:
            acc += 1u;
        }
        acc += 2u;
    }
    o[i * 2u] = acc;
    o[i * 2u + 1u] = 1u;
}
