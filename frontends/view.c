/* frontends/view.c: placeholder until the SDL2 window lands; no window is shown. */
#include "cli.h"
view *view_open(sim_machine *m) { (void)m; return NULL; }
int view_update(view *v, sim_machine *m) { (void)v; (void)m; return 0; }
void view_wait_close(view *v) { (void)v; }
void view_close(view *v) { (void)v; }
