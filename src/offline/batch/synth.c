/* The seed's synthetic benchmark rig: chains of bones under a root, weighted meshes across
 * neighbouring bones, regions on the rest, and a looping clip that keys every bone. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "batch/bench.h"
#include "util/buf.h"
#include "util/files.h"

#define CHAIN 8 /* bones per chain under the root */

static int32_t bone_parent(int32_t b) { return b == 0 ? -1 : ((b - 1) % CHAIN == 0 ? 0 : b - 1); }

static void write_rig(mf_buf *o, int32_t bones, int32_t slots, int32_t vertices)
{
    mf_buf_printf(o, "{\n  \"format\": 1,\n  \"uid\": \"skl_0000000be7c4\",\n  \"type\": \"Skeleton\",\n  \"fps\": 30,\n");
    mf_buf_printf(o, "  \"bones\": [\n    { \"name\": \"b0\" }");
    for (int32_t b = 1; b < bones; b++)
        mf_buf_printf(o, ",\n    { \"name\": \"b%d\", \"parent\": \"b%d\", \"x\": %d, \"rot\": %d, \"length\": 20 }", b,
                      bone_parent(b), (b - 1) % CHAIN == 0 ? 0 : 20, (b - 1) % CHAIN == 0 ? (b * 45) % 360 : 5);
    mf_buf_printf(o, "\n  ],\n  \"slots\": [\n");
    for (int32_t s = 0; s < slots; s++)
        mf_buf_printf(o, "    { \"name\": \"s%d\", \"bone\": \"b%d\", \"attachment\": \"a%d\" }%s\n", s,
                      1 + s % (bones - 1), s, s + 1 < slots ? "," : "");
    mf_buf_printf(o, "  ],\n  \"skins\": [ { \"name\": \"default\", \"attachments\": [\n");
    int32_t meshes = slots * 2 / 3 > 0 ? slots * 2 / 3 : 1;
    int32_t per = vertices / meshes / 2 * 2; /* two rows of per / 2 vertices */
    if (per < 4) per = 4;
    for (int32_t s = 0; s < slots; s++) {
        int32_t b = 1 + s % (bones - 1), nb = bone_parent(b);
        if (s >= meshes) {
            mf_buf_printf(o, "    { \"slot\": \"s%d\", \"name\": \"a%d\", \"type\": \"Region\", \"width\": 24, \"height\": 24 }", s,
                          s);
        } else {
            int32_t cols = per / 2;
            mf_buf_printf(o, "    { \"slot\": \"s%d\", \"name\": \"a%d\", \"type\": \"Mesh\", \"uvs\": [", s, s);
            for (int32_t v = 0; v < per; v++)
                mf_buf_printf(o, "%s%g, %d", v ? ", " : "", (double)(v % cols) / (cols - 1), v / cols);
            mf_buf_printf(o, "],\n      \"triangles\": [");
            for (int32_t c = 0; c + 1 < cols; c++)
                mf_buf_printf(o, "%s%d, %d, %d, %d, %d, %d", c ? ", " : "", c, c + 1, cols + c, c + 1, cols + c + 1, cols + c);
            mf_buf_printf(o, "], \"hull\": %d,\n      \"weights\": { \"bones\": [\"b%d\", \"b%d\"], \"v\": [", per, b, nb);
            for (int32_t v = 0; v < per; v++) {
                double t = (double)(v % cols) / (cols - 1), y = v < cols ? -8 : 8;
                mf_buf_printf(o, "%s[0, %g, %g, %g, 1, %g, %g, %g]", v ? ", " : "", 1 - t, t * 20, y, t, t * 20 - 20, y);
            }
            mf_buf_printf(o, "] } }");
        }
        mf_buf_printf(o, "%s\n", s + 1 < slots ? "," : "");
    }
    mf_buf_printf(o, "  ] } ]\n}\n");
}

static void write_clip(mf_buf *o, int32_t bones)
{
    mf_buf_printf(o, "{\n  \"format\": 1,\n  \"uid\": \"anm_0000000be7c5\",\n  \"type\": \"SkeletonClip\",\n");
    mf_buf_printf(o, "  \"skeleton\": { \"uid\": \"skl_0000000be7c4\", \"path\": \"synth.mskel\" },\n");
    mf_buf_printf(o, "  \"length\": 0.8,\n  \"fps\": 30,\n  \"loop\": \"Linear\",\n  \"bones\": {\n");
    for (int32_t b = 0; b < bones; b++) {
        double amp = 10 + b % 7 * 3;
        mf_buf_printf(o, "    \"b%d\": { \"rotate\": { \"t\": [0, 0.2, 0.4, 0.6, 0.8], \"v\": [0, %g, 0, %g, 0], "
                      "\"curve\": [[0.25, 0, 0.75, 1], \"linear\", [0.25, 0, 0.75, 1], \"linear\"] }",
                      b, amp, -amp);
        if (b % 4 == 0)
            mf_buf_printf(o, ",\n      \"translate\": { \"t\": [0, 0.4, 0.8], \"v\": [[0, 0], [0, -6], [0, 0]] }");
        mf_buf_printf(o, " }%s\n", b + 1 < bones ? "," : "");
    }
    mf_buf_printf(o, "  }\n}\n");
}

mf_result mf_bench_write_synthetic(const char *dir, int32_t bones, int32_t slots, int32_t vertices,
                                   char *path_out, size_t path_size, mf_diag *diag)
{
    if (!dir || bones < 2 || slots < 1 || vertices < 4 || !path_out) return MF_ERR_ARGUMENT;
    char clips[1024], clip[1100];
    snprintf(path_out, path_size, "%s/synth.mskel", dir);
    snprintf(clips, sizeof clips, "%s/synth.clips", dir);
    snprintf(clip, sizeof clip, "%s/run.manim", clips);
    mkdir(dir, 0777);
    mkdir(clips, 0777);
    mf_buf rig = {0}, anim = {0};
    write_rig(&rig, bones, slots, vertices);
    write_clip(&anim, bones);
    mf_result r = rig.oom || anim.oom ? MF_ERR_NOMEM : MF_OK;
    if (r == MF_OK) r = mf_write_file_atomic(path_out, rig.data, rig.len, diag);
    if (r == MF_OK) r = mf_write_file_atomic(clip, anim.data, anim.len, diag);
    mf_buf_free(&rig), mf_buf_free(&anim);
    return r;
}
