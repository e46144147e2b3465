/* Digests of everything the runtime computes for a rig (offline, not public): the check that a
 * change, a compiler or a SIMD level keeps the bits (`mfe skel digest`, docs/skel-cli.md).
 * Built on public calls only, with mf_pose_set_simd choosing the level. */
#ifndef MF_CHECK_DIGEST_H
#define MF_CHECK_DIGEST_H
#include <stddef.h>
#include <stdint.h>

#include "mf/mf_pose.h"
#include "mf/mf_skel_data.h"

/* A rig loaded and built in memory (the blob the view points into). */
typedef struct mf_digest_rig {
    void *blob;
    size_t size;
    mf_skel_data data;
} mf_digest_rig;

/* The draw digest's parts (each its own FNV-1a from the offset basis): without skins, with
 * every skin composed, each of the last six skins alone (one hash over their runs; both 0
 * when the rig has under two skins), and without skins under a host's changes (draw order
 * swaps, attachments, sequence frames). */
typedef struct mf_digest_draw {
    uint64_t noskin, allskins, skins, perturb;
} mf_digest_draw;

typedef struct mf_digest {
    mf_simd simd;         /* the level the poses used (mf_pose_simd) */
    uint64_t pose_shared; /* every clip, tracks with the shared key tables */
    uint64_t pose_own;    /* the same, tracks with their own */
    uint64_t draw;        /* FNV-1a of the four parts' values */
    mf_digest_draw parts;
} mf_digest;

/* Loads path with its clips (a located error in diag on failure) and builds it. */
mf_result mf_digest_open(const char *path, mf_digest_rig *rig, mf_diag *diag);
void mf_digest_close(mf_digest_rig *rig);

/* Every clip of the data played 100 frames (frame 60 crossfades track 0 to the next clip,
 * frame 80 adds the one after on track 1), every pose array, world vertex of each drawn region
 * and mesh, and fired event hashed (pose_*); the draw lists of the same frames built three
 * ways (mf_draw_list_build, mf_draw_list_build_items, alternating in one list) and the bounds
 * hashed (draw). Poses capped at cap. MF_ERR_NOMEM, or MF_ERR_ARGUMENT naming what failed. */
mf_result mf_digest_run(const mf_skel_data *data, mf_simd cap, mf_digest *out, mf_diag *diag);

/* The widest level a pose of data uses on this CPU (MF_SIMD_BASE where it cannot tell). */
mf_simd mf_digest_widest(const mf_skel_data *data);

#endif
