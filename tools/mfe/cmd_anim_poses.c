/* mfe anim poses [--json]: the named poses, and the canonical bones with their angle
 * components and limits — what an agent needs to write a pose. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_humanoid.h"
#include "util/buf.h"

static const char *side_name(mf_humanoid_side s)
{
    return s == MF_HSIDE_LEFT ? "left" : s == MF_HSIDE_RIGHT ? "right" : "center";
}

/* Hips components under their hips names. */
static const char *component_label(mf_humanoid_bone b, int c)
{
    static const char *const HIPS[] = {"pitch", "roll", "yaw"};
    return b == MF_HB_HIPS ? HIPS[c] : mf_humanoid_component_name((mf_humanoid_component)c);
}

static void text_pose_values(const mf_humanoid_named_pose *p)
{
    if (p->from_rest) {
        printf("          (the rig's own rest pose, converted to angles)\n");
        return;
    }
    char line[4096] = "";
    size_t len = 0;
    const mf_vec3 o = p->pose.hips_offset;
    if (p->hips_offset_given)
        len += (size_t)snprintf(line + len, sizeof line - len, "hips offset %g %g %g", (double)o.x, (double)o.y,
                                (double)o.z);
    for (int b = 0; b < MF_HB_COUNT && len < sizeof line - 200; b++)
        for (int c = 0; c < MF_HC_COUNT; c++)
            if (p->given[b] & (1 << c))
                len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %s %g", len ? ", " : "",
                                        b == MF_HB_HIPS ? "hips" : mf_humanoid_bone_name((mf_humanoid_bone)b),
                                        component_label((mf_humanoid_bone)b, c),
                                        (double)mf_humanoid_angle(p->pose.joint[b], (mf_humanoid_component)c));
    printf("          %s\n", len ? line : "(every angle zero)");
}

static void text_output(const mf_humanoid_pose_set *set)
{
    printf("named poses (data/humanoid/poses.json):\n");
    for (int32_t i = 0; i < set->count; i++) {
        printf("  %-8s%s\n", set->poses[i].name, set->poses[i].description);
        text_pose_values(&set->poses[i]);
    }
    printf("\nangles: degrees relative to the canonical T-pose (Y up, facing +Z, +X the character's left),\n"
           "composed twist -> abduct -> flex in each bone's joint frame; the same numbers mean the same motion\n"
           "on the left and the right. flex +: forward / bend (ankle: toes up); abduct +: away from the midline\n"
           "(arm up from the T-pose; centre bones lean left); twist +: internal rotation (centre bones turn\n"
           "left). Hips: offset x/y/z in metres, pitch (+ leans forward), roll (+ leans left), yaw (+ turns left).\n"
           "Hinges take flex only.\n");
    printf("\ncanonical bones (limits in degrees):\n");
    for (int b = 0; b < MF_HB_COUNT; b++) {
        const mf_humanoid_limit *l = mf_humanoid_limits((mf_humanoid_bone)b);
        int parent = mf_humanoid_bone_parent((mf_humanoid_bone)b);
        bool hinge = mf_humanoid_bone_is_hinge((mf_humanoid_bone)b);
        printf("  %-24s %-8s %-6s parent %-22s", mf_humanoid_bone_name((mf_humanoid_bone)b),
               mf_humanoid_bone_required((mf_humanoid_bone)b) ? "required" : "optional", hinge ? "hinge" : "",
               parent >= 0 ? mf_humanoid_bone_name((mf_humanoid_bone)parent) : "-");
        for (int c = 0; c < (hinge ? 1 : MF_HC_COUNT); c++)
            printf(" %s %g..%g", component_label((mf_humanoid_bone)b, c), (double)l->min[c], (double)l->max[c]);
        printf("\n");
    }
}

static void json_output(const mf_humanoid_pose_set *set)
{
    mf_buf b = {0};
    mf_buf_puts(&b, "{\"poses\":[");
    for (int32_t i = 0; i < set->count; i++) {
        const mf_humanoid_named_pose *p = &set->poses[i];
        mf_buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
        mf_buf_string(&b, p->name);
        mf_buf_puts(&b, ",\"description\":");
        mf_buf_string(&b, p->description);
        if (p->from_rest) mf_buf_puts(&b, ",\"from\":\"rest\"");
        bool hips = p->hips_offset_given || p->given[MF_HB_HIPS];
        if (hips) {
            mf_buf_puts(&b, ",\"hips\":{");
            int k = 0;
            if (p->hips_offset_given) {
                mf_buf_puts(&b, "\"x\":");
                mf_buf_number(&b, p->pose.hips_offset.x);
                mf_buf_puts(&b, ",\"y\":");
                mf_buf_number(&b, p->pose.hips_offset.y);
                mf_buf_puts(&b, ",\"z\":");
                mf_buf_number(&b, p->pose.hips_offset.z);
                k = 1;
            }
            for (int c = 0; c < MF_HC_COUNT; c++)
                if (p->given[MF_HB_HIPS] & (1 << c)) {
                    mf_buf_printf(&b, "%s\"%s\":", k++ ? "," : "", component_label(MF_HB_HIPS, c));
                    mf_buf_number(&b, mf_humanoid_angle(p->pose.joint[MF_HB_HIPS], (mf_humanoid_component)c));
                }
            mf_buf_putc(&b, '}');
        }
        if (!p->from_rest) {
            mf_buf_puts(&b, ",\"joints\":{");
            for (int bn = 1, k = 0; bn < MF_HB_COUNT; bn++) {
                if (!p->given[bn]) continue;
                mf_buf_printf(&b, "%s\"%s\":{", k++ ? "," : "", mf_humanoid_bone_name((mf_humanoid_bone)bn));
                for (int c = 0, j = 0; c < MF_HC_COUNT; c++)
                    if (p->given[bn] & (1 << c)) {
                        mf_buf_printf(&b, "%s\"%s\":", j++ ? "," : "", mf_humanoid_component_name((mf_humanoid_component)c));
                        mf_buf_number(&b, mf_humanoid_angle(p->pose.joint[bn], (mf_humanoid_component)c));
                    }
                mf_buf_putc(&b, '}');
            }
            mf_buf_putc(&b, '}');
        }
        mf_buf_putc(&b, '}');
    }
    mf_buf_puts(&b, "],\"components\":[\"flex\",\"abduct\",\"twist\"],\"hipsComponents\":[\"x\",\"y\",\"z\",\"pitch\","
                    "\"roll\",\"yaw\"],\"bones\":[");
    for (int bn = 0; bn < MF_HB_COUNT; bn++) {
        const mf_humanoid_limit *l = mf_humanoid_limits((mf_humanoid_bone)bn);
        int parent = mf_humanoid_bone_parent((mf_humanoid_bone)bn);
        bool hinge = mf_humanoid_bone_is_hinge((mf_humanoid_bone)bn);
        mf_buf_puts(&b, bn ? ",{\"name\":" : "{\"name\":");
        mf_buf_string(&b, mf_humanoid_bone_name((mf_humanoid_bone)bn));
        mf_buf_printf(&b, ",\"required\":%s,\"hinge\":%s,\"side\":\"%s\",\"parent\":",
                      mf_humanoid_bone_required((mf_humanoid_bone)bn) ? "true" : "false", hinge ? "true" : "false",
                      side_name(mf_humanoid_bone_side((mf_humanoid_bone)bn)));
        if (parent >= 0) mf_buf_string(&b, mf_humanoid_bone_name((mf_humanoid_bone)parent));
        else mf_buf_puts(&b, "null");
        mf_buf_puts(&b, ",\"limits\":{");
        for (int c = 0; c < (hinge ? 1 : MF_HC_COUNT); c++) {
            mf_buf_printf(&b, "%s\"%s\":[", c ? "," : "", component_label((mf_humanoid_bone)bn, c));
            mf_buf_number(&b, l->min[c]);
            mf_buf_putc(&b, ',');
            mf_buf_number(&b, l->max[c]);
            mf_buf_putc(&b, ']');
        }
        mf_buf_puts(&b, "}}");
    }
    mf_buf_puts(&b, "]}\n");
    if (!b.oom) fputs(b.data, stdout);
    mf_buf_free(&b);
}

int mfe_anim_poses(int argc, char **argv)
{
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--json")) json = true;
        else if (argv[i][0] == '-' && argv[i][1]) return mfe_usage_error("anim", "poses", "unknown option %s", argv[i]);
        else return mfe_usage_error("anim", "poses", "unexpected argument %s", argv[i]);
    }
    mf_humanoid_pose_set *set = NULL;
    mf_diag d;
    if (mf_humanoid_poses_builtin(&set, &d) != MF_OK) return mfe_report(&d);
    if (json) json_output(set);
    else text_output(set);
    mf_humanoid_poses_free(set);
    return MFE_OK;
}
