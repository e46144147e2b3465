/* automesh_internal.h — the auto-mesher's steps: outline tracing (am_trace.c), simplification
 * and outline checks (am_outline.c), put together in automesh.c. */
#ifndef MF_AUTOMESH_INTERNAL_H
#define MF_AUTOMESH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mf/mf_base.h"

/* A closed outline: n points, the last joined to the first. */
typedef struct am_loop {
    int32_t n, cap;
    float *xy;
    double area; /* signed (shoelace, image frame) */
} am_loop;

typedef struct am_loops {
    am_loop *l;
    int32_t n, cap;
} am_loops;

mf_result am_loop_push(am_loop *l, float x, float y);
void am_loops_free(am_loops *ls);
double am_loop_area(const am_loop *l);

/* Marching squares over mask (1 = in) sampled at pixel centres, with an empty ring around
 * it: every outline lies within [0,w] x [0,h], no two touch, "in" is on a consistent side. */
mf_result am_trace(const uint8_t *mask, int32_t w, int32_t h, am_loops *out);

/* Douglas–Peucker on a closed loop (at least 3 points kept). tol < 0: copy. */
mf_result am_simplify(const am_loop *in, float tol, am_loop *out);
/* Splits segments longer than step into equal parts. */
mf_result am_subdivide(const am_loop *in, float step, am_loop *out);
/* True when two segments of the loops (not neighbours in one loop) touch or cross. */
bool am_loops_intersect(const am_loops *ls);
/* True when every pixel centre with mask != 0 is inside the loops (even-odd). */
bool am_loops_cover(const am_loops *ls, const uint8_t *mask, int32_t w, int32_t h);
/* Even-odd inside test and distance to the nearest loop segment. */
bool am_inside(const am_loops *ls, float x, float y);
float am_distance(const am_loops *ls, float x, float y);

#endif
