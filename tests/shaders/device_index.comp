#version 450
#extension GL_EXT_device_group : require
/* gl_DeviceIndex: vkmm's device groups have one device, index 0. */
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { int result[]; };
void main() {
    result[gl_GlobalInvocationID.x] = gl_DeviceIndex + 5;
}
