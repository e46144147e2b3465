/* mf_pack: rectangles into pages with MaxRects (best short-side fit, no rotation).
 * Several input orders are tried and the best result kept (fewest pages, then the least page
 * area); each page then shrinks to the smallest size its rectangles still pack into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pack_internal.h"

typedef struct pack_job {
    const mf_pack_rect *in;
    int32_t count, pad, max_w, max_h;
    int32_t *order; /* rect indices in packing order */
} pack_job;

enum { ORDER_AREA, ORDER_MAX_SIDE, ORDER_HEIGHT, ORDER_WIDTH, ORDER_COUNT };

static int64_t order_key(const mf_pack_rect *r, int kind)
{
    int64_t w = r->w, h = r->h;
    switch (kind) {
    case ORDER_AREA: return w * h * 65536 + (w > h ? w : h);
    case ORDER_MAX_SIDE: return (w > h ? w : h) * 65536 * 16 + w * h / 65536;
    case ORDER_HEIGHT: return h * 65536 + w;
    default: return w * 65536 + h;
    }
}

/* insertion sort would be quadratic for thousands of images; a merge sort keeps it stable */
static void sort_order(int32_t *idx, int32_t *tmp, int32_t n, const mf_pack_rect *r, int kind)
{
    if (n < 2) return;
    int32_t m = n / 2;
    sort_order(idx, tmp, m, r, kind);
    sort_order(idx + m, tmp, n - m, r, kind);
    int32_t a = 0, b = m, k = 0;
    while (a < m && b < n) {
        if (order_key(&r[idx[b]], kind) > order_key(&r[idx[a]], kind)) tmp[k++] = idx[b++];
        else tmp[k++] = idx[a++];
    }
    while (a < m) tmp[k++] = idx[a++];
    while (b < n) tmp[k++] = idx[b++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* Packs job->order[0..n) into as many max-size bins as needed. place[i] = (page, x, y) of
 * job->order[i]'s padded box. Returns the page count, -1 out of memory. */
static int32_t pack_pages(const pack_job *job, const int32_t *order, int32_t n, int32_t bw, int32_t bh,
                          int32_t max_pages, int32_t *place)
{
    mf_mr_bin *bins = NULL;
    int32_t nb = 0, rc = 0;
    for (int32_t i = 0; i < n && rc >= 0; i++) {
        const mf_pack_rect *r = &job->in[order[i]];
        int32_t w = r->w + 2 * job->pad, h = r->h + 2 * job->pad;
        mf_mr_score best = {0, 0, 0, 0};
        int32_t page = -1;
        for (int32_t p = 0; p < nb; p++) {
            mf_mr_score s;
            if (mf_mr_find(&bins[p], w, h, &s) && (page < 0 || mf_mr_better(&s, &best))) {
                best = s;
                page = p;
            }
        }
        if (page < 0) {
            if (nb >= max_pages) {
                rc = -2;
                break;
            }
            mf_mr_bin *nbins = realloc(bins, (size_t)(nb + 1) * sizeof *bins);
            if (!nbins) {
                rc = -1;
                break;
            }
            bins = nbins;
            memset(&bins[nb], 0, sizeof bins[nb]);
            mf_mr_init(&bins[nb], bw, bh);
            page = nb++;
            if (!bins[page].free || !mf_mr_find(&bins[page], w, h, &best)) {
                rc = bins[page].free ? -2 : -1;
                break;
            }
        }
        if (!mf_mr_place(&bins[page], (mf_mr_box){best.x, best.y, w, h})) rc = -1;
        place[3 * i] = page;
        place[3 * i + 1] = best.x;
        place[3 * i + 2] = best.y;
    }
    for (int32_t p = 0; p < nb; p++) mf_mr_free(&bins[p]);
    free(bins);
    return rc < 0 ? rc : nb;
}

/* The bounding size of what landed on page p. */
static void used_bounds(const pack_job *job, const int32_t *order, int32_t n, const int32_t *place, int32_t p,
                        int32_t *w, int32_t *h, int64_t *area)
{
    *w = *h = 0;
    *area = 0;
    for (int32_t i = 0; i < n; i++) {
        if (place[3 * i] != p) continue;
        const mf_pack_rect *r = &job->in[order[i]];
        int32_t x1 = place[3 * i + 1] + r->w + 2 * job->pad, y1 = place[3 * i + 2] + r->h + 2 * job->pad;
        if (x1 > *w) *w = x1;
        if (y1 > *h) *h = y1;
        *area += (int64_t)(r->w + 2 * job->pad) * (r->h + 2 * job->pad);
    }
}

/* Repacks one page's rectangles into the smallest page (by area) they fit on alone. */
static bool shrink_page(const pack_job *job, int32_t *order, int32_t n, int32_t *place, int32_t p,
                        int32_t *pw, int32_t *ph)
{
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) m += place[3 * i] == p;
    int32_t *sub = malloc((size_t)m * sizeof *sub), *sp = malloc((size_t)m * 3 * sizeof *sp),
            *bestp = malloc((size_t)m * 3 * sizeof *bestp), *pos = malloc((size_t)m * sizeof *pos);
    bool ok = sub && sp && bestp && pos;
    int32_t k = 0, minw = 1, minh = 1;
    int64_t area = 0;
    for (int32_t i = 0; ok && i < n; i++) {
        if (place[3 * i] != p) continue;
        const mf_pack_rect *r = &job->in[order[i]];
        int32_t w = r->w + 2 * job->pad, h = r->h + 2 * job->pad;
        if (w > minw) minw = w;
        if (h > minh) minh = h;
        area += (int64_t)w * h;
        pos[k] = i;
        sub[k++] = order[i];
    }
    int32_t bw, bh;
    int64_t barea;
    used_bounds(job, order, n, place, p, &bw, &bh, &barea);
    int64_t best_area = (int64_t)bw * bh;
    bool improved = false;
    int32_t step = job->max_w / 128 > 4 ? job->max_w / 128 : 4;
    for (int32_t w = minw; ok && w <= job->max_w; w = w + step > job->max_w && w < job->max_w ? job->max_w : w + step) {
        if ((int64_t)w * minh >= best_area) break; /* wider pages can only be larger */
        int32_t lo = minh > (int32_t)(area / w) ? minh : (int32_t)(area / w), hi = job->max_h;
        if ((int64_t)w * lo >= best_area) continue;
        if (hi > best_area / w) hi = (int32_t)(best_area / w);
        int32_t found = -1;
        while (lo <= hi) { /* the least height that holds every rect at this width */
            int32_t mid = lo + (hi - lo) / 2;
            int32_t got = pack_pages(job, sub, m, w, mid, 1, sp);
            if (got == -1) {
                ok = false;
                break;
            }
            if (got == 1) {
                found = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        if (!ok || found < 0) continue;
        if (pack_pages(job, sub, m, w, found, 1, sp) != 1) continue;
        int32_t uw = 0, uh = 0;
        for (int32_t j = 0; j < m; j++) {
            const mf_pack_rect *r = &job->in[sub[j]];
            if (sp[3 * j + 1] + r->w + 2 * job->pad > uw) uw = sp[3 * j + 1] + r->w + 2 * job->pad;
            if (sp[3 * j + 2] + r->h + 2 * job->pad > uh) uh = sp[3 * j + 2] + r->h + 2 * job->pad;
        }
        if ((int64_t)uw * uh < best_area) {
            best_area = (int64_t)uw * uh;
            bw = uw;
            bh = uh;
            memcpy(bestp, sp, (size_t)m * 3 * sizeof *sp);
            improved = true;
        }
    }
    for (int32_t j = 0; ok && improved && j < m; j++) {
        place[3 * pos[j] + 1] = bestp[3 * j + 1];
        place[3 * pos[j] + 2] = bestp[3 * j + 2];
    }
    *pw = bw;
    *ph = bh;
    free(sub);
    free(sp);
    free(bestp);
    free(pos);
    return ok;
}

void mf_pack_result_free(mf_pack_result *res)
{
    if (!res) return;
    free(res->pages);
    memset(res, 0, sizeof *res);
}

mf_result mf_pack(mf_pack_rect *rects, int32_t count, const mf_pack_options *opt, mf_pack_result *out,
                  mf_diag *diag)
{
    if (out) memset(out, 0, sizeof *out);
    if (!opt || !out || count < 0 || (count > 0 && !rects) || opt->max_width < 1 || opt->max_height < 1 ||
        opt->max_width > 65536 || opt->max_height > 65536 || opt->padding < 0 || opt->padding > 256) {
        mf_diag_set(diag, "", "", "mf_pack: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    pack_job job = {rects, count, opt->padding, opt->max_width, opt->max_height, NULL};
    int32_t n = 0;
    for (int32_t i = 0; i < count; i++) {
        mf_pack_rect *r = &rects[i];
        if (r->w < 0 || r->h < 0 || (int64_t)r->w + 2 * opt->padding > opt->max_width ||
            (int64_t)r->h + 2 * opt->padding > opt->max_height) {
            char where[40];
            snprintf(where, sizeof where, "rects[%d]", (int)i);
            mf_diag_set(diag, "", where, "%d x %d with padding %d does not fit a %d x %d page", (int)r->w, (int)r->h,
                        (int)opt->padding, (int)opt->max_width, (int)opt->max_height);
            return MF_ERR_INVALID;
        }
        r->page = 0;
        r->x = r->y = opt->padding;
        if (r->w > 0 && r->h > 0) n++;
    }
    int32_t *order = malloc(((size_t)n + 1) * sizeof *order), *tmp = malloc(((size_t)n + 1) * sizeof *tmp),
            *place = malloc(((size_t)n + 1) * 3 * sizeof *place), *best_order = malloc(((size_t)n + 1) * sizeof *order),
            *best_place = malloc(((size_t)n + 1) * 3 * sizeof *place);
    mf_result res = MF_OK;
    int32_t best_pages = -1;
    int64_t best_area = 0;
    if (!order || !tmp || !place || !best_order || !best_place) res = MF_ERR_NOMEM;
    for (int kind = 0; res == MF_OK && kind < ORDER_COUNT && n > 0; kind++) {
        int32_t k = 0;
        for (int32_t i = 0; i < count; i++)
            if (rects[i].w > 0 && rects[i].h > 0) order[k++] = i;
        sort_order(order, tmp, n, rects, kind);
        int32_t pages = pack_pages(&job, order, n, opt->max_width, opt->max_height, INT32_MAX, place);
        if (pages < 0) {
            res = MF_ERR_NOMEM;
            break;
        }
        /* fewer pages wins; then the smallest last page (the earlier ones are full) */
        int32_t lw, lh;
        int64_t la;
        used_bounds(&job, order, n, place, pages - 1, &lw, &lh, &la);
        int64_t area = (int64_t)lw * lh;
        if (best_pages < 0 || pages < best_pages || (pages == best_pages && area < best_area)) {
            best_pages = pages;
            best_area = area;
            memcpy(best_order, order, (size_t)n * sizeof *order);
            memcpy(best_place, place, (size_t)n * 3 * sizeof *place);
        }
    }
    int32_t pages = best_pages < 0 ? (count > 0 ? 1 : 0) : best_pages;
    if (res == MF_OK && pages > 0) {
        out->pages = calloc((size_t)pages, sizeof *out->pages);
        if (!out->pages) res = MF_ERR_NOMEM;
    }
    job.order = best_order;
    int64_t used = 0, total = 0;
    for (int32_t p = 0; res == MF_OK && p < pages; p++) {
        int32_t w = opt->max_width, h = opt->max_height;
        if (n == 0) {
            w = h = 1;
        } else if (!opt->fixed_size && !shrink_page(&job, best_order, n, best_place, p, &w, &h)) {
            res = MF_ERR_NOMEM;
            break;
        }
        int32_t uw, uh;
        int64_t area = 0;
        if (n > 0) used_bounds(&job, best_order, n, best_place, p, &uw, &uh, &area);
        out->pages[p] = (mf_pack_page){w, h, area};
        used += area;
        total += (int64_t)w * h;
    }
    for (int32_t i = 0; res == MF_OK && i < n; i++) {
        mf_pack_rect *r = &rects[best_order[i]];
        r->page = best_place[3 * i];
        r->x = best_place[3 * i + 1] + opt->padding;
        r->y = best_place[3 * i + 2] + opt->padding;
    }
    if (res == MF_OK) {
        out->page_count = pages;
        out->occupancy = total > 0 ? (double)used / (double)total : 0.0;
    } else {
        mf_pack_result_free(out);
        mf_diag_set(diag, "", "", "mf_pack: out of memory");
    }
    free(order);
    free(tmp);
    free(place);
    free(best_order);
    free(best_place);
    return res;
}
