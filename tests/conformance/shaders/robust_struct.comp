#version 450
// robustBufferAccess on a struct array whose last element straddles the end
// of the bound range, and a runtime array bound at a non-zero offset.
layout(local_size_x = 16) in;
struct E { uint a; uint b; vec2 c; uvec4 d; };  // 32 bytes
layout(std430, set = 0, binding = 0) buffer B { uint count; uint pad[3]; E e[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    e[i].a = i;
    e[i].b = e.length();
    e[i].d = uvec4(i) + uvec4(1u, 2u, 3u, 4u);
    if (i == 0u)
        count = uint(e.length());
}
