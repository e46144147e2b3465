/* Digests of everything the runtime computes for a rig (digest.h): FNV-1a over the bytes of
 * every pose array, world vertex, fired event and draw list, frame after frame, so that any
 * change of any bit on any path shows. The pose digests hash the bytes, in the order, of the
 * digest the performance work of 2026-12-02/03 was checked with before this command existed, so
 * that the values recorded then still compare. */
#include "check/digest.h"

#include <stdlib.h>
#include <string.h>

#include "mf/mf_build.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_rig.h"
#include "mf/mf_tracks.h"

#define FNV_BASIS 1469598103934665603ull /* that earlier digest's (not FNV's 14695981039346656037) */
#define FRAMES 100

typedef struct hasher {
    uint64_t h;
} hasher;

static void hb(hasher *s, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = s->h;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    s->h = h;
}
#define HV(s, v) hb((s), &(v), sizeof(v))
#define HA(s, ptr, n) ((ptr) && (n) > 0 ? hb((s), (ptr), sizeof *(ptr) * (size_t)(n)) : (void)0)

mf_result mf_digest_open(const char *path, mf_digest_rig *r, mf_diag *diag)
{
    memset(r, 0, sizeof *r);
    mf_rig rig;
    mf_result res = mf_rig_load(path, &rig, diag);
    if (res != MF_OK) return res;
    res = mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &r->blob, &r->size, diag);
    mf_rig_free(&rig);
    if (res == MF_OK) res = mf_skel_data_load(r->blob, r->size, &r->data, diag);
    if (res != MF_OK) mf_digest_close(r);
    return res;
}

void mf_digest_close(mf_digest_rig *r)
{
    free(r->blob);
    memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------- one frame */

static void on_event(mf_tracks *t, mf_track_event_type type, mf_entry_handle entry, const mf_track_entry *e,
                     const mf_fired_event *ev, void *user)
{
    (void)t, (void)e;
    hasher *s = user;
    int32_t ty = (int32_t)type;
    HV(s, ty);
    HV(s, entry);
    if (ev) hb(s, ev, sizeof *ev);
}

static void hash_pose(hasher *s, const mf_skel_data *d, const mf_pose *p, float *buf, int32_t cap)
{
    int32_t n = p->bone_count, ns = p->slot_count;
    HA(s, p->x, n), HA(s, p->y, n), HA(s, p->rot, n), HA(s, p->sx, n), HA(s, p->sy, n);
    HA(s, p->shx, n), HA(s, p->shy, n);
    HA(s, p->ax, n), HA(s, p->ay, n), HA(s, p->arot, n), HA(s, p->asx, n), HA(s, p->asy, n);
    HA(s, p->ashx, n), HA(s, p->ashy, n);
    HA(s, p->a, n), HA(s, p->b, n), HA(s, p->c, n), HA(s, p->d, n), HA(s, p->wx, n), HA(s, p->wy, n);
    HA(s, p->inherit, n), HA(s, p->active, n);
    HA(s, p->color, 4 * ns), HA(s, p->dark, 3 * ns), HA(s, p->attachment, ns), HA(s, p->seq_index, ns);
    HA(s, p->draw_order, ns), HA(s, p->deform_attachment, ns);
    for (int32_t k = 0; k < ns; k++) {
        int32_t att = p->deform_attachment[k];
        if (att >= 0) HA(s, p->deform + p->deform_first[k], d->attachments[att].deform_count);
    }
    int32_t ik = d->ik_count, tf = d->transform_count, pa = d->path_count;
    HA(s, p->ik_mix, ik), HA(s, p->ik_softness, ik), HA(s, p->ik_bend, ik), HA(s, p->ik_compress, ik);
    HA(s, p->ik_stretch, ik);
    HA(s, p->tf_mix, 6 * tf), HA(s, p->path_position, pa), HA(s, p->path_spacing, pa), HA(s, p->path_mix, 3 * pa);
    for (int32_t k = 0; k < ns; k++) { /* world vertices of what is drawn, in draw order */
        int32_t sl = p->draw_order[k], att = p->attachment[sl];
        if (att < 0 || !p->active[d->slots[sl].bone]) continue;
        uint8_t type = d->attachments[att].type;
        if (type != MF_SD_ATT_REGION && type != MF_SD_ATT_MESH && type != MF_SD_ATT_LINKED_MESH) continue;
        int32_t nv = mf_pose_world_vertices(p, sl, att, buf, cap);
        HV(s, nv);
        if (nv > 0) HA(s, buf, 2 * nv);
    }
}

/* full: every vertex; else (mf_draw_list_build_items) only clipped items' vertices, which
 * that call computes */
static void hash_list(hasher *s, const mf_draw_list *dl, bool full)
{
    HV(s, dl->item_count), HV(s, dl->vertex_count), HV(s, dl->index_count), HV(s, dl->overflow);
    HV(s, dl->items_kept);
    for (int32_t i = 0; i < dl->item_count; i++) {
        const mf_draw_item *it = &dl->items[i];
        HV(s, it->slot), HV(s, it->attachment), HV(s, it->image), HV(s, it->blend), HV(s, it->has_dark);
        HV(s, it->clipped), hb(s, it->light, sizeof it->light), hb(s, it->dark, sizeof it->dark);
        HV(s, it->vertex_first), HV(s, it->vertex_count), HV(s, it->index_first), HV(s, it->index_count);
        HV(s, it->uv_set);
        if (!full && it->clipped) HA(s, dl->vertices + 2 * it->vertex_first, 2 * it->vertex_count);
    }
    if (full) HA(s, dl->vertices, 2 * dl->vertex_count);
    HA(s, dl->uvs, 2 * dl->vertex_count);
    HA(s, dl->indices, dl->index_count);
}

/* ---------------------------------------------------------------- runs */

/* What one run plays and hashes. */
typedef struct digest_run {
    const mf_skel_data *d;
    mf_simd cap;
    mf_tracks_shared *sh;      /* NULL: the tracks' own tables */
    mf_skin_cache *cache;      /* with skins/skin_count: composed skins */
    const int32_t *skins;
    int32_t skin_count;
    bool draw;                 /* draw lists (else pose arrays and world vertices) */
    uint32_t rng;              /* nonzero: a host's changes a frame, from this state */
    float *buf;
    int32_t cap_vertices;
} digest_run;

static uint32_t rnd(digest_run *r)
{
    r->rng = r->rng * 1664525u + 1013904223u;
    return r->rng >> 8;
}

/* A few changes a frame, as a host or odd clips make them: draw order swaps, attachments
 * switched among the slot's own or off, sequence frames (some out of range). */
static void perturb(digest_run *r, mf_pose *p)
{
    const mf_skel_data *d = r->d;
    if (!r->rng || p->slot_count < 2) return;
    int n = (int)(rnd(r) % 4);
    for (int i = 0; i < n; i++) {
        uint32_t what = rnd(r) % 4;
        int32_t a = (int32_t)(rnd(r) % (uint32_t)p->slot_count), b = (int32_t)(rnd(r) % (uint32_t)p->slot_count);
        if (what == 0) {
            int32_t t = p->draw_order[a];
            p->draw_order[a] = p->draw_order[b], p->draw_order[b] = t;
        } else if (what == 1) {
            p->attachment[a] = -1;
        } else if (what == 2) {
            int32_t cand[64], nc = 0;
            for (int32_t k = 0; k < d->attachment_count && nc < 64; k++)
                if (d->attachments[k].slot == a) cand[nc++] = k;
            if (nc) p->attachment[a] = cand[rnd(r) % (uint32_t)nc];
        } else {
            p->seq_index[a] = (int32_t)(rnd(r) % 5) - 1;
        }
    }
}

static mf_result fail(mf_diag *diag, mf_result res, const char *what, int32_t clip)
{
    mf_diag_set(diag, NULL, NULL, "digest: %s failed (clip %d)", what, (int)clip);
    return res != MF_OK ? res : MF_ERR_ARGUMENT;
}

/* The frames of one clip on pose p and tracks t; lists: three draw lists when drawing. */
static mf_result play(digest_run *r, hasher *s, int32_t c, mf_pose *p, mf_tracks *t, mf_draw_list *const *lists,
                      mf_diag *diag)
{
    const mf_skel_data *d = r->d;
    mf_tracks_set(t, 0, c, true);
    float len = d->clips[c].length;
    double dt = len > 0 ? len / 37.0 : 1.0 / 60;
    if (dt > 1.0 / 30) dt = 1.0 / 30;
    for (int f = 0; f < FRAMES; f++) {
        if (f == 60 && d->clip_count > 1) mf_tracks_set(t, 0, (c + 1) % d->clip_count, true);
        if (f == 80 && d->clip_count > 2) mf_tracks_set(t, 1, (c + 2) % d->clip_count, false);
        mf_tracks_update(t, dt);
        mf_tracks_apply(t, p);
        mf_pose_physics_step(p, dt);
        perturb(r, p);
        mf_pose_update_world(p);
        if (!r->draw) {
            hash_pose(s, d, p, r->buf, r->cap_vertices);
            continue;
        }
        if (mf_draw_list_build(lists[0], p) != MF_OK) return fail(diag, MF_OK, "mf_draw_list_build", c);
        hash_list(s, lists[0], true);
        if (mf_draw_list_build_items(lists[1], p) != MF_OK) return fail(diag, MF_OK, "mf_draw_list_build_items", c);
        hash_list(s, lists[1], false);
        bool full = (f % 3) != 1; /* one list, both kinds: items kept across them */
        if ((full ? mf_draw_list_build(lists[2], p) : mf_draw_list_build_items(lists[2], p)) != MF_OK)
            return fail(diag, MF_OK, "alternating draw list", c);
        hash_list(s, lists[2], full);
        float bb[4] = {0};
        bool any = mf_pose_bounds(p, bb);
        HV(s, any), hb(s, bb, sizeof bb);
    }
    return MF_OK;
}

/* Every clip from its own pose, tracks (and draw lists) into the hash. */
static mf_result run_into(digest_run *r, hasher *s, mf_diag *diag)
{
    const mf_skel_data *d = r->d;
    mf_result res = MF_OK;
    for (int32_t c = 0; c < d->clip_count && res == MF_OK; c++) {
        mf_pose *p = NULL;
        mf_tracks *t = NULL;
        mf_draw_list *lists[3] = {NULL, NULL, NULL};
        mf_tracks_config tc = {.shared = r->sh, .default_mix = 0.25};
        if ((res = mf_pose_create(d, NULL, &p, diag)) != MF_OK || (res = mf_tracks_create(d, &tc, NULL, &t)) != MF_OK)
            res = fail(diag, res, "pose or tracks create", c);
        else if ((res = mf_pose_set_simd(p, r->cap)) != MF_OK)
            res = fail(diag, res, "mf_pose_set_simd", c);
        else if (r->skin_count > 0 && (res = mf_pose_set_skins(p, r->cache, r->skins, r->skin_count, diag)) != MF_OK)
            res = fail(diag, res, "mf_pose_set_skins", c);
        for (int k = 0; k < 3 && r->draw && res == MF_OK; k++)
            if ((res = mf_draw_list_create(d, NULL, &lists[k])) != MF_OK) res = fail(diag, res, "draw list create", c);
        if (res == MF_OK) {
            if (!r->draw) mf_tracks_set_listener(t, on_event, s);
            res = play(r, s, c, p, t, lists, diag);
        }
        for (int k = 0; k < 3; k++) mf_draw_list_destroy(lists[k]);
        mf_tracks_destroy(t);
        mf_pose_destroy(p);
    }
    return res;
}

/* run_into a fresh hash. */
static mf_result run(digest_run *r, uint64_t *out, mf_diag *diag)
{
    hasher s = {FNV_BASIS};
    mf_result res = run_into(r, &s, diag);
    *out = s.h;
    return res;
}

/* ---------------------------------------------------------------- the digests */

static int32_t max_vertices(const mf_skel_data *d)
{
    int32_t m = 4;
    for (int32_t k = 0; k < d->attachment_count; k++)
        if (d->attachments[k].vertex_count > m) m = d->attachments[k].vertex_count;
    return m;
}

/* The draw parts: skins composed where the rig has two or more (the last ones first alone:
 * different attachments per slot), then the host's changes. */
static mf_result draw_parts(digest_run *r, mf_digest_draw *o, mf_diag *diag)
{
    const mf_skel_data *d = r->d;
    mf_result res = run(r, &o->noskin, diag);
    if (res == MF_OK && d->skin_count > 1) {
        int32_t *all = malloc(sizeof *all * (size_t)d->skin_count);
        if ((res = mf_skin_cache_create(d, NULL, &r->cache)) == MF_OK && all) {
            for (int32_t k = 0; k < d->skin_count; k++) all[k] = k;
            r->skins = all, r->skin_count = d->skin_count;
            res = run(r, &o->allskins, diag);
            hasher s = {FNV_BASIS};
            for (int32_t k = d->skin_count - 1; k >= 0 && k >= d->skin_count - 6 && res == MF_OK; k--) {
                r->skins = &k, r->skin_count = 1;
                res = run_into(r, &s, diag);
            }
            o->skins = s.h;
        } else if (res == MF_OK) {
            res = MF_ERR_NOMEM;
        }
        r->skins = NULL, r->skin_count = 0;
        mf_skin_cache_destroy(r->cache);
        r->cache = NULL;
        free(all);
    }
    if (res == MF_OK) {
        r->rng = 12345u;
        res = run(r, &o->perturb, diag);
        r->rng = 0;
    }
    return res;
}

/* The level a pose of d capped at cap uses (a rig without clips plays no pose to ask). */
static mf_simd level_at(const mf_skel_data *d, mf_simd cap)
{
    mf_pose *p = NULL;
    if (!d || mf_pose_create(d, NULL, &p, NULL) != MF_OK) return MF_SIMD_BASE;
    mf_pose_set_simd(p, cap);
    mf_simd w = mf_pose_simd(p);
    mf_pose_destroy(p);
    return w;
}

mf_result mf_digest_run(const mf_skel_data *d, mf_simd cap, mf_digest *out, mf_diag *diag)
{
    if (!out) return MF_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!d || (unsigned)cap > (unsigned)MF_SIMD_AVX512) return MF_ERR_ARGUMENT;
    digest_run r = {.d = d, .cap = cap, .cap_vertices = max_vertices(d)};
    r.buf = malloc(sizeof(float) * 2 * (size_t)r.cap_vertices);
    mf_result res = r.buf ? MF_OK : MF_ERR_NOMEM;
    if (res == MF_OK) res = mf_tracks_shared_create(d, NULL, &r.sh);
    if (res == MF_OK) res = run(&r, &out->pose_shared, diag);
    mf_tracks_shared *sh = r.sh;
    r.sh = NULL;
    if (res == MF_OK) res = run(&r, &out->pose_own, diag);
    r.sh = sh, r.draw = true;
    if (res == MF_OK) res = draw_parts(&r, &out->parts, diag);
    mf_tracks_shared_destroy(sh);
    free(r.buf);
    hasher s = {FNV_BASIS};
    HV(&s, out->parts.noskin), HV(&s, out->parts.allskins), HV(&s, out->parts.skins), HV(&s, out->parts.perturb);
    out->draw = s.h;
    out->simd = level_at(d, cap);
    return res;
}

mf_simd mf_digest_widest(const mf_skel_data *d) { return level_at(d, MF_SIMD_AUTO); }
