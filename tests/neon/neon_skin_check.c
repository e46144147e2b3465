/* Target side of the NEON skinning check (run_neon.sh): built for aarch64 from the runtime's
 * sources, run under qemu. Each build given is posed at random frames (bones moved, slot
 * deforms on and off) and every attachment with vertices on every slot is skinned by the
 * build's SIMD path and by the scalar path: the bits must be the same. Plain C (no cmocka):
 * exit status 0 when every coordinate agreed, 1 on the first difference or any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom_skin.h"
#include "pose_internal.h"
#include "mf/mf_pose.h"
#include "mf/mf_skel_data.h"
#include "../read_file.h"

#define CAP 64 /* vertices an attachment at most (the rigs' largest is 40) */

static uint32_t rng_next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *s = x;
}
static float rng_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(rng_next(s) % 100000u) / 100000.0f; }

/* Every attachment of every slot, both paths; returns the coordinates compared or -1. */
static long check_frame(mf_pose *p, const mf_skel_data *d, const char *path, int frame, int *kinds)
{
    long checked = 0;
    for (int32_t s = 0; s < p->slot_count; s++)
        for (int32_t att = 0; att < d->attachment_count; att++) {
            const mf_sd_attachment *at = &d->attachments[att];
            if (at->slot != s) continue;
            p->deform_attachment[s] = frame % 2 ? att : -1; /* odd frames: the slot deformed */
            float simd[2 * CAP], sc[2 * CAP];
            memset(simd, 0x7f, sizeof simd), memset(sc, 0x3f, sizeof sc);
            int32_t n = mf_skin_world_vertices(p, s, att, simd, CAP, true);
            if (mf_skin_world_vertices(p, s, att, sc, CAP, false) != n) {
                fprintf(stderr, "%s: frame %d slot %d attachment %d: vertex counts differ\n", path, frame, s, att);
                return -1;
            }
            if (n <= 0) continue;
            kinds[at->type == MF_SD_ATT_REGION ? 0 : (at->flags & MF_SD_ATT_WEIGHTED) ? 1 : 2] = 1;
            for (int32_t i = 0; i < 2 * n; i++) {
                if (memcmp(&simd[i], &sc[i], sizeof(float)) != 0) {
                    fprintf(stderr, "%s: frame %d slot %d attachment %d vertex %d %c: simd %.9g scalar %.9g\n", path,
                            frame, s, att, i / 2, i % 2 ? 'y' : 'x', (double)simd[i], (double)sc[i]);
                    return -1;
                }
                checked++;
            }
        }
    return checked;
}

int main(int argc, char **argv)
{
    if (!mf_skin_has_simd()) {
        fprintf(stderr, "neon_skin_check: this build has no SIMD skinning path: nothing to compare\n");
        return 1;
    }
    uint32_t rng = 12345u;
    long total = 0;
    int kinds[3] = {0, 0, 0};
    long groups[4] = {0, 0, 0, 0}; /* scattered, contiguous, above 4 influences, padded vertices */
    for (int k = 1; k < argc; k++) {
        size_t size = 0;
        void *bytes = read_all(argv[k], &size);
        mf_skel_data d;
        mf_diag diag;
        mf_diag_clear(&diag);
        mf_pose *p = NULL;
        if (!bytes || mf_skel_data_load(bytes, size, &d, &diag) != MF_OK || mf_pose_create(&d, NULL, &p, NULL) != MF_OK) {
            fprintf(stderr, "%s: cannot load (%s)\n", argv[k], diag.message);
            return 1;
        }
        for (int32_t g = 0; g < d.skin_group_count; g++) { /* the kinds of group the kernels see */
            const mf_sd_skin_group *gr = &d.skin_groups[g];
            groups[0] += gr->plain < 5, groups[1] += gr->plain >= 5, groups[2] += gr->count > 4;
            for (int32_t i = 0; i < gr->vertices; i++) groups[3] += d.skin_vertices[gr->vertex_first + i].records < gr->count;
        }
        for (int frame = 0; frame < 8; frame++) {
            for (int32_t i = 0; i < p->bone_count; i++)
                p->rot[i] += rng_f(&rng, -40, 40), p->x[i] += rng_f(&rng, -5, 5), p->sy[i] = rng_f(&rng, -2, 2);
            for (int32_t s = 0; s < p->slot_count; s++) { /* the slot's deform block (its largest attachment's) */
                int32_t most = 0;
                for (int32_t a = 0; a < d.attachment_count; a++)
                    if (d.attachments[a].slot == s && d.attachments[a].deform_count > most) most = d.attachments[a].deform_count;
                for (int32_t i = 0; i < most; i++) p->deform[p->deform_first[s] + i] = rng_f(&rng, -3, 3);
            }
            mf_pose_update_world(p);
            long c = check_frame(p, &d, argv[k], frame, kinds);
            if (c < 0) return 1;
            total += c;
        }
        mf_pose_destroy(p);
        free(bytes);
    }
    printf("neon_skin_check: %d builds, %ld coordinates bit-identical (simd vs scalar; regions %s, weighted %s, "
           "unweighted meshes %s; groups: %ld scattered, %ld contiguous, %ld above 4 influences, %ld padded vertices)\n",
           argc - 1, total, kinds[0] ? "yes" : "no", kinds[1] ? "yes" : "no", kinds[2] ? "yes" : "no", groups[0],
           groups[1], groups[2], groups[3]);
    /* every kind of attachment and group was compared */
    bool all = kinds[0] && kinds[1] && kinds[2] && groups[0] && groups[1] && groups[2] && groups[3];
    return total > 1000 && all ? 0 : 1;
}
