/* frontends/view.c: the optional SDL2 window that shows an ISA's framebuffer while it runs.
 * The ISA exposes XRGB8888 pixels through isa_ops.framebuffer; the run loop calls
 * view_update every frame_period cycles and this file uploads them to a streaming texture
 * stretched over the window, so oddly shaped frames (MCCP's 1024 x 64) get a usable window.
 * Presenting is rate-limited to about 60 Hz in host time so a fast simulation is not slowed
 * by the display, and the last frame is shown again when the run ends. SDL2 is compiled
 * against (its headers give the types and constants) but not linked: view_open loads
 * libSDL2 with dlopen and takes the ~20 functions it calls into a table in the view, so
 * the ~45 shared objects SDL2 pulls in (X11, Wayland, PulseAudio...) cost only a run that
 * opens a window, not every run (about 10 M host instructions of dynamic loading, see
 * docs/performance.md). Without SDL at build time, without the library or without a
 * display at run time, view_open returns NULL (a missing library or function is reported)
 * and the run stays headless. Test hook: XPUSIM_VIEW_HOLD_MS=N keeps the window up N ms in
 * view_wait_close even without a terminal, so a test can take a screenshot. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

#ifdef XPUSIM_HAVE_SDL
#include <dlfcn.h>
#include <SDL.h>

#define VIEW_MIN_W 512   /* a frame narrower or lower than this is scaled up */
#define VIEW_MIN_H 384
#define VIEW_MAX_SCALE 16
#define VIEW_FRAME_MS 16 /* at most ~60 presents per second of host time */

/* The SDL functions the view calls, each a field named as the function and typed from
 * SDL's own declaration (so a call through the table is checked like a direct one). */
// clang-format off
#define VIEW_SDL_FUNCS(X)                                                                        \
    X(SDL_SetHint) X(SDL_InitSubSystem) X(SDL_QuitSubSystem) X(SDL_WasInit) X(SDL_Quit)          \
    X(SDL_GetError) X(SDL_CreateWindow) X(SDL_DestroyWindow) X(SDL_CreateRenderer)              \
    X(SDL_DestroyRenderer) X(SDL_CreateTexture) X(SDL_DestroyTexture) X(SDL_UpdateTexture)      \
    X(SDL_SetRenderDrawColor) X(SDL_RenderClear) X(SDL_RenderCopy) X(SDL_RenderPresent)         \
    X(SDL_GetTicks64) X(SDL_PollEvent) X(SDL_WaitEventTimeout)
// clang-format on

typedef struct view_sdl {
    void *lib; /* dlopen handle */
#define VIEW_SDL_FIELD(f) __typeof__(f) *f;
    VIEW_SDL_FUNCS(VIEW_SDL_FIELD)
#undef VIEW_SDL_FIELD
} view_sdl;

/* Open soname and fill t; 0, or -1 with the reason (naming the library) in err. RTLD_NODELETE:
 * SDL's dependencies (libdbus, the GL driver) may keep threads or exit handlers, so the code
 * stays mapped after dlclose; a second window finds it loaded. */
static int view_sdl_load(view_sdl *t, const char *soname, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!t->lib) {
        snprintf(err, errlen, "cannot load %s: %s", soname, dlerror());
        return -1;
    }
#define VIEW_SDL_SYM(f)                                                                          \
    if (!(t->f = (__typeof__(f) *)dlsym(t->lib, #f))) {                                          \
        snprintf(err, errlen, "%s has no %s (SDL 2.0.18 or later is needed)", soname, #f);       \
        dlclose(t->lib);                                                                         \
        t->lib = NULL;                                                                           \
        return -1;                                                                               \
    }
    VIEW_SDL_FUNCS(VIEW_SDL_SYM)
#undef VIEW_SDL_SYM
    return 0;
}

struct view {
    view_sdl sdl;
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Texture *tex;
    unsigned tw, th;            /* texture size */
    sim_machine *m;             /* outlives the window (the caller closes the view first) */
    isa_framebuffer last;       /* the machine's frame, valid while the machine lives */
    int have_last;
    uint64_t last_present;      /* SDL ticks of the last present */
    int closed;
};

static unsigned view_scale(unsigned size, unsigned min)
{
    unsigned s = size < min ? (min + size - 1) / size : 1;
    return s > VIEW_MAX_SCALE ? VIEW_MAX_SCALE : s;
}

static int view_texture(view *v, unsigned w, unsigned h)
{
    if (v->tex && v->tw == w && v->th == h)
        return 0;
    if (v->tex)
        v->sdl.SDL_DestroyTexture(v->tex);
    v->tex = v->sdl.SDL_CreateTexture(v->ren, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, (int)w, (int)h);
    v->tw = w;
    v->th = h;
    return v->tex ? 0 : -1;
}

view *view_open(sim_machine *m)
{
    return view_open_lib(m, VIEW_SDL_SONAME);
}

view *view_open_lib(sim_machine *m, const char *soname)
{
    isa_framebuffer fb;
    if (!m || !m->isa->framebuffer || m->isa->framebuffer(m, &fb) || !fb.width || !fb.height)
        return NULL;
    view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    char err[512];
    if (view_sdl_load(&v->sdl, soname, err, sizeof err)) {
        fprintf(stderr, "xpusim: no window (%s); running headless\n", err);
        free(v);
        return NULL;
    }
    const view_sdl *sdl = &v->sdl;
    /* leave Ctrl-C to the simulator (the debugger stops a run with it) */
    sdl->SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (sdl->SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        dlclose(v->sdl.lib);
        free(v);
        return NULL; /* no display: run headless, silently */
    }
    unsigned w = fb.width * view_scale(fb.width, VIEW_MIN_W), h = fb.height * view_scale(fb.height, VIEW_MIN_H);
    char title[96];
    snprintf(title, sizeof title, "xpusim: %s %ux%u", m->isa->name, fb.width, fb.height);
    v->win = sdl->SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, (int)w, (int)h,
                                   SDL_WINDOW_RESIZABLE);
    if (v->win)
        v->ren = sdl->SDL_CreateRenderer(v->win, -1, 0);
    if (v->ren)
        sdl->SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest"); /* keep pixels sharp when stretched */
    if (!v->ren || view_texture(v, fb.width, fb.height)) {
        fprintf(stderr, "xpusim: no window (%s); running headless\n", sdl->SDL_GetError());
        view_close(v);
        return NULL;
    }
    v->m = m;
    sdl->SDL_SetRenderDrawColor(v->ren, 0, 0, 0, 255);
    sdl->SDL_RenderClear(v->ren);
    sdl->SDL_RenderPresent(v->ren);
    return v;
}

static void view_present(view *v)
{
    if (!v->have_last)
        return;
    const isa_framebuffer *fb = &v->last;
    if (view_texture(v, fb->width, fb->height))
        return;
    v->sdl.SDL_UpdateTexture(v->tex, NULL, fb->pixels, (int)(fb->stride * 4));
    v->sdl.SDL_RenderClear(v->ren);
    v->sdl.SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
    v->sdl.SDL_RenderPresent(v->ren);
    v->last_present = v->sdl.SDL_GetTicks64();
}

/* Handle pending events; 1 when the user closed the window. */
static int view_poll(view *v, int key_closes)
{
    SDL_Event e;
    while (v->sdl.SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT ||
            (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE) ||
            (key_closes && e.type == SDL_KEYDOWN))
            v->closed = 1;
        else if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_EXPOSED)
            view_present(v);
    }
    return v->closed;
}

static void view_fetch(view *v, sim_machine *m)
{
    isa_framebuffer fb;
    if (m && m->isa->framebuffer && m->isa->framebuffer(m, &fb) == 0 && fb.pixels && fb.width && fb.height) {
        v->last = fb;
        v->have_last = 1;
    }
}

int view_update(view *v, sim_machine *m)
{
    if (!v)
        return 0;
    if (v->closed)
        return -1;
    uint64_t now = v->sdl.SDL_GetTicks64();
    if (v->have_last && now - v->last_present < VIEW_FRAME_MS)
        return 0; /* too soon: skip the frame (an ISA may build it on demand) and the poll */
    view_fetch(v, m);
    view_present(v);
    v->last_present = now;
    return view_poll(v, 0) ? -1 : 0;
}

void view_wait_close(view *v)
{
    if (!v)
        return;
    view_fetch(v, v->m); /* the final frame, which rate limiting may have skipped */
    view_present(v);
    const char *hold = getenv("XPUSIM_VIEW_HOLD_MS");
    long hold_ms = hold ? strtol(hold, NULL, 10) : 0;
    if (hold_ms <= 0 && (getenv("XPUSIM_NO_WAIT") || !isatty(STDIN_FILENO)))
        return;
    if (hold_ms <= 0)
        fprintf(stderr, "xpusim: close the window or press a key in it to exit\n");
    uint64_t end = v->sdl.SDL_GetTicks64() + (uint64_t)(hold_ms > 0 ? hold_ms : 0);
    while (!view_poll(v, hold_ms <= 0)) {
        if (hold_ms > 0 && v->sdl.SDL_GetTicks64() >= end)
            break;
        v->sdl.SDL_WaitEventTimeout(NULL, 50);
    }
}

void view_close(view *v)
{
    if (!v)
        return;
    view_sdl sdl = v->sdl; /* outlives v */
    if (v->tex)
        sdl.SDL_DestroyTexture(v->tex);
    if (v->ren)
        sdl.SDL_DestroyRenderer(v->ren);
    if (v->win)
        sdl.SDL_DestroyWindow(v->win);
    free(v);
    sdl.SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (!sdl.SDL_WasInit(SDL_INIT_EVERYTHING))
        sdl.SDL_Quit(); /* the last SDL user: also release what SDL shares (its D-Bus link) */
    dlclose(sdl.lib);   /* RTLD_NODELETE: only the reference count drops */
}

#else /* no SDL: headless only */

view *view_open(sim_machine *m)
{
    (void)m;
    return NULL;
}
view *view_open_lib(sim_machine *m, const char *soname)
{
    (void)m, (void)soname;
    return NULL;
}
int view_update(view *v, sim_machine *m)
{
    (void)v, (void)m;
    return 0;
}
void view_wait_close(view *v) { (void)v; }
void view_close(view *v) { (void)v; }

#endif
