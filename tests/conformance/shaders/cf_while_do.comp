#version 450
// while loops with break, do-while loops with continue, loops whose
// condition changes inside the body.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    // while with break
    uint steps = 0u, v = x;
    while (true) {
        if (v < 10u)
            break;
        v = v / 3u + (v & 1u);
        steps++;
    }
    // do-while with continue
    uint k = 0u, acc = 0u;
    do {
        k++;
        if ((k + x) % 3u == 0u)
            continue;
        acc += k * k;
    } while (k < (x % 20u));
    // while with a compound condition
    uint p = x, q = 0u;
    while (p != 0u && q < 20u) {
        q += p & 1u;
        p >>= 1;
    }
    o[i * 4u + 0u] = steps;
    o[i * 4u + 1u] = v;
    o[i * 4u + 2u] = acc;
    o[i * 4u + 3u] = q | (p << 8);
}
