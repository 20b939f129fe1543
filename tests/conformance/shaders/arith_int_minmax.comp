#version 450
// Integer min/max/clamp/abs/sign, signed and unsigned comparisons, select.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], y = b[i];
    uint ux = uint(x), uy = uint(y);
    const uint K = 11u;
    o[i * K + 0u] = min(x, y);
    o[i * K + 1u] = max(x, y);
    o[i * K + 2u] = int(min(ux, uy));
    o[i * K + 3u] = int(max(ux, uy));
    o[i * K + 4u] = clamp(x, -1000, 1000);
    o[i * K + 5u] = int(clamp(ux, 100u, 0x80000000u));
    o[i * K + 6u] = abs(x);
    o[i * K + 7u] = sign(x);
    o[i * K + 8u] = (x < y ? 1 : 0) | (x <= y ? 2 : 0) | (x > y ? 4 : 0) | (x >= y ? 8 : 0) |
                    (x == y ? 16 : 0) | (x != y ? 32 : 0);
    o[i * K + 9u] = (ux < uy ? 1 : 0) | (ux <= uy ? 2 : 0) | (ux > uy ? 4 : 0) | (ux >= uy ? 8 : 0);
    o[i * K + 10u] = x > y ? x - y : y - x;
}
