#version 450
#extension GL_EXT_null_initializer : require
/* shaderZeroInitializeWorkgroupMemory: shared variables declared with {}
 * start at zero in every workgroup (strict mode fills uninitialised ones
 * with a pattern, so a missing clear shows). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
shared uint counts[64] = {};
shared uint total = {};
void main() {
    uint l = gl_LocalInvocationID.x;
    atomicAdd(counts[(l * 7u) % 64u], 1u);
    atomicAdd(total, l);
    barrier();
    result[gl_GlobalInvocationID.x] = counts[l] * 100000u + total;
}
