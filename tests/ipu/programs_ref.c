/* tests/ipu/programs_ref.c: inputs and C reference results for the kernels in programs/ipu
 * (tests/ipu/programs.t.sh builds and runs this). `programs_ref KERNEL DIR` writes the
 * kernel's input files and DIR/want, the expected output bytes, little-endian. The inputs
 * are pseudo-random (a fixed LCG) with edge cases mixed in: signed zeros, subnormals,
 * exact ties, large and small magnitudes. The references are plain C: f32 arithmetic in
 * float (IEEE, round to nearest even), f16 arithmetic in _Float16 (GCC evaluates it in
 * float and rounds once, which is exact for one add), the reduction in the accumulator
 * order docs/isa/ipu.md defines, tanh as the documented (float)tanh((double)x). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t seed = 12345;
static uint32_t rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }

static float rf32(int i)
{
    static const float edge[] = {0.0f, -0.0f, 1e-40f, -3e-39f, 1.0f, 0.5f, 16777216.0f, 1e30f, -1e-30f, 3.0f};
    if (i % 7 == 3)
        return edge[rnd() % 10];
    int e = (int)(rnd() % 40) - 20;
    return ldexpf((float)(rnd() % 0x1000000) / 16777216.0f, e) * (rnd() & 1 ? -1.0f : 1.0f);
}

static _Float16 rf16(int i)
{
    static const float edge[] = {0.0f, -0.0f, 6e-8f, -3e-5f, 1.0f, 0.5f, 2048.0f, 30000.0f, 1.0009765625f, 3.0f};
    if (i % 5 == 2)
        return (_Float16)edge[rnd() % 10];
    int e = (int)(rnd() % 20) - 12;
    return (_Float16)(ldexpf((float)(rnd() % 2048) / 2048.0f, e) * (rnd() & 1 ? -1.0f : 1.0f));
}

static void put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        perror(path);
        exit(2);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: programs_ref vadd_f32|vadd_f16|axpy_f32|reduce_f32|tanh_f32|conv1x1_f16|conv1x1_f32 DIR\n");
        return 2;
    }
    const char *k = argv[1], *dir = argv[2];
    float a[192], b[192], w[192];
    if (!strcmp(k, "vadd_f32")) {
        for (int i = 0; i < 96; i++) {
            a[i] = rf32(i);
            b[i] = rf32(i + 1);
            w[i] = a[i] + b[i];
        }
        put(dir, "a", a, 96 * 4);
        put(dir, "b", b, 96 * 4);
        put(dir, "want", w, 96 * 4);
    } else if (!strcmp(k, "vadd_f16")) {
        _Float16 x[96], y[96], z[96];
        for (int i = 0; i < 96; i++) {
            x[i] = rf16(i);
            y[i] = rf16(i + 3);
            z[i] = x[i] + y[i];
        }
        x[10] = (_Float16)1.0f; /* a tie: 1 + 2^-11 rounds to even, to 1 */
        y[10] = (_Float16)0.00048828125f;
        z[10] = x[10] + y[10];
        put(dir, "a", x, 96 * 2);
        put(dir, "b", y, 96 * 2);
        put(dir, "want", z, 96 * 2);
    } else if (!strcmp(k, "axpy_f32")) {
        float alpha = -1.75f;
        for (int i = 0; i < 96; i++) {
            a[i] = rf32(i);
            b[i] = rf32(i + 2);
            float p = alpha * a[i]; /* the product rounded, then the sum (docs: not fused) */
            w[i] = p + b[i];
        }
        put(dir, "a", a, 96 * 4);
        put(dir, "b", b, 96 * 4);
        put(dir, "alpha", &alpha, 4);
        put(dir, "want", w, 96 * 4);
    } else if (!strcmp(k, "reduce_f32")) {
        float out[6];
        for (int i = 0; i < 192; i++)
            a[i] = (float)((int)(rnd() % 2001) - 1000) / 64.0f + ldexpf((float)(rnd() % 1000), -30);
        for (int wk = 0; wk < 6; wk++) {
            float acc[4] = {0, 0, 0, 0};
            for (int j = 0; j < 32; j++)
                acc[j % 4] += a[wk * 32 + j];       /* lane i into chain entry i */
            float s0 = acc[0] + acc[2], s1 = acc[1] + acc[3]; /* gina pairs, f32v2add */
            out[wk] = s0 + s1;
        }
        put(dir, "a", a, 192 * 4);
        put(dir, "want", out, 6 * 4);
    } else if (!strcmp(k, "tanh_f32")) {
        for (int i = 0; i < 96; i++) {
            a[i] = ldexpf((float)((int)(rnd() % 4001) - 2000), -9);
            w[i] = (float)tanh((double)a[i]);
            /* the documented choice is within one ulp of libm's float tanh */
            float t = tanhf(a[i]);
            if (fabsf(t - w[i]) > fabsf(nextafterf(w[i], INFINITY) - w[i])) {
                fprintf(stderr, "tanh(%a): %a vs tanhf %a differ by more than an ulp\n", a[i], w[i], t);
                return 1;
            }
        }
        put(dir, "a", a, 96 * 4);
        put(dir, "want", w, 96 * 4);
    } else if (!strcmp(k, "conv1x1_f16")) {
        /* out[f][oc] = sum over 16 input channels, AMP order (docs/isa/ipu.md "AMP and
         * SLIC"): four steps of four products; -o amp_sum=fused (default) adds a step's
         * exact products to the running f32 sum in double and rounds once; chained rounds
         * every addition to f32 (want_chained). */
        _Float16 x[24 * 16], wt[8 * 16];
        float o[24 * 8], oc_[24 * 8];
        for (int i = 0; i < 8 * 16; i++)
            wt[i] = rf16(i);
        for (int i = 0; i < 24 * 16; i++)
            x[i] = rf16(i + 7);
        int differ = 0;
        for (int f = 0; f < 24; f++)
            for (int m = 0; m < 8; m++) {
                float acc = 0.0f, ch = 0.0f;
                for (int n = 0; n < 4; n++) {
                    double s = (double)acc;
                    for (int j = 0; j < 4; j++) {
                        double pr = (double)x[16 * f + 4 * n + j] * (double)wt[16 * m + 4 * n + j];
                        s += pr;
                        ch = ch + (float)pr;
                    }
                    acc = (float)s;
                }
                o[8 * f + m] = acc;
                oc_[8 * f + m] = ch;
                differ += acc != ch;
            }
        if (!differ) {
            fprintf(stderr, "conv1x1_f16: no element tells fused from chained sums\n");
            return 1;
        }
        put(dir, "w", wt, sizeof wt);
        put(dir, "a", x, sizeof x);
        put(dir, "want", o, sizeof o);
        put(dir, "want_chained", oc_, sizeof oc_);
    } else if (!strcmp(k, "conv1x1_f32")) {
        /* f32sisoamp: one product per phase; fused adds the exact product to the running
         * sum and rounds once (a fused multiply-add), chained rounds the product first */
        float x[24 * 8], wt[8 * 8], o[24 * 8], oc_[24 * 8];
        for (int i = 0; i < 8 * 8; i++)
            wt[i] = ldexpf((float)(rnd() % 0x1000000), (int)(rnd() % 9) - 28) * (rnd() & 1 ? -1.0f : 1.0f);
        for (int i = 0; i < 24 * 8; i++)
            x[i] = ldexpf((float)(rnd() % 0x1000000), (int)(rnd() % 9) - 28) * (rnd() & 1 ? -1.0f : 1.0f);
        int differ = 0;
        for (int f = 0; f < 24; f++)
            for (int m = 0; m < 8; m++) {
                float acc = 0.0f, ch = 0.0f;
                for (int c = 0; c < 8; c++) {
                    double pr = (double)x[8 * f + c] * (double)wt[8 * m + c];
                    acc = (float)((double)acc + pr);
                    ch = ch + (float)pr;
                }
                o[8 * f + m] = acc;
                oc_[8 * f + m] = ch;
                differ += acc != ch;
            }
        if (!differ) {
            fprintf(stderr, "conv1x1_f32: no element tells fused from chained sums\n");
            return 1;
        }
        put(dir, "w", wt, sizeof wt);
        put(dir, "a", x, sizeof x);
        put(dir, "want", o, sizeof o);
        put(dir, "want_chained", oc_, sizeof oc_);
    } else {
        fprintf(stderr, "programs_ref: unknown kernel %s\n", k);
        return 2;
    }
    return 0;
}
