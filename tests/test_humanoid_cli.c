/* mfe anim rig on the generated mannequins written as .glb: the JSON map names the ground-truth
 * bones, the rest kind is right, and --write-meta stores a map that reads back as overrides. */
#include "testutil.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_gltf.h"
#include "mf/mf_humanoid.h"
#include "mf/mf_mannequin3d.h"

static void test_rig_command(void **state)
{
    (void)state;
    for (int n = 0; n < MF_M3D_NAMING_COUNT; n++)
        for (int r = 0; r < MF_M3D_REST_COUNT; r++) {
            mf_gltf *g;
            mf_diag d;
            assert_int_equal(mf_mannequin3d_create(n, r, &g, &d), MF_OK);
            char name[64];
            snprintf(name, sizeof name, "%s-%s.glb", mf_m3d_naming_name(n), mf_m3d_rest_name(r));
            char path[4096];
            snprintf(path, sizeof path, "%s", tu_tmp(name));
            assert_int_equal(mf_gltf_save(g, path, &d), MF_OK);
            mf_humanoid_skeleton *s;
            assert_int_equal(mf_humanoid_skeleton_from_gltf(g, -1, path, &s, &d), MF_OK);

            char *out = NULL;
            int rc = tu_mfe(&out, "anim rig '%s' --json --write-meta", path);
            if (rc != 0) fail_msg("exit %d: %s", rc, out);
            cJSON *doc = cJSON_Parse(out);
            if (!doc) fail_msg("not one JSON document: %s", out);
            const cJSON *map = cJSON_GetObjectItemCaseSensitive(doc, "map");
            assert_non_null(map);
            for (int b = 0; b < MF_HB_COUNT; b++) {
                const char *canon = mf_humanoid_bone_name((mf_humanoid_bone)b);
                int32_t node = mf_mannequin3d_node(n, canon);
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(map, canon);
                if (!mf_humanoid_bone_required((mf_humanoid_bone)b) && !v) continue;
                if (!cJSON_IsString(v)) fail_msg("%s: no %s in the map", name, canon);
                int32_t bone = mf_humanoid_skeleton_find(s, v->valuestring);
                assert_true(bone >= 0);
                if (s->nodes[bone] != node) fail_msg("%s: %s is %s (node %d), want node %d", name, canon, v->valuestring,
                                                     s->nodes[bone], node);
            }
            const cJSON *rest = cJSON_GetObjectItemCaseSensitive(doc, "rest");
            assert_string_equal(cJSON_GetObjectItemCaseSensitive(rest, "kind")->valuestring, r ? "A" : "T");
            assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "meta")));
            cJSON_Delete(doc);
            free(out);

            /* the sidecar holds the map; read back, it pins every bone as an override */
            char meta[4200];
            mf_humanoid_meta_path(path, meta, sizeof meta);
            mf_humanoid_overrides ov;
            bool found;
            assert_int_equal(mf_humanoid_overrides_load(meta, &ov, &found, &d), MF_OK);
            assert_true(found);
            mf_humanoid_map m;
            assert_int_equal(mf_humanoid_detect(s, &ov, &m, &d), MF_OK);
            for (int b = 0; b < MF_HB_COUNT; b++) {
                int32_t node = mf_mannequin3d_node(n, mf_humanoid_bone_name((mf_humanoid_bone)b));
                if (m.bone[b] >= 0) {
                    assert_int_equal(m.source[b], MF_HSRC_OVERRIDE);
                    assert_int_equal(s->nodes[m.bone[b]], node);
                }
            }
            mf_humanoid_overrides_free(&ov);
            mf_humanoid_skeleton_free(s);
            mf_gltf_free(g);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rig_command)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
