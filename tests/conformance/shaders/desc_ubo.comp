#version 450
// A uniform buffer indexed dynamically (vec4 array, struct array, matrix).
layout(local_size_x = 64) in;
struct Light { vec4 color; vec3 dir; float power; };
layout(std140, set = 0, binding = 0) uniform Params {
    mat4 transform;
    vec4 table[32];
    Light lights[4];
    uint count;
} params;
layout(std430, set = 0, binding = 1) readonly buffer In { uint keys[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint k = keys[i];
    Light l = params.lights[k % params.count];
    vec4 t = params.table[k % 32u];
    o[i] = params.transform * t + l.color * l.power + vec4(l.dir, 0.0);
}
