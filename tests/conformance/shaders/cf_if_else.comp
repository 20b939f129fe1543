#version 450
// if / else if / else chains and nested ifs, divergent between lanes.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    int r;
    if (x < -500) {
        r = 1;
        if ((x & 1) == 0)
            r += 10;
    } else if (x < 0) {
        r = 2;
    } else if (x == 0) {
        r = 3;
    } else if (x < 500) {
        if (x % 3 == 0) {
            r = 4;
        } else {
            if (x % 3 == 1)
                r = 5;
            else
                r = 6;
        }
    } else {
        r = 7;
    }
    int s = 0;
    if (r > 3)
        s = x * 2;
    if (r < 5 && x > -900)
        s -= 1;
    else
        s += 1;
    o[i * 2u] = r;
    o[i * 2u + 1u] = s;
}
