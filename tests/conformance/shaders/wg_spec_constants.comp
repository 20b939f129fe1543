#version 450
// Specialization constants of every scalar type, spec-constant expressions
// (OpSpecConstantOp), and a spec-constant array size.
layout(local_size_x = 32) in;
layout(constant_id = 0) const int SI = -3;
layout(constant_id = 1) const uint SU = 7u;
layout(constant_id = 2) const float SF = 1.5;
layout(constant_id = 3) const bool SB = false;
layout(constant_id = 4) const uint LEN = 4u;
layout(constant_id = 5) const double SD = 0.25lf;
const uint DERIVED = SU * 2u + uint(SI) + LEN;   // spec-constant expression
const bool NOT_SB = !SB;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint arr[LEN];
    for (uint k = 0u; k < LEN; k++)
        arr[k] = k * SU + i;
    uint sum = 0u;
    for (int k = 0; k < arr.length(); k++)
        sum += arr[k];
    o[i * 8u + 0u] = uint(SI);
    o[i * 8u + 1u] = SU;
    o[i * 8u + 2u] = floatBitsToUint(SF * float(i));
    o[i * 8u + 3u] = SB ? 1u : 0u;
    o[i * 8u + 4u] = sum;
    o[i * 8u + 5u] = DERIVED;
    o[i * 8u + 6u] = NOT_SB ? uint(arr.length()) : 1000u;
    o[i * 8u + 7u] = uint(SD * 1000.0lf);
}
