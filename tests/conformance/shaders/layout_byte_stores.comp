#version 450
// Neighbouring 8- and 16-bit elements written by different invocations
// (and different subgroups and workgroups) must not clobber each other.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 7, local_size_y = 5) in;
layout(std430, set = 0, binding = 0) buffer B8 { uint8_t b8[]; };
layout(std430, set = 0, binding = 1) buffer B16 { uint16_t b16[]; };
layout(std430, set = 0, binding = 2) buffer V8 { u8vec2 v8[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 35u * gl_WorkGroupID.x;
    b8[i] = uint8_t(i * 7u + 3u);
    b16[i] = uint16_t(i * 1001u);
    v8[i].y = uint8_t(i);        // only the second byte of each pair
}
