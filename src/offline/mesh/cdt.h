/* cdt.h — the triangulator's internal state: triangles with neighbours, shared by the point
 * insertion (cdt_insert.c), segment recovery (cdt_segment.c) and the public API
 * (triangulate.c). Edge i of a triangle is the one opposite vertex i; n[i] shares it. */
#ifndef MF_CDT_H
#define MF_CDT_H

#include <stdint.h>

#include "mf/mf_base.h"

typedef struct cdt_tri {
    int32_t v[3];
    int32_t n[3];    /* -1: none (outside the super triangle) */
    uint8_t con;     /* bit i: edge i is a constraint */
    uint8_t mark;
} cdt_tri;

typedef struct cdt {
    int32_t np;        /* real points; the super triangle's corners are np, np+1, np+2 */
    double *p;         /* 2 * (np + 3) */
    cdt_tri *t;
    int32_t nt, cap;
    int32_t *vt;       /* a live triangle touching each vertex, -1 before insertion */
    int32_t last;      /* where the next point location starts */
    uint32_t rot;      /* varies the first edge tried when walking */
    /* scratch stack for legalisation */
    int32_t *stack;
    int32_t stack_cap;
} cdt;

static inline int32_t cdt_next(int32_t i) { return i == 2 ? 0 : i + 1; }
static inline int32_t cdt_prev(int32_t i) { return i == 0 ? 2 : i - 1; }

double cdt_orient(const cdt *c, int32_t a, int32_t b, int32_t d);
double cdt_orient_pt(const cdt *c, int32_t a, int32_t b, double x, double y);
double cdt_incircle(const cdt *c, int32_t a, int32_t b, int32_t cc, int32_t d);

/* Sets up the super triangle around points already in c->p. */
mf_result cdt_init(cdt *c, int32_t np);
void cdt_destroy(cdt *c);

/* Inserts point i. *dup gets the vertex it coincides with, or -1. */
mf_result cdt_insert(cdt *c, int32_t i, int32_t *dup);

/* Flips edge i of triangle t (its neighbour must exist). */
void cdt_flip(cdt *c, int32_t t, int32_t i);
int32_t cdt_index_of(const cdt_tri *t, int32_t v);
/* Finds the triangle and edge index of edge (u, w) in either direction; false when absent. */
bool cdt_find_edge(const cdt *c, int32_t u, int32_t w, int32_t *t, int32_t *i);

/* Recovers segment (a, b) as a chain of constrained edges. On a crossing with an earlier
 * constraint, *cross_u / *cross_w get that edge and MF_ERR_INVALID is returned. */
mf_result cdt_segment(cdt *c, int32_t a, int32_t b, int32_t *cross_u, int32_t *cross_w);

#endif
