#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Node {
    uint value;
    Node next;
};
layout(buffer_reference, std430) buffer Floats { float data[]; };
layout(set = 0, binding = 0) buffer Out { uint sums[]; };
layout(push_constant) uniform P { Node head; Floats values; uint count; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    /* Walk a linked list built by the host in device memory. */
    uint sum = 0;
    Node n = p.head;
    for (uint k = 0; k <= i % 5 && uint64_t(n) != 0; k++) {
        sum += n.value;
        n = n.next;
    }
    if (i < p.count) {
        p.values.data[i] = p.values.data[i] * 2.0 + float(sum);
        sums[i] = sum;
    }
}
