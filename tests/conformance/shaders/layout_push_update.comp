#version 450
// Push constants changed between dispatches of one command buffer, also
// partially (a later vkCmdPushConstants of only some bytes).
layout(local_size_x = 32) in;
layout(push_constant) uniform P { uint slot; uint mul; uint add; } pc;
layout(std430, set = 0, binding = 0) buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    o[pc.slot * 64u + i] = i * pc.mul + pc.add;
}
