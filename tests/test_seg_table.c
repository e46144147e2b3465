/* The shared segment table (mf_seg_table, built by mf_tracks_shared_create): a full-weight
 * Replace sample that reads it gives every pose array bit for bit what the pose's own key
 * segments give, for every clip of the project's fixtures (every timeline kind, attachments
 * under skins) and of the Spine corpus when present, at times forwards, backwards, looping and
 * jumping, with general-path samples (weights, masks, other clips) between; tracks with and
 * without a shared object pose alike through crossfades, layers and empty clips; a table of
 * other data is refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"
#include "corpus_build.h"
#include "parity.h"
#include "pose_rig.h"
#include "../src/runtime/pose/pose_internal.h"
#include "mf/mf_build.h"
#include "mf/mf_pose.h"
#include "mf/mf_tracks.h"
#include "batch/bench.h"

/* Every timeline kind on tests/data/mskel/all.mskel (attachment keys of the "tailed" skin's
 * attachments, which a pose without skins does not find). */
static const char *ALL_CLIP =
    "{\"format\":1,\"uid\":\"anm_000000000077\",\"type\":\"SkeletonClip\",\"skeleton\":{\"uid\":\"skl_0123456789ab\"},"
    "\"length\":1.25,\"bones\":{"
    "\"spine\":{\"rotate\":{\"t\":[0,0.3,0.3,0.7,1.2],\"v\":[0,30,-10,15,5],"
    "\"curve\":[[0.25,0,0.75,1],\"linear\",[0.1,0.9,0.3,1.4],\"stepped\"]},"
    "\"translate\":{\"t\":[0,0.5,1],\"v\":[[0,0],[4,-3],[1,2]],\"curve\":[[[0.3,0,0.6,1],\"linear\"],[\"stepped\",\"stepped\"]]},"
    "\"scale\":{\"t\":[0.1,0.9],\"v\":[[1,1],[1.3,0.7]],\"curve\":[[0.42,0,0.58,1]]},"
    "\"shear\":{\"t\":[0,1.25],\"v\":[[0,0],[12,-6]]},"
    "\"inherit\":{\"t\":[0,0.6],\"v\":[\"NoScale\",\"Normal\"]}},"
    "\"arm\":{\"translateX\":{\"t\":[0.2,0.8],\"v\":[1,-2]},\"translateY\":{\"t\":[0,1],\"v\":[1,2],\"curve\":[\"stepped\"]},"
    "\"scaleX\":{\"t\":[0.25],\"v\":[1.5]},\"scaleY\":{\"t\":[0,0.5],\"v\":[1,0.5],\"curve\":[[0.5,0,0.5,1]]},"
    "\"shearX\":{\"t\":[0.4],\"v\":[4]},\"shearY\":{\"t\":[0,0.9],\"v\":[-4,3]}},"
    "\"hand\":{\"rotate\":{\"t\":[0,0.6,1.2],\"v\":[0,40,0]}},"
    "\"tail_1\":{\"rotate\":{\"t\":[0.1,1.1],\"v\":[0,90],\"curve\":[[0.2,0.1,0.8,0.9]]}}},"
    "\"slots\":{"
    "\"body\":{\"attachment\":{\"t\":[0.1,0.45,0.8],\"v\":[\"body_alt\",null,\"body\"]},"
    "\"rgba2\":{\"t\":[0,1],\"v\":[[\"#ffffffff\",\"#000000\"],[\"#ff8800cc\",\"#102030\"]],\"curve\":[[0.2,0,0.8,1]]},"
    "\"sequence\":{\"t\":[0,0.5],\"v\":[{\"mode\":\"loop\",\"delay\":0.1},{\"mode\":\"pingpongReverse\",\"index\":3}]}},"
    "\"arm\":{\"attachment\":{\"t\":[0.3,0.9],\"v\":[\"arm_weighted\",\"arm\"]},"
    "\"rgba\":{\"t\":[0.2,0.6],\"v\":[\"#ffffffff\",\"#ff000080\"],\"curve\":[[\"stepped\",\"linear\",\"linear\",[0.2,0,0.8,1]]]}},"
    "\"fx\":{\"rgb\":{\"t\":[0,0.7],\"v\":[\"#102030\",\"#a0b0c0\"]}},"
    "\"rail\":{\"alpha\":{\"t\":[0.3,1],\"v\":[1,0.25]}}},"
    "\"ik\":{\"arm_ik\":{\"t\":[0,0.3,0.9],\"mix\":[1,0,0.5],\"softness\":[0,4,1],\"bend\":[1,-1,1],"
    "\"compress\":[false,true,false],\"stretch\":[true,false,true],\"curve\":[[[0.25,0,0.75,1],\"linear\"],\"stepped\"]},"
    "\"look\":{\"t\":[0.5],\"mix\":[0.5]}},"
    "\"transform\":{\"follow\":{\"t\":[0,1],\"mixRotate\":[1,0],\"mixX\":[0.5,0.5],\"mixY\":[0,1],\"mixScaleX\":[1,1],"
    "\"mixScaleY\":[0,0],\"mixShearY\":[0.25,0.75],\"curve\":[[\"stepped\",\"linear\",\"linear\",\"linear\",\"linear\",\"linear\"]]}},"
    "\"path\":{\"ride\":{\"position\":{\"t\":[0,1],\"v\":[0,100]},\"spacing\":{\"t\":[0.2],\"v\":[5]},"
    "\"mix\":{\"t\":[0,1],\"v\":[[1,1,1],[0,0.5,1]],\"curve\":[[0.25,0,0.75,1]]}}},"
    "\"physics\":{\"wobble\":{\"wind\":{\"t\":[0,1],\"v\":[0,3],\"curve\":[\"stepped\"]},\"reset\":{\"t\":[0.5]}}},"
    "\"deform\":{\"default\":{\"body\":{\"body\":{\"t\":[0,0.4],\"offset\":[0,4],\"v\":[[0,0,1,-2],[3,1]],"
    "\"curve\":[[0.25,0,0.75,1]]}}}},"
    "\"drawOrder\":{\"t\":[0,0.5],\"v\":[[],[[\"rail\",-2],[\"body\",2]]]},"
    "\"events\":{\"t\":[0.2,0.6],\"v\":[{\"name\":\"hit\"},{\"name\":\"silent\"}]}}";

/* A pose array compared bit for bit, named when it differs. */
static void same_bytes(const void *a, const void *b, size_t n, const char *rig, const char *what, int step)
{
    if (n && memcmp(a, b, n) != 0)
        fail_msg("%s step %d: %s differs between the table and the pose's segments", rig, step, what);
}

/* Every array a sample writes: local channels, inherit, colours, attachments, sequence frames,
 * draw order, constraint mixes and the deform that a slot holds; world too when asked. */
static void same_pose(const mf_pose *a, const mf_pose *b, const char *rig, int step, bool world)
{
    const mf_skel_data *d = a->data;
    size_t nb = (size_t)d->bone_count * sizeof(float), ns = (size_t)d->slot_count;
    const float *la[] = {a->x, a->y, a->rot, a->sx, a->sy, a->shx, a->shy, a->a, a->b, a->c, a->d, a->wx, a->wy};
    const float *lb[] = {b->x, b->y, b->rot, b->sx, b->sy, b->shx, b->shy, b->a, b->b, b->c, b->d, b->wx, b->wy};
    for (int c = 0; c < (world ? 13 : 7); c++) same_bytes(la[c], lb[c], nb, rig, "a bone channel", step);
    same_bytes(a->inherit, b->inherit, (size_t)d->bone_count, rig, "inherit", step);
    same_bytes(a->color, b->color, ns * 4 * sizeof(float), rig, "color", step);
    same_bytes(a->dark, b->dark, ns * 3 * sizeof(float), rig, "dark", step);
    same_bytes(a->attachment, b->attachment, ns * sizeof(int32_t), rig, "attachment", step);
    same_bytes(a->seq_index, b->seq_index, ns * sizeof(int32_t), rig, "seq_index", step);
    same_bytes(a->draw_order, b->draw_order, ns * sizeof(int32_t), rig, "draw_order", step);
    same_bytes(a->deform_attachment, b->deform_attachment, ns * sizeof(int32_t), rig, "deform_attachment", step);
    for (size_t s = 0; s < ns; s++) {
        int32_t at = a->deform_attachment[s];
        if (at >= 0)
            same_bytes(a->deform + a->deform_first[s], b->deform + b->deform_first[s],
                       (size_t)d->attachments[at].deform_count * sizeof(float), rig, "deform", step);
    }
    size_t ni = (size_t)d->ik_count, nt = (size_t)d->transform_count, np = (size_t)d->path_count;
    same_bytes(a->ik_mix, b->ik_mix, ni * sizeof(float), rig, "ik_mix", step);
    same_bytes(a->ik_softness, b->ik_softness, ni * sizeof(float), rig, "ik_softness", step);
    same_bytes(a->ik_bend, b->ik_bend, ni, rig, "ik_bend", step);
    same_bytes(a->ik_compress, b->ik_compress, ni, rig, "ik_compress", step);
    same_bytes(a->ik_stretch, b->ik_stretch, ni, rig, "ik_stretch", step);
    same_bytes(a->tf_mix, b->tf_mix, nt * 6 * sizeof(float), rig, "tf_mix", step);
    same_bytes(a->path_position, b->path_position, np * sizeof(float), rig, "path_position", step);
    same_bytes(a->path_spacing, b->path_spacing, np * sizeof(float), rig, "path_spacing", step);
    same_bytes(a->path_mix, b->path_mix, np * 3 * sizeof(float), rig, "path_mix", step);
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *s = x;
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

/* The times one clip is sampled at: forwards at 60 fps over more than two loops, backwards,
 * random jumps, before the start, and every key time with its float neighbours. */
static int clip_times(const mf_skel_data *d, int32_t clip, double *out, int cap, uint64_t *rng)
{
    double len = d->clips[clip].length > 0 ? d->clips[clip].length : 1.0;
    int n = 0;
    for (double t = -0.05; t < 2.3 * len && n < cap / 4; t += 1 / 60.0) out[n++] = t;
    for (double t = len + 0.1; t > -0.1 && n < cap / 2; t -= 1 / 45.0) out[n++] = t;
    for (int i = 0; i < 60 && n < cap; i++) out[n++] = (rng_unit(rng) * 3.0 - 0.5) * len;
    const mf_sd_clip *c = &d->clips[clip];
    for (int32_t j = 0; j < c->timeline_count && n + 3 <= cap; j++) {
        const mf_sd_timeline *tl = &d->timelines[c->timeline_first + j];
        for (int32_t k = 0; k < tl->key_count && n + 3 <= cap; k += 1 + (int32_t)(rng_next(rng) % 3)) {
            float kt = d->times[tl->key_first + k];
            out[n++] = kt, out[n++] = nextafterf(kt, -INFINITY), out[n++] = nextafterf(kt, INFINITY);
        }
    }
    return n;
}

typedef struct counts {
    long samples, general, table_used;
} counts;

/* One clip on two poses, one with the table: the same samples, compared after each. Every few
 * steps a general-path sample (half weight, a mask, additive, another clip) comes between, and
 * sometimes a reset, so the two paths hand over on one pose. */
static void direct_clip(const char *rig, const mf_skel_data *d, const mf_seg_table *const tbs[2], mf_skin_cache *cache,
                        int32_t skin, int32_t clip, counts *cn, uint64_t *rng)
{
    const mf_seg_table *tb = tbs[0];
    mf_pose *p[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(mf_pose_create(d, NULL, &p[i], NULL), MF_OK);
        if (skin >= 0) assert_int_equal(mf_pose_set_skins(p[i], cache, &skin, 1, NULL), MF_OK);
    }
    uint8_t *mask = calloc((size_t)d->bone_count + 1, 1);
    for (int32_t b = 0; b < d->bone_count; b++) mask[b] = b % 3 != 1;
    static double times[4000];
    int n = clip_times(d, clip, times, 4000, rng);
    for (int i = 0; i < n; i++) {
        bool loop = (i / 97) % 2 == 0;
        if (i % 53 == 0)
            for (int k = 0; k < 2; k++) mf_pose_reset(p[k]);
        if (i % 7 == 3) { /* the general path between (both poses alike) */
            mf_clip_sample g = {.clip = (clip + i) % d->clip_count, .time = times[(i * 31) % n],
                                .prev_time = times[(i * 31) % n], .weight = 0.5f, .loop = loop};
            if (i % 4 == 1) g.bone_mask = mask, g.weight = 1;
            if (i % 4 == 2) g.blend = MF_CLIP_ADDITIVE, g.weight = 1;
            for (int k = 0; k < 2; k++) {
                g.segs = k == 0 ? tb : NULL;
                assert_int_equal(mf_pose_sample(p[k], &g), MF_OK);
            }
            cn->general++;
        }
        mf_clip_sample s = {.clip = clip, .time = times[i], .prev_time = times[i > 0 ? i - 1 : 0], .weight = 1,
                            .loop = loop, .discrete_threshold = i % 11 == 5 ? 2.0f : 0.0f};
        if (i % 29 == 13) { /* indices out of any timeline's range: found again, never read */
            const mf_sd_clip *c = &d->clips[clip];
            for (int32_t j = 0; j < c->timeline_count; j++)
                p[0]->scratch->seg_at[c->timeline_first + j] = j % 2 ? INT32_MAX : -3 - j;
        }
        for (int k = 0; k < 2; k++) {
            s.segs = k == 0 ? tbs[(i / 5) % 2] : NULL; /* another table of the data: the same indices */
            assert_int_equal(mf_pose_sample(p[k], &s), MF_OK);
        }
        same_pose(p[0], p[1], rig, i, false);
        cn->samples++;
    }
    /* the table's path ran (entry indices moved) and the other pose's did not */
    const mf_sd_clip *c = &d->clips[clip];
    for (int32_t j = 0; j < c->timeline_count; j++) {
        if (p[0]->scratch->seg_at[c->timeline_first + j] != 0) cn->table_used++;
        assert_int_equal(p[1]->scratch->seg_at[c->timeline_first + j], 0);
    }
    free(mask);
    for (int k = 0; k < 2; k++) mf_pose_destroy(p[k]);
}

/* Tracks with a shared object (the table) and without, driven alike: crossfades between clips,
 * a queued clip, a layer at half alpha, a reversed entry, an empty clip, full-weight frames
 * between; the poses (world included) compared every frame. */
static void tracks_pair(const char *rig, const mf_skel_data *d, const mf_tracks_shared *sh, mf_skin_cache *cache,
                        int32_t skin, counts *cn)
{
    mf_pose *p[2];
    mf_tracks *t[2];
    for (int k = 0; k < 2; k++) {
        mf_tracks_config cfg = {.default_mix = 0.2, .shared = k == 0 ? sh : NULL};
        assert_int_equal(mf_pose_create(d, NULL, &p[k], NULL), MF_OK);
        if (skin >= 0) assert_int_equal(mf_pose_set_skins(p[k], cache, &skin, 1, NULL), MF_OK);
        assert_int_equal(mf_tracks_create(d, &cfg, NULL, &t[k]), MF_OK);
    }
    int32_t nc = d->clip_count;
    for (int f = 0; f < 240; f++) {
        for (int k = 0; k < 2; k++) {
            int32_t c = (f / 30) % nc;
            if (f % 30 == 0) mf_tracks_set(t[k], 0, c, f % 60 == 0);
            if (f % 30 == 10) mf_tracks_add(t[k], 0, (c + 1) % nc, true, 0);
            if (f == 45) {
                mf_entry_handle h = mf_tracks_set(t[k], 1, (c + 2) % nc, true);
                mf_tracks_entry(t[k], h)->alpha = 0.5f;
            }
            if (f == 100) mf_tracks_set_empty(t[k], 1, 0.3);
            if (f == 150) {
                mf_entry_handle h = mf_tracks_set(t[k], 0, c, true);
                mf_tracks_entry(t[k], h)->reverse = true;
            }
            if (f == 200) mf_tracks_set_empty(t[k], 0, 0.25);
            if (f % 17 == 0) mf_pose_reset(p[k]);
            mf_tracks_update(t[k], 1.0 / 30);
            assert_int_equal(mf_tracks_apply(t[k], p[k]), MF_OK);
            mf_pose_update_world(p[k]);
        }
        same_pose(p[0], p[1], rig, 100000 + f, true);
        cn->samples++;
    }
    /* the tracks with the shared object sampled through its table, the others did not */
    long moved = 0;
    for (int32_t j = 0; j < d->timeline_count; j++) {
        moved += p[0]->scratch->seg_at[j] != 0;
        assert_int_equal(p[1]->scratch->seg_at[j], 0);
    }
    assert_true(moved > 0);
    for (int k = 0; k < 2; k++) mf_tracks_destroy(t[k]), mf_pose_destroy(p[k]);
}

/* Every clip of d through both paths, without skins and (when d has skins beside the default)
 * under the first of them; then the tracks. */
static void check_data(const char *rig, const mf_skel_data *d, int max_clips)
{
    mf_tracks_shared *sh = NULL, *sh2 = NULL;
    assert_int_equal(mf_tracks_shared_create(d, NULL, &sh), MF_OK);
    assert_int_equal(mf_tracks_shared_create(d, NULL, &sh2), MF_OK);
    const mf_seg_table *tb[2] = {mf_tracks_shared_segs(sh), mf_tracks_shared_segs(sh2)};
    assert_non_null(tb[0]);
    mf_skin_cache *cache = NULL;
    assert_int_equal(mf_skin_cache_create(d, NULL, &cache), MF_OK);
    int32_t def = mf_skel_data_find_skin(d, "default"), skin = -1;
    for (int32_t s = d->skin_count - 1; s >= 0; s--) /* the first beside the default */
        if (s != def) skin = s;
    counts cn = {0, 0, 0};
    uint64_t rng = 0x243f6a8885a308d3u;
    int32_t clips = d->clip_count < max_clips ? d->clip_count : max_clips;
    for (int32_t c = 0; c < clips; c++) {
        direct_clip(rig, d, tb, cache, -1, c, &cn, &rng);
        if (skin >= 0) direct_clip(rig, d, tb, cache, skin, c, &cn, &rng);
    }
    if (d->clip_count > 0) {
        tracks_pair(rig, d, sh, cache, -1, &cn);
        if (skin >= 0) tracks_pair(rig, d, sh, cache, skin, &cn);
    }
    size_t entries = 0, slots = 1; /* with the padding, and the zeroed entry of the kinds not compiled */
    for (int32_t i = 0; i < d->timeline_count; i++) {
        const mf_seg_span *sp = &tb[0]->span[i];
        entries += sp->end / 64;
        if (sp->end) slots += sp->mask / 64 + 1;
        assert_true(sp->end <= sp->mask + 64 && ((sp->mask / 64 + 1) & (sp->mask / 64)) == 0);
    }
    printf("%-18s %3d clips, %6ld samples compared (%ld general between), %ld timelines moved off entry 0; "
           "table %zu entries (%zu padded), %.1f KB\n", rig, clips, cn.samples, cn.general, cn.table_used, entries,
           slots, (double)(slots * 64 + (size_t)d->timeline_count * 16) / 1024.0);
    assert_true(clips == 0 || cn.table_used > 0);
    mf_skin_cache_destroy(cache);
    mf_tracks_shared_destroy(sh);
    mf_tracks_shared_destroy(sh2);
}

static void test_all_kinds(void **state)
{
    (void)state;
    char *mskel = tu_read(tu_src("tests/data/mskel/all.mskel"), NULL);
    assert_non_null(mskel);
    test_rig r;
    const char *names[] = {"every_kind"}, *clips[] = {ALL_CLIP};
    test_rig_build(&r, mskel, names, clips, 1);
    /* every kind the sampler knows is keyed (of the physics values, wind stands for all) */
    bool seen[MF_SD_TL_KIND_COUNT] = {0};
    for (int32_t i = 0; i < r.data.timeline_count; i++) seen[r.data.timelines[i].kind] = true;
    for (int k = 0; k < MF_SD_TL_KIND_COUNT; k++)
        if (!seen[k] && (k < MF_SD_TL_PHYSICS_INERTIA || k > MF_SD_TL_PHYSICS_MIX || k == MF_SD_TL_PHYSICS_WIND))
            fail_msg("kind %d not keyed by the fixture", k);
    check_data("all.mskel", &r.data, 8);
    test_rig_free(&r);
    free(mskel);
}

static void test_mannequin_and_synthetic(void **state)
{
    (void)state;
    mkdir(tu_tmp("man"), 0755);
    mf_build_options opt = {.no_cache = true};
    mf_diag diag;
    const char *out = tu_tmp("man/mannequin.mskb");
    mf_result res = mf_build_file_opt(tu_src("examples/mannequin/mannequin.mskel"), out, &opt, NULL, &diag);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    size_t size = 0;
    char *blob = tu_read(out, &size);
    assert_non_null(blob);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    check_data("mannequin", &d, 8);
    free(blob);

    char path[4096];
    mkdir(tu_tmp("syn"), 0755);
    assert_int_equal(mf_bench_write_synthetic(tu_tmp("syn"), 40, 30, 800, path, sizeof path, &diag), MF_OK);
    res = mf_build_file_opt(path, tu_tmp("syn/synth.mskb"), &opt, NULL, &diag);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    blob = tu_read(tu_tmp("syn/synth.mskb"), &size);
    assert_non_null(blob);
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    check_data("synthetic", &d, 8);
    free(blob);
}

/* Every rig of ../shared/spine-corpus, converted and built in memory. */
static void test_corpus(void **state)
{
    (void)state;
    const char *dir = tu_corpus_dir();
    char *rigs[64];
    int nr = tu_list_dir(dir, rigs, 64), done = 0;
    for (int i = 0; i < nr; i++) {
        char sub[4400], *files[32];
        snprintf(sub, sizeof sub, "%.4200s/%.150s", dir, rigs[i]);
        int nf = tu_list_dir(sub, files, 32);
        for (int f = 0; f < nf; f++) {
            size_t fl = strlen(files[f]);
            if (fl > 5 && strcmp(files[f] + fl - 5, ".json") == 0) {
                char path[4700];
                snprintf(path, sizeof path, "%.4400s/%.200s", sub, files[f]);
                mf_skel_data d;
                void *blob = tu_corpus_build_path(path, rigs[i], &d);
                assert_non_null(blob); /* listed, so there */
                check_data(rigs[i], &d, 64);
                done++;
                free(blob);
            }
            free(files[f]);
        }
        free(rigs[i]);
    }
    assert_true(done > 0);
}

/* A table is of one data: another's is refused (pose unchanged); a copy of the view is the
 * same data. */
static void test_other_data_refused(void **state)
{
    (void)state;
    char *mskel = tu_read(tu_src("tests/data/mskel/all.mskel"), NULL);
    assert_non_null(mskel);
    test_rig a, b;
    const char *names[] = {"every_kind"}, *clips[] = {ALL_CLIP};
    test_rig_build(&a, mskel, names, clips, 1);
    test_rig_build(&b, mskel, names, clips, 1);
    mf_tracks_shared *sh = NULL;
    assert_int_equal(mf_tracks_shared_create(&a.data, NULL, &sh), MF_OK);
    assert_null(mf_tracks_shared_segs(NULL));
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&b.data, NULL, &p, NULL), MF_OK);
    mf_clip_sample s = {.clip = 0, .time = 0.3, .prev_time = 0.3, .weight = 1, .segs = mf_tracks_shared_segs(sh)};
    float rot = p->rot[1];
    assert_int_equal(mf_pose_sample(p, &s), MF_ERR_ARGUMENT);
    assert_true(p->rot[1] == rot);
    mf_pose_destroy(p);
    mf_skel_data copy = a.data;
    assert_int_equal(mf_pose_create(&copy, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_pose_sample(p, &s), MF_OK);
    assert_true(p->rot[1] != rot);
    mf_pose_destroy(p);
    mf_tracks_shared_destroy(sh);
    test_rig_free(&a);
    test_rig_free(&b);
    free(mskel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_kinds),
        cmocka_unit_test(test_mannequin_and_synthetic),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_other_data_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
