/* The plan → a rig. A first import builds the rig from scratch. A re-import merges the plan
 * onto the rig on disk and keeps everything the artist or rigger did there (bones, meshes,
 * weights, constraints, skins): only attachments of moved layers are shifted, by the layer's
 * delta taken into the bone's space, and new layers get new bones, slots and Region
 * attachments. Bone spaces come from the setup pose (Normal inheritance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_automesh.h"
#include "psd_import_internal.h"

#define DEG (3.14159265358979323846 / 180.0)

typedef struct wmat {
    double a, b, c, d, x, y;
} wmat;

/* Setup-pose world transforms, parents first. */
static wmat *world(const mf_skeleton *sk)
{
    wmat *w = calloc((size_t)sk->bone_count + 1, sizeof *w);
    if (!w) return NULL;
    for (int32_t i = 0; i < sk->bone_count; i++) {
        const mf_bone *b = &sk->bones[i];
        double la = cos((b->rot + b->shx) * DEG) * b->sx, lb = cos((b->rot + 90 + b->shy) * DEG) * b->sy;
        double lc = sin((b->rot + b->shx) * DEG) * b->sx, ld = sin((b->rot + 90 + b->shy) * DEG) * b->sy;
        /* cos(90°) is not quite 0 in doubles: keep right angles exact so positions stay round */
        if (fabs(la) < 1e-12) la = 0;
        if (fabs(lb) < 1e-12) lb = 0;
        if (fabs(lc) < 1e-12) lc = 0;
        if (fabs(ld) < 1e-12) ld = 0;
        if (b->parent < 0 || b->parent >= i) {
            w[i] = (wmat){la, lb, lc, ld, b->x, b->y};
            continue;
        }
        const wmat *p = &w[b->parent];
        w[i] = (wmat){p->a * la + p->b * lc, p->a * lb + p->b * ld, p->c * la + p->d * lc, p->c * lb + p->d * ld,
                      p->a * b->x + p->b * b->y + p->x, p->c * b->x + p->d * b->y + p->y};
    }
    return w;
}

/* A rig-space vector into a bone's space (no translation). */
static void to_local(const wmat *m, double dx, double dy, float *lx, float *ly)
{
    double det = m->a * m->d - m->b * m->c;
    if (fabs(det) < 1e-9) {
        *lx = (float)dx, *ly = (float)dy;
        return;
    }
    *lx = (float)((m->d * dx - m->b * dy) / det);
    *ly = (float)((-m->c * dx + m->a * dy) / det);
}

static void init_bone(mf_bone *b)
{
    memset(b, 0, sizeof *b);
    b->sx = b->sy = 1;
    b->inherit = MF_INHERIT_NORMAL;
    b->color = 0x989898ffu;
}

static void init_region(mf_attachment *a, int32_t slot)
{
    memset(a, 0, sizeof *a);
    a->slot = slot;
    a->type = MF_ATTACH_REGION;
    a->sx = a->sy = 1;
    a->color = 0xffffffffu;
    a->parent_skin = -1;
    a->end_slot = -1;
}

static uint32_t with_alpha(uint8_t opacity) { return 0xffffff00u | opacity; }

static mf_result oom(mf_diag *diag)
{
    mf_diag_set(diag, "", "", "out of memory");
    return MF_ERR_NOMEM;
}

/* Appends an attachment to a skin (arrays live in the skeleton's arena). */
static mf_attachment *push_attachment(mf_skeleton *sk, mf_skin *skin)
{
    mf_attachment *n = mf_skeleton_alloc(sk, sizeof *n * (size_t)(skin->attachment_count + 1));
    if (!n) return NULL;
    if (skin->attachment_count) memcpy(n, skin->attachments, sizeof *n * (size_t)skin->attachment_count);
    skin->attachments = n;
    return &n[skin->attachment_count++];
}

static int32_t ensure_skin(mf_skeleton *sk, const char *name)
{
    int32_t s = mf_skeleton_find_skin(sk, name);
    if (s >= 0) return s;
    mf_skin *n = mf_skeleton_alloc(sk, sizeof *n * (size_t)(sk->skin_count + 1));
    char *nm = mf_skeleton_strdup(sk, name);
    if (!n || !nm) return -1;
    if (sk->skin_count) memcpy(n, sk->skins, sizeof *n * (size_t)sk->skin_count);
    memset(&n[sk->skin_count], 0, sizeof *n);
    n[sk->skin_count].name = nm;
    sk->skins = n;
    return sk->skin_count++;
}

static void uid_for(const char *name, char out[17])
{
    uint64_t h = 1469598103934665603ull;
    for (const char *s = "psd:"; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    for (const char *s = name; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    snprintf(out, 17, "skl_%012llx", (unsigned long long)(h & 0xffffffffffffull));
}

static bool note(pi_map *map, const pi_item *it, const char *slot)
{
    pi_map_entry *e = pi_map_add(map);
    if (!e) return false;
    e->key = mf_arena_strdup(map->arena, it->key);
    e->image = mf_arena_strdup(map->arena, it->image);
    e->skin = it->skin ? mf_arena_strdup(map->arena, it->skin) : NULL;
    e->normal = it->normal;
    e->slot = slot ? mf_arena_strdup(map->arena, slot) : NULL;
    e->attachment = it->normal ? NULL : mf_arena_strdup(map->arena, it->attachment);
    e->x = it->x, e->y = it->y, e->w = it->w, e->h = it->h;
    e->hash = it->hash;
    e->seen = true;
    return e->key && e->image && (!it->skin || e->skin) && (it->normal || (e->slot && e->attachment));
}

static void place_region(mf_attachment *a, const pi_plan *p, const pi_item *it, const wmat *bone, float ox, float oy)
{
    double cx = it->x + it->w * 0.5 - ox, cy = it->y + it->h * 0.5 - oy;
    to_local(bone, cx - bone->x, cy - bone->y, &a->x, &a->y);
    double rot = atan2(bone->c, bone->a) / DEG;
    a->rot = fabs(rot) < 1e-4 ? 0.0f : (float)-rot;
    a->width = (float)it->w, a->height = (float)it->h;
    a->color = with_alpha(it->opacity);
    (void)p;
}

/* A [mesh] layer: a Mesh traced from the image's alpha (mf_automesh.h), unweighted, in the
 * slot bone's space. Falls back to the Region (with a report line) when no mesh can be made. */
static bool make_mesh(mf_skeleton *sk, mf_attachment *a, pi_plan *p, const pi_item *it, const wmat *bone, float ox,
                      float oy)
{
    mf_automesh m;
    mf_diag d;
    if (mf_automesh_image(it->rgba, it->w, it->h, it->w * 4, NULL, &m, &d) != MF_OK) {
        pi_report(p, "mesh: layer \"%s\" kept as a Region: %s", it->key, d.message);
        return true;
    }
    int32_t n = m.vertex_count;
    float *xy = mf_skeleton_alloc(sk, sizeof(float) * 2 * (size_t)n);
    float *uvs = mf_skeleton_alloc(sk, sizeof(float) * 2 * (size_t)n);
    int32_t *tri = mf_skeleton_alloc(sk, sizeof(int32_t) * 3 * (size_t)m.triangle_count);
    int32_t *edges = mf_skeleton_alloc(sk, sizeof(int32_t) * 2 * (size_t)m.edge_count);
    if (!xy || !uvs || !tri || !edges) {
        mf_automesh_free(&m);
        return false;
    }
    for (int32_t i = 0; i < n; i++) {
        double cx = it->x + m.xy[2 * i] - ox, cy = it->y + m.xy[2 * i + 1] - oy;
        to_local(bone, cx - bone->x, cy - bone->y, &xy[2 * i], &xy[2 * i + 1]);
    }
    memcpy(uvs, m.uvs, sizeof(float) * 2 * (size_t)n);
    memcpy(tri, m.triangles, sizeof(int32_t) * 3 * (size_t)m.triangle_count);
    memcpy(edges, m.edges, sizeof(int32_t) * 2 * (size_t)m.edge_count);
    a->type = MF_ATTACH_MESH;
    a->x = a->y = a->rot = 0;
    a->vertices.count = n;
    a->vertices.xy = xy;
    a->uv_count = n;
    a->uvs = uvs;
    a->triangle_count = m.triangle_count;
    a->triangles = tri;
    a->hull = m.hull;
    a->edge_count = m.edge_count;
    a->edges = edges;
    pi_report(p, "mesh: layer \"%s\": %d vertices, %d triangles, smallest angle %.1f degrees", it->key, (int)n,
              (int)m.triangle_count, m.min_angle);
    mf_automesh_free(&m);
    return true;
}

mf_result pi_rig_create(pi_plan *p, const char *name, mf_skeleton **out, pi_map *map, mf_diag *diag)
{
    *out = NULL;
    mf_skeleton *sk = mf_skeleton_create();
    if (!sk) return oom(diag);
    char uid[17];
    uid_for(name, uid);
    sk->uid = mf_skeleton_strdup(sk, uid);
    sk->bones = mf_skeleton_alloc(sk, sizeof *sk->bones * (size_t)p->bone_count);
    sk->slots = mf_skeleton_alloc(sk, sizeof *sk->slots * (size_t)(p->slot_count + 1));
    sk->skins = mf_skeleton_alloc(sk, sizeof *sk->skins * (size_t)(p->skin_count + 1));
    if (!sk->uid || !sk->bones || !sk->slots || !sk->skins) goto nomem;
    for (int32_t i = 0; i < p->bone_count; i++) {
        const pi_bone *pb = &p->bones[i];
        mf_bone *b = &sk->bones[i];
        init_bone(b);
        b->name = mf_skeleton_strdup(sk, pb->name);
        b->parent = pb->parent;
        b->x = pb->parent >= 0 ? pb->wx - p->bones[pb->parent].wx : 0;
        b->y = pb->parent >= 0 ? pb->wy - p->bones[pb->parent].wy : 0;
        if (!b->name) goto nomem;
    }
    sk->bone_count = p->bone_count;
    for (int32_t i = 0; i < p->slot_count; i++) {
        mf_slot *s = &sk->slots[i];
        s->name = mf_skeleton_strdup(sk, p->slots[i].name);
        s->bone = p->slots[i].bone;
        s->attachment = p->slots[i].setup ? mf_skeleton_strdup(sk, p->slots[i].setup) : NULL;
        s->color = 0xffffffffu;
        s->blend = (mf_blend)p->slots[i].blend;
        if (!s->name || (p->slots[i].setup && !s->attachment)) goto nomem;
    }
    sk->slot_count = p->slot_count;
    sk->skins[0].name = mf_skeleton_strdup(sk, "default");
    for (int32_t i = 0; i < p->skin_count; i++) sk->skins[i + 1].name = mf_skeleton_strdup(sk, p->skins[i]);
    sk->skin_count = p->skin_count + 1;
    for (int32_t i = 0; i < sk->skin_count; i++)
        if (!sk->skins[i].name) goto nomem;
    wmat *w = world(sk);
    if (!w) goto nomem;
    for (int32_t i = 0; i < p->item_count; i++) {
        const pi_item *it = &p->items[i];
        if (!it->rgba) continue;
        if (it->normal) {
            if (!note(map, it, NULL)) goto nomem_w;
            continue;
        }
        int32_t skin = it->skin ? mf_skeleton_find_skin(sk, it->skin) : 0;
        mf_attachment *a = push_attachment(sk, &sk->skins[skin]);
        if (!a) goto nomem_w;
        init_region(a, it->slot);
        a->name = mf_skeleton_strdup(sk, it->attachment);
        a->image = mf_skeleton_strdup(sk, it->image);
        if (!a->name || !a->image) goto nomem_w;
        place_region(a, p, it, &w[p->slots[it->slot].bone], p->ox, p->oy);
        if (it->mesh && !make_mesh(sk, a, p, it, &w[p->slots[it->slot].bone], p->ox, p->oy)) goto nomem_w;
        if (!note(map, it, p->slots[it->slot].name)) goto nomem_w;
    }
    free(w);
    *out = sk;
    return MF_OK;
nomem_w:
    free(w);
nomem:
    mf_skeleton_free(sk);
    return oom(diag);
}

/* ------------------------------------------------------------------ re-import */

static int32_t ensure_bone(mf_skeleton *sk, const pi_plan *p, int32_t pb, wmat **w)
{
    int32_t b = mf_skeleton_find_bone(sk, p->bones[pb].name);
    if (b >= 0) return b;
    int32_t parent = p->bones[pb].parent >= 0 ? ensure_bone(sk, p, p->bones[pb].parent, w) : -1;
    if (p->bones[pb].parent >= 0 && parent < 0) return -1;
    mf_bone *n = mf_skeleton_alloc(sk, sizeof *n * (size_t)(sk->bone_count + 1));
    char *name = mf_skeleton_strdup(sk, p->bones[pb].name);
    if (!n || !name) return -1;
    memcpy(n, sk->bones, sizeof *n * (size_t)sk->bone_count);
    mf_bone *b2 = &n[sk->bone_count];
    init_bone(b2);
    b2->name = name;
    b2->parent = parent;
    if (parent >= 0) {
        const wmat *pm = &(*w)[parent];
        to_local(pm, p->bones[pb].wx - pm->x, p->bones[pb].wy - pm->y, &b2->x, &b2->y);
    } else {
        b2->x = p->bones[pb].wx, b2->y = p->bones[pb].wy;
    }
    sk->bones = n;
    sk->bone_count++;
    wmat *nw = world(sk);
    if (!nw) return -1;
    free(*w);
    *w = nw;
    return sk->bone_count - 1;
}

/* Inserts a slot at index at, renumbering every reference to later slots. */
static int32_t insert_slot(mf_skeleton *sk, int32_t at, const pi_slot *ps, int32_t bone)
{
    mf_slot *n = mf_skeleton_alloc(sk, sizeof *n * (size_t)(sk->slot_count + 1));
    char *name = mf_skeleton_strdup(sk, ps->name);
    if (!n || !name) return -1;
    memcpy(n, sk->slots, sizeof *n * (size_t)at);
    memcpy(n + at + 1, sk->slots + at, sizeof *n * (size_t)(sk->slot_count - at));
    memset(&n[at], 0, sizeof *n);
    n[at].name = name;
    n[at].bone = bone;
    n[at].color = 0xffffffffu;
    n[at].blend = (mf_blend)ps->blend;
    sk->slots = n;
    sk->slot_count++;
    for (int32_t s = 0; s < sk->skin_count; s++)
        for (int32_t i = 0; i < sk->skins[s].attachment_count; i++) {
            mf_attachment *a = &sk->skins[s].attachments[i];
            if (a->slot >= at) a->slot++;
            if (a->end_slot >= at) a->end_slot++;
        }
    for (int32_t i = 0; i < sk->path_count; i++)
        if (sk->path[i].target >= at) sk->path[i].target++;
    return at;
}

static int32_t ensure_slot(mf_skeleton *sk, const pi_plan *p, int32_t ps, int32_t bone)
{
    int32_t s = mf_skeleton_find_slot(sk, p->slots[ps].name);
    if (s >= 0) return s;
    /* above the nearest slot below it in the PSD that the rig has */
    int32_t at = 0;
    for (int32_t k = ps - 1; k >= 0; k--) {
        int32_t below = mf_skeleton_find_slot(sk, p->slots[k].name);
        if (below >= 0) {
            at = below + 1;
            break;
        }
    }
    return insert_slot(sk, at, &p->slots[ps], bone);
}

static mf_attachment *find_attachment(mf_skeleton *sk, const char *skin, const char *slot, const char *name)
{
    int32_t si = mf_skeleton_find_skin(sk, skin ? skin : "default"), sl = mf_skeleton_find_slot(sk, slot);
    if (si < 0 || sl < 0) return NULL;
    mf_skin *s = &sk->skins[si];
    for (int32_t i = 0; i < s->attachment_count; i++)
        if (s->attachments[i].slot == sl && strcmp(s->attachments[i].name, name) == 0) return &s->attachments[i];
    return NULL;
}

/* Moves an attachment by a rig-space delta: its own placement, or every vertex of its geometry. */
static void shift(mf_skeleton *sk, mf_attachment *a, const wmat *w, double dx, double dy)
{
    const wmat *bone = &w[sk->slots[a->slot].bone];
    float lx, ly;
    to_local(bone, dx, dy, &lx, &ly);
    if (a->type == MF_ATTACH_REGION || a->type == MF_ATTACH_POINT) {
        a->x += lx, a->y += ly;
        return;
    }
    mf_vertices *v = &a->vertices;
    if (v->xy) {
        for (int32_t i = 0; i < v->count; i++) v->xy[2 * i] += lx, v->xy[2 * i + 1] += ly;
        return;
    }
    if (!v->first || !v->infl) return;
    for (int32_t i = 0; i < v->first[v->count]; i++) {
        mf_influence *f = &v->infl[i];
        int32_t b = f->bone >= 0 && f->bone < v->bone_count ? v->bones[f->bone] : -1;
        if (b < 0 || b >= sk->bone_count) continue;
        float bx, by;
        to_local(&w[b], dx, dy, &bx, &by);
        f->x += bx, f->y += by;
    }
}

static mf_result merge_item(pi_plan *p, mf_skeleton *sk, pi_map *map, int32_t i, bool *changed, pi_counts *n,
                            wmat **w, mf_diag *diag)
{
    pi_item *it = &p->items[i];
    pi_map_entry *e = pi_map_find(map, it->key);
    if (e) {
        e->seen = true;
        /* the rig's names win: the map says where this layer went */
        it->image = e->image;
        bool moved = e->x != it->x || e->y != it->y || e->w != it->w || e->h != it->h;
        bool repainted = e->hash != it->hash;
        changed[i] = repainted;
        if (!e->normal && (moved || repainted)) {
            mf_attachment *a = find_attachment(sk, e->skin, e->slot, e->attachment);
            if (!a) {
                pi_report(p, "kept out: layer \"%s\": its attachment \"%s\" (slot \"%s\") is no longer in the rig", it->key,
                          e->attachment, e->slot);
            } else if (moved) {
                double dx = (it->x + it->w * 0.5) - (e->x + e->w * 0.5), dy = (it->y + it->h * 0.5) - (e->y + e->h * 0.5);
                if (a->type != MF_ATTACH_REGION) /* geometry keeps its size: follow the top-left corner */
                    dx = it->x - e->x, dy = it->y - e->y;
                shift(sk, a, *w, dx, dy);
                if (a->type == MF_ATTACH_REGION) a->width = (float)it->w, a->height = (float)it->h;
                pi_report(p, "moved: layer \"%s\" by (%g, %g) px%s", it->key, dx, dy,
                          e->w != it->w || e->h != it->h ? ", resized" : "");
            }
        }
        if (moved) n->moved++;
        if (repainted) {
            n->updated++;
            pi_report(p, "updated: layer \"%s\" → images/%s.png", it->key, it->image);
        }
        if (!moved && !repainted) n->unchanged++;
        e->x = it->x, e->y = it->y, e->w = it->w, e->h = it->h, e->hash = it->hash;
        return MF_OK;
    }
    /* a new layer */
    changed[i] = true;
    n->added++;
    /* keep new image names clear of the ones the map already hands out */
    for (int32_t k = 0; k < map->count; k++)
        if (strcmp(map->entries[k].image, it->image) == 0) {
            char buf[300];
            for (int s = 2;; s++) {
                snprintf(buf, sizeof buf, "%s_%d", it->image, s);
                bool taken = false;
                for (int32_t j = 0; j < map->count && !taken; j++) taken = strcmp(map->entries[j].image, buf) == 0;
                if (!taken) break;
            }
            it->image = mf_arena_strdup(p->arena, buf);
            if (!it->image) return oom(diag);
            break;
        }
    if (it->normal) {
        pi_report(p, "added: normal map \"%s\" → images/%s.png", it->key, it->image);
        return note(map, it, NULL) ? MF_OK : oom(diag);
    }
    const pi_slot *ps = &p->slots[it->slot];
    int32_t bone = ensure_bone(sk, p, ps->bone, w);
    int32_t slot = bone >= 0 ? ensure_slot(sk, p, it->slot, bone) : -1;
    int32_t skin = ensure_skin(sk, it->skin ? it->skin : "default");
    if (bone < 0 || slot < 0 || skin < 0) return oom(diag);
    mf_attachment *a = push_attachment(sk, &sk->skins[skin]);
    if (!a) return oom(diag);
    init_region(a, slot);
    a->name = mf_skeleton_strdup(sk, it->attachment);
    a->image = mf_skeleton_strdup(sk, it->image);
    if (!a->name || !a->image) return oom(diag);
    place_region(a, p, it, &(*w)[sk->slots[slot].bone], map->ox, map->oy);
    if (it->mesh && !make_mesh(sk, a, p, it, &(*w)[sk->slots[slot].bone], map->ox, map->oy)) return oom(diag);
    if (!sk->slots[slot].attachment && ps->setup && strcmp(ps->setup, it->attachment) == 0)
        sk->slots[slot].attachment = mf_skeleton_strdup(sk, it->attachment);
    pi_report(p, "added: layer \"%s\" → slot \"%s\", images/%s.png", it->key, sk->slots[slot].name, it->image);
    return note(map, it, sk->slots[slot].name) ? MF_OK : oom(diag);
}

mf_result pi_rig_merge(pi_plan *p, mf_skeleton *sk, pi_map *map, bool *changed, pi_counts *counts, mf_diag *diag)
{
    memset(counts, 0, sizeof *counts);
    for (int32_t i = 0; i < map->count; i++) map->entries[i].seen = false;
    int32_t old_count = map->count;
    wmat *w = world(sk);
    if (!w) return oom(diag);
    mf_result r = MF_OK;
    for (int32_t i = 0; i < p->item_count && r == MF_OK; i++)
        if (p->items[i].rgba) r = merge_item(p, sk, map, i, changed, counts, &w, diag);
    free(w);
    for (int32_t i = 0; i < old_count && r == MF_OK; i++)
        if (!map->entries[i].seen) {
            counts->removed++;
            pi_report(p, "removed: layer \"%s\" is no longer in the PSD; images/%s.png and its attachment are kept",
                      map->entries[i].key, map->entries[i].image);
        }
    return r;
}
