#version 450
// Constant arrays (lookup tables) of scalars, vectors and structs indexed
// dynamically.
layout(local_size_x = 64) in;
struct Entry { uint key; vec2 val; };
const uint table[16] = uint[16](0u, 1u, 1u, 2u, 1u, 2u, 2u, 3u, 1u, 2u, 2u, 3u, 2u, 3u, 3u, 4u);
const vec3 colors[4] = vec3[4](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0), vec3(0.5));
const Entry entries[3] = Entry[3](Entry(7u, vec2(1.5, 2.5)), Entry(11u, vec2(-1.0, 0.25)), Entry(13u, vec2(8.0, -8.0)));
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint bits = table[x & 15u] + table[(x >> 4) & 15u] + table[(x >> 8) & 15u] + table[(x >> 12) & 15u];
    vec3 c = colors[x % 4u] * float(bits);
    Entry e = entries[x % 3u];
    o[i * 5u + 0u] = float(bits);
    o[i * 5u + 1u] = c.x + c.y * 2.0 + c.z * 3.0;
    o[i * 5u + 2u] = float(e.key) + e.val.x + e.val.y;
    o[i * 5u + 3u] = entries[(x >> 2) % 3u].val[x & 1u];
    o[i * 5u + 4u] = colors[(x >> 3) % 4u][x % 3u];
}
