/* Atlas pages and packed images in the build: page records, image rectangles, and image uvs
 * mapped onto their page. */
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"

bool mf_build_pages(mf_bctx *c)
{
    if (!c->atlas) return true;
    for (int32_t p = 0; p < c->atlas->page_count; p++) {
        const mf_build_atlas_page *ap = &c->atlas->pages[p];
        bool ok = true;
        mf_sd_page rec = {mf_intern(c, ap->name, &ok), ap->normal_name ? mf_intern(c, ap->normal_name, &ok) : -1,
                          ap->width, ap->height};
        if (!ok) return false;
        mf_sd_page *o = mf_bvec_push(&c->sec[MF_SD_SEC_PAGES], 1);
        if (!o) return mf_boom(c);
        *o = rec;
    }
    return true;
}

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const mf_build_atlas_image *)elem)->name);
}

bool mf_build_place_image(mf_bctx *c, mf_sd_image *im, const char *name)
{
    im->page = -1;
    if (!c->atlas) return true;
    const mf_build_atlas_image *a = bsearch(name, c->atlas->images, (size_t)c->atlas->image_count, sizeof *a, cmp_name);
    if (!a) return mf_bfail(c, c->skel_file, "", "image \"%s\" is not in the atlas", name);
    if (a->page < 0 || a->page >= c->atlas->page_count)
        return mf_bfail(c, c->skel_file, "", "image \"%s\": page %d outside the atlas", name, (int)a->page);
    const mf_build_atlas_page *p = &c->atlas->pages[a->page];
    im->page = a->page;
    im->x = a->x, im->y = a->y, im->w = a->w, im->h = a->h;
    im->trim_x = a->trim_x, im->trim_y = a->trim_y;
    im->orig_w = a->orig_w, im->orig_h = a->orig_h;
    im->u0 = (float)a->x / (float)p->width;
    im->v0 = (float)a->y / (float)p->height;
    im->u1 = (float)(a->x + a->w) / (float)p->width;
    im->v1 = (float)(a->y + a->h) / (float)p->height;
    return true;
}

bool mf_build_packed(const mf_bctx *c, int32_t image)
{
    const mf_bvec *v = &c->sec[MF_SD_SEC_IMAGES];
    return image >= 0 && image < v->len && MF_BVEC_AT(v, mf_sd_image, image)->page >= 0;
}

void mf_build_map_uvs(const mf_bctx *c, int32_t image, const float *in, int32_t n, float *out)
{
    if (!mf_build_packed(c, image)) {
        if (out != in) memcpy(out, in, (size_t)n * 2 * sizeof(float));
        return;
    }
    const mf_sd_image *im = MF_BVEC_AT(&c->sec[MF_SD_SEC_IMAGES], mf_sd_image, image);
    const mf_sd_page *p = MF_BVEC_AT(&c->sec[MF_SD_SEC_PAGES], mf_sd_page, im->page);
    for (int32_t k = 0; k < n; k++) {
        /* pixel in the original image → pixel on the page → page uv */
        double px = (double)in[2 * k] * im->orig_w - im->trim_x + im->x;
        double py = (double)in[2 * k + 1] * im->orig_h - im->trim_y + im->y;
        out[2 * k] = (float)(px / p->width);
        out[2 * k + 1] = (float)(py / p->height);
    }
}
