/* mf_spine_import: Spine JSON + atlas + pages → DIR/NAME.mskel, DIR/NAME.clips/CLIP.manim,
 * DIR/images/REGION.png and DIR/import-report.txt, written through a temporary folder. The result is
 * read back and checked (mf_skeleton_parse, mf_clip_parse, mf_clip_check) before it is moved
 * into place, so a rig that imports is a rig that loads. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spine_internal.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/suggest.h"

typedef struct job {
    const char *json_path;
    char atlas_path[4096 + 300];
    char name[256];
    mf_spine_rig *rig;
    mf_atlas *atlas;
    mf_image *pages; /* decoded lazily */
    sp_out out;
    char **extra;    /* report lines the import adds (atlas, images) */
    int32_t extra_count, extra_cap;
    int32_t images_written;
} job;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static mf_result add_line(job *j, mf_diag *diag, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static mf_result add_line(job *j, mf_diag *diag, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (j->extra_count == j->extra_cap) {
        int32_t cap = j->extra_cap ? j->extra_cap * 2 : 8;
        char **n = realloc(j->extra, (size_t)cap * sizeof *n);
        if (!n) goto oom;
        j->extra = n;
        j->extra_cap = cap;
    }
    if (!(j->extra[j->extra_count] = malloc(strlen(line) + 1))) goto oom;
    strcpy(j->extra[j->extra_count++], line);
    return MF_OK;
oom:
    mf_diag_set(diag, j->json_path, "", "out of memory");
    return MF_ERR_NOMEM;
}

static const char *region_name_at(const void *ctx, int i) { return ((const mf_atlas *)ctx)->regions[i].name; }

/* An image name must stay inside images/: no absolute paths, no "..", no backslashes. */
static bool safe_name(const char *s)
{
    if (!s[0] || s[0] == '/' || strchr(s, '\\')) return false;
    for (const char *p = s; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0 || (n == 2 && p[0] == '.' && p[1] == '.') || (n == 1 && p[0] == '.')) return false;
        p += n + (e ? 1 : 0);
    }
    return true;
}

/* Every image the rig draws must be an atlas region. */
static mf_result check_images(job *j, mf_diag *diag)
{
    for (int32_t i = 0; i < j->rig->image_count; i++) {
        const char *name = j->rig->images[i];
        if (!safe_name(name)) {
            mf_diag_set(diag, j->json_path, j->rig->image_where[i],
                        "image name \"%s\" would leave the images folder", name);
            return MF_ERR_INVALID;
        }
        if (mf_atlas_find(j->atlas, name)) continue;
        char sfx[300];
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(name, j->atlas->region_count, region_name_at, j->atlas));
        mf_diag_set(diag, j->json_path, j->rig->image_where[i], "image \"%s\" is not in the atlas %s%s", name,
                    j->atlas_path, sfx);
        return MF_ERR_INVALID;
    }
    return MF_OK;
}

static mf_result page_pixels(job *j, int32_t p, mf_diag *diag)
{
    if (j->pages[p].rgba) return MF_OK;
    const mf_atlas_page *page = &j->atlas->pages[p];
    char dir[4096], path[8192];
    mf_path_dir(j->atlas_path, dir, sizeof dir);
    snprintf(path, sizeof path, "%s%s", dir, page->name);
    mf_diag sub;
    mf_result r = mf_png_load(path, &j->pages[p], &sub);
    if (r != MF_OK) {
        char where[32];
        snprintf(where, sizeof where, "line %d", (int)page->line);
        mf_diag_set(diag, j->atlas_path, where, "page \"%s\": %s%s%s", page->name, sub.where,
                    sub.where[0] ? ": " : "", sub.message);
        return r;
    }
    if ((page->width > 0 && page->width != j->pages[p].width) || (page->height > 0 && page->height != j->pages[p].height))
        return add_line(j, diag, "[atlas] %s: line %d: page \"%s\" is %dx%d pixels, the atlas says %dx%d: regions are "
                                 "cut at the atlas's coordinates",
                        j->atlas_path, (int)page->line, page->name, (int)j->pages[p].width, (int)j->pages[p].height,
                        (int)page->width, (int)page->height);
    return MF_OK;
}

/* The file name of a region: the image name the rig uses for it (image_of: the index of that
 * image, -1 for none), else its own name, plus its index when it has one. */
static void output_name(const job *j, const mf_atlas_region *g, int32_t image_of, char *out, size_t size)
{
    if (image_of >= 0) snprintf(out, size, "%s", j->rig->images[image_of]);
    else if (g->index >= 0) snprintf(out, size, "%s%d", g->name, (int)g->index);
    else snprintf(out, size, "%s", g->name);
}

static mf_result write_images(job *j, mf_diag *diag)
{
    const mf_atlas *at = j->atlas;
    char (*names)[600] = calloc((size_t)at->region_count + 1, sizeof *names);
    int32_t *image_of = malloc(((size_t)at->region_count + 1) * sizeof *image_of);
    if (!names || !image_of) {
        free(names), free(image_of);
        mf_diag_set(diag, j->json_path, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    for (int32_t i = 0; i < at->region_count; i++) image_of[i] = -1;
    for (int32_t i = 0; i < j->rig->image_count; i++) {
        const mf_atlas_region *g = mf_atlas_find(at, j->rig->images[i]);
        if (g && image_of[g - at->regions] < 0) image_of[g - at->regions] = i;
    }
    mf_result r = MF_OK;
    for (int32_t i = 0; i < at->page_count && r == MF_OK; i++)
        if (at->pages[i].scale != 1)
            r = add_line(j, diag, "[atlas] %s: line %d: page \"%s\" has scale %g: images are unpacked at the atlas's "
                                  "resolution; attachments keep their sizes in rig units",
                         j->atlas_path, (int)at->pages[i].line, at->pages[i].name, (double)at->pages[i].scale);
    for (int32_t i = 0; i < at->region_count && r == MF_OK; i++) {
        const mf_atlas_region *g = &at->regions[i];
        output_name(j, g, image_of[i], names[i], sizeof names[i]);
        bool dup = false;
        for (int32_t k = 0; k < i && !dup; k++) dup = strcmp(names[k], names[i]) == 0;
        if (dup || !safe_name(names[i])) {
            r = add_line(j, diag, "[atlas] %s: line %d: region \"%s\" %s: not unpacked", j->atlas_path, (int)g->line,
                         g->name, dup ? "repeats an earlier region's name" : "has a name that would leave the images folder");
            names[i][0] = '\0';
            continue;
        }
        if ((r = page_pixels(j, g->page, diag)) != MF_OK) break;
        mf_image img;
        if ((r = sp_unpack_region(g, &at->pages[g->page], &j->pages[g->page], &img, j->atlas_path, diag)) != MF_OK)
            break;
        void *png = NULL;
        size_t len = 0;
        r = mf_png_encode(&img, &png, &len, diag);
        mf_image_free(&img);
        if (r != MF_OK) break;
        char rel[700];
        snprintf(rel, sizeof rel, "images/%s.png", names[i]);
        r = sp_out_write(&j->out, rel, png, len, diag);
        free(png);
        j->images_written++;
    }
    free(names);
    free(image_of);
    return r;
}

/* Writes the model and the clips, reading each back the way a user of the files would. */
static mf_result write_model(job *j, mf_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    char rel[1024];
    snprintf(rel, sizeof rel, "%s.mskel", j->name);
    mf_result r = mf_skeleton_write(j->rig->skeleton, &text, &len, diag);
    mf_skeleton *back = NULL;
    if (r == MF_OK) r = mf_skeleton_parse(text, len, rel, &back, diag);
    if (r == MF_OK) r = sp_out_write(&j->out, rel, text, len, diag);
    free(text);
    for (int32_t i = 0; i < j->rig->clip_count && r == MF_OK; i++) {
        const mf_clip *clip = j->rig->clips[i];
        snprintf(rel, sizeof rel, "%s.clips/%s.manim", j->name, clip->name);
        mf_clip *cb = NULL;
        r = mf_clip_write(clip, &text, &len, diag);
        if (r == MF_OK) r = mf_clip_parse(text, len, rel, clip->name, &cb, diag);
        if (r == MF_OK) r = mf_clip_check(cb, back, rel, diag);
        if (r == MF_OK) r = sp_out_write(&j->out, rel, text, len, diag);
        mf_clip_free(cb);
        free(text);
        text = NULL;
    }
    mf_skeleton_free(back);
    if (r != MF_OK && diag && !strstr(diag->message, "cannot write")) {
        /* the converter made something our own reader refuses: say whose fault it is */
        char msg[sizeof diag->message];
        snprintf(msg, sizeof msg, "the imported rig does not pass its own check (an importer bug): %.440s", diag->message);
        snprintf(diag->message, sizeof diag->message, "%s", msg);
    }
    return r;
}

static mf_result write_report(job *j, mf_diag *diag)
{
    mf_buf b = {0};
    mf_buf_printf(&b, "# Spine import of %s: what did not map to mfanim, one line each\n", j->json_path);
    for (int32_t i = 0; i < j->rig->report_count; i++) mf_buf_printf(&b, "%s\n", j->rig->report[i]);
    for (int32_t i = 0; i < j->extra_count; i++) mf_buf_printf(&b, "%s\n", j->extra[i]);
    if (b.oom) {
        mf_buf_free(&b);
        mf_diag_set(diag, j->json_path, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    mf_result r = sp_out_write(&j->out, "import-report.txt", b.data, b.len, diag);
    mf_buf_free(&b);
    return r;
}

/* "curve 3, editor 2": report lines per category, in first-seen order. */
static void count_categories(const job *j, char *out, size_t size)
{
    char cats[32][32];
    int counts[32], n = 0;
    int32_t total = j->rig->report_count + j->extra_count;
    for (int32_t i = 0; i < total; i++) {
        const char *line = i < j->rig->report_count ? j->rig->report[i] : j->extra[i - j->rig->report_count];
        char cat[32] = "other";
        const char *end = line[0] == '[' ? strchr(line, ']') : NULL;
        if (end && (size_t)(end - line - 1) < sizeof cat) snprintf(cat, sizeof cat, "%.*s", (int)(end - line - 1), line + 1);
        int k = 0;
        while (k < n && strcmp(cats[k], cat) != 0) k++;
        if (k == n && n < 32) snprintf(cats[n], sizeof cats[n], "%s", cat), counts[n++] = 0;
        if (k < n) counts[k]++;
    }
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < n && used < size; k++)
        used += (size_t)snprintf(out + used, size - used, "%s%s %d", k ? ", " : "", cats[k], counts[k]);
}

static void summarize(const job *j, mf_spine_summary *s)
{
    const mf_skeleton *sk = j->rig->skeleton;
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%.127s", j->name);
    s->bones = sk->bone_count, s->slots = sk->slot_count, s->skins = sk->skin_count, s->events = sk->event_count;
    s->constraints = sk->ik_count + sk->transform_count + sk->path_count + sk->physics_count;
    for (int32_t i = 0; i < sk->skin_count; i++) s->attachments += sk->skins[i].attachment_count;
    s->clips = j->rig->clip_count;
    s->images = j->images_written;
    s->report_lines = j->rig->report_count + j->extra_count;
    count_categories(j, s->report_counts, sizeof s->report_counts);
}

static mf_result run(job *j, const char *out_dir, const mf_spine_options *opt, mf_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    if (ends_with(j->json_path, ".skel") || ends_with(j->json_path, ".skel.bytes")) {
        mf_diag_set(diag, j->json_path, "", "binary Spine exports are not read: export JSON from Spine");
        return MF_ERR_UNSUPPORTED;
    }
    mf_path_stem(j->json_path, j->name, sizeof j->name);
    mf_result r = mf_read_file(j->json_path, &text, &len, diag);
    if (r == MF_OK) r = mf_spine_convert(text, len, j->json_path, j->name, &j->rig, diag);
    free(text);
    if (r != MF_OK) return r;
    if (opt && opt->atlas) {
        snprintf(j->atlas_path, sizeof j->atlas_path, "%s", opt->atlas);
    } else {
        char dir[4096];
        mf_path_dir(j->json_path, dir, sizeof dir);
        snprintf(j->atlas_path, sizeof j->atlas_path, "%s%s.atlas", dir, j->name);
        /* Spine's editions export NAME-pro.json / NAME-ess.json beside one NAME.atlas */
        size_t n = strlen(j->name);
        FILE *probe = fopen(j->atlas_path, "rb");
        if (probe) fclose(probe);
        else if (n > 4 && (strcmp(j->name + n - 4, "-pro") == 0 || strcmp(j->name + n - 4, "-ess") == 0)) {
            char alt[sizeof j->atlas_path];
            snprintf(alt, sizeof alt, "%s%.*s.atlas", dir, (int)(n - 4), j->name);
            if ((probe = fopen(alt, "rb"))) {
                fclose(probe);
                snprintf(j->atlas_path, sizeof j->atlas_path, "%s", alt);
            }
        }
    }
    r = mf_atlas_load(j->atlas_path, &j->atlas, diag);
    if (r == MF_ERR_IO && !(opt && opt->atlas)) {
        char msg[sizeof diag->message];
        snprintf(msg, sizeof msg, "%.440s (the atlas beside the JSON; name another with --atlas)", diag->message);
        snprintf(diag->message, sizeof diag->message, "%s", msg);
    }
    if (r != MF_OK) return r;
    if ((r = check_images(j, diag)) != MF_OK) return r;
    if (!(j->pages = calloc((size_t)j->atlas->page_count + 1, sizeof *j->pages))) {
        mf_diag_set(diag, j->json_path, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    if ((r = sp_out_begin(&j->out, out_dir, diag)) != MF_OK) return r;
    if ((r = write_images(j, diag)) != MF_OK || (r = write_model(j, diag)) != MF_OK ||
        (r = write_report(j, diag)) != MF_OK) {
        sp_out_abort(&j->out);
        return r;
    }
    return sp_out_commit(&j->out, diag);
}

mf_result mf_spine_import(const char *json_path, const char *out_dir, const mf_spine_options *opt,
                          mf_spine_summary *summary, mf_diag *diag)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mf_diag_clear(diag);
    if (summary) memset(summary, 0, sizeof *summary);
    if (!json_path || !out_dir) {
        mf_diag_set(diag, "", "", "mf_spine_import: no input or output");
        return MF_ERR_ARGUMENT;
    }
    job j;
    memset(&j, 0, sizeof j);
    j.json_path = json_path;
    mf_result r = run(&j, out_dir, opt, diag);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r == MF_OK && summary) {
        summarize(&j, summary);
        summary->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    }
    for (int32_t i = 0; j.atlas && j.pages && i < j.atlas->page_count; i++) mf_image_free(&j.pages[i]);
    free(j.pages);
    for (int32_t i = 0; i < j.extra_count; i++) free(j.extra[i]);
    free(j.extra);
    mf_atlas_free(j.atlas);
    mf_spine_rig_free(j.rig);
    return r;
}
