#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[256];
void main() {
    uint l = gl_LocalInvocationID.x;
    partial[l] = data[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 128; stride > 0; stride >>= 1) {
        if (l < stride)
            partial[l] += partial[l + stride];
        barrier();
    }
    if (l == 0)
        sums[gl_WorkGroupID.x] = partial[0];
}
