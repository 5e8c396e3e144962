/* tests/cli/test_debugger_view.c: the window API contract of frontends/view.c, without an X
 * server: SDL's "dummy" video driver gives a real SDL window and renderer that draw
 * nowhere, and an impossible driver stands for "no display". A one-unit test ISA exposes
 * (or refuses) a framebuffer. Checked: no framebuffer or no display gives NULL quietly,
 * NULL views are accepted everywhere, updates succeed (also when called faster than the
 * ~60 Hz refresh), view_wait_close returns at once without a terminal or with
 * XPUSIM_NO_WAIT, and XPUSIM_VIEW_HOLD_MS holds the window for that long; a library that
 * cannot be loaded gives NULL and one line on stderr naming it with dlerror's reason. What
 * the window shows is checked on a real X server by tests/cli/view.t.sh; that runs without a
 * window do not load SDL2, by tests/cli/sdl_load.t.sh. */
#include "../testlib.h"
#include <time.h>
#include <unistd.h>
#include "../../frontends/cli.h"

static uint32_t fb_pixels[64 * 16];

static int vt_create(sim_machine *m, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sim_add_units(m, 1, 1, "vt%d", 1e6);
}
static uint64_t vt_run(sim_machine *m, sim_unit *u, uint64_t now, uint64_t horizon)
{
    (void)m, (void)u, (void)horizon;
    return now;
}
static int vt_fb(sim_machine *m, isa_framebuffer *fb)
{
    (void)m;
    *fb = (isa_framebuffer){fb_pixels, 64, 16, 64};
    return 0;
}
static int vt_no_fb(sim_machine *m, isa_framebuffer *fb)
{
    (void)m, (void)fb;
    return -1;
}

static const isa_ops vt_isa = {.name = "vt", .create = vt_create, .unit_run = vt_run, .framebuffer = vt_fb};
static const isa_ops vt_isa_nofb = {.name = "vt", .create = vt_create, .unit_run = vt_run, .framebuffer = vt_no_fb};
static const isa_ops vt_isa_nohook = {.name = "vt", .create = vt_create, .unit_run = vt_run};

#ifdef XPUSIM_HAVE_SDL /* only the window tests time anything */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

static void make(sim_machine *m, const isa_ops *isa)
{
    char err[128];
    assert_int_equal(sim_create(m, isa, NULL, err, sizeof err), 0);
}

static void test_no_framebuffer(void **state)
{
    (void)state;
    sim_machine m;
    make(&m, &vt_isa_nohook);
    assert_null(view_open(&m));
    sim_destroy(&m);
    make(&m, &vt_isa_nofb);
    assert_null(view_open(&m));
    sim_destroy(&m);
    /* a NULL view is what every caller holds when headless */
    assert_int_equal(view_update(NULL, &m), 0);
    view_wait_close(NULL);
    view_close(NULL);
}

static void test_no_display(void **state)
{
    (void)state;
    setenv("SDL_VIDEODRIVER", "no-such-driver", 1);
    sim_machine m;
    make(&m, &vt_isa);
    assert_null(view_open(&m)); /* SDL cannot start video: headless, no error */
    sim_destroy(&m);
}

static void test_dummy_window(void **state)
{
    (void)state;
#ifdef XPUSIM_HAVE_SDL
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    unsetenv("XPUSIM_VIEW_HOLD_MS");
    sim_machine m;
    make(&m, &vt_isa);
    view *v = view_open(&m);
    if (!v)
        fail_msg("view_open with SDL's dummy driver returned NULL");
    for (int i = 0; i < 1000; i++) { /* far faster than the refresh: most are skipped */
        fb_pixels[i % (64 * 16)] = 0x00ff00u;
        assert_int_equal(view_update(v, &m), 0);
    }
    setenv("XPUSIM_NO_WAIT", "1", 1);
    double t0 = now_s();
    view_wait_close(v);
    assert_true(now_s() - t0 < 1.0);
    unsetenv("XPUSIM_NO_WAIT");
    setenv("XPUSIM_VIEW_HOLD_MS", "300", 1);
    t0 = now_s();
    view_wait_close(v);
    double held = now_s() - t0;
    unsetenv("XPUSIM_VIEW_HOLD_MS");
    if (held < 0.29 || held > 5.0) /* SDL counts whole milliseconds: allow one short */
        fail_msg("XPUSIM_VIEW_HOLD_MS=300 held the window %.3f s", held);
    view_close(v);
    /* a second window after the first is closed (SDL video is re-initialised) */
    v = view_open(&m);
    assert_non_null(v);
    assert_int_equal(view_update(v, &m), 0);
    view_close(v);
    sim_destroy(&m);
#else
    skip();
#endif
}

/* The library is loaded by view_open: one that does not exist leaves the run headless with
 * the reason on stderr (the soname and dlopen's "cannot open shared object file"). */
static void test_missing_library(void **state)
{
    (void)state;
#ifdef XPUSIM_HAVE_SDL
    setenv("SDL_VIDEODRIVER", "dummy", 1); /* with the real library this would open a window */
    sim_machine m;
    make(&m, &vt_isa);
    FILE *log = tmpfile();
    assert_non_null(log);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0 && dup2(fileno(log), STDERR_FILENO) >= 0);
    view *v = view_open_lib(&m, "libxpusim-no-such-sdl.so.0");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    assert_null(v);
    char text[600] = "";
    rewind(log);
    size_t n = fread(text, 1, sizeof text - 1, log);
    text[n] = 0;
    fclose(log);
    if (!strstr(text, "xpusim: no window (cannot load libxpusim-no-such-sdl.so.0: ") ||
        !strstr(text, "cannot open shared object file") || !strstr(text, "running headless\n"))
        fail_msg("stderr was: %s", text);
    /* the real one still opens (the failed load left nothing behind) */
    v = view_open(&m);
    assert_non_null(v);
    view_close(v);
    sim_destroy(&m);
#else
    skip();
#endif
}

XPUSIM_TESTS(view, cmocka_unit_test(test_no_framebuffer), cmocka_unit_test(test_no_display),
             cmocka_unit_test(test_dummy_window), cmocka_unit_test(test_missing_library))
