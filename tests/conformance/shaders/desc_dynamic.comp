#version 450
// Dynamic uniform and storage buffers: the same descriptors used with
// different dynamic offsets in successive dispatches.
layout(local_size_x = 32) in;
layout(std140, set = 0, binding = 0) uniform Params { uvec4 p; };        // UNIFORM_BUFFER_DYNAMIC
layout(std430, set = 0, binding = 1) buffer Data { uint d[]; };          // STORAGE_BUFFER_DYNAMIC
layout(std430, set = 0, binding = 2) writeonly buffer Lens { uint lens[]; };  // plain storage
void main()
{
    uint i = gl_GlobalInvocationID.x;
    d[i] = d[i] * p.x + p.y;
    if (i == 0u)
        lens[p.z] = uint(d.length());
}
