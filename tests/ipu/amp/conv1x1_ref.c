/* tests/ipu/amp/conv1x1_ref.c: inputs and C results for conv1x1_sup.S (the commands in docs/validation/ipu.md, "The AMP checks' commands"):
 * `conv1x1_ref half|float DIR` writes DIR/w, DIR/x, DIR/want (-o amp_sum=fused: each AMP
 * instruction's exact products added to the f32 running sum in double, rounded once; half
 * results rounded to half) and DIR/want_chained (every addition rounded to f32). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t seed = 777;
static uint32_t rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }

static int put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        perror(path);
        return 1;
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    enum { N = 24 };
    if (argc != 3 || (strcmp(argv[1], "half") && strcmp(argv[1], "float"))) {
        fprintf(stderr, "usage: conv1x1_ref half|float DIR\n");
        return 2;
    }
    const char *dir = argv[2];
    if (!strcmp(argv[1], "half")) { /* 16 input channels, 4 products per instruction */
        _Float16 w[8 * 16], x[N * 16], o[N * 8], oc[N * 8];
        for (int i = 0; i < 8 * 16; i++) w[i] = (_Float16)(((int)(rnd() % 2001) - 1000) / 512.0f);
        for (int i = 0; i < N * 16; i++) x[i] = (_Float16)(((int)(rnd() % 2001) - 1000) / 256.0f);
        for (int f = 0; f < N; f++)
            for (int m = 0; m < 8; m++) {
                float acc = 0.0f, ch = 0.0f;
                for (int n = 0; n < 4; n++) {
                    double s = acc;
                    for (int j = 0; j < 4; j++) {
                        double p = (double)x[16 * f + 4 * n + j] * (double)w[16 * m + 4 * n + j];
                        s += p;
                        ch = ch + (float)p;
                    }
                    acc = (float)s;
                }
                o[8 * f + m] = (_Float16)acc;
                oc[8 * f + m] = (_Float16)ch;
            }
        return put(dir, "w", w, sizeof w) || put(dir, "x", x, sizeof x) || put(dir, "want", o, sizeof o) ||
               put(dir, "want_chained", oc, sizeof oc);
    }
    float w[8 * 8], x[N * 8], o[N * 8], oc[N * 8]; /* 8 input channels, one product each */
    for (int i = 0; i < 8 * 8; i++)
        w[i] = ldexpf((float)(rnd() % 0x1000000), (int)(rnd() % 9) - 28) * (rnd() & 1 ? -1.0f : 1.0f);
    for (int i = 0; i < N * 8; i++)
        x[i] = ldexpf((float)(rnd() % 0x1000000), (int)(rnd() % 9) - 28) * (rnd() & 1 ? -1.0f : 1.0f);
    for (int f = 0; f < N; f++)
        for (int m = 0; m < 8; m++) {
            float acc = 0.0f, ch = 0.0f;
            for (int c = 0; c < 8; c++) {
                double p = (double)x[8 * f + c] * (double)w[8 * m + c];
                acc = (float)((double)acc + p);
                ch = ch + (float)p;
            }
            o[8 * f + m] = acc;
            oc[8 * f + m] = ch;
        }
    return put(dir, "w", w, sizeof w) || put(dir, "x", x, sizeof x) || put(dir, "want", o, sizeof o) ||
           put(dir, "want_chained", oc, sizeof oc);
}
