#version 450
// GL_EXT_buffer_reference: pointers in push constants, loads and stores
// through them, pointer comparisons with null.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vecs { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint w[]; };
layout(push_constant) uniform P { Vecs src; Words dst; Words unused; uint n; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n)
        return;
    vec4 x = pc.src.v[i];
    pc.dst.w[i] = floatBitsToUint(x.x + x.y + x.z + x.w) ^ (uint64_t(pc.unused) == 0ul ? 0u : 0xffffffffu);
    pc.src.v[i].w = -x.w;
}
