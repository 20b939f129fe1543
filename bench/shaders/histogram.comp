#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[]; };
void main() {
    atomicAdd(bins[data[gl_GlobalInvocationID.x] & 255u], 1u);
}
