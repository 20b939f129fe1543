#version 450
// Arrays of structs containing arrays and structs, in function memory, with
// dynamic indices at several levels.
layout(local_size_x = 16, local_size_y = 4) in;
struct Inner {
    int v[3];
    vec2 p;
};
struct Outer {
    Inner in_[4];
    uint tag;
};
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 64u * gl_WorkGroupID.x;
    Outer s[3];
    for (int x = 0; x < 3; x++) {
        for (int y = 0; y < 4; y++) {
            for (int z = 0; z < 3; z++)
                s[x].in_[y].v[z] = a[i] * (x + 1) + y * 10 + z;
            s[x].in_[y].p = vec2(float(x), float(y));
        }
        s[x].tag = uint(x) * 7u;
    }
    uint j = uint(a[i]) & 0xffu;
    uint x = j % 3u, y = (j / 3u) % 4u, z = (j / 12u) % 3u;
    s[x].in_[y].v[z] += 1000;
    Inner t = s[(x + 1u) % 3u].in_[y];
    t.v[z] = -t.v[z];
    s[2].in_[3] = t;
    o[i * 5u + 0u] = s[x].in_[y].v[z];
    o[i * 5u + 1u] = s[2].in_[3].v[0] + s[2].in_[3].v[1] + s[2].in_[3].v[2];
    o[i * 5u + 2u] = int(s[x].in_[y].p.x * 10.0 + s[x].in_[y].p.y);
    o[i * 5u + 3u] = int(s[z].tag) + s[0].in_[0].v[0];
    Outer copy = s[x];
    copy.in_[0].v[0] = 5;
    o[i * 5u + 4u] = copy.in_[y].v[z] - s[x].in_[0].v[0];
}
