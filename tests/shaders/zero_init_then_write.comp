#version 450
#extension GL_EXT_null_initializer : require
/* A zero-initialised shared word that invocation 0 overwrites before a
 * barrier: every invocation must read the 1, not a second clearing. */
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
shared uint flag = {};
void main() {
    if (gl_LocalInvocationIndex == 0u)
        flag = 1u;
    barrier();
    result[gl_GlobalInvocationID.x] = flag;
}
