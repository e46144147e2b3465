/* mf_gen_humanoid OUTDIR — writes mannequin-<naming>-<rest>.glb for every variant. */
#include <stdio.h>
#include <string.h>

#include "mf/mf_mannequin3d.h"

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: mf_gen_humanoid OUTDIR\n"
                        "writes mannequin-{mixamo,unreal,blender,unnamed}-{tpose,apose}.glb into OUTDIR\n");
        return 2;
    }
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            mf_diag d;
            mf_gltf *g;
            char path[4096], msg[1100];
            snprintf(path, sizeof path, "%s/mannequin-%s-%s.glb", argv[1], mf_m3d_naming_name((mf_m3d_naming)n),
                     mf_m3d_rest_name((mf_m3d_rest)r));
            mf_result res = mf_mannequin3d_create((mf_m3d_naming)n, (mf_m3d_rest)r, &g, &d);
            if (res == MF_OK) res = mf_gltf_save(g, path, &d);
            mf_gltf_free(g);
            if (res != MF_OK) {
                mf_diag_format(&d, msg, sizeof msg);
                fprintf(stderr, "mf_gen_humanoid: %s\n", msg);
                return 1;
            }
            printf("%s\n", path);
        }
    return 0;
}
