#version 450
// Arrays of arrays (int[3][4][5]) with dynamic indices, array copies,
// .length() of fixed arrays.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int t[3][4][5];
    for (int x = 0; x < t.length(); x++)
        for (int y = 0; y < t[x].length(); y++)
            for (int z = 0; z < t[x][y].length(); z++)
                t[x][y][z] = x * 100 + y * 10 + z + int(i);
    uint r = a[i];
    uint x = r % 3u, y = (r / 3u) % 4u, z = (r / 12u) % 5u;
    t[x][y][z] = -1;
    int row[5] = t[(x + 1u) % 3u][y];
    row[z] *= 2;
    t[x][(y + 1u) % 4u] = row;
    int sum = 0;
    for (int k = 0; k < 5; k++)
        sum += t[x][(y + 1u) % 4u][k];
    o[i * 3u + 0u] = sum;
    o[i * 3u + 1u] = t[x][y][z] + t[2][3][4];
    o[i * 3u + 2u] = t.length() * 100 + t[0].length() * 10 + t[0][0].length();
}
