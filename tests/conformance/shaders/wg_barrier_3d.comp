#version 450
// A 3D workgroup (4 x 4 x 4) transposing a 3D shared array through
// barriers, twice.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint cube[4][4][4];
void main()
{
    uvec3 l = gl_LocalInvocationID;
    uint base = gl_WorkGroupID.x * 64u;
    cube[l.z][l.y][l.x] = x[base + gl_LocalInvocationIndex];
    barrier();
    uint a = cube[l.x][l.z][l.y];
    barrier();
    cube[l.y][l.x][l.z] = a + 1u;
    barrier();
    o[base + gl_LocalInvocationIndex] = cube[l.z][l.y][l.x] * 2u + a;
}
