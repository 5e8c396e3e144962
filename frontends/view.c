/* frontends/view.c: the optional SDL2 window that shows an ISA's framebuffer while it runs.
 * The ISA exposes XRGB8888 pixels through isa_ops.framebuffer; the run loop calls
 * view_update every frame_period cycles and this file uploads them to a streaming texture
 * stretched over the window, so oddly shaped frames (MCCP's 1024 x 64) get a usable window.
 * Presenting is rate-limited to about 60 Hz in host time so a fast simulation is not slowed
 * by the display, and the last frame is shown again when the run ends. Without SDL at build
 * time, or without a display at run time, every function is a no-op (view_open returns NULL)
 * and runs stay headless. Test hook: XPUSIM_VIEW_HOLD_MS=N keeps the window up N ms in
 * view_wait_close even without a terminal, so a test can take a screenshot. */
#include <stdlib.h>
#include <unistd.h>
#include "cli.h"

#ifdef XPUSIM_HAVE_SDL
#include <SDL.h>

#define VIEW_MIN_W 512   /* a frame narrower or lower than this is scaled up */
#define VIEW_MIN_H 384
#define VIEW_MAX_SCALE 16
#define VIEW_FRAME_MS 16 /* at most ~60 presents per second of host time */

struct view {
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
        SDL_DestroyTexture(v->tex);
    v->tex = SDL_CreateTexture(v->ren, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, (int)w, (int)h);
    v->tw = w;
    v->th = h;
    return v->tex ? 0 : -1;
}

view *view_open(sim_machine *m)
{
    isa_framebuffer fb;
    if (!m || !m->isa->framebuffer || m->isa->framebuffer(m, &fb) || !fb.width || !fb.height)
        return NULL;
    /* leave Ctrl-C to the simulator (the debugger stops a run with it) */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0)
        return NULL; /* no display: run headless, silently */
    view *v = calloc(1, sizeof *v);
    if (!v) {
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return NULL;
    }
    unsigned w = fb.width * view_scale(fb.width, VIEW_MIN_W), h = fb.height * view_scale(fb.height, VIEW_MIN_H);
    char title[96];
    snprintf(title, sizeof title, "xpusim: %s %ux%u", m->isa->name, fb.width, fb.height);
    v->win = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, (int)w, (int)h,
                              SDL_WINDOW_RESIZABLE);
    if (v->win)
        v->ren = SDL_CreateRenderer(v->win, -1, 0);
    if (v->ren)
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest"); /* keep pixels sharp when stretched */
    if (!v->ren || view_texture(v, fb.width, fb.height)) {
        fprintf(stderr, "xpusim: no window (%s); running headless\n", SDL_GetError());
        view_close(v);
        return NULL;
    }
    v->m = m;
    SDL_SetRenderDrawColor(v->ren, 0, 0, 0, 255);
    SDL_RenderClear(v->ren);
    SDL_RenderPresent(v->ren);
    return v;
}

static void view_present(view *v)
{
    if (!v->have_last)
        return;
    const isa_framebuffer *fb = &v->last;
    if (view_texture(v, fb->width, fb->height))
        return;
    SDL_UpdateTexture(v->tex, NULL, fb->pixels, (int)(fb->stride * 4));
    SDL_RenderClear(v->ren);
    SDL_RenderCopy(v->ren, v->tex, NULL, NULL);
    SDL_RenderPresent(v->ren);
    v->last_present = SDL_GetTicks64();
}

/* Handle pending events; 1 when the user closed the window. */
static int view_poll(view *v, int key_closes)
{
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
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
    uint64_t now = SDL_GetTicks64();
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
    uint64_t end = SDL_GetTicks64() + (uint64_t)(hold_ms > 0 ? hold_ms : 0);
    while (!view_poll(v, hold_ms <= 0)) {
        if (hold_ms > 0 && SDL_GetTicks64() >= end)
            break;
        SDL_WaitEventTimeout(NULL, 50);
    }
}

void view_close(view *v)
{
    if (!v)
        return;
    if (v->tex)
        SDL_DestroyTexture(v->tex);
    if (v->ren)
        SDL_DestroyRenderer(v->ren);
    if (v->win)
        SDL_DestroyWindow(v->win);
    free(v);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    if (!SDL_WasInit(SDL_INIT_EVERYTHING))
        SDL_Quit(); /* the last SDL user: also release what SDL shares (its D-Bus link) */
}

#else /* no SDL: headless only */

view *view_open(sim_machine *m)
{
    (void)m;
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
