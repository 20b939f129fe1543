#version 450
// isnan, isinf on values read from a buffer (NaNs and infinities included).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = uintBitsToFloat(a[i]);
    uint r = uint(isnan(x)) | uint(isinf(x)) << 1;
    bvec2 v = isnan(vec2(x, 1.0));
    r |= uint(v.x) << 2 | uint(v.y) << 3;
    r |= uint(isinf(vec3(0.0, x, 2.0)).y) << 4;
    o[i] = r;
}
