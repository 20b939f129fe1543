#version 450
// Tree reductions in shared memory (sum, max, and a float sum) with
// divergent participation in each step, workgroup of 1024.
layout(local_size_x = 1024) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint ssum[1024];
shared uint smax[1024];
shared float sf[1024];
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    uint v = x[g * 1024u + l];
    ssum[l] = v;
    smax[l] = v ^ 0x5555u;
    sf[l] = float(v & 0xffu) * 0.5;
    barrier();
    for (uint s = 512u; s > 0u; s >>= 1) {
        if (l < s) {
            ssum[l] += ssum[l + s];
            smax[l] = max(smax[l], smax[l + s]);
            sf[l] += sf[l + s];
        }
        barrier();
    }
    if (l == 0u) {
        o[g * 3u] = ssum[0];
        o[g * 3u + 1u] = smax[0];
        o[g * 3u + 2u] = floatBitsToUint(sf[0]);
    }
}
