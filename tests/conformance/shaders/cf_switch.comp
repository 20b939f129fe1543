#version 450
// switch: fallthrough, several labels per case, default in the middle,
// negative labels, switch without default, nested switch.
layout(local_size_x = 50) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    int r = 0;
    switch (x) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
    case 3:
        r += 100;
    default:
        r += 1000;
    case -5:
        r += 10000;
        break;
    case 7:
        r = -7;
        break;
    }
    int s = 0;
    switch (x & 3) {
    case 0:
        s = 4;
        break;
    case 2:
        s = 8;
        switch (x % 5) {
        case 1:
            s += 1;
            break;
        case -1:
            s -= 1;
            break;
        }
        break;
    }
    o[i * 2u] = r;
    o[i * 2u + 1u] = s;
}
