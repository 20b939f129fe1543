#version 450
// Writes every other word (data[2i] = i + 1000): a producer whose writes
// are 65,536 separate byte ranges in a 512 KiB buffer, for the test that
// one mistake gives one report (tests/api/hazard_report_aggregation.c).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[2u * i] = i + 1000u;
}
