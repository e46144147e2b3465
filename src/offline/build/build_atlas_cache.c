/* An atlas as a bake cache payload: a bundle of its page PNGs (and normal pages) plus an
 * "atlas" table, so a rebuild whose rig and images did not change (a clip edit) skips loading
 * and packing the images. The table, little-endian:
 *
 *     uint32 page count, image count, has_normals; float64 occupancy (its bits as uint64)
 *     per page:  int32 width, height
 *     per image: uint32 name length, name, int32 page, x, y, w, h, trim_x, trim_y, orig_w, orig_h
 *
 * Decoding checks every size, that images are sorted by name (the build binary-searches
 * them) and that each rectangle lies on its page; anything else is a miss. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "mf/mf_bake_cache.h"

#define MAX_PAGES 64

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} wbuf;

static void put(wbuf *b, const void *data, size_t n)
{
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_u32(wbuf *b, uint32_t v)
{
    uint8_t q[4];
    for (int i = 0; i < 4; i++) q[i] = (uint8_t)(v >> (8 * i));
    put(b, q, 4);
}

static void put_u64(wbuf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

mf_result mf_build_atlas_encode(const mf_build_atlas *at, void **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (at->page_count > MAX_PAGES) return MF_ERR_ARGUMENT;
    wbuf t = {0};
    uint64_t occ;
    memcpy(&occ, &at->occupancy, sizeof occ);
    put_u32(&t, (uint32_t)at->page_count);
    put_u32(&t, (uint32_t)at->image_count);
    put_u32(&t, at->has_normals ? 1u : 0u);
    put_u64(&t, occ);
    for (int32_t p = 0; p < at->page_count; p++) {
        put_u32(&t, (uint32_t)at->pages[p].width);
        put_u32(&t, (uint32_t)at->pages[p].height);
    }
    for (int32_t i = 0; i < at->image_count; i++) {
        const mf_build_atlas_image *im = &at->images[i];
        size_t nl = strlen(im->name);
        put_u32(&t, (uint32_t)nl);
        put(&t, im->name, nl);
        const int32_t v[9] = {im->page, im->x, im->y, im->w, im->h, im->trim_x, im->trim_y, im->orig_w, im->orig_h};
        for (int k = 0; k < 9; k++) put_u32(&t, (uint32_t)v[k]);
    }
    mf_bake_item items[2 * MAX_PAGES + 1];
    int32_t n = 0;
    for (int32_t p = 0; p < at->page_count; p++) {
        const mf_build_atlas_page *pg = &at->pages[p];
        items[n++] = (mf_bake_item){pg->name, pg->png, pg->png_size};
        if (pg->normal_name) items[n++] = (mf_bake_item){pg->normal_name, pg->normal_png, pg->normal_png_size};
    }
    items[n++] = (mf_bake_item){"atlas", t.p, t.len};
    mf_result r = t.oom ? MF_ERR_NOMEM : mf_bake_bundle_encode(items, n, out, len);
    free(t.p);
    return r;
}

typedef struct rbuf {
    const uint8_t *p;
    size_t len, at;
    bool bad;
} rbuf;

static uint32_t get_u32(rbuf *b)
{
    if (b->bad || b->len - b->at < 4) {
        b->bad = true;
        return 0;
    }
    const uint8_t *q = b->p + b->at;
    b->at += 4;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

static char *copy(const void *data, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        if (n) memcpy(s, data, n);
        s[n] = '\0';
    }
    return s;
}

static const mf_bake_item *find_item(const mf_bake_item *items, int32_t n, const char *name)
{
    for (int32_t i = 0; i < n; i++)
        if (strcmp(items[i].name, name) == 0) return &items[i];
    return NULL;
}

/* One page record and its PNG(s) from the bundle. */
static bool read_page(rbuf *t, const mf_bake_item *items, int32_t n, int32_t p, bool normals, mf_build_atlas_page *pg)
{
    char name[32], nname[32];
    snprintf(name, sizeof name, "_%d.png", (int)p);
    snprintf(nname, sizeof nname, "_n%d.png", (int)p);
    pg->width = (int32_t)get_u32(t);
    pg->height = (int32_t)get_u32(t);
    if (t->bad || pg->width < 1 || pg->width > 65536 || pg->height < 1 || pg->height > 65536) return false;
    const mf_bake_item *png = find_item(items, n, name), *npng = normals ? find_item(items, n, nname) : NULL;
    if (!png || (normals && !npng)) return false;
    if (!(pg->name = copy(name, strlen(name))) || !(pg->png = copy(png->data, png->size))) return false;
    pg->png_size = png->size;
    if (normals) {
        if (!(pg->normal_name = copy(nname, strlen(nname))) || !(pg->normal_png = copy(npng->data, npng->size)))
            return false;
        pg->normal_png_size = npng->size;
    }
    return true;
}

static bool read_image(rbuf *t, const mf_build_atlas *at, const char *prev, mf_build_atlas_image *im)
{
    uint32_t nl = get_u32(t);
    if (t->bad || nl > 4096 || nl > t->len - t->at) return false;
    if (!(im->name = copy(t->p + t->at, nl))) return false;
    t->at += nl;
    if (strlen(im->name) != nl || (prev && strcmp(prev, im->name) >= 0)) return false; /* sorted, unique */
    int32_t v[9];
    for (int k = 0; k < 9; k++) v[k] = (int32_t)get_u32(t);
    if (t->bad) return false;
    *im = (mf_build_atlas_image){im->name, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
    if (im->page < 0 || im->page >= at->page_count) return false;
    const mf_build_atlas_page *pg = &at->pages[im->page];
    return im->x >= 0 && im->y >= 0 && im->w >= 0 && im->h >= 0 && im->w <= pg->width - im->x &&
           im->h <= pg->height - im->y && im->orig_w >= 1 && im->orig_h >= 1 && im->orig_w <= 65536 &&
           im->orig_h <= 65536 && im->trim_x >= 0 && im->trim_y >= 0;
}

bool mf_build_atlas_decode(const void *payload, size_t len, mf_build_atlas *at)
{
    memset(at, 0, sizeof *at);
    mf_bake_item *items = NULL;
    int32_t n = 0;
    if (mf_bake_bundle_decode(payload, len, &items, &n, NULL) != MF_OK) return false;
    const mf_bake_item *table = find_item(items, n, "atlas");
    bool ok = table != NULL;
    rbuf t = {table ? table->data : NULL, table ? table->size : 0, 0, false};
    uint32_t pages = get_u32(&t), images = get_u32(&t), normals = get_u32(&t);
    uint64_t occ = get_u32(&t);
    occ |= (uint64_t)get_u32(&t) << 32;
    ok = ok && !t.bad && pages <= MAX_PAGES && images <= t.len / 40 && normals <= 1 && (pages > 0 || images == 0);
    if (ok) {
        memcpy(&at->occupancy, &occ, sizeof occ);
        at->has_normals = normals == 1;
        at->pages = calloc(pages + 1u, sizeof *at->pages);
        at->images = calloc(images + 1u, sizeof *at->images);
        ok = at->pages && at->images && at->occupancy >= 0.0 && at->occupancy <= 1.0;
    }
    for (uint32_t p = 0; ok && p < pages; p++) {
        at->page_count = (int32_t)p + 1;
        ok = read_page(&t, items, n, (int32_t)p, at->has_normals, &at->pages[p]);
    }
    for (uint32_t i = 0; ok && i < images; i++) {
        at->image_count = (int32_t)i + 1;
        ok = read_image(&t, at, i ? at->images[i - 1].name : NULL, &at->images[i]);
    }
    ok = ok && t.at == t.len;
    free(items);
    if (!ok) mf_build_atlas_free(at);
    return ok;
}
