#version 450
// A linked list of nodes in device memory, built by the host with buffer
// device addresses; each invocation walks from its own head.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
    Node next;      // 0
    uint value;     // 8
    uint pad;       // 12
};
layout(std430, set = 0, binding = 0) readonly buffer Heads { Node heads[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uvec2 o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    Node n = heads[i];
    uint sum = 0u, count = 0u;
    while (uint64_t(n) != 0ul) {
        sum = sum * 3u + n.value;
        count++;
        n = n.next;
    }
    o[i] = uvec2(sum, count);
}
