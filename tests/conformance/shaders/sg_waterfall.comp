#version 450
// Loops driven by subgroup operations: a "waterfall" loop that handles one
// distinct key per iteration (subgroupBroadcastFirst), and a loop that
// serializes lanes with subgroupElect; both update shared memory.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
shared uint order_counter;
void main()
{
    uint g = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
    uint key = u[g] % 5u;
    if (l == 0u)
        order_counter = 0u;
    barrier();
    uint rounds = 0u, same = 0u;
    for (;;) {
        rounds++;
        uint k = subgroupBroadcastFirst(key);
        if (k == key) {
            same = subgroupBallotBitCount(subgroupBallot(true));
            break;
        }
    }
    uint turn = 0u;
    for (;;) {
        if (subgroupElect()) {
            turn = atomicAdd(order_counter, 1u);
            break;
        }
    }
    o[g * 4u] = rounds;
    o[g * 4u + 1u] = same;
    o[g * 4u + 2u] = turn;
    o[g * 4u + 3u] = 1u;
}
