/* tests/unit/test_stats.c: the statistics writers (core/stats.c) on runs of the fake ISA of
 * fake_isa.h whose numbers are derived by hand: the JSON report must be valid JSON (checked
 * by a minimal reader below) with the documented keys (cycles, instructions,
 * units[].cycles/instructions/halted_at/counters/threads[].stalls, host{seconds, mips,
 * mcycles_per_s}), stop messages escaped, and the text report must carry the same numbers. */
#include "../testlib.h"
#include "fake_isa.h"

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

static char *text_stats(const sim_machine *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    stats_write_text(m, f);
    fclose(f);
    return buf;
}


/* Minimal JSON reader: skips one value, returns the character after it or NULL if the text
 * is not valid JSON. Enough to validate the whole document and to walk to members. */
static const char *js_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}
static const char *js_skip(const char *p);
static const char *js_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (; *p && *p != '"'; p++)
        if (*p == '\\' && !*++p)
            return NULL;
    return *p == '"' ? p + 1 : NULL;
}
static const char *js_skip(const char *p)
{
    p = js_ws(p);
    if (*p == '"')
        return js_string(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = js_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                p = js_string(js_ws(p));
                if (!p || *(p = js_ws(p)) != ':')
                    return NULL;
                p++;
            }
            if (!(p = js_skip(p)))
                return NULL;
            p = js_ws(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
        }
    }
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
        return p + 4;
    if (!strncmp(p, "false", 5))
        return p + 5;
    char *end;
    strtod(p, &end);
    return end == p ? NULL : end;
}
/* Value of member KEY of the object at p (not nested deeper), or NULL. */
static const char *js_member(const char *p, const char *key)
{
    p = js_ws(p);
    if (*p != '{')
        return NULL;
    p = js_ws(p + 1);
    size_t kl = strlen(key);
    while (*p == '"') {
        const char *k = p + 1, *after = js_string(p);
        if (!after)
            return NULL;
        p = js_ws(after);
        if (*p++ != ':')
            return NULL;
        p = js_ws(p);
        if ((size_t)(after - 1 - k) == kl && !strncmp(k, key, kl))
            return p;
        if (!(p = js_skip(p)))
            return NULL;
        p = js_ws(p);
        if (*p == ',')
            p = js_ws(p + 1);
    }
    return NULL;
}
static const char *js_index(const char *p, int i)
{
    p = js_ws(p);
    if (*p != '[')
        return NULL;
    p = js_ws(p + 1);
    for (int k = 0; k < i; k++) {
        if (!(p = js_skip(p)))
            return NULL;
        p = js_ws(p);
        if (*p++ != ',')
            return NULL;
    }
    return *js_ws(p) == ']' ? NULL : js_ws(p);
}
static const char *js_path_num_at(const char *p, const char *key, double *v)
{
    const char *x = js_member(p, key);
    if (!x)
        return NULL;
    char *end;
    *v = strtod(x, &end);
    return end == x ? NULL : x;
}
static uint64_t js_u64(const char *obj, const char *key)
{
    double v = -1;
    if (!js_path_num_at(obj, key, &v))
        fail_msg("JSON: no numeric member \"%s\"", key);
    return (uint64_t)v;
}

static void test_stats_json(void **state)
{
    (void)state;
    sim_machine m;
    /* 2 units x 3 threads x 10 instructions, latency 4 (n < L): thread i issues at i + 4k,
     * halts at i + 36 + 1; units halt at 39; 60 instructions; wait stalls of thread i = i. */
    fake_make(&m, &fake_isa, KV("units=2", "threads=3", "insns=10", "lat=4"));
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    fclose(f);
    const char *end = js_skip(buf);
    if (!end || *js_ws(end))
        fail_msg("stats JSON is not one valid JSON value:\n%s", buf);
    assert_int_equal(js_u64(buf, "cycles"), 39);
    assert_int_equal(js_u64(buf, "instructions"), 60);
    const char *units = js_member(buf, "units");
    assert_non_null(units);
    for (int u = 0; u < 2; u++) {
        const char *uo = js_index(units, u);
        assert_non_null(uo);
        assert_int_equal(js_u64(uo, "cycles"), 39);
        assert_int_equal(js_u64(uo, "instructions"), 30);
        assert_int_equal(js_u64(uo, "halted_at"), 39);
        const char *ths = js_member(uo, "threads");
        assert_non_null(ths);
        for (int t = 0; t < 3; t++) {
            const char *to = js_index(ths, t);
            assert_non_null(to);
            assert_int_equal(js_u64(to, "instructions"), 10);
            assert_int_equal(js_u64(to, "halted_at"), (uint64_t)t + 37);
            assert_int_equal(js_u64(to, "cycles"), (uint64_t)t + 37);
            const char *st = js_member(to, "stalls");
            assert_non_null(st);
            assert_int_equal(js_u64(st, "wait"), (uint64_t)t);
            assert_int_equal(js_u64(st, "other"), 0);
        }
        assert_null(js_index(ths, 3));
    }
    assert_null(js_index(units, 2));
    const char *host = js_member(buf, "host");
    assert_non_null(host);
    double v;
    assert_non_null(js_path_num_at(host, "seconds", &v));
    assert_true(v >= 0);
    assert_non_null(js_path_num_at(host, "mips", &v));
    assert_true(v >= 0);
    assert_non_null(js_path_num_at(host, "mcycles_per_s", &v));
    assert_true(v >= 0);
    assert_null(strstr(host, "\"xpusim\"")); /* no build named when the front end set none */
    free(buf);
    sim_destroy(&m);
}

static void test_stats_json_running_units(void **state)
{
    (void)state;
    sim_machine m;
    /* stopped by the limit at 20 with nothing halted: halted_at must be null (still valid
     * JSON) and the cycle count the limit; 1 thread latency 1 -> 21 instructions (0..20) */
    fake_make(&m, &fake_isa, KV("threads=1", "insns=100"));
    assert_int_equal(sim_run(&m, 20), SIM_STOP_LIMIT);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    fclose(f);
    const char *end = js_skip(buf);
    if (!end || *js_ws(end))
        fail_msg("stats JSON is not one valid JSON value:\n%s", buf);
    assert_int_equal(js_u64(buf, "instructions"), 21);
    assert_int_equal(js_u64(buf, "cycles"), 20);
    const char *uo = js_index(js_member(buf, "units"), 0);
    const char *h = js_member(uo, "halted_at");
    assert_non_null(h);
    assert_memory_equal(h, "null", 4);
    free(buf);
    sim_destroy(&m);
}

static void test_stats_json_escapes_stop_message(void **state)
{
    (void)state;
    sim_machine m;
    /* a fault message with quotes, a backslash and control characters: the JSON stays valid
     * and the stop object names the kind, unit and thread */
    fake_make(&m, &fake_isa, KV("units=2", "insns=10"));
    assert_int_equal(sim_run(&m, 3), SIM_STOP_LIMIT);
    m.stop.kind = SIM_STOP_NONE;
    sim_set_stop(&m, SIM_STOP_FAULT, 1, 0, 0x1234, "bad \"quote\" back\\slash\nnew\tline\x01");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    fclose(f);
    const char *end = js_skip(buf);
    if (!end || *js_ws(end))
        fail_msg("stats JSON is not one valid JSON value:\n%s", buf);
    for (const char *p = buf; *p; p++)
        assert_true((unsigned char)*p >= 0x20 || *p == '\n'); /* raw control characters only as layout */
    const char *stop = js_member(buf, "stop");
    assert_non_null(stop);
    const char *kind = js_member(stop, "kind");
    assert_non_null(kind);
    assert_memory_equal(kind, "\"fault\"", 7);
    assert_int_equal(js_u64(stop, "unit"), 1);
    assert_int_equal(js_u64(stop, "thread"), 0);
    const char *msg = js_member(stop, "message");
    assert_non_null(msg);
    assert_memory_equal(msg, "\"bad \\\"quote\\\" back\\\\slash", 24);
    free(buf);
    sim_destroy(&m);
}

static void test_counters_and_text_stats(void **state)
{
    (void)state;
    sim_machine m;
    /* same run as the JSON test: 2 units x 3 threads x 10, latency 4: end 39, 60 insns */
    fake_make(&m, &fake_isa, KV("units=2", "threads=3", "insns=10", "lat=4"));
    static const char *const names[] = {"dma_bytes", "misses"};
    assert_int_equal(sim_unit_counters(&m.units[1], names, 2), 0);
    m.units[1].counters[0].value = 4096;
    m.units[1].counters[1].value = 7;
    assert_int_equal(sim_run(&m, SIM_NEVER), SIM_STOP_HALT);
    char *txt = text_stats(&m);
    assert_non_null(strstr(txt, "cycles: 39"));
    assert_non_null(strstr(txt, "instructions: 60"));
    assert_non_null(strstr(txt, "fake0: cycles 39, instructions 30"));
    assert_non_null(strstr(txt, "dma_bytes: 4096"));
    assert_non_null(strstr(txt, "misses: 7"));
    /* thread 2: halted at 2 + 36 + 1 = 39, waited 2 cycles for its first issue */
    assert_non_null(strstr(txt, "thread 2: cycles 39, instructions 10, issue cycles 10, halted at 39, stall wait 2"));
    free(txt);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(&m, f);
    fclose(f);
    const char *c1 = js_member(js_index(js_member(buf, "units"), 1), "counters");
    assert_non_null(c1);
    assert_int_equal(js_u64(c1, "dma_bytes"), 4096);
    assert_int_equal(js_u64(c1, "misses"), 7);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    stats_write_speed(&m, f);
    fclose(f);
    assert_non_null(strstr(buf, "MIPS"));
    assert_non_null(strstr(buf, "Mcycles/s"));
    free(buf);
    sim_destroy(&m);
}

XPUSIM_TESTS(stats,
             cmocka_unit_test(test_stats_json),
             cmocka_unit_test(test_stats_json_running_units),
             cmocka_unit_test(test_stats_json_escapes_stop_message),
             cmocka_unit_test(test_counters_and_text_stats))
