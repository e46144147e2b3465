/* mf_psd_import: read the PSD, plan, build or merge the rig, then write everything at once
 * (psd_stage.c) so that a failure anywhere leaves the output folder as it was. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_png.h"
#include "psd_import_internal.h"
#include "util/files.h"

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static mf_result stage_text(pi_stage *st, const char *rel, char *text, size_t len, mf_diag *diag)
{
    if (!text) {
        mf_diag_set(diag, rel, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    return pi_stage_add(st, rel, text, len, diag);
}

static mf_result stage_images(pi_stage *st, const pi_plan *p, const mf_skeleton *sk, const bool *changed,
                              int32_t *written, mf_diag *diag)
{
    const char *folder = sk->import.images ? sk->import.images : "images/";
    size_t fl = strlen(folder);
    for (int32_t i = 0; i < p->item_count; i++) {
        const pi_item *it = &p->items[i];
        if (!it->rgba || !changed[i]) continue;
        mf_image img = {it->w, it->h, it->rgba};
        void *png = NULL;
        size_t len = 0;
        mf_result r = mf_png_encode(&img, &png, &len, diag);
        if (r != MF_OK) return r;
        char rel[1024];
        snprintf(rel, sizeof rel, "%s%s%s.png", folder, fl && folder[fl - 1] != '/' ? "/" : "", it->image);
        r = pi_stage_add(st, rel, png, len, diag);
        if (r != MF_OK) return r;
        (*written)++;
    }
    return MF_OK;
}

static void count_rig(const mf_skeleton *sk, mf_psd_import_summary *s)
{
    s->bones = sk->bone_count, s->slots = sk->slot_count, s->skins = sk->skin_count;
    s->attachments = 0;
    for (int32_t i = 0; i < sk->skin_count; i++) s->attachments += sk->skins[i].attachment_count;
}

mf_result mf_psd_import(const char *psd_path, const char *out_dir, const mf_psd_import_options *opt,
                        mf_psd_import_summary *summary, mf_diag *diag)
{
    memset(summary, 0, sizeof *summary);
    mf_diag_clear(diag);
    char name[128];
    if (opt && opt->name) snprintf(name, sizeof name, "%s", opt->name);
    else mf_path_stem(psd_path, name, sizeof name);
    if (!name[0] || strchr(name, '/')) {
        mf_diag_set(diag, psd_path, "", "bad rig name \"%s\"", name);
        return MF_ERR_ARGUMENT;
    }
    snprintf(summary->name, sizeof summary->name, "%s", name);
    size_t dl = strlen(out_dir);
    while (dl > 1 && out_dir[dl - 1] == '/') dl--;
    char dir[2048], rig_path[2300], map_path[2300], rig_rel[200], map_rel[200];
    snprintf(dir, sizeof dir, "%.*s", (int)dl, out_dir);
    snprintf(rig_rel, sizeof rig_rel, "%s.mskel", name);
    snprintf(map_rel, sizeof map_rel, "%s.psdmap.json", name);
    snprintf(rig_path, sizeof rig_path, "%s/%s", dir, rig_rel);
    snprintf(map_path, sizeof map_path, "%s/%s", dir, map_rel);

    mf_psd *psd = NULL;
    mf_result r = mf_psd_load(psd_path, &psd, diag);
    if (r != MF_OK) return r;

    mf_skeleton *sk = NULL;
    pi_map map = {0};
    pi_plan plan = {0};
    pi_stage st = {0};
    bool *changed = NULL;
    summary->reimport = exists(rig_path);
    if (summary->reimport) {
        if (!exists(map_path)) {
            mf_diag_set(diag, rig_path, "",
                        "a rig is already there but %s is missing, so the layers cannot be matched; "
                        "import into another folder or remove the rig", map_rel);
            r = MF_ERR_INVALID;
            goto done;
        }
        if ((r = mf_skeleton_load(rig_path, &sk, diag)) != MF_OK) goto done;
        if ((r = pi_map_read(map_path, &map, diag)) != MF_OK) goto done;
        float origin[2] = {map.ox, map.oy};
        if ((r = pi_plan_build(psd, &plan, origin, diag)) != MF_OK) goto done;
        changed = calloc((size_t)plan.item_count + 1, sizeof *changed);
        if (!changed) goto nomem;
        pi_counts c;
        if ((r = pi_rig_merge(&plan, sk, &map, changed, &c, diag)) != MF_OK) goto done;
        summary->added = c.added, summary->updated = c.updated, summary->moved = c.moved;
        summary->unchanged = c.unchanged, summary->removed = c.removed;
    } else {
        if ((r = pi_plan_build(psd, &plan, NULL, diag)) != MF_OK) goto done;
        map.arena = mf_arena_create();
        if (!map.arena) goto nomem;
        map.ox = plan.ox, map.oy = plan.oy;
        if ((r = pi_rig_create(&plan, name, &sk, &map, diag)) != MF_OK) goto done;
        changed = calloc((size_t)plan.item_count + 1, sizeof *changed);
        if (!changed) goto nomem;
        for (int32_t i = 0; i < plan.item_count; i++) changed[i] = plan.items[i].rgba != NULL;
        summary->added = plan.item_count;
    }
    map.psd = mf_arena_strdup(map.arena, base_name(psd_path));
    if (!map.psd) goto nomem;
    st.dir = malloc(strlen(dir) + 1);
    if (!st.dir) goto nomem;
    memcpy(st.dir, dir, strlen(dir) + 1);
    if ((r = stage_images(&st, &plan, sk, changed, &summary->images, diag)) != MF_OK) goto done;

    /* the rig, checked by reading it back before anything is written */
    char *text = NULL;
    size_t len = 0;
    if ((r = mf_skeleton_write(sk, &text, &len, diag)) != MF_OK) goto done;
    mf_skeleton *check = NULL;
    r = mf_skeleton_parse(text, len, rig_path, &check, diag);
    mf_skeleton_free(check);
    if (r != MF_OK) {
        free(text);
        goto done;
    }
    if ((r = stage_text(&st, rig_rel, text, len, diag)) != MF_OK) goto done;
    text = pi_map_write(&map, &len);
    if ((r = stage_text(&st, map_rel, text, len, diag)) != MF_OK) goto done;

    /* the report */
    count_rig(sk, summary);
    mf_buf rep = {0};
    mf_buf_printf(&rep, "import-psd: %s -> %s (%s)\n", psd_path, rig_path, summary->reimport ? "re-import" : "new rig");
    mf_buf_printf(&rep, "canvas %d x %d, %d-bit, %d layers; rig origin at canvas (%g, %g)\n", (int)psd->width,
                  (int)psd->height, (int)psd->depth, (int)psd->layer_count, map.ox, map.oy);
    mf_buf_printf(&rep, "bones %d, slots %d, skins %d, attachments %d, images written %d\n", (int)summary->bones,
                  (int)summary->slots, (int)summary->skins, (int)summary->attachments, (int)summary->images);
    if (summary->reimport)
        mf_buf_printf(&rep, "layers: %d added, %d updated, %d moved, %d unchanged, %d removed\n", (int)summary->added,
                      (int)summary->updated, (int)summary->moved, (int)summary->unchanged, (int)summary->removed);
    if (plan.report.len) mf_buf_puts(&rep, plan.report.data);
    summary->report_lines = plan.report_lines;
    size_t rlen = 0;
    char *report = mf_buf_take(&rep, &rlen);
    if (!report) goto nomem;
    char *copy = malloc(rlen + 1);
    if (!copy) {
        free(report);
        goto nomem;
    }
    memcpy(copy, report, rlen + 1);
    if ((r = stage_text(&st, "import-report.txt", report, rlen, diag)) != MF_OK) {
        free(copy);
        goto done;
    }
    if ((r = pi_stage_commit(&st, diag)) != MF_OK) {
        free(copy);
        goto done;
    }
    summary->report = copy;
    goto done;
nomem:
    mf_diag_set(diag, psd_path, "", "out of memory");
    r = MF_ERR_NOMEM;
done:
    free(changed);
    pi_stage_free(&st);
    pi_plan_free(&plan);
    pi_map_free(&map);
    mf_skeleton_free(sk);
    mf_psd_free(psd);
    return r;
}
