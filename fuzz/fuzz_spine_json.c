/* Fuzzes the Spine JSON converter: any input either fails with a located message, or converts
 * into a rig and clips that our own writers write and our own readers and checks accept. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_spine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_diag diag;
    mf_spine_rig *rig = NULL;
    if (mf_spine_convert((const char *)data, size, "fuzz.json", "fuzz", &rig, &diag) != MF_OK) {
        if (rig || !diag.message[0]) abort(); /* a failure must say what failed */
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    mf_skeleton *back = NULL;
    if (mf_skeleton_write(rig->skeleton, &text, &len, &diag) != MF_OK) abort();
    if (mf_skeleton_parse(text, len, "fuzz.mskel", &back, &diag) != MF_OK) abort(); /* the rig must load */
    free(text);
    for (int32_t i = 0; i < rig->clip_count; i++) {
        mf_clip *clip = NULL;
        if (mf_clip_write(rig->clips[i], &text, &len, &diag) != MF_OK) abort();
        if (mf_clip_parse(text, len, "fuzz.manim", rig->clips[i]->name, &clip, &diag) != MF_OK) abort();
        if (mf_clip_check(clip, back, "fuzz.manim", &diag) != MF_OK) abort(); /* and every clip fit it */
        mf_clip_free(clip);
        free(text);
    }
    for (int32_t i = 0; i < rig->image_count; i++)
        if (!rig->images[i] || !rig->image_where[i]) abort();
    mf_skeleton_free(back);
    mf_spine_rig_free(rig);
    return 0;
}
