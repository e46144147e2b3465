/* cdt_insert.c — incremental Delaunay insertion: walk to the point, split the triangle (or the
 * edge it lies on) and restore the empty-circle property with edge flips (Lawson). */
#include <stdlib.h>
#include <string.h>

#include "cdt.h"

double cdt_orient_pt(const cdt *c, int32_t a, int32_t b, double x, double y)
{
    const double *pa = c->p + 2 * a, *pb = c->p + 2 * b;
    return (pb[0] - pa[0]) * (y - pa[1]) - (pb[1] - pa[1]) * (x - pa[0]);
}

double cdt_orient(const cdt *c, int32_t a, int32_t b, int32_t d)
{
    return cdt_orient_pt(c, a, b, c->p[2 * d], c->p[2 * d + 1]);
}

/* > 0 when d lies inside the circle through the counter-clockwise triangle (a, b, cc). */
double cdt_incircle(const cdt *c, int32_t a, int32_t b, int32_t cc, int32_t d)
{
    const double *pd = c->p + 2 * d;
    double ax = c->p[2 * a] - pd[0], ay = c->p[2 * a + 1] - pd[1];
    double bx = c->p[2 * b] - pd[0], by = c->p[2 * b + 1] - pd[1];
    double cx = c->p[2 * cc] - pd[0], cy = c->p[2 * cc + 1] - pd[1];
    double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    return ax * (by * c2 - b2 * cy) - ay * (bx * c2 - b2 * cx) + a2 * (bx * cy - by * cx);
}

int32_t cdt_index_of(const cdt_tri *t, int32_t v)
{
    return t->v[0] == v ? 0 : t->v[1] == v ? 1 : t->v[2] == v ? 2 : -1;
}

static int32_t nb_index(const cdt_tri *t, int32_t other)
{
    return t->n[0] == other ? 0 : t->n[1] == other ? 1 : t->n[2] == other ? 2 : -1;
}

static void set_tri(cdt *c, int32_t t, int32_t a, int32_t b, int32_t d, int32_t na, int32_t nb,
                    int32_t nd, int ca, int cb, int cd)
{
    cdt_tri *x = &c->t[t];
    x->v[0] = a, x->v[1] = b, x->v[2] = d;
    x->n[0] = na, x->n[1] = nb, x->n[2] = nd;
    x->con = (uint8_t)((ca ? 1 : 0) | (cb ? 2 : 0) | (cd ? 4 : 0));
    c->vt[a] = c->vt[b] = c->vt[d] = t;
}

/* Neighbour `nbr` pointed at `from`; make it point at `to`. */
static void relink(cdt *c, int32_t nbr, int32_t from, int32_t to)
{
    if (nbr < 0) return;
    int32_t k = nb_index(&c->t[nbr], from);
    if (k >= 0) c->t[nbr].n[k] = to;
}

static int con_bit(const cdt_tri *t, int32_t i) { return (t->con >> i) & 1; }

void cdt_flip(cdt *c, int32_t t, int32_t i)
{
    int32_t u = c->t[t].n[i];
    cdt_tri T = c->t[t], U = c->t[u];
    int32_t j = nb_index(&U, t);
    int32_t a = T.v[i], b = T.v[cdt_next(i)], cc = T.v[cdt_prev(i)], d = U.v[j];
    int32_t A1 = T.n[cdt_next(i)], A2 = T.n[cdt_prev(i)];
    int32_t B1 = U.n[cdt_next(j)], B2 = U.n[cdt_prev(j)];
    int cA1 = con_bit(&T, cdt_next(i)), cA2 = con_bit(&T, cdt_prev(i));
    int cB1 = con_bit(&U, cdt_next(j)), cB2 = con_bit(&U, cdt_prev(j));
    set_tri(c, t, a, b, d, B1, u, A2, cB1, 0, cA2);
    set_tri(c, u, a, d, cc, B2, A1, t, cB2, cA1, 0);
    relink(c, B1, u, t);
    relink(c, A1, t, u);
}

static mf_result push(cdt *c, int32_t *top, int32_t t, int32_t i)
{
    if (*top + 2 > c->stack_cap) {
        int32_t cap = c->stack_cap ? c->stack_cap * 2 : 256;
        int32_t *s = realloc(c->stack, (size_t)cap * sizeof *s);
        if (!s) return MF_ERR_NOMEM;
        c->stack = s, c->stack_cap = cap;
    }
    c->stack[(*top)++] = t;
    c->stack[(*top)++] = i;
    return MF_OK;
}

/* Flips edges opposite the new point p until every one is locally Delaunay. */
static mf_result legalize(cdt *c, int32_t top)
{
    /* Each flip strictly improves the triangulation, so this ends; the cap only guards
     * against rounding making the predicate inconsistent. */
    int64_t budget = 64 + 32 * (int64_t)c->nt;
    while (top > 0) {
        int32_t i = c->stack[--top], t = c->stack[--top];
        int32_t u = c->t[t].n[i];
        if (u < 0 || con_bit(&c->t[t], i)) continue;
        int32_t j = nb_index(&c->t[u], t);
        if (j < 0) continue;
        int32_t d = c->t[u].v[j];
        const cdt_tri *T = &c->t[t];
        if (cdt_incircle(c, T->v[0], T->v[1], T->v[2], d) <= 0) continue;
        if (--budget < 0) return MF_OK;
        int32_t p = T->v[i];
        cdt_flip(c, t, i);
        /* After the flip both triangles start with p; their edge 0 is the new outer edge. */
        (void)p;
        mf_result r = push(c, &top, t, 0);
        if (r == MF_OK) r = push(c, &top, u, 0);
        if (r != MF_OK) return r;
    }
    return MF_OK;
}

/* Walks from c->last towards (x, y). Returns the triangle containing it, -1 on failure. */
static int32_t locate(cdt *c, double x, double y)
{
    int32_t t = c->last;
    if (t < 0 || t >= c->nt) t = 0;
    int64_t steps = 0, limit = 4 * (int64_t)c->nt + 64;
    for (;;) {
        const cdt_tri *T = &c->t[t];
        int32_t r = (int32_t)(c->rot++ % 3u), moved = -1;
        for (int32_t k = 0; k < 3; k++) {
            int32_t e = (r + k) % 3;
            if (cdt_orient_pt(c, T->v[cdt_next(e)], T->v[cdt_prev(e)], x, y) < 0) {
                moved = T->n[e];
                break;
            }
        }
        if (moved == -2 || moved == -1) {
            /* moved < 0 with an edge failing means the point is outside the super triangle */
            int32_t fail = 0;
            for (int32_t e = 0; e < 3; e++)
                if (cdt_orient_pt(c, T->v[cdt_next(e)], T->v[cdt_prev(e)], x, y) < 0) fail = 1;
            if (!fail) return t;
            break;
        }
        t = moved;
        if (++steps > limit) break;
    }
    /* Rounding made the walk cycle: scan. */
    for (int32_t t2 = 0; t2 < c->nt; t2++) {
        const cdt_tri *T = &c->t[t2];
        int ok = 1;
        for (int32_t e = 0; e < 3 && ok; e++)
            if (cdt_orient_pt(c, T->v[cdt_next(e)], T->v[cdt_prev(e)], x, y) < 0) ok = 0;
        if (ok) return t2;
    }
    return -1;
}

static void insert_in_triangle(cdt *c, int32_t t, int32_t p, int32_t *top)
{
    cdt_tri T = c->t[t];
    int32_t a = T.v[0], b = T.v[1], d = T.v[2];
    int32_t t1 = c->nt++, t2 = c->nt++;
    set_tri(c, t, a, b, p, t1, t2, T.n[2], 0, 0, con_bit(&T, 2));
    set_tri(c, t1, b, d, p, t2, t, T.n[0], 0, 0, con_bit(&T, 0));
    set_tri(c, t2, d, a, p, t, t1, T.n[1], 0, 0, con_bit(&T, 1));
    relink(c, T.n[0], t, t1);
    relink(c, T.n[1], t, t2);
    c->stack[(*top)++] = t, c->stack[(*top)++] = 2;
    c->stack[(*top)++] = t1, c->stack[(*top)++] = 2;
    c->stack[(*top)++] = t2, c->stack[(*top)++] = 2;
    c->last = t;
}

static void insert_on_edge(cdt *c, int32_t t, int32_t i, int32_t p, int32_t *top)
{
    int32_t u = c->t[t].n[i];
    cdt_tri T = c->t[t], U = c->t[u];
    int32_t j = nb_index(&U, t);
    int32_t a = T.v[i], b = T.v[cdt_next(i)], cc = T.v[cdt_prev(i)], d = U.v[j];
    int32_t Ab = T.n[cdt_next(i)], Ac = T.n[cdt_prev(i)];
    int32_t Bc = U.n[cdt_next(j)], Bb = U.n[cdt_prev(j)];
    int cAb = con_bit(&T, cdt_next(i)), cAc = con_bit(&T, cdt_prev(i));
    int cBc = con_bit(&U, cdt_next(j)), cBb = con_bit(&U, cdt_prev(j));
    int cbc = con_bit(&T, i);
    int32_t t2 = c->nt++, t4 = c->nt++;
    set_tri(c, t, a, b, p, t4, t2, Ac, cbc, 0, cAc);
    set_tri(c, t2, a, p, cc, u, Ab, t, cbc, cAb, 0);
    set_tri(c, u, d, cc, p, t2, t4, Bb, cbc, 0, cBb);
    set_tri(c, t4, d, p, b, t, Bc, u, cbc, cBc, 0);
    relink(c, Ab, t, t2);
    relink(c, Bc, u, t4);
    c->stack[(*top)++] = t, c->stack[(*top)++] = 2;
    c->stack[(*top)++] = t2, c->stack[(*top)++] = 1;
    c->stack[(*top)++] = u, c->stack[(*top)++] = 2;
    c->stack[(*top)++] = t4, c->stack[(*top)++] = 1;
    c->last = t;
}

mf_result cdt_insert(cdt *c, int32_t i, int32_t *dup)
{
    *dup = -1;
    double x = c->p[2 * i], y = c->p[2 * i + 1];
    int32_t t = locate(c, x, y);
    if (t < 0) return MF_ERR_INVALID;
    const cdt_tri *T = &c->t[t];
    for (int32_t k = 0; k < 3; k++) {
        int32_t v = T->v[k];
        if (c->p[2 * v] == x && c->p[2 * v + 1] == y) {
            *dup = v;
            c->last = t;
            return MF_OK;
        }
    }
    int32_t zero = -1, zeros = 0;
    for (int32_t e = 0; e < 3; e++)
        if (cdt_orient_pt(c, T->v[cdt_next(e)], T->v[cdt_prev(e)], x, y) == 0) zero = e, zeros++;
    if (c->stack_cap < 16) {
        int32_t top0 = 0;
        mf_result r = push(c, &top0, 0, 0);
        if (r != MF_OK) return r;
    }
    if (c->nt + 2 > c->cap) return MF_ERR_INVALID;
    int32_t top = 0;
    if (zeros == 1 && T->n[zero] >= 0) {
        insert_on_edge(c, t, zero, i, &top);
    } else if (zeros == 0) {
        insert_in_triangle(c, t, i, &top);
    } else {
        /* On two edges at once but equal to no corner: only rounding does that. Treat the
         * point as the nearest corner's duplicate. */
        int32_t best = T->v[0];
        double bd = 1e300;
        for (int32_t k = 0; k < 3; k++) {
            int32_t v = T->v[k];
            double dx = c->p[2 * v] - x, dy = c->p[2 * v + 1] - y, dd = dx * dx + dy * dy;
            if (dd < bd) bd = dd, best = v;
        }
        *dup = best;
        return MF_OK;
    }
    return legalize(c, top);
}

mf_result cdt_init(cdt *c, int32_t np)
{
    c->np = np;
    c->cap = 2 * np + 8;
    c->t = calloc((size_t)c->cap, sizeof *c->t);
    c->vt = malloc((size_t)(np + 3) * sizeof *c->vt);
    if (!c->t || !c->vt) return MF_ERR_NOMEM;
    for (int32_t i = 0; i < np + 3; i++) c->vt[i] = -1;
    double minx = 1e300, miny = 1e300, maxx = -1e300, maxy = -1e300;
    for (int32_t i = 0; i < np; i++) {
        double x = c->p[2 * i], y = c->p[2 * i + 1];
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
    }
    if (np == 0) minx = miny = maxx = maxy = 0;
    double cx = (minx + maxx) / 2, cy = (miny + maxy) / 2;
    double m = maxx - minx > maxy - miny ? maxx - minx : maxy - miny;
    if (m <= 0) m = 1;
    m *= 64;
    double *s = c->p + 2 * np;
    s[0] = cx - 3 * m, s[1] = cy - 3 * m;
    s[2] = cx + 3 * m, s[3] = cy - 3 * m;
    s[4] = cx, s[5] = cy + 3 * m;
    c->nt = 1;
    set_tri(c, 0, np, np + 1, np + 2, -1, -1, -1, 0, 0, 0);
    c->last = 0;
    return MF_OK;
}

void cdt_destroy(cdt *c)
{
    free(c->t);
    free(c->vt);
    free(c->stack);
    c->t = NULL, c->vt = NULL, c->stack = NULL;
}
