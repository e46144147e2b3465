/* mfe skel render RIG --clip NAME [--frames 8] [--frame TIME] [--size W[xH]] [--skin S…]
 * [--out sheet.png]: the contact sheet of mf_render_sheet, drawn by the software renderer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_render.h"

#define MAX_SKINS 32

int mfe_skel_render(int argc, char **argv)
{
    const char *rig = NULL, *out = "sheet.png";
    const char *skins[MAX_SKINS];
    mf_sheet_options opt = {.frames = 8, .frame_time = -1};
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(o, "--clip") && has) opt.clip = argv[++i];
        else if (!strcmp(o, "--out") && has) out = argv[++i];
        else if (!strcmp(o, "--frames") && has) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 64) return mfe_usage_error("skel", "render", "--frames takes 1..64, got \"%s\"", argv[i]);
            opt.frames = (int32_t)n;
        } else if (!strcmp(o, "--frame") && has) {
            char *end;
            double t = strtod(argv[++i], &end);
            if (*end || !(t >= 0 && t < 1e6)) return mfe_usage_error("skel", "render", "--frame takes a time in seconds, got \"%s\"", argv[i]);
            opt.frame_time = (float)t;
        } else if (!strcmp(o, "--size") && has) {
            int w = 0, h = 0;
            char x = 0;
            int got = sscanf(argv[++i], "%d%c%d", &w, &x, &h);
            if (got == 1) h = w;
            if ((got != 1 && (got != 3 || x != 'x')) || w < 32 || h < 32 || w > 4096 || h > 4096)
                return mfe_usage_error("skel", "render", "--size takes W or WxH (32..4096), got \"%s\"", argv[i]);
            opt.width = w, opt.height = h;
        } else if (!strcmp(o, "--skin") && has) {
            while (i + 1 < argc && argv[i + 1][0] != '-') {
                if (opt.skin_count == MAX_SKINS) return mfe_usage_error("skel", "render", "at most %d skins", MAX_SKINS);
                skins[opt.skin_count++] = argv[++i];
            }
            if (!opt.skin_count) return mfe_usage_error("skel", "render", "--skin needs skin names");
            opt.skins = skins;
        } else if (o[0] == '-') return mfe_usage_error("skel", "render", "unknown option or missing value \"%s\"", o);
        else if (rig) return mfe_usage_error("skel", "render", "one rig at a time (got \"%s\" and \"%s\")", rig, o);
        else rig = o;
    }
    if (!rig) return mfe_usage_error("skel", "render", "no rig given");
    if (!opt.clip) return mfe_usage_error("skel", "render", "--clip NAME is needed");
    mf_diag diag;
    if (mf_render_sheet(rig, &opt, out, &diag) != MF_OK) return mfe_report(&diag);
    printf("%s: wrote %s\n", rig, out);
    return MFE_OK;
}
