/* mf_build_atlas_make: the rig's images → trimmed, bled, extruded and packed atlas pages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build_internal.h"
#include "mf/mf_bake_cache.h"
#include "mf/mf_pack.h"
#include "mf/mf_png.h"
#include "pack/atlas_image.h"
#include "util/files.h"

typedef struct want {
    char *name;
    int32_t s, a, order; /* the first attachment using it (for errors) */
    bool is_frame;       /* a sequence frame: not trimmed */
    bool full;           /* keep the whole image (linked meshes' uvs are their parent's) */
    bool has_uv;
    float u0, v0, u1, v1; /* mesh uv bounds */
    mf_image img, normal;
    int32_t tx, ty, tw, th;
} want;

typedef struct wants {
    want *v;
    int32_t n, cap;
} wants;

void mf_build_image_name(const mf_attachment *at, int32_t frame, char *out, size_t size)
{
    const char *name = at->image ? at->image : at->name ? at->name : "";
    if (frame < 0) snprintf(out, size, "%s", name);
    else snprintf(out, size, "%s%0*ld", name, (int)at->sequence.digits, (long)at->sequence.start + frame);
}

static bool add_want(wants *w, const char *name, int32_t s, int32_t a, const mf_attachment *at, bool frame)
{
    if (w->n == w->cap) {
        int32_t cap = w->cap ? 2 * w->cap : 32;
        want *p = realloc(w->v, (size_t)cap * sizeof *p);
        if (!p) return false;
        w->v = p;
        w->cap = cap;
    }
    want *e = &w->v[w->n];
    memset(e, 0, sizeof *e);
    size_t len = strlen(name) + 1;
    if (!(e->name = malloc(len))) return false;
    memcpy(e->name, name, len);
    e->s = s, e->a = a, e->order = w->n, e->is_frame = frame;
    e->full = at->type == MF_ATTACH_LINKED_MESH;
    if (at->type == MF_ATTACH_MESH && at->uv_count > 0 && at->uvs) {
        e->has_uv = true;
        e->u0 = e->v0 = INFINITY;
        e->u1 = e->v1 = -INFINITY;
        for (int32_t k = 0; k < at->uv_count; k++) {
            float u = at->uvs[2 * k], v = at->uvs[2 * k + 1];
            if (!(u - u == 0.0f) || !(v - v == 0.0f)) continue;
            e->u0 = fminf(e->u0, u), e->u1 = fmaxf(e->u1, u);
            e->v0 = fminf(e->v0, v), e->v1 = fmaxf(e->v1, v);
        }
        if (!(e->u0 <= e->u1)) e->full = true;
    }
    w->n++;
    return true;
}

static int cmp_want(const void *pa, const void *pb)
{
    const want *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* Every image name with the union of what its users need; sorted, one entry a name. */
static bool collect(const mf_skeleton *sk, wants *w)
{
    for (int32_t s = 0; s < sk->skin_count; s++) {
        for (int32_t a = 0; a < sk->skins[s].attachment_count; a++) {
            const mf_attachment *at = &sk->skins[s].attachments[a];
            if (at->type != MF_ATTACH_REGION && at->type != MF_ATTACH_MESH && at->type != MF_ATTACH_LINKED_MESH)
                continue;
            char name[600];
            int32_t frames = at->sequence.count > 0 && at->sequence.count <= 100000 ? at->sequence.count : 0;
            for (int32_t f = frames ? 0 : -1; f < frames; f++) {
                mf_build_image_name(at, f, name, sizeof name);
                if (!add_want(w, name, s, a, at, f >= 0)) return false;
            }
        }
    }
    if (w->n > 1) qsort(w->v, (size_t)w->n, sizeof *w->v, cmp_want);
    int32_t k = 0;
    for (int32_t i = 0; i < w->n; i++) {
        if (k > 0 && strcmp(w->v[k - 1].name, w->v[i].name) == 0) {
            want *d = &w->v[k - 1], *e = &w->v[i];
            d->is_frame |= e->is_frame;
            d->full |= e->full;
            if (e->has_uv) {
                if (!d->has_uv) {
                    d->has_uv = true;
                    d->u0 = e->u0, d->v0 = e->v0, d->u1 = e->u1, d->v1 = e->v1;
                } else {
                    d->u0 = fminf(d->u0, e->u0), d->v0 = fminf(d->v0, e->v0);
                    d->u1 = fmaxf(d->u1, e->u1), d->v1 = fmaxf(d->v1, e->v1);
                }
            }
            free(e->name);
            continue;
        }
        w->v[k++] = w->v[i];
    }
    w->n = k;
    return true;
}

static void where_of(const mf_skeleton *sk, const want *e, char *out, size_t size)
{
    const mf_attachment *at = &sk->skins[e->s].attachments[e->a];
    snprintf(out, size, "skins[%d].attachments[%d].%s", (int)e->s, (int)e->a, at->image ? "image" : "name");
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Loads, scales and trims one image (and its normal map). */
static mf_result prepare(const mf_skeleton *sk, const char *skel_path, const char *dir, want *e, mf_diag *diag)
{
    char path[8800], where[300];
    where_of(sk, e, where, sizeof where);
    snprintf(path, sizeof path, "%s%s.png", dir, e->name);
    if (!is_file(path)) {
        mf_diag_set(diag, skel_path, where, "image \"%s\" not found (no %s)", e->name, path);
        return MF_ERR_INVALID;
    }
    mf_diag inner;
    mf_result r = mf_png_load(path, &e->img, &inner);
    if (r != MF_OK) {
        mf_diag_set(diag, skel_path, where, "image \"%s\": %s%s%s", e->name, inner.where, inner.where[0] ? ": " : "",
                    inner.message);
        return r;
    }
    const char *suffix = sk->import.normal_suffix ? sk->import.normal_suffix : "_n";
    snprintf(path, sizeof path, "%s%s%s.png", dir, e->name, suffix);
    if (is_file(path)) {
        r = mf_png_load(path, &e->normal, &inner);
        if (r != MF_OK) {
            mf_diag_set(diag, skel_path, where, "normal map of \"%s\": %s", e->name, inner.message);
            return r;
        }
        if (e->normal.width != e->img.width || e->normal.height != e->img.height) {
            mf_diag_set(diag, skel_path, where, "normal map %s is %dx%d, the image %dx%d", path, (int)e->normal.width,
                        (int)e->normal.height, (int)e->img.width, (int)e->img.height);
            return MF_ERR_INVALID;
        }
    }
    float scale = sk->import.scale > 0.0f ? sk->import.scale : 1.0f;
    if (scale != 1.0f) {
        int32_t w = (int32_t)lround(e->img.width * (double)scale), h = (int32_t)lround(e->img.height * (double)scale);
        w = w < 1 ? 1 : w;
        h = h < 1 ? 1 : h;
        mf_image t;
        if ((r = mf_image_resize(&e->img, w, h, &t)) != MF_OK) return r;
        mf_image_free(&e->img);
        e->img = t;
        if (e->normal.rgba) {
            if ((r = mf_image_resize(&e->normal, w, h, &t)) != MF_OK) return r;
            mf_image_free(&e->normal);
            e->normal = t;
        }
    }
    if ((r = mf_image_bleed(&e->img)) != MF_OK) return r;
    int32_t W = e->img.width, H = e->img.height;
    if (e->is_frame || e->full || !mf_image_alpha_bounds(&e->img, &e->tx, &e->ty, &e->tw, &e->th)) {
        e->tx = e->ty = 0;
        e->tw = W;
        e->th = H;
        if (!e->is_frame && !e->full) e->tw = e->th = 1; /* fully transparent: one pixel */
    }
    if (e->has_uv && !e->is_frame && !e->full) { /* a mesh must not sample outside its rectangle */
        int32_t x0 = (int32_t)floor(e->u0 * W), y0 = (int32_t)floor(e->v0 * H);
        int32_t x1 = (int32_t)ceil(e->u1 * W), y1 = (int32_t)ceil(e->v1 * H);
        x0 = x0 < 0 ? 0 : x0 > W ? W : x0;
        y0 = y0 < 0 ? 0 : y0 > H ? H : y0;
        x1 = x1 < 0 ? 0 : x1 > W ? W : x1;
        y1 = y1 < 0 ? 0 : y1 > H ? H : y1;
        int32_t ax1 = e->tx + e->tw, ay1 = e->ty + e->th;
        if (x0 < e->tx) e->tx = x0;
        if (y0 < e->ty) e->ty = y0;
        e->tw = (x1 > ax1 ? x1 : ax1) - e->tx;
        e->th = (y1 > ay1 ? y1 : ay1) - e->ty;
    }
    return MF_OK;
}

void mf_build_atlas_free(mf_build_atlas *at)
{
    if (!at) return;
    for (int32_t p = 0; at->pages && p < at->page_count; p++) {
        free(at->pages[p].name);
        free(at->pages[p].normal_name);
        free(at->pages[p].png);
        free(at->pages[p].normal_png);
    }
    for (int32_t i = 0; at->images && i < at->image_count; i++) free(at->images[i].name);
    free(at->pages);
    free(at->images);
    memset(at, 0, sizeof *at);
}

static char *dup_printf(const char *a, const char *b, int32_t n)
{
    size_t len = strlen(a) + strlen(b) + 16;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s%s%d.png", a, b, (int)n);
    return s;
}

static mf_result compose(const mf_skeleton *sk, const char *page_stem, wants *w, const mf_pack_rect *rects,
                         const mf_pack_result *pr, mf_build_atlas *at, mf_build_progress_fn progress, void *user, mf_diag *diag)
{
    int32_t pad = sk->import.padding > 0 ? sk->import.padding : 0;
    for (int32_t p = 0; p < pr->page_count; p++) {
        mf_build_atlas_page *pg = &at->pages[p];
        pg->width = pr->pages[p].width;
        pg->height = pr->pages[p].height;
        if (!(pg->name = dup_printf(page_stem, "_", p))) return MF_ERR_NOMEM;
        if (at->has_normals && !(pg->normal_name = dup_printf(page_stem, "_n", p))) return MF_ERR_NOMEM;
        mf_image page = {0}, npage = {0};
        mf_result r = mf_image_alloc(&page, pg->width, pg->height);
        if (r == MF_OK && at->has_normals) {
            r = mf_image_alloc(&npage, pg->width, pg->height);
            for (size_t k = 0; r == MF_OK && k < (size_t)pg->width * pg->height; k++) {
                uint8_t flat[4] = {128, 128, 255, 255}; /* a flat normal where an image has none */
                memcpy(npage.rgba + k * 4, flat, 4);
            }
        }
        for (int32_t i = 0; r == MF_OK && i < w->n; i++) {
            if (rects[i].page != p) continue;
            const want *e = &w->v[i];
            mf_image_blit_extrude(&page, rects[i].x, rects[i].y, &e->img, e->tx, e->ty, e->tw, e->th, pad);
            if (e->normal.rgba)
                mf_image_blit_extrude(&npage, rects[i].x, rects[i].y, &e->normal, e->tx, e->ty, e->tw, e->th, pad);
        }
        if (r == MF_OK) r = mf_png_encode(&page, &pg->png, &pg->png_size, diag);
        if (r == MF_OK && at->has_normals) r = mf_png_encode(&npage, &pg->normal_png, &pg->normal_png_size, diag);
        mf_image_free(&page);
        mf_image_free(&npage);
        if (r != MF_OK) return r;
        if (progress) progress(user, "pages", p + 1, pr->page_count);
    }
    (void)sk;
    return MF_OK;
}

/* The images folder with a trailing '/'; false when the path is too long. */
static bool images_dir(const mf_skeleton *sk, const char *skel_path, char *dir, size_t size)
{
    char rel[4096];
    mf_path_dir(skel_path, rel, sizeof rel);
    const char *images = sk->import.images ? sk->import.images : "images/";
    size_t il = strlen(images);
    int len = snprintf(dir, size, "%s%s%s", images[0] == '/' ? "" : rel, images, il && images[il - 1] == '/' ? "" : "/");
    return len >= 0 && (size_t)len < size;
}

static void hash_file(mf_bake_hasher *h, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    if (is_file(path) && mf_read_file(path, &data, &len, NULL) == MF_OK) mf_bake_hash_field(h, data, len);
    else mf_bake_hash_str(h, NULL); /* missing or unreadable */
    free(data);
}

bool mf_build_atlas_hash_inputs(const mf_skeleton *sk, const char *skel_path, mf_bake_hasher *h)
{
    char dir[4096], path[8800];
    if (!images_dir(sk, skel_path, dir, sizeof dir)) return false;
    if (!is_dir(dir)) {
        mf_bake_hash_str(h, "no images folder");
        return true;
    }
    wants w = {0};
    bool ok = collect(sk, &w);
    const char *suffix = sk->import.normal_suffix ? sk->import.normal_suffix : "_n";
    mf_bake_hash_u64(h, (uint64_t)w.n);
    for (int32_t i = 0; i < w.n; i++) {
        if (ok) {
            mf_bake_hash_str(h, w.v[i].name);
            snprintf(path, sizeof path, "%s%s.png", dir, w.v[i].name);
            hash_file(h, path);
            snprintf(path, sizeof path, "%s%s%s.png", dir, w.v[i].name, suffix);
            hash_file(h, path);
        }
        free(w.v[i].name);
    }
    free(w.v);
    return ok;
}

mf_result mf_build_atlas_make(const mf_skeleton *sk, const char *skel_path, const char *page_stem, mf_build_atlas *at,
                        mf_build_progress_fn progress, void *user, mf_diag *diag)
{
    if (at) memset(at, 0, sizeof *at);
    if (!sk || !skel_path || !page_stem || !at) {
        mf_diag_set(diag, "", "", "mf_build_atlas_make: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    char dir[4096];
    if (!images_dir(sk, skel_path, dir, sizeof dir)) {
        mf_diag_set(diag, skel_path, "import.images", "the images folder path is too long");
        return MF_ERR_INVALID;
    }
    if (!is_dir(dir)) return MF_OK; /* no images folder: images by name only */
    wants w = {0};
    mf_result r = collect(sk, &w) ? MF_OK : MF_ERR_NOMEM;
    for (int32_t i = 0; r == MF_OK && i < w.n; i++) {
        r = prepare(sk, skel_path, dir, &w.v[i], diag);
        if (w.v[i].normal.rgba) at->has_normals = true;
        if (progress) progress(user, "images", i + 1, w.n);
    }
    int32_t page_size = sk->import.page_size > 0 ? sk->import.page_size : 2048;
    int32_t pad = sk->import.padding > 0 ? sk->import.padding : 0;
    mf_pack_rect *rects = calloc((size_t)w.n + 1, sizeof *rects);
    mf_pack_result pr = {0};
    if (r == MF_OK && !rects) r = MF_ERR_NOMEM;
    for (int32_t i = 0; r == MF_OK && i < w.n; i++) {
        rects[i].w = w.v[i].tw;
        rects[i].h = w.v[i].th;
        if (rects[i].w + 2 * pad > page_size || rects[i].h + 2 * pad > page_size) {
            char where[300];
            where_of(sk, &w.v[i], where, sizeof where);
            mf_diag_set(diag, skel_path, where, "image \"%s\" (%dx%d trimmed, padding %d) does not fit import.pageSize %d",
                        w.v[i].name, (int)rects[i].w, (int)rects[i].h, (int)pad, (int)page_size);
            r = MF_ERR_INVALID;
        }
    }
    if (r == MF_OK && w.n > 0) {
        mf_pack_options o = {page_size, page_size, pad, false};
        r = mf_pack(rects, w.n, &o, &pr, diag);
    }
    if (r == MF_OK && w.n > 0) {
        at->pages = calloc((size_t)pr.page_count, sizeof *at->pages);
        at->images = calloc((size_t)w.n, sizeof *at->images);
        if (!at->pages || !at->images) r = MF_ERR_NOMEM;
        else at->page_count = pr.page_count;
    }
    for (int32_t i = 0; r == MF_OK && i < w.n; i++) {
        const want *e = &w.v[i];
        at->images[i] = (mf_build_atlas_image){e->name, rects[i].page, rects[i].x, rects[i].y, e->tw, e->th,
                                         e->tx, e->ty, e->img.width, e->img.height};
        w.v[i].name = NULL; /* owned by the atlas now */
        at->image_count = i + 1;
    }
    if (r == MF_OK && w.n > 0) {
        at->occupancy = pr.occupancy;
        r = compose(sk, page_stem, &w, rects, &pr, at, progress, user, diag);
    }
    for (int32_t i = 0; i < w.n; i++) {
        free(w.v[i].name);
        mf_image_free(&w.v[i].img);
        mf_image_free(&w.v[i].normal);
    }
    free(w.v);
    free(rects);
    mf_pack_result_free(&pr);
    if (r != MF_OK) {
        if (r == MF_ERR_NOMEM) mf_diag_set(diag, skel_path, "", "out of memory packing the images");
        mf_build_atlas_free(at);
    }
    return r;
}
