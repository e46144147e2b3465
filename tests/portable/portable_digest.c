/* The runtime alone (no offline library, no cmocka), built for glibc, musl, plain C and aarch64
 * by tests/portable_bits.sh: for each binary build given, every clip played for 90 frames at
 * 60 fps with every skin (a build without clips: its bones moved by hand), physics stepped, and
 * one FNV-1a hash a clip of the bones' world matrices and the world vertices of every frame.
 * Prints "FILE clip K HASH" lines; every build must print the same. */
#include <stdio.h>
#include <stdlib.h>

#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"
#include "mf/mf_skel_data.h"
#include "mf/mf_tracks.h"
#include "../read_file.h"

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        size_t size = 0;
        void *bytes = read_all(argv[a], &size);
        mf_skel_data d;
        mf_diag diag;
        mf_skin_cache *skins = NULL;
        if (!bytes || mf_skel_data_load(bytes, size, &d, &diag) != MF_OK || mf_skin_cache_create(&d, NULL, &skins) != MF_OK) {
            fprintf(stderr, "%s: cannot load\n", argv[a]);
            return 1;
        }
        int32_t list[64], nl = 0;
        for (int32_t k = 0; k < d.skin_count && k < 64; k++) list[nl++] = k;
        int32_t cap = mf_skel_data_world_vertex_cap(&d);
        float *xy = malloc(2 * sizeof(float) * (size_t)(cap > 0 ? cap : 1));
        for (int32_t c = 0; c < (d.clip_count > 0 ? d.clip_count : 1); c++) {
            mf_pose *p = NULL;
            mf_tracks *t = NULL;
            if (!xy || mf_pose_create(&d, NULL, &p, &diag) != MF_OK || (nl && mf_pose_set_skins(p, skins, list, nl, &diag) != MF_OK) ||
                (d.clip_count > 0 && mf_tracks_create(&d, NULL, NULL, &t) != MF_OK)) {
                fprintf(stderr, "%s: cannot create an instance\n", argv[a]);
                return 1;
            }
            if (t) mf_tracks_set(t, 0, c, true);
            unsigned long long h = 1469598103934665603ull;
            for (int f = 0; f < 90; f++) {
                if (t) {
                    mf_tracks_update(t, 1.0 / 60);
                    mf_tracks_apply(t, p);
                } else { /* swing every bone (triangle waves: this program calls no libm either),
                          * so that the springs have something to follow */
                    mf_pose_reset(p);
                    for (int32_t i = 0; i < p->bone_count; i++) {
                        int tri = (f * 3 + i * 7) % 40;
                        p->rot[i] += 1.25f * (float)(tri < 20 ? tri : 40 - tri) - 12.5f;
                        p->x[i] += 1.5f * (float)((f * 2) % 30 < 15 ? (f * 2) % 30 : 30 - (f * 2) % 30);
                    }
                }
                mf_pose_physics_step(p, 1.0 / 60);
                mf_pose_update_world(p);
                const float *w[6] = {p->a, p->b, p->c, p->d, p->wx, p->wy};
                for (int k = 0; k < 6; k++) h = fnv(h, w[k], sizeof(float) * (size_t)p->bone_count);
                int32_t n = mf_pose_world_vertices_all(p, xy, cap, NULL);
                if (n > 0) h = fnv(h, xy, sizeof(float) * 2 * (size_t)n);
            }
            printf("%s clip %d %016llx\n", argv[a], (int)c, h);
            mf_tracks_destroy(t);
            mf_pose_destroy(p);
        }
        free(xy);
        mf_skin_cache_destroy(skins);
        free(bytes);
    }
    return 0;
}
