#include <stdio.h>

#include "cli.h"
#include "mf/mf_rig.h"
#include "util/suggest.h"

static const char *clip_name_at(const void *ctx, int i) { return ((const mf_rig *)ctx)->clips[i]->name; }

int32_t mfe_find_clip_arg(const mf_rig *rig, const char *name, const char *rig_path)
{
    int32_t c = mf_rig_find_clip(rig, name);
    if (c >= 0) return c;
    char sfx[160];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(name, rig->clip_count, clip_name_at, rig));
    fprintf(stderr, "mfe: %s: no clip \"%s\"%s; clips:", rig_path, name, sfx);
    for (int32_t i = 0; i < rig->clip_count; i++) fprintf(stderr, " %s", rig->clips[i]->name);
    fprintf(stderr, "%s\n", rig->clip_count ? "" : " (none)");
    return -1;
}
