#version 450
// Reads two inline uniform blocks (set 0, bindings 0 and 1: bytes kept in
// the descriptor set, Vulkan 1.3) and writes their sum per invocation.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform First { uvec4 words[4]; } first;
layout(set = 0, binding = 1) uniform Second { uvec4 bias; } second;
layout(set = 0, binding = 2) buffer Result { uint values[]; } result;

void main()
{
    uint i = gl_LocalInvocationIndex;
    result.values[i] = first.words[i / 4][i % 4] + second.bias[i % 4];
}
