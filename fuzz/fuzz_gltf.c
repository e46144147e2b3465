/* libFuzzer: mf_gltf_parse over arbitrary bytes (JSON and GLB). A model that parses must write
 * in both containers, parse again and equal the first read. */
#include <stdio.h>
#include <stdlib.h>

#include "mf/mf_gltf.h"

static void check_round_trip(const mf_gltf *g, bool glb)
{
    void *bytes = NULL;
    size_t size = 0;
    mf_diag d;
    char msg[1200];
    mf_result r = mf_gltf_write(g, glb, &bytes, &size, &d);
    if (r != MF_OK) {
        mf_diag_format(&d, msg, sizeof msg);
        fprintf(stderr, "write failed on a model that parsed: %s\n", msg);
        abort();
    }
    mf_gltf *back = NULL;
    r = mf_gltf_parse(bytes, size, NULL, &back, &d);
    if (r != MF_OK) {
        mf_diag_format(&d, msg, sizeof msg);
        fprintf(stderr, "re-parse failed: %s\n", msg);
        abort();
    }
    if (!mf_gltf_equal(g, back, 1e-6f, msg, sizeof msg)) {
        fprintf(stderr, "read(write(m)) differs: %s\n", msg);
        abort();
    }
    mf_gltf_free(back);
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_gltf *g = NULL;
    mf_diag d;
    /* no path: external URIs are refused, so the fuzzer never reads files */
    if (mf_gltf_parse(data, size, NULL, &g, &d) != MF_OK) return 0;
    check_round_trip(g, true);
    check_round_trip(g, false);
    for (int32_t i = 0; i < g->node_count; i++) (void)mf_gltf_node_world(g, i);
    for (int32_t a = 0; a < g->animation_count; a++)
        for (int32_t c = 0; c < g->animations[a].channel_count; c++) {
            float v[4];
            mf_gltf_channel_sample(&g->animations[a].channels[c], 0.37f, v);
        }
    mf_gltf_free(g);
    return 0;
}
