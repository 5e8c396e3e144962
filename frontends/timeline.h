/* frontends/timeline.h: `--timeline FILE.json` (timeline.c). */
#ifndef XPUSIM_TIMELINE_H
#define XPUSIM_TIMELINE_H
#include <stddef.h>
#include "../core/sim.h"

typedef struct timeline timeline;

/* Start recording the run into path: what falls in cycles [from, to), with each unit's
 * counters sampled every `every` cycles. NULL with err set. */
timeline *timeline_open(sim_machine *m, const char *path, uint64_t from, uint64_t to, uint64_t every, char *err,
                        size_t errlen);
/* Close every thread's last slice, write the stop and finish the file; frees t. 0 ok, -1
 * with err set (the file could not be written). */
int timeline_close(timeline *t, char *err, size_t errlen);
/* Free without finishing (after a failed set-up). */
void timeline_discard(timeline *t);

#endif
