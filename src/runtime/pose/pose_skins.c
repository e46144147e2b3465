/* Skin composition: several skins merged in order (later wins per (slot, name)), cached per
 * distinct list and shared by every pose of the data; the pose side of changing skins. */
#include <stdlib.h>
#include <string.h>

#include "pose_internal.h"

typedef struct cached {
    struct cached *next;
    mf_composed_skin skin;
} cached;

struct mf_skin_cache {
    const mf_skel_data *data;
    mf_allocator alloc;
    int32_t default_skin;
    cached *first;
};

static int32_t find_default(const mf_skel_data *d) { return mf_skel_data_find_skin(d, "default"); }

mf_result mf_skin_cache_create(const mf_skel_data *data, const mf_allocator *alloc,
                               mf_skin_cache **out)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    if (!data) return MF_ERR_ARGUMENT;
    mf_allocator al = alloc ? *alloc : (mf_allocator){0};
    mf_skin_cache *c = mf_alloc(&al, sizeof *c);
    if (!c) return MF_ERR_NOMEM;
    *c = (mf_skin_cache){data, al, find_default(data), NULL};
    *out = c;
    return MF_OK;
}

void mf_skin_cache_destroy(mf_skin_cache *cache)
{
    if (!cache) return;
    for (cached *e = cache->first; e;) {
        cached *next = e->next;
        mf_free(&cache->alloc, e);
        e = next;
    }
    mf_free(&cache->alloc, cache);
}

/* Entries tagged with their list position so a stable winner can be picked after sorting. */
typedef struct ranked {
    mf_sd_skin_entry e;
    int32_t rank;
} ranked;

static int cmp_ranked(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->e.slot != b->e.slot) return a->e.slot < b->e.slot ? -1 : 1;
    if (a->e.name != b->e.name) return a->e.name < b->e.name ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

static bool same_list(const mf_composed_skin *s, const int32_t *skins, int32_t count)
{
    if (s->skin_count != count) return false;
    for (int32_t i = 0; i < count; i++)
        if (s->skins[i] != skins[i]) return false;
    return true;
}

static int32_t sz_align(int32_t n) { return (n + 15) & ~15; }

/* Builds one composed table in a single block. */
static mf_result compose(mf_skin_cache *c, const int32_t *skins, int32_t count, cached **out)
{
    const mf_skel_data *d = c->data;
    int32_t total = 0;
    for (int32_t i = 0; i < count; i++) total += d->skins[skins[i]].entry_count;
    ranked *tmp = total ? mf_alloc(&c->alloc, (size_t)total * sizeof *tmp) : NULL;
    if (total && !tmp) return MF_ERR_NOMEM;
    int32_t n = 0;
    for (int32_t i = 0; i < count; i++) {
        const mf_sd_skin *s = &d->skins[skins[i]];
        for (int32_t k = 0; k < s->entry_count; k++)
            tmp[n++] = (ranked){d->skin_entries[s->entry_first + k], i};
    }
    if (n > 1) qsort(tmp, (size_t)n, sizeof *tmp, cmp_ranked);
    int32_t unique = 0;
    for (int32_t i = 0; i < n; i++)
        if (i + 1 == n || tmp[i + 1].e.slot != tmp[i].e.slot || tmp[i + 1].e.name != tmp[i].e.name)
            unique++;
    size_t bytes = (size_t)sz_align((int32_t)sizeof(cached)) + (size_t)sz_align(count * 4) +
                   (size_t)sz_align(unique * (int32_t)sizeof(mf_sd_skin_entry)) +
                   (size_t)sz_align(d->bone_count) + (size_t)sz_align(d->ik_count) +
                   (size_t)sz_align(d->transform_count) + (size_t)sz_align(d->path_count) +
                   (size_t)sz_align(d->physics_count);
    unsigned char *block = mf_alloc(&c->alloc, bytes);
    if (!block) {
        mf_free(&c->alloc, tmp);
        return MF_ERR_NOMEM;
    }
    memset(block, 0, bytes);
    cached *e = (cached *)block;
    unsigned char *at = block + sz_align((int32_t)sizeof(cached));
    int32_t *list = (int32_t *)at;
    at += sz_align(count * 4);
    mf_sd_skin_entry *entries = (mf_sd_skin_entry *)at;
    at += sz_align(unique * (int32_t)sizeof(mf_sd_skin_entry));
    uint8_t *bones = at;
    at += sz_align(d->bone_count);
    uint8_t *ik = at;
    at += sz_align(d->ik_count);
    uint8_t *tf = at;
    at += sz_align(d->transform_count);
    uint8_t *path = at;
    at += sz_align(d->path_count);
    uint8_t *phys = at;
    for (int32_t i = 0; i < count; i++) list[i] = skins[i];
    int32_t u = 0;
    for (int32_t i = 0; i < n; i++)
        if (i + 1 == n || tmp[i + 1].e.slot != tmp[i].e.slot || tmp[i + 1].e.name != tmp[i].e.name)
            entries[u++] = tmp[i].e;
    mf_free(&c->alloc, tmp);

    /* activation: a listed skin-required bone activates its ancestors too */
    for (int32_t b = 0; b < d->bone_count; b++) bones[b] = !d->bones[b].skin_required;
    bool listed_default = false;
    for (int32_t i = 0; i < count; i++) {
        const mf_sd_skin *s = &d->skins[skins[i]];
        if (skins[i] == c->default_skin) listed_default = true;
        for (int32_t k = 0; k < s->bone_count; k++)
            for (int32_t b = d->bone_lists[s->bone_first + k]; b >= 0; b = d->bones[b].parent)
                bones[b] = 1;
    }
    for (int32_t i = 0; i < d->ik_count; i++) ik[i] = !d->ik[i].skin_required;
    for (int32_t i = 0; i < d->transform_count; i++) tf[i] = !d->transform[i].skin_required;
    for (int32_t i = 0; i < d->path_count; i++) path[i] = !d->path[i].skin_required;
    for (int32_t i = 0; i < d->physics_count; i++)
        phys[i] = !(d->physics[i].flags & MF_SD_PHYS_SKIN_REQUIRED);
    for (int32_t i = 0; i < count; i++) {
        const mf_sd_skin *s = &d->skins[skins[i]];
        for (int32_t k = 0; k < s->constraint_count; k++) {
            mf_sd_ref r = d->skin_refs[s->constraint_first + k];
            uint8_t *arr = r.kind == MF_SD_REF_IK ? ik
                           : r.kind == MF_SD_REF_TRANSFORM ? tf
                           : r.kind == MF_SD_REF_PATH ? path
                                                      : phys;
            arr[r.index] = 1;
        }
    }
    /* a constraint whose target (or path slot's bone) is inactive is inactive */
    for (int32_t i = 0; i < d->ik_count; i++)
        if (!bones[d->ik[i].target]) ik[i] = 0;
    for (int32_t i = 0; i < d->transform_count; i++)
        if (!bones[d->transform[i].target]) tf[i] = 0;
    for (int32_t i = 0; i < d->path_count; i++)
        if (!bones[d->slots[d->path[i].target].bone]) path[i] = 0;
    for (int32_t i = 0; i < d->physics_count; i++)
        if (!bones[d->physics[i].bone]) phys[i] = 0;

    e->skin = (mf_composed_skin){count, list, unique, entries,
                                 listed_default ? -1 : c->default_skin,
                                 bones, ik, tf, path, phys};
    *out = e;
    return MF_OK;
}

mf_result mf_skin_cache_compose(mf_skin_cache *cache, const int32_t *skins, int32_t count,
                                const mf_composed_skin **out, mf_diag *diag)
{
    if (out) *out = NULL;
    if (!cache || !out || count < 0 || (count > 0 && !skins)) {
        mf_diag_set(diag, "", "", "mf_skin_cache_compose: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    for (int32_t i = 0; i < count; i++)
        if (skins[i] < 0 || skins[i] >= cache->data->skin_count) {
            mf_diag_set(diag, "", "", "skins[%d]: skin index %d out of range (%d skins)", (int)i,
                        (int)skins[i], (int)cache->data->skin_count);
            return MF_ERR_ARGUMENT;
        }
    for (cached *e = cache->first; e; e = e->next)
        if (same_list(&e->skin, skins, count)) {
            *out = &e->skin;
            return MF_OK;
        }
    cached *e = NULL;
    mf_result r = compose(cache, skins, count, &e);
    if (r != MF_OK) {
        mf_diag_set(diag, "", "", "out of memory composing %d skins", (int)count);
        return r;
    }
    e->next = cache->first;
    cache->first = e;
    *out = &e->skin;
    return MF_OK;
}

static int32_t table_find(const mf_sd_skin_entry *e, int32_t n, int32_t slot, int32_t name)
{
    int32_t lo = 0, hi = n - 1;
    while (lo <= hi) {
        int32_t mid = (lo + hi) >> 1;
        const mf_sd_skin_entry *m = &e[mid];
        if (m->slot == slot && m->name == name) return m->attachment;
        if (m->slot < slot || (m->slot == slot && m->name < name)) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

int32_t mf_composed_skin_find(const mf_skel_data *data, const mf_composed_skin *skin, int32_t slot,
                              int32_t name)
{
    if (!data || !skin || name < 0) return -1;
    int32_t a = table_find(skin->entries, skin->entry_count, slot, name);
    if (a < 0 && skin->fallback >= 0)
        a = mf_skel_data_skin_attachment(data, skin->fallback, slot, name);
    return a;
}

int32_t mf_pose_find_attachment(const mf_pose *pose, int32_t slot, int32_t name)
{
    if (name < 0) return -1;
    if (pose->skin) return mf_composed_skin_find(pose->data, pose->skin, slot, name);
    int32_t def = pose->scratch->default_skin;
    return def >= 0 ? mf_skel_data_skin_attachment(pose->data, def, slot, name) : -1;
}

mf_result mf_pose_set_skins(mf_pose *pose, mf_skin_cache *cache, const int32_t *skins,
                            int32_t count, mf_diag *diag)
{
    if (!pose || !cache || cache->data != pose->data) {
        mf_diag_set(diag, "", "", "mf_pose_set_skins: the cache belongs to other data");
        return MF_ERR_ARGUMENT;
    }
    const mf_composed_skin *s = NULL;
    mf_result r = mf_skin_cache_compose(cache, skins, count, &s, diag);
    if (r != MF_OK) return r;
    const mf_skel_data *d = pose->data;
    pose->skin = s;
    mf_pose_slots_touched(pose); /* active bones and attachments */
    memcpy(pose->active, s->bone_active, (size_t)d->bone_count);
    memcpy(pose->ik_active, s->ik_active, (size_t)d->ik_count);
    memcpy(pose->tf_active, s->transform_active, (size_t)d->transform_count);
    memcpy(pose->path_active, s->path_active, (size_t)d->path_count);
    /* re-resolve by name; else the setup attachment if the new skins have it; else none */
    for (int32_t i = 0; i < d->slot_count; i++) {
        int32_t cur = pose->attachment[i], next = -1;
        if (cur >= 0) next = mf_pose_find_attachment(pose, i, d->attachments[cur].name);
        if (next < 0) next = mf_pose_find_attachment(pose, i, d->slots[i].attachment);
        mf_pose_set_attachment(pose, i, next);
    }
    return MF_OK;
}
