#version 450
// Whole structs and arrays copied between buffers of different layouts
// and function memory (OpLoad/OpStore/OpCopyLogical of aggregates).
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 32) in;
struct Rec { uint id; vec3 pos; float w[2]; ivec2 cell; };
layout(std430, set = 0, binding = 0) readonly buffer In { Rec recs[]; };     // stride 48
layout(scalar, set = 0, binding = 1) writeonly buffer Out { Rec outs[]; };   // stride 32
layout(std430, set = 0, binding = 2) writeonly buffer Arr { float arrs[][4]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    Rec r = recs[i];
    r.id += 1000u;
    r.w[1] = r.pos.y;
    outs[i] = r;
    float a[4] = float[4](r.pos.x, r.pos.y, r.pos.z, r.w[0]);
    arrs[i] = a;
    Rec other = recs[(i + 1u) % uint(recs.length())];
    if (other.cell.x > 0)
        outs[i].cell = other.cell;
}
