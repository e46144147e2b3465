/* The weighted skinning streams (mf_sd_skin_group), generated from the immutable data by the
 * build, which writes them into the blob that every instance shares, and by the loader, which
 * checks the blob's against them: per attachment its vertices grouped by influence count
 * (kernels without per-vertex branches), per influence a record {w·x, w·y, w, 8·bone} that
 * one broadcast and one multiply by the bone's packed matrix turn into the influence's share
 * (geom_skin.h).
 *
 * A group may pad its vertices to a higher count with records {0, 0, 0, 8·bone_count} (the
 * all-zero matrix after the bones): they add +0, which leaves every result's bits as they
 * were (geom_skin.h). Fewer groups cost less than the padding where groups are small or a
 * whole attachment then stores in order; a cost model in instructions picks the counts. An
 * attachment's groups follow each other in the streams, so that each group's kernel hands
 * over to the next one's where its own records and vertices end (no loop over the groups).
 *
 * Runs: vertices with the same bones (the same list, in order; at most RUN_MAXC) skin best with
 * the bones' matrices held, eight vertices a step across the lanes. Where such sets (runs of
 * consecutive vertices, or every vertex with those bones: the cheaper) make the attachment
 * cheaper, a run chain comes before its count groups (the first group's runs field says how
 * many groups it has): a run group per set (vertex entries: the first's when they follow each
 * other, else each one's; records: the bones, then per eight vertices and per influence w·x,
 * w·y and w of each, zeros past the set), then the count groups of the other vertices. The AVX
 * path skins undeformed attachments from the first group (the run chain where there is one);
 * deformed ones and the SSE2 and NEON paths through the chain of every vertex after it. */
#include "../skin_streams.h"

#define MAXC MF_SD_MAX_INFLUENCES
#define CHAINED 15 /* the kernels of a group with another after it (mf_sd_skin_group) */
#define RUN_KERNEL 30 /* the run groups' kernels: by count 1..4, +4 chained, +8 scattered (geom_skin_avx.c) */

/* Estimated instructions (AVX kernels): a group's hand-over and setup (30: measured best on
 * the bench rigs once groups were chained; 20 and 45 cost more), a vertex's reduction and
 * loop share, an out-of-order store's extra, an influence's load, multiply and add. */
enum { COST_GROUP = 30, COST_VERTEX = 3, COST_SCATTERED = 2, COST_INFLUENCE = 4 };
/* A run's group: setup (its matrices' 6 broadcasts an influence) and hand-over, and a step of
 * eight vertices: its influences' loads, products and sums, the final sums and stores. */
enum {
    RUN_MAXC = 4, RUN_MIN = 8, CLASS_MAX = 256, SETS_NONE = 0, SETS_RUNS = 1, SETS_CLASSES = 2,
    COST_RUN = 30, COST_RUN_BONE = 6, COST_STEP = 14, COST_STEP_INFLUENCE = 12, COST_STEP_SCATTERED = 26
};

static bool weighted(const mf_sd_attachment *at)
{
    return (at->flags & MF_SD_ATT_WEIGHTED) && at->type != MF_SD_ATT_POINT && at->vertex_count > 0;
}

/* An attachment's vertices by influence count: how many have each count, the first and last
 * of them, and the counts present, ascending. */
typedef struct count_stats {
    int32_t hist[MAXC + 1], first[MAXC + 1], last[MAXC + 1];
    int32_t present[MAXC], np;
} count_stats;

/* The levels: per count 1..MAXC its padded count (level), and per level its vertices and
 * whether they follow each other (stored in order). */
typedef struct level_plan {
    int32_t level[MAXC + 1], vertices[MAXC + 1];
    bool contig[MAXC + 1];
} level_plan;

/* Vertices a and b (spans) have the same bones in the same order. */
static bool same_bones(const mf_skel_data *d, const mf_sd_span *a, const mf_sd_span *b)
{
    if (a->count != b->count) return false;
    for (int32_t j = 0; j < a->count; j++)
        if (d->influences[a->first + j].bone != d->influences[b->first + j].bone) return false;
    return true;
}

/* A vertex's bone set: the vertices with its bones (the same list, in order): with a class
 * table (attachments of at most CLASS_MAX vertices) every such vertex of the attachment, else
 * its run of consecutive ones. leader: its first, last: its last, size: how many. */
typedef struct bone_set {
    int32_t leader, last, size;
} bone_set;

/* Per vertex its class's leader; per leader the class's last vertex and size (on the stack:
 * no allocation, the loader regenerates the streams too). */
typedef struct class_table {
    int16_t leader[CLASS_MAX], last[CLASS_MAX], size[CLASS_MAX];
} class_table;

/* The classes of n <= CLASS_MAX vertices: each compared with the leaders so far. */
static void classes_of(const mf_skel_data *d, const mf_sd_span *sp, int32_t n, class_table *t)
{
    int16_t leaders[CLASS_MAX];
    int32_t nl = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t k = 0;
        while (k < nl && !same_bones(d, &sp[leaders[k]], &sp[i])) k++;
        if (k == nl) leaders[nl++] = (int16_t)i, t->size[i] = 0;
        int16_t l = leaders[k];
        t->leader[i] = l, t->last[l] = (int16_t)i, t->size[l]++;
    }
}

static bone_set set_of(const mf_skel_data *d, const mf_sd_span *sp, int32_t n, int32_t i, const class_table *t)
{
    bone_set s;
    if (t) {
        s.leader = t->leader[i], s.last = t->last[s.leader], s.size = t->size[s.leader];
        return s;
    }
    int32_t b = i, e = i + 1;
    while (b > 0 && same_bones(d, &sp[b - 1], &sp[i])) b--;
    while (e < n && same_bones(d, &sp[e], &sp[i])) e++;
    s.leader = b, s.last = e - 1, s.size = e - b;
    return s;
}

/* A set of vertices with c influences each gets its own run group. */
static bool set_taken(const bone_set *s, int32_t c) { return c <= RUN_MAXC && s->size >= RUN_MIN; }

static bool set_contig(const bone_set *s) { return s->last - s->leader + 1 == s->size; }

/* A run group's estimated cost. */
static int64_t run_cost(const bone_set *s, int32_t c)
{
    return COST_RUN + COST_RUN_BONE * c +
           (int64_t)((s->size + 7) / 8) * (COST_STEP + COST_STEP_INFLUENCE * c + (set_contig(s) ? 0 : COST_STEP_SCATTERED));
}

/* The stats of an attachment's vertices (sp, count), without those of taken sets when
 * skip_runs (SETS_RUNS or SETS_CLASSES; d: the influences' bones); the cost of those sets'
 * groups into *runs. */
static void count_stats_of(const mf_skel_data *d, const mf_sd_span *sp, int32_t count, int32_t skip_runs,
                           const class_table *t, count_stats *st, int64_t *runs)
{
    for (int32_t c = 0; c <= MAXC; c++) st->hist[c] = 0;
    *runs = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t c = sp[i].count; /* 1..MAXC, checked */
        if (skip_runs) {
            bone_set bs = set_of(d, sp, count, i, skip_runs == SETS_CLASSES ? t : NULL);
            if (set_taken(&bs, c)) {
                if (bs.leader == i) *runs += run_cost(&bs, c);
                if (skip_runs == SETS_RUNS) i = bs.last; /* past the run: linear */
                continue;
            }
        }
        if (st->hist[c]++ == 0) st->first[c] = i;
        st->last[c] = i;
    }
    st->np = 0;
    for (int32_t c = 1; c <= MAXC; c++)
        if (st->hist[c]) st->present[st->np++] = c;
}

/* The level present[k] takes the present counts present[j..k]: its vertices and whether they
 * follow each other (the first of them to the last is exactly them). */
static int32_t group_vertices(const count_stats *st, int32_t j, int32_t k, bool *contig)
{
    int32_t n = 0, first = INT32_MAX, last = -1;
    for (int32_t q = j; q <= k; q++) {
        int32_t c = st->present[q];
        n += st->hist[c];
        if (st->first[c] < first) first = st->first[c];
        if (st->last[c] > last) last = st->last[c];
    }
    *contig = last - first + 1 == n;
    return n;
}

/* A group of the present counts j..k at level present[k]: its cost. */
static int64_t group_cost(const count_stats *st, int32_t j, int32_t k)
{
    bool contig;
    int32_t L = st->present[k], n = group_vertices(st, j, k, &contig);
    return COST_GROUP + (int64_t)n * (COST_VERTEX + COST_INFLUENCE * L + (contig ? 0 : COST_SCATTERED));
}

/* Bit k of the result: present[k] is a level (the last always is). A cheapest set from the
 * best cost of each prefix, quadratic in the counts. On a tie a group starts at its smallest
 * count, which puts the level below it as low as it goes: the smallest mask of the lowest
 * cost, the one that trying every mask in ascending order kept (the streams of every build
 * made while 8 was the most influences a vertex stay as they were). */
static int32_t cheapest_levels(const count_stats *st, int64_t *cost)
{
    /* best[k]: the cheapest cover of present[0..k] with a level at k; from[k]: its group's first */
    int32_t np = st->np;
    int64_t best[MAXC];
    int32_t from[MAXC];
    for (int32_t k = 0; k < np; k++) {
        best[k] = INT64_MAX;
        for (int32_t j = 0; j <= k; j++) {
            int64_t c = (j > 0 ? best[j - 1] : 0) + group_cost(st, j, k);
            if (c < best[k]) best[k] = c, from[k] = j;
        }
    }
    *cost = np > 0 ? best[np - 1] : 0;
    int32_t mask = 0;
    for (int32_t k = np - 1; k >= 0; k = from[k] - 1) mask |= 1 << k;
    return mask;
}

/* The cheapest set of levels, each count going to the smallest level >= it (the largest count
 * is a level), of every vertex or (skip_runs) of those outside taken sets; returns the cost
 * of its groups and of the sets' groups. */
static int64_t choose_levels(const mf_skel_data *d, const mf_sd_attachment *at, int32_t skip_runs, const class_table *t,
                             level_plan *plan)
{
    count_stats st;
    int64_t runs, levels;
    count_stats_of(d, d->spans + at->vertex_first, at->vertex_count, skip_runs, t, &st, &runs);
    int32_t np = st.np;
    int32_t best_mask = cheapest_levels(&st, &levels);
    for (int32_t c = 0; c <= MAXC; c++) plan->level[c] = 0, plan->vertices[c] = 0, plan->contig[c] = false;
    for (int32_t k = 0, j = 0; k < np; k++) {
        if (!(best_mask & (1 << k))) continue;
        int32_t L = st.present[k];
        plan->vertices[L] = group_vertices(&st, j, k, &plan->contig[L]);
        for (int32_t q = j; q <= k; q++) plan->level[st.present[q]] = L;
        j = k + 1;
    }
    return runs + levels;
}

/* Vertex i's influence j as a record. */
static mf_sd_skin_record record_of(const mf_skel_data *d, const mf_sd_span *sp, int32_t j)
{
    const mf_sd_influence *in = &d->influences[sp->first + j];
    return (mf_sd_skin_record){in->weight * in->x, in->weight * in->y, in->weight,
                               (float)(8 * (int64_t)in->bone)}; /* exact: bones <= 2^21 */
}

/* The count groups of plan (the vertices outside taken sets when skip_runs), the last of the
 * chain; runs: the first one's runs field. */
static bool emit_levels(const mf_skel_data *d, mf_skin_emit *e, const mf_sd_attachment *at, const level_plan *plan,
                        int32_t skip_runs, const class_table *t, int32_t runs)
{
    const float zero_bone = (float)(8 * (int64_t)d->bone_count); /* exact: bones <= 2^21 (mf_pose_create) */
    const int32_t *level = plan->level;
    const mf_sd_span *spans = d->spans + at->vertex_first;
    int32_t top = 0, n_all = at->vertex_count; /* the last group's level */
    for (int32_t L = 1; L <= MAXC; L++)
        if (plan->vertices[L]) top = L;
    for (int32_t L = 1; L <= MAXC; L++) {
        /* the level's vertices, stored in order when they follow each other */
        int32_t n = plan->vertices[L];
        bool contig = plan->contig[L];
        if (n == 0) continue;
        /* the kernel by count, +15 (CHAINED) where a group follows: it hands over to it */
        int32_t k = (L < 5 ? L - 1 : 4) + (L < top ? CHAINED : 0);
        const mf_sd_skin_group g = {(int32_t)e->nr, (int32_t)e->nv, L, n, (contig ? 5 : 0) + k, 10 + k, n_all, runs};
        runs = 0;
        if (!mf_skin_emit_group(e, &g)) return false;
        for (int32_t i = 0; i < n_all; i++) {
            int32_t c = spans[i].count;
            if (level[c] != L) continue;
            if (skip_runs) {
                bone_set bs = set_of(d, spans, n_all, i, skip_runs == SETS_CLASSES ? t : NULL);
                if (set_taken(&bs, c)) {
                    if (!t) i = bs.last; /* past the run: linear */
                    continue;
                }
            }
            /* output floats, deform floats, records with a deform */
            const mf_sd_skin_vertex v = {2 * i, 2 * (spans[i].first - at->infl_first), c, 0};
            if (!mf_skin_emit_vertex(e, &v)) return false;
            for (int32_t j = 0; j < L; j++) {
                mf_sd_skin_record r = {0, 0, 0, zero_bone};
                if (j < c) r = record_of(d, &spans[i], j);
                if (!mf_skin_emit_record(e, &r)) return false;
            }
        }
    }
    return true;
}

/* The run groups of the taken sets, by leader (chained to the levels count groups after them
 * when there are any; the first one's runs field: the run chain's groups): kernel
 * 30 + count - 1 where the set's vertices follow each other, 38 + count - 1 where not, +4 when
 * chained; vertex entries: the first's (in order) or every member's; records: the bones'
 * offsets, then per eight members and per influence eight w·x, eight w·y, eight w (zeros past
 * the last member). */
static bool emit_runs(const mf_skel_data *d, mf_skin_emit *e, const mf_sd_attachment *at, const class_table *t,
                      int32_t levels)
{
    const mf_sd_span *spans = d->spans + at->vertex_first;
    int32_t n_all = at->vertex_count, last = -1, sets = 0;
    for (int32_t i = 0; i < n_all; i++) { /* the last taken set's leader, and how many */
        bone_set bs = set_of(d, spans, n_all, i, t);
        if (set_taken(&bs, spans[i].count) && bs.leader == i) last = i, sets++;
        if (!t) i = bs.last; /* runs: past the run */
    }
    int32_t runs = sets + levels; /* the first group's: the groups before the every-vertex chain */
    bool more = levels > 0;
    for (int32_t i = 0; i < n_all; i++) {
        bone_set bs = set_of(d, spans, n_all, i, t);
        int32_t lead = i, c = spans[lead].count, n = bs.size;
        if (!t) i = bs.last; /* runs: past the run */
        if (!set_taken(&bs, c) || bs.leader != lead) continue;
        bool contig = set_contig(&bs);
        int32_t k = (contig ? RUN_KERNEL : RUN_KERNEL + 2 * RUN_MAXC) + c - 1 + (lead != last || more ? RUN_MAXC : 0);
        const mf_sd_skin_group g = {(int32_t)e->nr, (int32_t)e->nv, c, n, k, k, n_all, runs};
        runs = 0;
        if (!mf_skin_emit_group(e, &g)) return false;
        for (int32_t j = lead; j <= bs.last; j++) /* the members in order (contiguous: the first) */
            if (same_bones(d, &spans[j], &spans[lead])) {
                const mf_sd_skin_vertex v = {2 * j, 2 * (spans[j].first - at->infl_first), c, 0};
                if (!mf_skin_emit_vertex(e, &v)) return false;
                if (contig) break;
            }
        float b[4] = {0, 0, 0, 0};
        for (int32_t j = 0; j < c; j++) b[j] = record_of(d, &spans[lead], j).bone8;
        if (!mf_skin_emit_record(e, &(mf_sd_skin_record){b[0], b[1], b[2], b[3]})) return false;
        for (int32_t next = lead, done = 0; done < n; done += 8) {
            int32_t idx[8], m = 0; /* the step's members */
            for (; m < 8 && next <= bs.last; next++)
                if (same_bones(d, &spans[next], &spans[lead])) idx[m++] = next;
            for (int32_t j = 0; j < c; j++)
                for (int32_t q = 0; q < 3; q++)     /* w·x, w·y, w */
                    for (int32_t h = 0; h < 8; h += 4) { /* two records of four members */
                        float f[4] = {0, 0, 0, 0};
                        for (int32_t l = 0; l < 4 && h + l < m; l++) {
                            mf_sd_skin_record r = record_of(d, &spans[idx[h + l]], j);
                            f[l] = q == 0 ? r.wx : q == 1 ? r.wy : r.w;
                        }
                        if (!mf_skin_emit_record(e, &(mf_sd_skin_record){f[0], f[1], f[2], f[3]})) return false;
                    }
        }
    }
    return true;
}

bool mf_skin_streams_emit(const mf_skel_data *d, mf_skin_emit *e)
{
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        if (!mf_skin_emit_first(e, (int32_t)e->ng)) return false;
        if (!weighted(at)) continue;
        /* the cheapest of: count groups only, runs first, sets of same-bone vertices first */
        class_table t;
        bool small = at->vertex_count <= CLASS_MAX;
        if (small) classes_of(d, d->spans + at->vertex_first, at->vertex_count, &t);
        level_plan all, rest, sets;
        int64_t cost_all = choose_levels(d, at, SETS_NONE, NULL, &all), cost_runs = choose_levels(d, at, SETS_RUNS, NULL, &rest);
        int64_t cost_sets = small ? choose_levels(d, at, SETS_CLASSES, &t, &sets) : INT64_MAX;
        int32_t mode = cost_runs < cost_all ? SETS_RUNS : SETS_NONE;
        if (cost_sets < (mode ? cost_runs : cost_all)) mode = SETS_CLASSES, rest = sets;
        const class_table *mt = mode == SETS_CLASSES ? &t : NULL;
        int32_t levels = 0; /* the count groups after the run groups */
        for (int32_t L = 1; L <= MAXC; L++) levels += rest.vertices[L] != 0;
        /* the run chain first (the AVX path's undeformed skinning starts at the attachment's
         * first group), then the chain of every vertex */
        if (mode && (!emit_runs(d, e, at, mt, levels) || !emit_levels(d, e, at, &rest, mode, mt, 0))) return false;
        if (!emit_levels(d, e, at, &all, SETS_NONE, NULL, 0)) return false;
    }
    return mf_skin_emit_first(e, (int32_t)e->ng);
}
