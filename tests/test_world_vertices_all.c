/* mf_pose_world_vertices_all and mf_skel_data_world_vertex_cap (mf_geometry.h): every frame of
 * every clip, at every SIMD level this CPU has, the one call gives the bits of
 * mf_pose_world_vertices called slot by slot in draw order, and `first` says where each slot's
 * vertices start; hidden slots (by the host, or by a skin-required bone without its skin) and
 * a reversed draw order follow the pose; the cap always suffices and one pair less is refused. On the project's fixtures and, beside the corpus, on
 * Spine rigs with deform, linked meshes, clipping and sequences. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "corpus_build.h"
#include "mf/mf_build.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"
#include "mf/mf_rig.h"
#include "mf/mf_tracks.h"

#define MAX_PAIRS 65536
#define MAX_SLOTS 1024

static float g_all[2 * MAX_PAIRS], g_one[2 * MAX_PAIRS], g_ref[2 * MAX_PAIRS];
static int32_t g_first[MAX_SLOTS];
static int64_t g_hidden_by_bone; /* slots checked that show an attachment on an inactive bone */

/* The reference: mf_pose_world_vertices slot by slot in draw order, for the slots the call
 * must list (attachment shown, bone active, a region or mesh); ref_first as `first` must be. */
static int32_t reference(const mf_pose *p, float *ref, int32_t *ref_first)
{
    const mf_skel_data *d = p->data;
    int32_t n = 0;
    for (int32_t s = 0; s < p->slot_count; s++) ref_first[s] = -1;
    for (int32_t k = 0; k < p->slot_count; k++) {
        int32_t s = p->draw_order[k], att = p->attachment[s];
        if (att >= 0 && !p->active[d->slots[s].bone]) g_hidden_by_bone++;
        if (att < 0 || !p->active[d->slots[s].bone]) continue;
        uint8_t type = d->attachments[att].type;
        if (type != MF_SD_ATT_REGION && type != MF_SD_ATT_MESH && type != MF_SD_ATT_LINKED_MESH) continue;
        int32_t nv = mf_pose_world_vertices(p, s, att, g_one, MAX_PAIRS);
        assert_int_equal(nv, d->attachments[att].vertex_count > 0 ? d->attachments[att].vertex_count : 0);
        if (nv == 0) continue; /* nothing to write: listed as showing none */
        assert_true(n + nv <= MAX_PAIRS);
        memcpy(ref + 2 * (size_t)n, g_one, sizeof(float) * 2 * (size_t)nv);
        ref_first[s] = n;
        n += nv;
    }
    return n;
}

/* One posed frame: the call against the reference, the cap, and the refusals. */
static void check_frame(const mf_pose *p, int32_t cap, const char *what, int frame)
{
    static int32_t ref_first[MAX_SLOTS];
    int32_t want = reference(p, g_ref, ref_first);
    if (want > cap) fail_msg("%s frame %d: %d pairs beyond the cap %d", what, frame, want, cap);
    memset(g_all, 0x5a, sizeof(float) * 2 * (size_t)(want + 1));
    int32_t got = mf_pose_world_vertices_all(p, g_all, cap, g_first);
    if (got != want) fail_msg("%s frame %d: %d pairs, expected %d", what, frame, got, want);
    if (memcmp(g_all, g_ref, sizeof(float) * 2 * (size_t)want) != 0)
        fail_msg("%s frame %d: vertices differ from mf_pose_world_vertices", what, frame);
    uint32_t guard;
    memcpy(&guard, g_all + 2 * (size_t)want, sizeof guard);
    assert_int_equal(guard, 0x5a5a5a5au); /* nothing past the pairs written */
    assert_memory_equal(g_first, ref_first, sizeof(int32_t) * (size_t)p->slot_count);
    /* exactly enough room, no `first`; one pair less is refused */
    assert_int_equal(mf_pose_world_vertices_all(p, g_all, want, NULL), want);
    assert_memory_equal(g_all, g_ref, sizeof(float) * 2 * (size_t)want);
    if (want > 0) assert_int_equal(mf_pose_world_vertices_all(p, g_all, want - 1, g_first), -1);
}

/* Plays up to max_clips clips of d for frames frames each, at every SIMD level; every fourth
 * frame hides every third slot and every fifth reverses the draw order (the host's writes). */
static void play(const mf_skel_data *d, const char *what, int max_clips, int frames)
{
    int32_t cap = mf_skel_data_world_vertex_cap(d);
    assert_true(d->slot_count <= MAX_SLOTS && cap <= MAX_PAIRS);
    mf_skin_cache *skins = NULL;
    assert_int_equal(mf_skin_cache_create(d, NULL, &skins), MF_OK);
    int32_t skin_list[64], skin_count = 0;
    for (int32_t k = 0; k < d->skin_count && k < 64; k++) skin_list[skin_count++] = k;
    int clips = d->clip_count < max_clips ? d->clip_count : max_clips, checked = 0;
    /* every skin, then none: bones a skin must list go inactive and hide their slots */
    for (int level = MF_SIMD_BASE, pass = 0; level <= MF_SIMD_AVX512; level += pass, pass = !pass) {
        for (int c = 0; c < (clips > 0 ? clips : 1); c++) {
            mf_pose *p;
            mf_diag diag;
            assert_int_equal(mf_pose_create(d, NULL, &p, &diag), MF_OK);
            if (skin_count > 0 && pass == 0)
                assert_int_equal(mf_pose_set_skins(p, skins, skin_list, skin_count, &diag), MF_OK);
            if ((int)mf_pose_simd(p) < level) { /* the CPU has no such level */
                mf_pose_destroy(p);
                break;
            }
            assert_int_equal(mf_pose_set_simd(p, (mf_simd)level), MF_OK);
            mf_tracks *t = NULL;
            if (clips > 0) {
                assert_int_equal(mf_tracks_create(d, NULL, NULL, &t), MF_OK);
                mf_tracks_set(t, 0, c, true);
            }
            for (int f = 0; f < frames; f++) {
                if (t) {
                    mf_tracks_update(t, 1.0 / 30);
                    mf_tracks_apply(t, p);
                }
                if (f % 4 == 3)
                    for (int32_t s = 0; s < p->slot_count; s += 3) p->attachment[s] = -1;
                if (f % 5 == 4)
                    for (int32_t i = 0, j = p->slot_count - 1; i < j; i++, j--) {
                        int32_t x = p->draw_order[i];
                        p->draw_order[i] = p->draw_order[j], p->draw_order[j] = x;
                    }
                mf_pose_physics_step(p, 1.0 / 30);
                mf_pose_update_world(p);
                /* every third frame, the bone of every second slot inactive (as a skin-required
                 * bone without its skin is), put back after the check */
                static uint8_t saved[MAX_SLOTS];
                bool off = f % 3 == 1;
                for (int32_t k = 0; off && k < p->slot_count; k += 2) {
                    int32_t b = d->slots[k].bone;
                    saved[k] = p->active[b], p->active[b] = 0;
                }
                check_frame(p, cap, what, f);
                for (int32_t k = p->slot_count - 1 - (p->slot_count - 1) % 2; off && k >= 0; k -= 2)
                    p->active[d->slots[k].bone] = saved[k]; /* in reverse: a shared bone gets its first value */
                checked++;
            }
            mf_tracks_destroy(t);
            mf_pose_destroy(p);
        }
    }
    printf("%s: %d slots, cap %d pairs, %d frames checked\n", what, (int)d->slot_count, (int)cap, checked);
    mf_skin_cache_destroy(skins);
}

static void fixture(const char *rel, int max_clips, int frames)
{
    mf_skel_data d;
    void *blob = tu_fixture_build(rel, &d);
    play(&d, rel, max_clips, frames);
    free(blob);
}

static void corpus_rig(const char *rig, const char *file, int max_clips, int frames)
{
    mf_skel_data d;
    void *blob = tu_corpus_build(rig, file, &d);
    if (!blob) return;
    play(&d, file, max_clips, frames);
    free(blob);
}

static void test_arguments(void **state)
{
    (void)state;
    float out[8];
    int32_t first[4];
    assert_int_equal(mf_pose_world_vertices_all(NULL, out, 4, first), -1);
    assert_int_equal(mf_skel_data_world_vertex_cap(NULL), 0);
    mf_rig rig;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_rig_load(tu_src("examples/mannequin/mannequin.mskel"), &rig, &diag), MF_OK);
    void *blob = NULL;
    size_t size = 0;
    assert_int_equal(mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &blob, &size, &diag), MF_OK);
    mf_rig_free(&rig);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    mf_pose *p;
    assert_int_equal(mf_pose_create(&d, NULL, &p, &diag), MF_OK);
    mf_pose_update_world(p);
    assert_true(mf_skel_data_world_vertex_cap(&d) > 0);
    assert_int_equal(mf_pose_world_vertices_all(p, NULL, 4, first), -1);
    assert_int_equal(mf_pose_world_vertices_all(p, out, -1, NULL), -1);
    /* an attachment index out of range shows nothing, as for mf_pose_world_vertices */
    int32_t many[MAX_SLOTS], shown = mf_pose_world_vertices_all(p, g_all, MAX_PAIRS, many);
    assert_true(shown > 0);
    int32_t s0 = 0;
    while (s0 < p->slot_count && many[s0] < 0) s0++;
    assert_true(s0 < p->slot_count); /* a slot that shows vertices */
    p->attachment[s0] = d.attachment_count + 5;
    assert_int_equal(mf_pose_world_vertices(p, s0, p->attachment[s0], out, 4), 0);
    int32_t less = mf_pose_world_vertices_all(p, g_all, MAX_PAIRS, many);
    assert_int_equal(many[s0], -1);
    assert_true(less >= 0 && less < shown);
    /* nothing shown: no pairs, every slot -1, and out may then be NULL with cap 0 */
    for (int32_t s = 0; s < p->slot_count; s++) p->attachment[s] = -1;
    memset(many, 0, sizeof many);
    assert_int_equal(mf_pose_world_vertices_all(p, out, 0, many), 0);
    for (int32_t s = 0; s < p->slot_count; s++) assert_int_equal(many[s], -1);
    assert_int_equal(mf_pose_world_vertices_all(p, NULL, 0, many), 0);
    assert_int_equal(mf_pose_world_vertices_all(p, NULL, 1, many), -1);
    mf_pose_destroy(p);
    free(blob);
}

static void test_fixtures(void **state)
{
    (void)state;
    g_hidden_by_bone = 0;
    fixture("tests/data/mskel/all.mskel", 4, 12);
    assert_true(g_hidden_by_bone > 0); /* inactive bones hid slots */
    fixture("tests/data/mskel/seed.mskel", 4, 12);
    fixture("examples/mannequin/mannequin.mskel", 4, 24);
}

static void test_corpus(void **state)
{
    (void)state;
    corpus_rig("spineboy", "spineboy-pro", 6, 16);                 /* clipping, deform */
    corpus_rig("raptor", "raptor-pro", 3, 16);                     /* weighted meshes */
    corpus_rig("celestial-circus", "celestial-circus-pro", 3, 16); /* physics */
    corpus_rig("dragon", "dragon-ess", 2, 16);                     /* sequences */
    corpus_rig("alien", "alien-pro", 4, 16);                       /* deform */
    corpus_rig("mix-and-match", "mix-and-match-pro", 2, 8);        /* skin-required bones */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
