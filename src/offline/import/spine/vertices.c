/* Spine vertex arrays → mf_vertices. Unweighted: x, y pairs. Weighted: per vertex
 * [n, (bone, x, y, weight) × n] with skeleton bone indices; ours keep a per-attachment bone list
 * and [bone, weight, x, y] influences, at most MF_MAX_INFLUENCES a vertex (the heaviest are
 * kept and renormalised, which the report lists). Every y is flipped. */
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"

typedef struct infl_in {
    int32_t bone;
    float x, y, w;
} infl_in;

/* The numbers of arr as doubles-checked floats. */
static bool floats(sp_ctx *c, const cJSON *arr, float *out, int n)
{
    int i = 0;
    for (const cJSON *e = arr->child; e && i < n; e = e->next, i++) {
        if (cJSON_IsNumber(e) && e->valuedouble >= -3.0e38 && e->valuedouble <= 3.0e38) {
            out[i] = (float)e->valuedouble;
            continue;
        }
        size_t m = mf_jr_index(&c->jr, i);
        mf_jr_fail(&c->jr, "expected a number, got %s", cJSON_IsNumber(e) ? "a number out of range" : mf_jr_type_name(e));
        mf_jr_pop(&c->jr, m);
        return false;
    }
    return true;
}

static int cmp_weight(const void *a, const void *b)
{
    const infl_in *x = a, *y = b;
    if (x->w != y->w) return x->w > y->w ? -1 : 1;
    return x->bone < y->bone ? -1 : x->bone > y->bone;
}

static bool weighted(sp_ctx *c, const float *v, int n, int32_t count, mf_vertices *out)
{
    int32_t bones = c->sk->bone_count;
    int32_t *local = malloc((size_t)bones * sizeof *local); /* skeleton bone → list index */
    int32_t *list = sp_alloc(c, (size_t)bones, sizeof *list);
    int32_t *first = sp_alloc(c, (size_t)count + 1, sizeof *first);
    mf_influence *infl = sp_alloc(c, (size_t)n / 4 + 1, sizeof *infl);
    if (!local || !list || !first || !infl) {
        free(local);
        return c->jr.failed ? false : sp_oom(c);
    }
    for (int32_t b = 0; b < bones; b++) local[b] = -1;
    int32_t used = 0, total = 0, capped = 0;
    int i = 0;
    bool ok = true;
    for (int32_t k = 0; k < count && ok; k++) {
        infl_in in[64];
        if (i >= n) {
            ok = mf_jr_fail(&c->jr, "weighted vertices end after %d of %d vertices", (int)k, (int)count);
            break;
        }
        int m = (int)v[i];
        if ((float)m != v[i] || m < 1 || m > 64 || i + 1 + 4 * m > n) {
            size_t mk = mf_jr_index(&c->jr, i);
            ok = mf_jr_fail(&c->jr, "vertex %d: bad influence count %g", (int)k, (double)v[i]);
            mf_jr_pop(&c->jr, mk);
            break;
        }
        i++;
        float sum = 0;
        for (int j = 0; j < m && ok; j++, i += 4) {
            int bone = (int)v[i];
            if ((float)bone != v[i] || bone < 0 || bone >= bones) {
                size_t mk = mf_jr_index(&c->jr, i);
                ok = mf_jr_fail(&c->jr, "vertex %d: bone index %g out of range (%d bones)", (int)k, (double)v[i],
                                (int)bones);
                mf_jr_pop(&c->jr, mk);
                break;
            }
            in[j] = (infl_in){bone, v[i + 1], -v[i + 2], v[i + 3] < 0 ? 0 : v[i + 3]};
            sum += in[j].w;
        }
        if (!ok) break;
        int keep = m;
        if (m > MF_MAX_INFLUENCES) {
            qsort(in, (size_t)m, sizeof in[0], cmp_weight);
            keep = MF_MAX_INFLUENCES;
            float kept = 0;
            for (int j = 0; j < keep; j++) kept += in[j].w;
            for (int j = 0; j < keep && kept > 0; j++) in[j].w *= sum / kept;
            capped++;
        }
        first[k] = total;
        for (int j = 0; j < keep; j++) {
            if (local[in[j].bone] < 0) local[in[j].bone] = used, list[used++] = in[j].bone;
            infl[total++] = (mf_influence){local[in[j].bone], in[j].w, in[j].x, in[j].y};
        }
    }
    free(local);
    if (!ok) return false;
    if (i != n) return mf_jr_fail(&c->jr, "%d numbers left over after %d weighted vertices", n - i, (int)count);
    first[count] = total;
    c->last_capped = capped > 0;
    if (capped) {
        char where[600];
        sp_note_add(&c->rep, "weights", NULL, sp_where(c, "", where, sizeof where),
                    "%d vertices have more than %d influences: the %d heaviest are kept and renormalised", (int)capped,
                    MF_MAX_INFLUENCES, MF_MAX_INFLUENCES);
    }
    out->count = count;
    out->xy = NULL;
    out->bone_count = used;
    out->bones = list;
    out->first = first;
    out->infl = infl;
    return true;
}

bool sp_read_vertices(sp_ctx *c, const cJSON *obj, int32_t count, mf_vertices *out)
{
    memset(out, 0, sizeof *out);
    c->last_capped = false;
    const cJSON *arr = sp_array(c, obj, "vertices");
    if (c->jr.failed) return false;
    if (!arr) return mf_jr_fail(&c->jr, "missing \"vertices\"");
    int n = cJSON_GetArraySize(arr);
    size_t m = mf_jr_key(&c->jr, "vertices");
    float *v = malloc(((size_t)n + 1) * sizeof *v);
    bool ok = v ? floats(c, arr, v, n) : sp_oom(c);
    if (ok && n == 2 * count) {
        float *xy = sp_alloc(c, (size_t)n, sizeof *xy);
        if ((ok = xy != NULL)) {
            for (int i = 0; i < n; i++) xy[i] = (i & 1) ? -v[i] : v[i];
            out->count = count;
            out->xy = xy;
        }
    } else if (ok) {
        ok = weighted(c, v, n, count, out);
    }
    free(v);
    mf_jr_pop(&c->jr, m);
    return ok;
}
