/* tests/ipu/amp/slic_ref.c: inputs and C results for slic_sup.S (the commands in docs/validation/ipu.md, "The AMP checks' commands"):
 * `slic_ref half|float DIR` writes DIR/w (w[tap][out][in]), DIR/x, DIR/want: out[j][oc] =
 * sum over taps k and input channels of x[j + k][ic] w[k][oc][ic] (ConvPartial1xNSLIC.cpp's
 * loop), each tap's four products added to the f32 sum exactly and rounded once (the AMP
 * order, -o amp_sum=fused); half results rounded to half. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t seed = 31;
static uint32_t rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }

int main(int argc, char **argv)
{
    enum { NOUT = 24, NIN = 27 };
    if (argc != 3 || (strcmp(argv[1], "half") && strcmp(argv[1], "float"))) {
        fprintf(stderr, "usage: slic_ref half|float DIR\n");
        return 2;
    }
    int fl = !strcmp(argv[1], "float");
    _Float16 w[64], x[NIN * 4], oh[NOUT * 4];
    float of[NOUT * 4];
    for (int i = 0; i < 64; i++) w[i] = (_Float16)(((int)(rnd() % 2001) - 1000) / 512.0f);
    for (int i = 0; i < NIN * 4; i++) x[i] = (_Float16)(((int)(rnd() % 2001) - 1000) / 256.0f);
    for (int j = 0; j < NOUT; j++)
        for (int oc = 0; oc < 4; oc++) {
            float acc = 0.0f;
            for (int k = 0; k < 4; k++) {
                double s = acc;
                for (int ic = 0; ic < 4; ic++)
                    s += (double)x[(j + k) * 4 + ic] * (double)w[k * 16 + oc * 4 + ic];
                acc = (float)s;
            }
            of[j * 4 + oc] = acc;
            oh[j * 4 + oc] = (_Float16)acc;
        }
    char p[3][512];
    const char *n[3] = {"w", "x", "want"};
    const void *d[3] = {w, x, fl ? (const void *)of : (const void *)oh};
    size_t z[3] = {sizeof w, sizeof x, fl ? sizeof of : sizeof oh};
    for (int i = 0; i < 3; i++) {
        snprintf(p[i], sizeof p[i], "%s/%s", argv[2], n[i]);
        FILE *f = fopen(p[i], "wb");
        if (!f || fwrite(d[i], 1, z[i], f) != z[i] || fclose(f)) {
            perror(p[i]);
            return 1;
        }
    }
    return 0;
}
