#version 450
// A loop with barriers that every invocation leaves at the same iteration
// because the exit condition is read from shared memory after a barrier
// (iterate until nothing changes), plus barriers under a uniform branch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint extra; } pc;
shared uint label[64];
shared uint changed[2];
void main()
{
    uint l = gl_LocalInvocationID.x;
    // Connected components of a chain: l and l+1 are linked when bit l of
    // the 64-bit mask is set; labels converge to the smallest index.
    uint mask_lo = x[gl_WorkGroupID.x * 2u], mask_hi = x[gl_WorkGroupID.x * 2u + 1u];
    bool link_right = l < 63u && (((l < 32u ? mask_lo >> l : mask_hi >> (l - 32u)) & 1u) == 1u);
    bool link_left = l > 0u && ((((l - 1u) < 32u ? mask_lo >> (l - 1u) : mask_hi >> (l - 33u)) & 1u) == 1u);
    label[l] = l;
    if (l == 0u) {
        changed[0] = 0u;
        changed[1] = 0u;
    }
    barrier();
    uint iterations = 0u;
    for (;;) {
        uint p = iterations & 1u;
        uint best = label[l];
        if (link_right) best = min(best, label[l + 1u]);
        if (link_left) best = min(best, label[l - 1u]);
        barrier();
        if (best != label[l]) {
            label[l] = best;
            atomicOr(changed[p], 1u);
        }
        if (l == 0u)
            changed[p ^ 1u] = 0u;   // everyone checked it before the barrier above
        barrier();
        iterations++;
        if (changed[p] == 0u)
            break;
    }
    if (pc.extra != 0u) {
        label[l] += pc.extra;
        barrier();
        uint mirrored = label[63u - l];
        barrier();
        label[l] = mirrored + 1u;
        barrier();
    }
    o[gl_GlobalInvocationID.x * 2u] = label[l];
    o[gl_GlobalInvocationID.x * 2u + 1u] = iterations;
}
