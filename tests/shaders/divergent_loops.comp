#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { int result[]; };
int collatz(int n) {
    int steps = 0;
    while (n != 1) {
        if ((n & 1) == 0) n /= 2; else n = 3 * n + 1;
        steps++;
        if (steps > 1000) return -1;
    }
    return steps;
}
void main() {
    int i = int(gl_GlobalInvocationID.x);
    int v = collatz(i + 1);
    switch (i % 4) {
    case 0: v += 1000; break;
    case 1: v -= 7; break;
    default: if (i > 40) { result[i] = v * 2; return; }
    }
    result[i] = v;
}
