/* cdt_segment.c — segment recovery: the edges a segment crosses are flipped until it appears
 * (Sloan's method), then the new edges are flipped back towards Delaunay, leaving the segment
 * and other constraints alone. A point lying on the segment splits it in two. */
#include <stdlib.h>
#include <string.h>

#include "cdt.h"

bool cdt_find_edge(const cdt *c, int32_t u, int32_t w, int32_t *t_out, int32_t *i_out)
{
    int32_t start = c->vt[u];
    if (start < 0) return false;
    int32_t t = start;
    for (int32_t steps = 0; steps <= c->nt; steps++) {
        const cdt_tri *T = &c->t[t];
        int32_t k = cdt_index_of(T, u);
        if (k < 0) return false;
        if (T->v[cdt_next(k)] == w) {
            *t_out = t, *i_out = cdt_prev(k);
            return true;
        }
        if (T->v[cdt_prev(k)] == w) {
            *t_out = t, *i_out = cdt_next(k);
            return true;
        }
        /* Turn around u across the edge (u, v[k+1]). */
        t = T->n[cdt_prev(k)];
        if (t < 0 || t == start) return false;
    }
    return false;
}

typedef struct edge_list {
    int32_t *e; /* pairs */
    int32_t n, cap;
} edge_list;

static mf_result el_push(edge_list *l, int32_t u, int32_t w)
{
    if (l->n + 1 > l->cap) {
        int32_t cap = l->cap ? l->cap * 2 : 32;
        int32_t *e = realloc(l->e, (size_t)cap * 2 * sizeof *e);
        if (!e) return MF_ERR_NOMEM;
        l->e = e, l->cap = cap;
    }
    l->e[2 * l->n] = u, l->e[2 * l->n + 1] = w;
    l->n++;
    return MF_OK;
}

static void mark_constraint(cdt *c, int32_t u, int32_t w)
{
    int32_t t, i;
    if (!cdt_find_edge(c, u, w, &t, &i)) return;
    c->t[t].con |= (uint8_t)(1u << i);
    int32_t nb = c->t[t].n[i];
    if (nb >= 0)
        for (int32_t k = 0; k < 3; k++)
            if (c->t[nb].n[k] == t) c->t[nb].con |= (uint8_t)(1u << k);
}

static double dot_dir(const cdt *c, int32_t a, int32_t b, int32_t x)
{
    const double *pa = c->p + 2 * a, *pb = c->p + 2 * b, *px = c->p + 2 * x;
    return (pb[0] - pa[0]) * (px[0] - pa[0]) + (pb[1] - pa[1]) * (px[1] - pa[1]);
}

enum { WALK_DONE, WALK_SPLIT, WALK_CROSS, WALK_FAIL };

/* Collects the edges that segment (a, b) crosses, left vertex first. Returns WALK_SPLIT with
 * *split set when a vertex lies on the segment, WALK_CROSS when it crosses a constraint. */
static int walk(cdt *c, int32_t a, int32_t b, edge_list *out, int32_t *split, int32_t *cu,
                int32_t *cw)
{
    int32_t start = c->vt[a], t = start, L = -1, R = -1;
    for (int32_t steps = 0;; steps++) {
        if (t < 0 || steps > c->nt) return WALK_FAIL;
        const cdt_tri *T = &c->t[t];
        int32_t k = cdt_index_of(T, a);
        if (k < 0) return WALK_FAIL;
        int32_t b1 = T->v[cdt_next(k)], c1 = T->v[cdt_prev(k)];
        double o1 = cdt_orient(c, a, b1, b), o2 = cdt_orient(c, a, c1, b);
        if (o1 == 0 && dot_dir(c, a, b, b1) > 0) {
            *split = b1;
            return WALK_SPLIT;
        }
        if (o2 == 0 && dot_dir(c, a, b, c1) > 0) {
            *split = c1;
            return WALK_SPLIT;
        }
        if (o1 > 0 && o2 < 0) {
            R = b1, L = c1;
            break;
        }
        t = T->n[cdt_prev(k)];
        if (t == start) return WALK_FAIL;
    }
    /* t is the triangle at a; step across (L, R) until b is reached. */
    for (int32_t steps = 0;; steps++) {
        if (steps > c->nt) return WALK_FAIL;
        const cdt_tri *T = &c->t[t];
        int32_t kl = cdt_index_of(T, L), kr = cdt_index_of(T, R);
        if (kl < 0 || kr < 0) return WALK_FAIL;
        int32_t e = 3 - kl - kr; /* the edge (L, R) is opposite the third vertex */
        if ((T->con >> e) & 1) {
            *cu = L, *cw = R;
            return WALK_CROSS;
        }
        if (el_push(out, L, R) != MF_OK) return WALK_FAIL;
        int32_t u = T->n[e];
        if (u < 0) return WALK_FAIL;
        const cdt_tri *U = &c->t[u];
        int32_t x = -1;
        for (int32_t m = 0; m < 3; m++)
            if (U->v[m] != L && U->v[m] != R) x = U->v[m];
        if (x < 0) return WALK_FAIL;
        if (x == b) return WALK_DONE;
        double ox = cdt_orient(c, a, b, x);
        if (ox == 0) {
            *split = x;
            return WALK_SPLIT;
        }
        if (ox > 0) L = x;
        else R = x;
        t = u;
    }
}

/* True when segments (a, b) and (p, q) cross at a point inside both. */
static bool crosses(const cdt *c, int32_t a, int32_t b, int32_t p, int32_t q)
{
    if (p == a || p == b || q == a || q == b) return false;
    double o1 = cdt_orient(c, a, b, p), o2 = cdt_orient(c, a, b, q);
    double o3 = cdt_orient(c, p, q, a), o4 = cdt_orient(c, p, q, b);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

/* Flips the crossing edges away; the new ones go to `fresh`. */
static mf_result clear_crossings(cdt *c, int32_t a, int32_t b, edge_list *q, edge_list *fresh)
{
    int64_t budget = 1000 + 40 * (int64_t)q->n * (int64_t)q->n;
    int32_t head = 0;
    while (head < q->n) {
        if (--budget < 0) return MF_ERR_INVALID;
        int32_t u = q->e[2 * head], w = q->e[2 * head + 1];
        head++;
        int32_t t, i;
        if (!cdt_find_edge(c, u, w, &t, &i)) continue; /* already flipped away */
        const cdt_tri *T = &c->t[t];
        int32_t nb = T->n[i];
        if (nb < 0) return MF_ERR_INVALID;
        int32_t p = T->v[i], x = -1;
        for (int32_t m = 0; m < 3; m++)
            if (c->t[nb].v[m] != u && c->t[nb].v[m] != w) x = c->t[nb].v[m];
        double s1 = cdt_orient(c, p, x, u), s2 = cdt_orient(c, p, x, w);
        bool convex = (s1 > 0 && s2 < 0) || (s1 < 0 && s2 > 0);
        mf_result r;
        if (!convex) {
            r = el_push(q, u, w); /* try again once its neighbours have moved */
        } else {
            cdt_flip(c, t, i);
            if (crosses(c, a, b, p, x)) r = el_push(q, p, x);
            else r = el_push(fresh, p, x);
        }
        if (r != MF_OK) return r;
        /* Compact the queue now and then so it does not grow without bound. */
        if (head > 1024 && head * 2 > q->n) {
            memmove(q->e, q->e + 2 * head, (size_t)(q->n - head) * 2 * sizeof *q->e);
            q->n -= head, head = 0;
        }
    }
    return MF_OK;
}

/* Flips the new edges back towards Delaunay (the constraint stays). */
static void restore(cdt *c, edge_list *fresh)
{
    for (int32_t pass = 0; pass < 64; pass++) {
        bool changed = false;
        for (int32_t k = 0; k < fresh->n; k++) {
            int32_t u = fresh->e[2 * k], w = fresh->e[2 * k + 1], t, i;
            if (!cdt_find_edge(c, u, w, &t, &i)) continue;
            const cdt_tri *T = &c->t[t];
            int32_t nb = T->n[i];
            if (nb < 0 || ((T->con >> i) & 1)) continue;
            int32_t x = -1;
            for (int32_t m = 0; m < 3; m++)
                if (c->t[nb].v[m] != u && c->t[nb].v[m] != w) x = c->t[nb].v[m];
            if (x < 0 || cdt_incircle(c, T->v[0], T->v[1], T->v[2], x) <= 0) continue;
            /* Flip only when the quad is convex (it is when x is inside the circle, up to
             * rounding). */
            int32_t p = T->v[i];
            double s1 = cdt_orient(c, p, x, u), s2 = cdt_orient(c, p, x, w);
            if (!((s1 > 0 && s2 < 0) || (s1 < 0 && s2 > 0))) continue;
            cdt_flip(c, t, i);
            fresh->e[2 * k] = p, fresh->e[2 * k + 1] = x;
            changed = true;
        }
        if (!changed) break;
    }
}

mf_result cdt_segment(cdt *c, int32_t a, int32_t b, int32_t *cross_u, int32_t *cross_w)
{
    edge_list todo = {0}, q = {0}, fresh = {0};
    mf_result r = el_push(&todo, a, b);
    int64_t guard = 4 * (int64_t)c->np + 16;
    while (r == MF_OK && todo.n > 0) {
        if (--guard < 0) {
            r = MF_ERR_INVALID;
            break;
        }
        todo.n--;
        int32_t s = todo.e[2 * todo.n], e = todo.e[2 * todo.n + 1], t, i, split = -1;
        if (s == e) continue;
        if (cdt_find_edge(c, s, e, &t, &i)) {
            mark_constraint(c, s, e);
            continue;
        }
        q.n = 0, fresh.n = 0;
        int w = walk(c, s, e, &q, &split, cross_u, cross_w);
        if (w == WALK_SPLIT) {
            r = el_push(&todo, split, e);
            if (r == MF_OK) r = el_push(&todo, s, split);
            continue;
        }
        if (w == WALK_CROSS) {
            r = MF_ERR_INVALID;
            break;
        }
        if (w == WALK_FAIL) {
            *cross_u = *cross_w = -1;
            r = MF_ERR_INVALID;
            break;
        }
        r = clear_crossings(c, s, e, &q, &fresh);
        if (r != MF_OK) {
            *cross_u = *cross_w = -1;
            break;
        }
        mark_constraint(c, s, e);
        restore(c, &fresh);
    }
    free(todo.e);
    free(q.e);
    free(fresh.e);
    return r;
}
