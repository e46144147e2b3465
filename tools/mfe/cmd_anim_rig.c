/* mfe anim rig MODEL [--write-meta] [--json]: the humanoid map of a rigged glTF — bone tree,
 * canonical bones with source and confidence, unmapped bones, rest kind and proportions.
 * Exit 0 with a complete map, 1 when required bones are missing, 2 for bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_gltf.h"
#include "mf/mf_humanoid.h"
#include "util/buf.h"

typedef struct report {
    const char *model;
    const mf_gltf *g;
    int32_t skin;
    const mf_humanoid_skeleton *s;
    const mf_humanoid_map *m;
    const mf_humanoid_rig *rig; /* NULL when the map is incomplete */
    const char *meta_written;   /* the sidecar, when --write-meta wrote it */
    int missing;
} report;

static const char *axis_name(mf_vec3 v)
{
    if (v.x > 0.5f) return "+X";
    if (v.x < -0.5f) return "-X";
    if (v.y > 0.5f) return "+Y";
    if (v.y < -0.5f) return "-Y";
    return v.z >= 0 ? "+Z" : "-Z";
}

static int32_t main_skin(const mf_gltf *g)
{
    int32_t skin = 0;
    for (int32_t i = 1; i < g->skin_count; i++)
        if (g->skins[i].joint_count > g->skins[skin].joint_count) skin = i;
    return skin;
}

/* ---- text ---- */

/* The skeleton's bones come parents first in depth-first order, so printing them in order with
 * their depth draws the tree. */
static void text_tree(const report *r)
{
    const mf_humanoid_skeleton *s = r->s;
    int32_t *depth = malloc(sizeof(int32_t) * (size_t)s->bone_count);
    if (!depth) return;
    for (int32_t i = 0; i < s->bone_count; i++) {
        depth[i] = s->parents[i] >= 0 ? depth[s->parents[i]] + 1 : 0;
        int c = mf_humanoid_map_canonical(r->m, i);
        printf("  %*s%s", (depth[i] < 40 ? depth[i] : 40) * 2, "", s->names[i]);
        if (c >= 0) printf("  [%s]", mf_humanoid_bone_name((mf_humanoid_bone)c));
        printf("\n");
    }
    free(depth);
}

static void text_report(const report *r)
{
    const mf_humanoid_skeleton *s = r->s;
    const mf_humanoid_map *m = r->m;
    printf("model: %s (skin %d, %d bones; names look %s; up %s, facing %s)\n", r->model, r->skin, s->bone_count,
           m->naming[0] ? m->naming : "unknown", axis_name(m->up), axis_name(m->forward));
    printf("\nbone tree ([canonical bone]):\n");
    text_tree(r);

    printf("\nhumanoid map (canonical bone, rig bone, source, confidence):\n");
    char optional[2048] = "";
    size_t olen = 0;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        const char *name = mf_humanoid_bone_name((mf_humanoid_bone)b);
        bool req = mf_humanoid_bone_required((mf_humanoid_bone)b);
        if (m->bone[b] >= 0) {
            printf("  %-24s %-32s %-9s %.2f\n", name, s->names[m->bone[b]], mf_humanoid_source_name(m->source[b]),
                   (double)m->confidence[b]);
        } else if (req) {
            printf("  %-24s %-32s (required)\n", name, "MISSING");
        } else if (m->source[b] == MF_HSRC_OVERRIDE) {
            printf("  %-24s %-32s override\n", name, "- (unmapped)");
        } else if (olen + strlen(name) + 3 < sizeof optional) {
            olen += (size_t)snprintf(optional + olen, sizeof optional - olen, "%s%s", olen ? ", " : "", name);
        }
    }
    if (olen) printf("  optional bones not found: %s\n", optional);

    int unmapped = 0;
    for (int32_t i = 0; i < s->bone_count; i++) unmapped += mf_humanoid_map_canonical(m, i) < 0;
    printf("\nunmapped rig bones (%d):", unmapped);
    for (int32_t i = 0, k = 0; i < s->bone_count; i++)
        if (mf_humanoid_map_canonical(m, i) < 0) printf("%s %s", k++ ? "," : "", s->names[i]);
    printf("\n");

    if (r->rig) {
        float arm;
        mf_humanoid_rest_kind kind = mf_humanoid_rig_rest_kind(r->rig, &arm);
        mf_humanoid_proportions p = mf_humanoid_rig_proportions(r->rig);
        printf("\nrest: %s%s (upper arms %.1f° below horizontal)\n", mf_humanoid_rest_kind_name(kind),
               kind == MF_REST_OTHER ? "" : "-pose", (double)arm);
        printf("proportions (m): height %.3f, hip height %.3f, leg %.3f, arm %.3f, shoulder width %.3f\n",
               (double)p.height, (double)p.hip_height, (double)p.leg_length, (double)p.arm_length,
               (double)p.shoulder_width);
    }
    if (r->meta_written) printf("\nwrote the map to %s (settings.humanoid)\n", r->meta_written);
}

/* ---- JSON ---- */

static void json_vec(mf_buf *b, mf_vec3 v)
{
    mf_buf_putc(b, '[');
    mf_buf_number(b, v.x);
    mf_buf_putc(b, ',');
    mf_buf_number(b, v.y);
    mf_buf_putc(b, ',');
    mf_buf_number(b, v.z);
    mf_buf_putc(b, ']');
}

static void json_num(mf_buf *b, const char *key, float v, bool comma)
{
    mf_buf_printf(b, "%s\"%s\":", comma ? "," : "", key);
    mf_buf_number(b, (float)((double)(int64_t)(v * 10000.0f + (v >= 0 ? 0.5f : -0.5f)) / 10000.0)); /* 0.1 mm */
}

static void json_report(const report *r)
{
    const mf_humanoid_skeleton *s = r->s;
    const mf_humanoid_map *m = r->m;
    mf_buf b = {0};
    mf_buf_puts(&b, "{\"model\":");
    mf_buf_string(&b, r->model);
    mf_buf_printf(&b, ",\"skin\":%d,\"naming\":", r->skin);
    mf_buf_string(&b, m->naming);
    mf_buf_puts(&b, ",\"up\":");
    json_vec(&b, m->up);
    mf_buf_puts(&b, ",\"forward\":");
    json_vec(&b, m->forward);
    mf_buf_puts(&b, ",\"bones\":[");
    for (int32_t i = 0; i < s->bone_count; i++) {
        int c = mf_humanoid_map_canonical(m, i);
        mf_buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
        mf_buf_string(&b, s->names[i]);
        mf_buf_puts(&b, ",\"parent\":");
        if (s->parents[i] >= 0) mf_buf_string(&b, s->names[s->parents[i]]);
        else mf_buf_puts(&b, "null");
        mf_buf_printf(&b, ",\"node\":%d,\"humanoid\":", s->nodes[i]);
        if (c >= 0) mf_buf_string(&b, mf_humanoid_bone_name((mf_humanoid_bone)c));
        else mf_buf_puts(&b, "null");
        mf_buf_putc(&b, '}');
    }
    mf_buf_puts(&b, "],\"map\":{");
    for (int bn = 0, k = 0; bn < MF_HB_COUNT; bn++) {
        if (m->bone[bn] < 0) continue;
        if (k++) mf_buf_putc(&b, ',');
        mf_buf_string(&b, mf_humanoid_bone_name((mf_humanoid_bone)bn));
        mf_buf_putc(&b, ':');
        mf_buf_string(&b, s->names[m->bone[bn]]);
    }
    mf_buf_puts(&b, "},\"report\":{");
    for (int bn = 0, k = 0; bn < MF_HB_COUNT; bn++) {
        if (m->bone[bn] < 0 && m->source[bn] != MF_HSRC_OVERRIDE) continue;
        if (k++) mf_buf_putc(&b, ',');
        mf_buf_string(&b, mf_humanoid_bone_name((mf_humanoid_bone)bn));
        mf_buf_puts(&b, ":{\"bone\":");
        if (m->bone[bn] >= 0) mf_buf_string(&b, s->names[m->bone[bn]]);
        else mf_buf_puts(&b, "null");
        mf_buf_puts(&b, ",\"source\":");
        mf_buf_string(&b, mf_humanoid_source_name(m->source[bn]));
        mf_buf_puts(&b, ",\"confidence\":");
        mf_buf_number(&b, m->confidence[bn]);
        mf_buf_putc(&b, '}');
    }
    mf_buf_puts(&b, "},\"missing\":[");
    for (int bn = 0, k = 0; bn < MF_HB_COUNT; bn++)
        if (m->bone[bn] < 0 && mf_humanoid_bone_required((mf_humanoid_bone)bn)) {
            if (k++) mf_buf_putc(&b, ',');
            mf_buf_string(&b, mf_humanoid_bone_name((mf_humanoid_bone)bn));
        }
    mf_buf_puts(&b, "],\"unmapped\":[");
    for (int32_t i = 0, k = 0; i < s->bone_count; i++)
        if (mf_humanoid_map_canonical(m, i) < 0) {
            if (k++) mf_buf_putc(&b, ',');
            mf_buf_string(&b, s->names[i]);
        }
    mf_buf_puts(&b, "],\"rest\":");
    if (r->rig) {
        float arm;
        mf_humanoid_rest_kind kind = mf_humanoid_rig_rest_kind(r->rig, &arm);
        mf_humanoid_proportions p = mf_humanoid_rig_proportions(r->rig);
        mf_buf_puts(&b, "{\"kind\":");
        mf_buf_string(&b, mf_humanoid_rest_kind_name(kind));
        mf_buf_puts(&b, ",\"armAngle\":");
        mf_buf_number(&b, (float)((double)(int64_t)(arm * 100.0f + (arm >= 0 ? 0.5f : -0.5f)) / 100.0));
        mf_buf_puts(&b, "},\"proportions\":{");
        json_num(&b, "height", p.height, false);
        json_num(&b, "hipHeight", p.hip_height, true);
        json_num(&b, "legLength", p.leg_length, true);
        json_num(&b, "armLength", p.arm_length, true);
        json_num(&b, "shoulderWidth", p.shoulder_width, true);
        mf_buf_putc(&b, '}');
    } else {
        mf_buf_puts(&b, "null,\"proportions\":null");
    }
    mf_buf_puts(&b, ",\"meta\":");
    if (r->meta_written) mf_buf_string(&b, r->meta_written);
    else mf_buf_puts(&b, "null");
    mf_buf_puts(&b, "}\n");
    if (!b.oom) fputs(b.data, stdout);
    mf_buf_free(&b);
}

int mfe_anim_rig(int argc, char **argv)
{
    const char *model = NULL;
    bool json = false, write_meta = false;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--json")) json = true;
        else if (mfe_is_flag(argv[i], "--write-meta")) write_meta = true;
        else if (argv[i][0] == '-' && argv[i][1]) return mfe_usage_error("anim", "rig", "unknown option %s", argv[i]);
        else if (model) return mfe_usage_error("anim", "rig", "one model at a time (got %s and %s)", model, argv[i]);
        else model = argv[i];
    }
    if (!model) return mfe_usage_error("anim", "rig", "no model given");

    mf_diag d;
    mf_diag_clear(&d);
    mf_gltf *g = NULL;
    if (mf_gltf_load(model, &g, &d) != MF_OK) return mfe_report(&d);
    mf_humanoid_skeleton *s = NULL;
    mf_humanoid_overrides ov;
    memset(&ov, 0, sizeof ov);
    char meta[4200];
    mf_humanoid_meta_path(model, meta, sizeof meta);
    int status = MFE_OK;
    if (mf_humanoid_skeleton_from_gltf(g, -1, model, &s, &d) != MF_OK ||
        mf_humanoid_overrides_load(meta, &ov, NULL, &d) != MF_OK) {
        status = mfe_report(&d);
        goto done;
    }
    mf_humanoid_map map;
    mf_result rc = mf_humanoid_detect(s, &ov, &map, &d);
    report r = {model, g, main_skin(g), s, &map, NULL, NULL, 0};
    for (int b = 0; b < MF_HB_COUNT; b++)
        r.missing += map.bone[b] < 0 && mf_humanoid_bone_required((mf_humanoid_bone)b);
    if (rc != MF_OK && !r.missing) { /* an override naming a bone the model lacks */
        status = mfe_report(&d);
        goto done;
    }
    mf_diag missing_diag = d;
    mf_humanoid_rig *rig = NULL;
    if (!r.missing && mf_humanoid_rig_create(s, &map, &rig, &d) != MF_OK) {
        status = mfe_report(&d);
        goto done;
    }
    r.rig = rig;
    if (write_meta && !r.missing) {
        if (mf_humanoid_meta_write(meta, s, &map, &d) != MF_OK) {
            mf_humanoid_rig_free(rig);
            status = mfe_report(&d);
            goto done;
        }
        r.meta_written = meta;
    }
    if (json) json_report(&r);
    else text_report(&r);
    if (r.missing) {
        char msg[1200];
        mf_diag_format(&missing_diag, msg, sizeof msg);
        fprintf(stderr, "mfe anim rig: %s%s\n", msg, write_meta ? "; the sidecar was not written" : "");
        status = MFE_FAILED;
    }
    mf_humanoid_rig_free(rig);
done:
    mf_humanoid_overrides_free(&ov);
    mf_humanoid_skeleton_free(s);
    mf_gltf_free(g);
    return status;
}
