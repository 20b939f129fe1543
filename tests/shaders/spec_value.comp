#version 450
// Writes its specialization constant (default 7): the invalid-map-entry
// test (tests/api/pipeline_specialization_invalid.c).
layout(local_size_x = 1) in;
layout(constant_id = 3) const uint VALUE = 7u;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
void main() {
    o[0] = VALUE;
}
