#version 450
// buffer_reference to scalar-layout structs with arrays, writes through
// a reference kept in a local variable, and a reference to a reference.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 100) in;
struct Body { vec3 p; vec3 v; float m; };  // scalar: 28 bytes
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer Bodies { uint count; Body b[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Indirect { Bodies target; };
layout(push_constant) uniform P { Indirect ind; float dt; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    Bodies bodies = pc.ind.target;
    if (i >= bodies.count)
        return;
    Body x = bodies.b[i];
    x.v += vec3(0.0, -1.0, 0.0) * pc.dt;
    x.p += x.v * pc.dt;
    x.m *= 0.5;
    bodies.b[i] = x;
}
