#version 450
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint sums[]; };
shared uint partial[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    partial[l] = data[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 64; stride > 0; stride /= 2) {
        if (l < stride)
            partial[l] += partial[l + stride];
        barrier();
    }
    if (l == 0)
        sums[gl_WorkGroupID.x] = partial[0];
}
