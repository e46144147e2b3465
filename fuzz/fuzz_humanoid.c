/* Fuzzes the humanoid tools' readers and everything they feed: the first byte picks
 * 0: a MODEL.meta.json sidecar (overrides), 1: a named-poses file, 2: a glTF/GLB model whose
 * skeleton goes through detection, the joint frames and angle ↔ rotation conversions.
 * Any error must come back as a result code; the sanitizers catch the rest. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mf/mf_gltf.h"
#include "mf/mf_humanoid.h"

static void exercise_model(const uint8_t *data, size_t size)
{
    mf_gltf *g = NULL;
    mf_diag d;
    if (mf_gltf_parse(data, size, "fuzz.glb", &g, &d) != MF_OK) return;
    mf_humanoid_skeleton *s = NULL;
    if (mf_humanoid_skeleton_from_gltf(g, -1, "fuzz.glb", &s, &d) == MF_OK) {
        mf_humanoid_map map;
        mf_humanoid_detect(s, NULL, &map, &d);
        mf_humanoid_rig *rig = NULL;
        if (mf_humanoid_rig_create(s, &map, &rig, &d) == MF_OK) {
            (void)mf_humanoid_rig_proportions(rig);
            float arm;
            (void)mf_humanoid_rig_rest_kind(rig, &arm);
            for (int b = 0; b < MF_HB_COUNT; b++) {
                mf_humanoid_angles a = {20.0f, -10.0f, mf_humanoid_bone_is_hinge((mf_humanoid_bone)b) ? 0 : 5.0f};
                mf_quat q;
                if (mf_humanoid_to_local(rig, (mf_humanoid_bone)b, a, &q, &d) == MF_OK) {
                    mf_humanoid_angles back;
                    mf_humanoid_from_local(rig, (mf_humanoid_bone)b, q, &back, &d);
                }
            }
            mf_humanoid_pose rest;
            mf_humanoid_rig_rest_pose(rig, &rest, &d);
            mf_humanoid_rig_free(rig);
        }
        mf_humanoid_skeleton_free(s);
    }
    mf_gltf_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t which = data[0] % 3;
    data++, size--;
    mf_diag d;
    if (which == 0) {
        mf_humanoid_overrides ov;
        mf_humanoid_overrides_parse((const char *)data, size, "fuzz.meta.json", &ov, &d);
        mf_humanoid_overrides_free(&ov);
    } else if (which == 1) {
        mf_humanoid_pose_set *set = NULL;
        if (mf_humanoid_poses_parse((const char *)data, size, "poses.json", &set, &d) == MF_OK)
            mf_humanoid_poses_free(set);
    } else {
        exercise_model(data, size);
    }
    return 0;
}
