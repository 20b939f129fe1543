#version 450
// textureGather (tests/api/image_sampling.c): a 4x4 R32_SFLOAT image
// holding 4 y + x.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D values;
layout(set = 0, binding = 1) buffer Out { vec4 v[]; } o;

void main()
{
    o.v[0] = textureGather(values, vec2(0.5, 0.5));         // texels (1,2) (2,2) (2,1) (1,1)
    o.v[1] = textureGather(values, vec2(0.5, 0.5), 1);      // green of R32: 0
    o.v[2] = textureGather(values, vec2(0.25, 0.0));        // rows -1 and 0: -1 clamps to 0: (0,0) (1,0) (1,0) (0,0)
}
