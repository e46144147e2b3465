/* mfe skel check RIG [--clip NAME] [--json]: every finding of mf_check_file, one a line (or one
 * JSON document). Exit 1 on errors, 0 otherwise, 2 when the rig cannot be read. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "mf/mf_check.h"

static int print_json(const char *rig, const mf_check_report *rep)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "rig", rig);
    cJSON_AddNumberToObject(root, "clips", rep->clips_checked);
    cJSON_AddNumberToObject(root, "errors", rep->errors);
    cJSON_AddNumberToObject(root, "warnings", rep->warnings);
    cJSON *list = cJSON_AddArrayToObject(root, "findings");
    for (int32_t i = 0; i < rep->count; i++) {
        const mf_finding *f = &rep->items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "severity", f->severity == MF_SEVERITY_ERROR ? "error" : "warning");
        cJSON_AddStringToObject(o, "kind", mf_check_kind_name(f->kind));
        cJSON *s = cJSON_AddObjectToObject(o, "subject");
        cJSON_AddStringToObject(s, "kind", f->subject_kind);
        cJSON_AddStringToObject(s, "name", f->subject);
        cJSON_AddStringToObject(o, "file", f->file);
        cJSON_AddStringToObject(o, "path", f->where);
        if (f->has_time) cJSON_AddNumberToObject(o, "time", (double)f->time);
        else cJSON_AddNullToObject(o, "time");
        cJSON_AddStringToObject(o, "message", f->message);
        cJSON_AddStringToObject(o, "fix", f->fix);
        cJSON_AddItemToArray(list, o);
    }
    char *text = cJSON_PrintUnformatted(root);
    if (text) puts(text);
    free(text);
    cJSON_Delete(root);
    return text ? MFE_OK : MFE_USAGE;
}

int mfe_skel_check(int argc, char **argv)
{
    const char *rig = NULL, *clip = NULL;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--json")) json = true;
        else if (mfe_is_flag(argv[i], "--clip")) {
            if (++i >= argc) return mfe_usage_error("skel", "check", "--clip needs a clip name");
            clip = argv[i];
        } else if (argv[i][0] == '-') return mfe_usage_error("skel", "check", "unknown option \"%s\"", argv[i]);
        else if (rig) return mfe_usage_error("skel", "check", "one rig at a time (got \"%s\" and \"%s\")", rig, argv[i]);
        else rig = argv[i];
    }
    if (!rig) return mfe_usage_error("skel", "check", "no rig given");
    mf_check_report rep = {0};
    mf_diag diag;
    if (mf_check_file(rig, clip, &rep, &diag) != MF_OK) {
        mf_check_report_free(&rep);
        return mfe_report(&diag);
    }
    if (json) {
        if (print_json(rig, &rep) != MFE_OK) {
            mf_check_report_free(&rep);
            return MFE_USAGE;
        }
    } else {
        for (int32_t i = 0; i < rep.count; i++) {
            char line[2400];
            mf_finding_format(&rep.items[i], line, sizeof line);
            puts(line);
        }
        if (rep.count == 0) printf("%s: ok, nothing to report (%d clip%s checked)\n", rig, (int)rep.clips_checked,
                                   rep.clips_checked == 1 ? "" : "s");
        else printf("%s: %d error%s, %d warning%s (%d clip%s checked)\n", rig, (int)rep.errors,
                    rep.errors == 1 ? "" : "s", (int)rep.warnings, rep.warnings == 1 ? "" : "s",
                    (int)rep.clips_checked, rep.clips_checked == 1 ? "" : "s");
    }
    int code = rep.errors ? MFE_FAILED : MFE_OK;
    mf_check_report_free(&rep);
    return code;
}
