/* Internal to the .manim reader: one timeline object. */
#ifndef MF_FORMAT_MANIM_READ_H
#define MF_FORMAT_MANIM_READ_H
#include "clip_internal.h"
#include "util/jread.h"

/* Reads the timeline object at the reader's current path into tl (kind, target, skin and
 * attachment already set): times, values, curves, all checked. */
bool mf_manim_read_timeline(mf_jr *r, mf_clip *c, const cJSON *obj, mf_timeline *tl);
/* Fails with `unknown WHAT "got" (did you mean …?)` or the list of valid names. */
bool mf_manim_fail_enum(mf_jr *r, const char *what, const char *got, const char *const *names);
#endif
