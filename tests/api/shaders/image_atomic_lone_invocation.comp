#version 450
// One invocation per workgroup: the other lanes of its subgroup are
// inactive.  In strict mode the atomic suspends the subgroup, and after it
// the image's descriptor comes back from the subgroup's state, where the
// inactive lanes hold the fill pattern: reading their descriptors crashed
// (tests/api/image_shader.c, test_image_atomic_in_a_lone_invocation).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counters;             // 4x4

void main()
{
    // glslang loads the store's image before the atomic runs: the loaded
    // image is live across the atomic's suspension.
    imageStore(counters, ivec2(1 + int(gl_WorkGroupID.x), 1), uvec4(imageAtomicAdd(counters, ivec2(0, 0), 1u) + 100u));
}
