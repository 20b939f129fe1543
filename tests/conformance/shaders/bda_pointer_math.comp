#version 450
// GL_EXT_buffer_reference2: pointer arithmetic through uint64_t and uvec2
// casts, pointers into the middle of a buffer, pointer arrays in an SSBO.
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 16, local_size_y = 4) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32 { uint x; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Pair { uint a; uint b; };
layout(std430, set = 0, binding = 0) readonly buffer Ptrs { uint64_t base; Pair pairs[8]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 64u * gl_WorkGroupID.x;
    U32 p = U32(base + uint64_t(i) * 4ul);
    uint v = p.x;
    uvec2 addr = uvec2(pairs[i % 8u]);
    Pair q = Pair(addr);
    U32 second = U32(uint64_t(q) + 4ul);
    o[i * 3u + 0u] = v;
    o[i * 3u + 1u] = q.a + second.x;      // second.x is q.b
    Pair shifted = q + 1;                // buffer_reference2: advances by sizeof(Pair)
    o[i * 3u + 2u] = shifted.a;
}
