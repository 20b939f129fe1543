#version 450
// A shared array sized by the spec-constant workgroup size
// (gl_WorkGroupSize.x) and another by a spec-constant expression; a
// reduction over whatever size the pipeline chose.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint EXTRA = 3u;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[gl_WorkGroupSize.x];
shared uint t[gl_WorkGroupSize.x + EXTRA];
void main()
{
    uint l = gl_LocalInvocationID.x, n = gl_WorkGroupSize.x;
    s[l] = x[gl_GlobalInvocationID.x];
    if (l < EXTRA)
        t[n + l] = 1000u * (l + 1u);
    t[l] = l;
    barrier();
    if (l == 0u) {
        uint sum = 0u;
        for (uint k = 0u; k < uint(s.length()); k++)
            sum += s[k];
        uint tsum = 0u;
        for (uint k = 0u; k < uint(t.length()); k++)
            tsum += t[k];
        o[gl_WorkGroupID.x * 3u] = sum;
        o[gl_WorkGroupID.x * 3u + 1u] = tsum;
        o[gl_WorkGroupID.x * 3u + 2u] = uint(t.length());
    }
}
