/* tests/ipu/vertex_ref.c: inputs and C reference results for tests/ipu/vertex.t.sh.
 * `vertex_ref DIR` writes DIR/{a,b,vadd_want} (vadd: 96 f32, out = a + b) and
 * DIR/{data,deltas,sa_want} (scaled_add: 100 f32, data + scale x deltas with the product
 * rounded to f32 before the sum, as f32v2axpy does; scale -1.75), raw little-endian. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t seed = 12345;
static uint32_t rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }
static float rf(void) { return (float)((int)(rnd() % 20001) - 10000) / 97.0f; }

static int put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f))
        return perror(path), 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: vertex_ref DIR\n"), 2;
    float a[96], b[96], w[96], d[100], x[100], s[100];
    for (int i = 0; i < 96; i++) {
        a[i] = rf();
        b[i] = rf();
        w[i] = a[i] + b[i];
    }
    const float scale = -1.75f;
    for (int i = 0; i < 100; i++) {
        d[i] = rf();
        x[i] = rf();
        float p = scale * x[i];
        s[i] = d[i] + p;
    }
    return put(argv[1], "a", a, sizeof a) || put(argv[1], "b", b, sizeof b) || put(argv[1], "vadd_want", w, sizeof w) ||
           put(argv[1], "data", d, sizeof d) || put(argv[1], "deltas", x, sizeof x) ||
           put(argv[1], "sa_want", s, sizeof s);
}
