#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Counter { uint value[]; };
void main() {
    value[0] += 1u;
}
