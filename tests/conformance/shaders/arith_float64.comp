#version 450
// double arithmetic: add/sub/mul exact, div, sqrt, comparisons.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) readonly buffer B { double b[]; };
layout(set = 0, binding = 2) writeonly buffer O { double o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    double x = a[i], y = b[i];
    o[i * 7u + 0u] = x + y;
    o[i * 7u + 1u] = x - y;
    o[i * 7u + 2u] = x * y;
    o[i * 7u + 3u] = x / y;
    o[i * 7u + 4u] = sqrt(abs(x));
    o[i * 7u + 5u] = x < y ? 1.0lf : (x > y ? -1.0lf : 0.0lf);
    o[i * 7u + 6u] = double(int(x)) + double(uint(abs(y)));
}
