#version 450
// Structs in function memory: construction, member access, whole-struct
// assignment and copies, passing to and returning from functions, equality.
layout(local_size_x = 32, local_size_y = 4) in;
struct Particle {
    vec3 pos;
    float mass;
    ivec2 cell;
    uint flags;
};
struct Pair {
    Particle a;
    Particle b;
    float w[3];
};
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
Particle make(vec4 v, uint k)
{
    return Particle(v.xyz, v.w, ivec2(v.xy * 4.0), k);
}
Particle step_particle(Particle p, float dt)
{
    Particle q = p;
    q.pos += vec3(0.0, -9.5, 1.0) * dt * p.mass;
    q.cell = ivec2(q.pos.xz);
    q.flags |= 0x10u;
    return q;
}
float energy(Pair p)
{
    return p.a.mass * dot(p.a.pos, p.a.pos) + p.b.mass * p.b.pos.y + p.w[0] + p.w[1] * p.w[2];
}
void main()
{
    uint i = gl_LocalInvocationIndex + 128u * gl_WorkGroupID.x;
    Particle p = make(a[i], i);
    Particle q = step_particle(p, 0.25);
    Pair pr = Pair(p, q, float[3](1.0, p.mass, q.mass));
    Pair copy = pr;
    copy.b.pos.x = 100.0;
    o[i * 8u + 0u] = energy(pr);
    o[i * 8u + 1u] = energy(copy);
    o[i * 8u + 2u] = float(q.cell.x + q.cell.y * 3);
    o[i * 8u + 3u] = float(q.flags);
    o[i * 8u + 4u] = (p == pr.a) ? 1.0 : 0.0;
    o[i * 8u + 5u] = (pr == copy) ? 1.0 : 0.0;
    o[i * 8u + 6u] = (q == step_particle(p, 0.25)) ? 1.0 : 0.0;
    o[i * 8u + 7u] = copy.a.pos.z + pr.b.pos.z;
}
