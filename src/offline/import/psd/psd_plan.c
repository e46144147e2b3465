/* PSD layers → the import plan: bones from groups, slots and attachments from pixel layers,
 * skins from `[skin]` groups, with the tags of docs/psd-import.md. The plan is in canvas pixels
 * with the rig origin at the bottom centre of the canvas; building or merging the rig is done
 * elsewhere (psd_rig.c), so a first import and a re-import read the PSD the same way. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psd_import_internal.h"

typedef struct ctx {
    int32_t bone;     /* plan bone the layers go under */
    const char *skin; /* NULL: default */
    int32_t slot;     /* a [slot] group's slot, -1 */
    bool normal;      /* inside a [normal] group */
    const char *path; /* key prefix, "" at the top */
} ctx;

typedef struct walker {
    const mf_psd *psd;
    pi_plan *p;
    int32_t **children; /* per group layer (and [count] for the top): child layer indices, bottom first */
    int32_t *child_count;
    bool oom;
} walker;

void pi_report(pi_plan *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    mf_buf_puts(&p->report, line);
    mf_buf_putc(&p->report, '\n');
    p->report_lines++;
}

uint64_t pi_hash(const uint8_t *rgba, int32_t w, int32_t h)
{
    uint64_t x = 1469598103934665603ull; /* FNV-1a over the size and the pixels */
    uint8_t head[8] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24),
                       (uint8_t)h, (uint8_t)(h >> 8), (uint8_t)(h >> 16), (uint8_t)(h >> 24)};
    for (int i = 0; i < 8; i++) x = (x ^ head[i]) * 1099511628211ull;
    size_t n = (size_t)w * (size_t)h * 4;
    for (size_t i = 0; i < n; i++) x = (x ^ rgba[i]) * 1099511628211ull;
    return x;
}

static bool grow(void **arr, int32_t *cap, int32_t need, size_t size)
{
    if (need <= *cap) return true;
    int32_t n = *cap ? *cap * 2 : 16;
    while (n < need) n *= 2;
    void *a = realloc(*arr, (size_t)n * size);
    if (!a) return false;
    *arr = a;
    *cap = n;
    return true;
}

static bool name_used(const pi_plan *p, int kind, const char *name, const char *skin, int32_t slot)
{
    if (kind == 0) {
        for (int32_t i = 0; i < p->bone_count; i++)
            if (strcmp(p->bones[i].name, name) == 0) return true;
    } else if (kind == 1) {
        for (int32_t i = 0; i < p->slot_count; i++)
            if (strcmp(p->slots[i].name, name) == 0) return true;
    } else if (kind == 2) {
        for (int32_t i = 0; i < p->item_count; i++)
            if (p->items[i].image && strcmp(p->items[i].image, name) == 0) return true;
    } else {
        for (int32_t i = 0; i < p->item_count; i++) {
            const pi_item *it = &p->items[i];
            if (it->normal || it->slot != slot || strcmp(it->attachment, name) != 0) continue;
            if ((it->skin == NULL) == (skin == NULL) && (!skin || strcmp(it->skin, skin) == 0)) return true;
        }
    }
    return false;
}

/* base, or base_2, base_3 … when taken (kind 0 bones, 1 slots, 2 images, 3 attachments). */
static char *unique(walker *w, int kind, const char *base, const char *skin, int32_t slot, const char *key)
{
    char buf[300];
    snprintf(buf, sizeof buf, "%s", base);
    for (int n = 2; name_used(w->p, kind, buf, skin, slot); n++) snprintf(buf, sizeof buf, "%s_%d", base, n);
    if (strcmp(buf, base) != 0) {
        static const char *const what[] = {"bone", "slot", "image", "attachment"};
        pi_report(w->p, "renamed: layer \"%s\": %s name \"%s\" is taken, used \"%s\"", key, what[kind], base, buf);
    }
    char *s = mf_arena_strdup(w->p->arena, buf);
    if (!s) w->oom = true;
    return s;
}

static int32_t add_bone(walker *w, const char *name, int32_t parent, const char *key)
{
    pi_plan *p = w->p;
    if (!grow((void **)&p->bones, &p->bone_cap, p->bone_count + 1, sizeof *p->bones)) {
        w->oom = true;
        return 0;
    }
    char *n = unique(w, 0, name, NULL, -1, key);
    pi_bone *b = &p->bones[p->bone_count];
    memset(b, 0, sizeof *b);
    b->name = n;
    b->parent = parent;
    b->first_item = b->end_item = p->item_count;
    return p->bone_count++;
}

static int32_t add_slot(walker *w, const char *name, int32_t bone, const char *key)
{
    pi_plan *p = w->p;
    if (!grow((void **)&p->slots, &p->slot_cap, p->slot_count + 1, sizeof *p->slots)) {
        w->oom = true;
        return 0;
    }
    char *n = unique(w, 1, name, NULL, -1, key);
    pi_slot *s = &p->slots[p->slot_count];
    memset(s, 0, sizeof *s);
    s->name = n;
    s->bone = bone;
    s->blend = MF_BLEND_NORMAL;
    return p->slot_count++;
}

static int32_t find_slot(const pi_plan *p, const char *name)
{
    for (int32_t i = 0; i < p->slot_count; i++)
        if (strcmp(p->slots[i].name, name) == 0) return i;
    return -1;
}

static const char *note_skin(walker *w, const char *name)
{
    pi_plan *p = w->p;
    for (int32_t i = 0; i < p->skin_count; i++)
        if (strcmp(p->skins[i], name) == 0) return p->skins[i];
    if (!grow((void **)&p->skins, &p->skin_cap, p->skin_count + 1, sizeof *p->skins)) {
        w->oom = true;
        return NULL;
    }
    char *s = mf_arena_strdup(p->arena, name);
    if (!s) w->oom = true;
    p->skins[p->skin_count++] = s;
    return s;
}

/* Trims a layer's pixels to the canvas and to alpha > 0; *out is NULL when nothing is left. */
static bool trim(walker *w, const uint8_t *rgba, int32_t left, int32_t top, int32_t lw, int32_t lh, pi_item *it)
{
    int64_t x0 = left < 0 ? 0 : left, y0 = top < 0 ? 0 : top;
    int64_t x1 = (int64_t)left + lw, y1 = (int64_t)top + lh;
    if (x1 > w->p->canvas_w) x1 = w->p->canvas_w;
    if (y1 > w->p->canvas_h) y1 = w->p->canvas_h;
    int64_t bx0 = x1, by0 = y1, bx1 = x0, by1 = y0;
    for (int64_t y = y0; y < y1; y++)
        for (int64_t x = x0; x < x1; x++)
            if (rgba[(((size_t)(y - top)) * (size_t)lw + (size_t)(x - left)) * 4 + 3]) {
                if (x < bx0) bx0 = x;
                if (x >= bx1) bx1 = x + 1;
                if (y < by0) by0 = y;
                if (y >= by1) by1 = y + 1;
            }
    it->rgba = NULL;
    if (bx1 <= bx0 || by1 <= by0) return true;
    it->x = (int32_t)bx0, it->y = (int32_t)by0, it->w = (int32_t)(bx1 - bx0), it->h = (int32_t)(by1 - by0);
    it->rgba = malloc((size_t)it->w * (size_t)it->h * 4);
    if (!it->rgba) {
        w->oom = true;
        return false;
    }
    for (int32_t y = 0; y < it->h; y++)
        memcpy(it->rgba + (size_t)y * (size_t)it->w * 4,
               rgba + (((size_t)(it->y + y - top)) * (size_t)lw + (size_t)(it->x - left)) * 4, (size_t)it->w * 4);
    it->hash = pi_hash(it->rgba, it->w, it->h);
    return true;
}

/* A layer name as a file name: no folders ('/', '\\'), no control characters, never "." or
 * "..", so images stay inside images/ whatever the PSD says. */
static void safe_file_name(const char *name, char *out, size_t size)
{
    size_t o = 0;
    for (const unsigned char *s = (const unsigned char *)name; *s && o + 1 < size; s++)
        out[o++] = (*s == '/' || *s == '\\' || *s < 0x20 || *s == 0x7f || *s == ':') ? '_' : (char)*s;
    out[o] = '\0';
    if (o == 0 || strcmp(out, ".") == 0 || strcmp(out, "..") == 0 || out[0] == '.') {
        if (o + 1 < size) {
            memmove(out + 1, out, o + 1);
            out[0] = '_';
        }
    }
}

static char *join_key(walker *w, const char *path, const char *name)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s%s", path, path[0] ? "/" : "", name);
    char *s = mf_arena_strdup(w->p->arena, buf);
    if (!s) w->oom = true;
    return s;
}

/* One picture (a pixel layer, or a [merge] group's composite) → an item. */
static void add_picture(walker *w, const ctx *c, const pi_tags *t, const char *key, int32_t layer, const uint8_t *rgba,
                        int32_t left, int32_t top, int32_t lw, int32_t lh, bool visible, uint8_t opacity,
                        const char *blend)
{
    pi_plan *p = w->p;
    if (!grow((void **)&p->items, &p->item_cap, p->item_count + 1, sizeof *p->items)) {
        w->oom = true;
        return;
    }
    pi_item it;
    memset(&it, 0, sizeof it);
    /* keys must be unique: normal maps share their layer's name, and a group may hold two
     * layers of one name (the second becomes "name (2)") */
    char kb[1100];
    snprintf(kb, sizeof kb, "%s%s", key, t->normal || c->normal ? " [normal]" : "");
    for (int n = 2;; n++) {
        bool taken = false;
        for (int32_t i = 0; i < p->item_count && !taken; i++) taken = strcmp(p->items[i].key, kb) == 0;
        if (!taken) break;
        snprintf(kb, sizeof kb, "%s%s (%d)", key, t->normal || c->normal ? " [normal]" : "", n);
    }
    it.key = strcmp(kb, key) == 0 ? (char *)key : mf_arena_strdup(p->arena, kb);
    if (!it.key) {
        w->oom = true;
        return;
    }
    it.layer = layer;
    it.opacity = opacity;
    it.slot = -1;
    if (!trim(w, rgba, left, top, lw, lh, &it)) return;
    if (!it.rgba) {
        pi_report(p, "skipped: layer \"%s\" has no visible pixels inside the canvas", key);
        return;
    }
    if (t->normal || c->normal) {
        it.normal = true;
        it.pair = mf_arena_strdup(p->arena, t->name);
        if (!it.pair) w->oom = true;
        p->items[p->item_count++] = it;
        return;
    }
    int32_t bone = c->bone;
    if (t->bone) {
        bone = add_bone(w, t->bone_name[0] ? t->bone_name : t->name, c->bone, key);
        p->bones[bone].first_item = p->item_count;
        p->bones[bone].end_item = p->item_count + 1;
    }
    int32_t slot = c->slot;
    if (slot < 0) {
        const char *sname = t->slot_name[0] ? t->slot_name : t->name;
        if (c->skin || t->slot_name[0]) slot = find_slot(p, sname); /* skins share placeholders' slots */
        if (slot < 0) slot = add_slot(w, sname, bone, key);
        if (w->oom) return;
        int b = mf_psd_blend_to_slot(blend);
        p->slots[slot].blend = b < 0 ? MF_BLEND_NORMAL : b;
        if (b < 0) pi_report(p, "blend: layer \"%s\": blend mode \"%s\" has no slot blend, kept as Normal", key, blend);
    }
    it.slot = slot;
    it.skin = (char *)c->skin;
    char img[300], file[140], folder[140];
    safe_file_name(t->path[0] ? t->path : t->name, file, sizeof file);
    if (c->skin) {
        safe_file_name(c->skin, folder, sizeof folder);
        snprintf(img, sizeof img, "%s/%s", folder, file);
    } else {
        snprintf(img, sizeof img, "%s", file);
    }
    it.image = unique(w, 2, img, NULL, -1, key);
    it.attachment = unique(w, 3, t->name, c->skin, slot, key);
    it.mesh = t->mesh;
    if (w->oom) return;
    if (visible && (c->slot >= 0 || !p->slots[slot].setup)) p->slots[slot].setup = it.attachment;
    p->items[p->item_count++] = it;
}

/* Straight-alpha "over" of every visible pixel layer under group g (for [merge]). */
static void composite(walker *w, int32_t g, uint8_t *dst, int32_t dl, int32_t dt, int32_t dw, int32_t dh)
{
    for (int32_t k = 0; k < w->child_count[g]; k++) {
        const mf_psd_layer *L = &w->psd->layers[w->children[g][k]];
        pi_tags t;
        pi_parse_tags(L->name, &t);
        if (!L->visible || t.ignore) continue;
        if (L->kind == MF_PSD_GROUP) {
            composite(w, w->children[g][k], dst, dl, dt, dw, dh);
            continue;
        }
        if (L->kind != MF_PSD_PIXEL || !L->rgba) continue;
        for (int32_t y = 0; y < L->height; y++) {
            int64_t cy = (int64_t)L->top + y - dt;
            if (cy < 0 || cy >= dh) continue;
            for (int32_t x = 0; x < L->width; x++) {
                int64_t cx = (int64_t)L->left + x - dl;
                if (cx < 0 || cx >= dw) continue;
                const uint8_t *s = L->rgba + ((size_t)y * (size_t)L->width + (size_t)x) * 4;
                uint8_t *d = dst + ((size_t)cy * (size_t)dw + (size_t)cx) * 4;
                float sa = s[3] / 255.0f * (L->opacity / 255.0f), da = d[3] / 255.0f;
                float a = sa + da * (1 - sa);
                if (a <= 0) continue;
                for (int i = 0; i < 3; i++) d[i] = (uint8_t)((s[i] * sa + d[i] * da * (1 - sa)) / a + 0.5f);
                d[3] = (uint8_t)(a * 255 + 0.5f);
            }
        }
    }
}

static void walk(walker *w, int32_t group, const ctx *c);

static void visit_group(walker *w, int32_t idx, const mf_psd_layer *L, const pi_tags *t, const ctx *c,
                        const char *key)
{
    pi_plan *p = w->p;
    ctx sub = *c;
    sub.path = key;
    if (t->merge) {
        if (!L->visible && c->slot < 0) {
            pi_report(p, "skipped: hidden group \"%s\"", key);
            return;
        }
        if ((int64_t)p->canvas_w * p->canvas_h > ((int64_t)1 << 26)) {
            pi_report(p, "skipped: group \"%s\": the canvas is too large to merge", key);
            return;
        }
        uint8_t *buf = calloc((size_t)p->canvas_w * (size_t)p->canvas_h, 4);
        if (!buf) {
            w->oom = true;
            return;
        }
        composite(w, idx, buf, 0, 0, p->canvas_w, p->canvas_h);
        add_picture(w, c, t, key, -1, buf, 0, 0, p->canvas_w, p->canvas_h, L->visible, L->opacity, L->blend);
        free(buf);
        return;
    }
    if (t->skin) {
        sub.skin = note_skin(w, t->skin_name[0] ? t->skin_name : t->name);
        walk(w, idx, &sub); /* a skin's group may be hidden: only one skin shows at a time */
        return;
    }
    if (!L->visible && c->slot < 0) {
        pi_report(p, "skipped: hidden group \"%s\"", key);
        return;
    }
    if (t->normal) {
        sub.normal = true;
        walk(w, idx, &sub);
        return;
    }
    if (t->slot) {
        sub.slot = add_slot(w, t->slot_name[0] ? t->slot_name : t->name, c->bone, key);
        if (w->oom) return;
        int b = mf_psd_blend_to_slot(L->blend);
        p->slots[sub.slot].blend = b < 0 ? MF_BLEND_NORMAL : b;
        walk(w, idx, &sub);
        return;
    }
    /* any other group, tagged [bone] or not, is a bone */
    sub.bone = add_bone(w, t->bone_name[0] ? t->bone_name : t->name, c->bone, key);
    if (w->oom) return;
    p->bones[sub.bone].first_item = p->item_count;
    walk(w, idx, &sub);
    p->bones[sub.bone].end_item = p->item_count;
}

static void walk(walker *w, int32_t group, const ctx *c)
{
    int32_t slot = group < 0 ? w->psd->layer_count : group;
    for (int32_t k = 0; k < w->child_count[slot] && !w->oom; k++) {
        int32_t idx = w->children[slot][k];
        const mf_psd_layer *L = &w->psd->layers[idx];
        pi_tags t;
        pi_parse_tags(L->name, &t);
        if (!t.name[0]) snprintf(t.name, sizeof t.name, "layer%d", (int)L->record);
        const char *key = join_key(w, c->path, t.name);
        if (!key) return;
        if (t.unknown[0]) pi_report(w->p, "tags: layer \"%s\": %s not supported, ignored", key, t.unknown);
        if (t.ignore) {
            pi_report(w->p, "ignored: \"%s\" ([ignore])", key);
        } else if (L->kind == MF_PSD_SKIPPED) {
            pi_report(w->p, "skipped: layer \"%s\" is a %s", key, L->skip_reason);
        } else if (L->kind == MF_PSD_GROUP) {
            visit_group(w, idx, L, &t, c, key);
        } else if (!L->visible && c->slot < 0 && !c->normal && !t.normal) {
            pi_report(w->p, "skipped: hidden layer \"%s\"", key);
        } else if (L->rgba) {
            add_picture(w, c, &t, key, idx, L->rgba, L->left, L->top, L->width, L->height, L->visible, L->opacity,
                        L->blend);
        } else {
            pi_report(w->p, "skipped: layer \"%s\" is empty", key);
        }
    }
}

/* A normal map takes the size and place of the layer it belongs to: images/IMAGE_n.png. */
static void pair_normals(walker *w)
{
    pi_plan *p = w->p;
    for (int32_t i = 0; i < p->item_count && !w->oom; i++) {
        pi_item *n = &p->items[i];
        if (!n->normal) continue;
        const pi_item *colour = NULL;
        for (int32_t j = 0; j < p->item_count && !colour; j++) {
            const pi_item *c = &p->items[j];
            if (!c->normal && c->layer >= 0 && strcmp(c->attachment, n->pair) == 0) colour = c;
        }
        if (!colour) {
            pi_report(p, "normal: layer \"%s\" has no layer named \"%s\" to pair with, left out", n->key, n->pair);
            free(n->rgba);
            n->rgba = NULL;
            continue;
        }
        /* re-cut from the layer itself so that the rectangles match */
        const mf_psd_layer *L = &w->psd->layers[n->layer];
        uint8_t *cut = calloc((size_t)colour->w * (size_t)colour->h, 4);
        if (!cut) {
            w->oom = true;
            return;
        }
        for (int32_t y = 0; y < colour->h; y++)
            for (int32_t x = 0; x < colour->w; x++) {
                int64_t lx = (int64_t)colour->x + x - L->left, ly = (int64_t)colour->y + y - L->top;
                if (lx < 0 || ly < 0 || lx >= L->width || ly >= L->height) continue;
                memcpy(cut + ((size_t)y * (size_t)colour->w + (size_t)x) * 4,
                       L->rgba + ((size_t)ly * (size_t)L->width + (size_t)lx) * 4, 4);
            }
        free(n->rgba);
        n->rgba = cut;
        n->x = colour->x, n->y = colour->y, n->w = colour->w, n->h = colour->h;
        n->hash = pi_hash(cut, n->w, n->h);
        char img[300];
        snprintf(img, sizeof img, "%s_n", colour->image);
        n->image = mf_arena_strdup(p->arena, img);
        n->attachment = n->image;
        if (!n->image) w->oom = true;
    }
}

/* Bones sit at the centre of what their group shows (the parent's place when it shows nothing). */
static void place_bones(pi_plan *p)
{
    for (int32_t b = 0; b < p->bone_count; b++) {
        pi_bone *bone = &p->bones[b];
        int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
        for (int32_t i = bone->first_item; i < bone->end_item && b > 0; i++) {
            const pi_item *it = &p->items[i];
            if (it->normal || !it->rgba) continue;
            if (it->x < x0) x0 = it->x;
            if (it->y < y0) y0 = it->y;
            if ((int64_t)it->x + it->w > x1) x1 = (int64_t)it->x + it->w;
            if ((int64_t)it->y + it->h > y1) y1 = (int64_t)it->y + it->h;
        }
        if (x0 > x1) {
            bone->wx = bone->parent >= 0 ? p->bones[bone->parent].wx : 0;
            bone->wy = bone->parent >= 0 ? p->bones[bone->parent].wy : 0;
        } else {
            bone->wx = (float)((x0 + x1) / 2) - p->ox; /* whole pixels keep the numbers readable */
            bone->wy = (float)((y0 + y1) / 2) - p->oy;
        }
    }
}

mf_result pi_plan_build(const mf_psd *psd, pi_plan *p, const float *origin, mf_diag *diag)
{
    memset(p, 0, sizeof *p);
    p->arena = mf_arena_create();
    walker w = {.psd = psd, .p = p};
    int32_t n = psd->layer_count;
    w.children = calloc((size_t)n + 1, sizeof *w.children);
    w.child_count = calloc((size_t)n + 1, sizeof *w.child_count);
    int32_t *store = calloc((size_t)n + 1, sizeof *store);
    if (!p->arena || !w.children || !w.child_count || !store) {
        free(w.children), free(w.child_count), free(store);
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    /* children lists in file order (bottom first = draw order) */
    for (int32_t i = 0; i < n; i++) w.child_count[psd->layers[i].parent < 0 ? n : psd->layers[i].parent]++;
    int32_t at = 0;
    for (int32_t g = 0; g <= n; g++) {
        w.children[g] = store + at;
        at += w.child_count[g];
        w.child_count[g] = 0;
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t g = psd->layers[i].parent < 0 ? n : psd->layers[i].parent;
        w.children[g][w.child_count[g]++] = i;
    }
    p->canvas_w = psd->width, p->canvas_h = psd->height;
    p->ox = origin ? origin[0] : (float)(psd->width / 2);
    p->oy = origin ? origin[1] : (float)psd->height;
    for (int32_t i = 0; i < psd->warning_count; i++) pi_report(p, "not applied: %s", psd->warnings[i]);
    add_bone(&w, "root", -1, "");
    ctx top = {.bone = 0, .skin = NULL, .slot = -1, .normal = false, .path = ""};
    walk(&w, -1, &top);
    if (!w.oom) pair_normals(&w);
    if (!w.oom) place_bones(p);
    free(w.children), free(w.child_count), free(store);
    if (w.oom || p->report.oom) {
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    return MF_OK;
}

void pi_plan_free(pi_plan *p)
{
    for (int32_t i = 0; i < p->item_count; i++) free(p->items[i].rgba);
    free(p->items), free(p->bones), free(p->slots), free(p->skins);
    mf_buf_free(&p->report);
    mf_arena_destroy(p->arena);
    memset(p, 0, sizeof *p);
}
