#version 450
/* The producer of indirect dispatch arguments: 4 workgroups of 64. */
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) writeonly buffer Args { uint count[3]; };
void main() {
    count[0] = 4u;
    count[1] = 1u;
    count[2] = 1u;
}
