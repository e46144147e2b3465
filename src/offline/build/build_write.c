/* The build driver and the blob writer: header, section table (non-empty sections in id
 * order), 16-byte aligned sections, zero padding, checksum. The blob is written twice: first
 * with empty boxes, loaded with the runtime loader so that the runtime can pose every clip for
 * its bounds (build_bounds.c), then with the boxes; that one is loaded again, so a build never
 * hands out what a runtime would reject. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"

static const uint32_t ELEM[MF_SD_SEC_END] = {
    [MF_SD_SEC_INFO] = sizeof(mf_sd_info),
    [MF_SD_SEC_STRINGS] = 1,
    [MF_SD_SEC_IMAGES] = sizeof(mf_sd_image),
    [MF_SD_SEC_BONES] = sizeof(mf_sd_bone),
    [MF_SD_SEC_SLOTS] = sizeof(mf_sd_slot),
    [MF_SD_SEC_EVENTS] = sizeof(mf_sd_event),
    [MF_SD_SEC_IK] = sizeof(mf_sd_ik),
    [MF_SD_SEC_TRANSFORM] = sizeof(mf_sd_transform),
    [MF_SD_SEC_PATH] = sizeof(mf_sd_path),
    [MF_SD_SEC_PHYSICS] = sizeof(mf_sd_physics),
    [MF_SD_SEC_UPDATE] = sizeof(mf_sd_ref),
    [MF_SD_SEC_BONE_LISTS] = sizeof(int32_t),
    [MF_SD_SEC_SKINS] = sizeof(mf_sd_skin),
    [MF_SD_SEC_SKIN_ENTRIES] = sizeof(mf_sd_skin_entry),
    [MF_SD_SEC_SKIN_REFS] = sizeof(mf_sd_ref),
    [MF_SD_SEC_ATTACHMENTS] = sizeof(mf_sd_attachment),
    [MF_SD_SEC_FLOATS] = sizeof(float),
    [MF_SD_SEC_SPANS] = sizeof(mf_sd_span),
    [MF_SD_SEC_INFLUENCES] = sizeof(mf_sd_influence),
    [MF_SD_SEC_TRIANGLES] = sizeof(uint16_t),
    [MF_SD_SEC_CLIPS] = sizeof(mf_sd_clip),
    [MF_SD_SEC_TIMELINES] = sizeof(mf_sd_timeline),
    [MF_SD_SEC_TIMES] = sizeof(float),
    [MF_SD_SEC_VALUES] = sizeof(float),
    [MF_SD_SEC_INTS] = sizeof(int32_t),
    [MF_SD_SEC_CURVES] = sizeof(int32_t),
    [MF_SD_SEC_BEZIERS] = sizeof(mf_sd_bezier),
    [MF_SD_SEC_PAGES] = sizeof(mf_sd_page),
    [MF_SD_SEC_BOUNDS] = sizeof(mf_sd_bounds),
    [MF_SD_SEC_SKIN_GROUP_FIRST] = sizeof(int32_t),
    [MF_SD_SEC_SKIN_GROUPS] = sizeof(mf_sd_skin_group),
    [MF_SD_SEC_SKIN_RECORDS] = sizeof(mf_sd_skin_record),
    [MF_SD_SEC_SKIN_VERTICES] = sizeof(mf_sd_skin_vertex),
};

/* The model enums are stored by number. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(MF_TL_KIND_COUNT, MF_SD_TL_KIND_COUNT) && SAME(MF_TL_EVENT, MF_SD_TL_EVENT) &&
                   SAME(MF_TL_DEFORM, MF_SD_TL_DEFORM) && SAME(MF_TL_PHYSICS_RESET, MF_SD_TL_PHYSICS_RESET) &&
                   SAME(MF_TL_IK, MF_SD_TL_IK) && SAME(MF_TL_SEQUENCE, MF_SD_TL_SEQUENCE),
               "timeline kinds");
_Static_assert(SAME(MF_INHERIT_COUNT, MF_SD_INHERIT_COUNT) && SAME(MF_BLEND_COUNT, MF_SD_BLEND_COUNT) &&
                   SAME(MF_ATTACH_TYPE_COUNT, MF_SD_ATT_TYPE_COUNT) && SAME(MF_ATTACH_PATH, MF_SD_ATT_PATH) &&
                   SAME(MF_SEQ_MODE_COUNT, MF_SD_SEQ_MODE_COUNT) && SAME(MF_LOOP_PINGPONG, MF_SD_LOOP_PINGPONG),
               "model enums");

static size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static mf_result write_blob(mf_bctx *c, void **blob, size_t *size)
{
    uint32_t count = 0;
    for (int id = 1; id < MF_SD_SEC_END; id++)
        if (c->sec[id].len > 0) count++;
    size_t at = align16(MF_SKEL_DATA_HEADER_SIZE + (size_t)count * sizeof(mf_sd_section));
    size_t offs[MF_SD_SEC_END] = {0};
    for (int id = 1; id < MF_SD_SEC_END; id++) {
        if (c->sec[id].len == 0) continue;
        offs[id] = at;
        at = align16(at + (size_t)c->sec[id].len * ELEM[id]);
        if (at > UINT32_MAX) {
            mf_bfail(c, c->skel_file, "", "the build would exceed 4 GiB");
            return MF_ERR_INVALID;
        }
    }
    unsigned char *out = calloc(1, at); /* padding stays zero */
    if (!out) {
        mf_boom(c);
        return MF_ERR_NOMEM;
    }
    mf_sd_section *table = (mf_sd_section *)(void *)(out + MF_SKEL_DATA_HEADER_SIZE);
    uint32_t k = 0;
    for (int id = 1; id < MF_SD_SEC_END; id++) {
        if (c->sec[id].len == 0) continue;
        table[k++] = (mf_sd_section){(uint32_t)id, ELEM[id], (uint32_t)c->sec[id].len, (uint32_t)offs[id]};
        memcpy(out + offs[id], c->sec[id].data, (size_t)c->sec[id].len * ELEM[id]);
    }
    mf_sd_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MF_SKEL_DATA_MAGIC, 8);
    h.version = MF_SKEL_DATA_VERSION;
    h.byte_order = MF_SKEL_DATA_BYTE_ORDER;
    h.header_size = MF_SKEL_DATA_HEADER_SIZE;
    h.section_count = count;
    h.total_size = at;
    h.checksum = mf_skel_data_checksum(out + MF_SKEL_DATA_HEADER_SIZE, at - MF_SKEL_DATA_HEADER_SIZE);
    memcpy(out, &h, sizeof h);
    *blob = out;
    *size = at;
    return MF_OK;
}

static void ctx_free(mf_bctx *c)
{
    for (int id = 0; id < MF_SD_SEC_END; id++) mf_bvec_free(&c->sec[id]);
    mf_bvec_free(&c->bez_keys);
    free(c->strings.slots);
    free(c->bez_slots);
    free(c->att_base);
}

/* Poses the first blob's clips for their boxes and writes the blob again with them. */
static mf_result with_bounds(mf_bctx *c, void **blob, size_t *size)
{
    mf_skel_data view;
    mf_diag inner;
    mf_result r = mf_skel_data_load(*blob, *size, &view, &inner);
    if (r != MF_OK) {
        mf_bfail(c, c->skel_file, inner.where, "internal error: the build fails its own check: %s", inner.message);
        r = MF_ERR_INVALID;
    } else if (!mf_build_bounds(c, &view)) {
        r = c->oom ? MF_ERR_NOMEM : MF_ERR_INVALID;
    }
    free(*blob);
    *blob = NULL;
    *size = 0;
    return r == MF_OK ? write_blob(c, blob, size) : r;
}

static bool check_clip_names(mf_bctx *c, const mf_clip *const *clips, const char *const *files, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        if (!clips[i]) return mf_bfail(c, "", "", "clip %d is NULL", (int)i);
        for (int32_t k = 0; k < i; k++) {
            const char *a = clips[i]->name ? clips[i]->name : "", *b = clips[k]->name ? clips[k]->name : "";
            if (strcmp(a, b) == 0)
                return mf_bfail(c, files ? files[i] : "", "", "two clips are named \"%s\"", a);
        }
    }
    return true;
}

mf_result mf_build_skeleton_atlas(const mf_skeleton *sk, const char *skel_file, const mf_clip *const *clips,
                                  const char *const *clip_files, int32_t clip_count, const mf_build_atlas *atlas,
                                  void **blob, size_t *size, mf_diag *diag)
{
    if (blob) *blob = NULL;
    if (size) *size = 0;
    mf_diag_clear(diag);
    if (!sk || !blob || !size || clip_count < 0 || (clip_count > 0 && !clips)) {
        mf_diag_set(diag, "", "", "mf_build_skeleton: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    mf_bctx c;
    memset(&c, 0, sizeof c);
    c.sk = sk;
    c.skel_file = skel_file ? skel_file : "";
    c.diag = diag;
    c.atlas = atlas && atlas->page_count > 0 ? atlas : NULL;
    c.scale = sk->import.scale > 0.0f ? sk->import.scale : 1.0f;
    for (int id = 1; id < MF_SD_SEC_END; id++) c.sec[id].elem = ELEM[id];
    c.bez_keys.elem = 4 * sizeof(float);
    c.strings.bytes = &c.sec[MF_SD_SEC_STRINGS];
    bool ok = true;
    mf_intern(&c, "", &ok); /* offset 0: the empty string */
    ok = ok && mf_build_pages(&c) && mf_build_rig(&c) && mf_build_skins(&c) && mf_build_update_order(&c) &&
         check_clip_names(&c, clips, clip_files, clip_count);
    for (int32_t i = 0; ok && i < clip_count; i++) {
        char fallback[300];
        const char *file = clip_files ? clip_files[i] : NULL;
        if (!file) {
            snprintf(fallback, sizeof fallback, "%s.manim", clips[i]->name ? clips[i]->name : "clip");
            file = fallback;
        }
        ok = mf_build_clip(&c, clips[i], file);
    }
    ok = ok && mf_build_skin_streams(&c) && (mf_bvec_push(&c.sec[MF_SD_SEC_BOUNDS], clip_count + 1) != NULL || mf_boom(&c));
    mf_result r = ok ? write_blob(&c, blob, size) : c.oom ? MF_ERR_NOMEM : MF_ERR_INVALID;
    if (r == MF_OK) r = with_bounds(&c, blob, size);
    if (r == MF_ERR_INVALID && diag && !diag->message[0]) mf_diag_set(diag, c.skel_file, "", "build failed");
    ctx_free(&c);
    if (r != MF_OK) return r;
    mf_skel_data view;
    mf_diag inner;
    if (mf_skel_data_load(*blob, *size, &view, &inner) != MF_OK) {
        mf_diag_set(diag, c.skel_file, inner.where, "internal error: the build fails its own check: %s", inner.message);
        free(*blob);
        *blob = NULL;
        *size = 0;
        return MF_ERR_INVALID;
    }
    return MF_OK;
}

mf_result mf_build_skeleton(const mf_skeleton *sk, const mf_clip *const *clips, int32_t clip_count,
                            void **blob, size_t *size, mf_diag *diag)
{
    return mf_build_skeleton_files(sk, NULL, clips, NULL, clip_count, blob, size, diag);
}
