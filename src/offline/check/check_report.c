/* The finding list of mf_check: kinds, severities, storage and the one-line text form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_check.h"
#include "util/buf.h"

static const char *const KIND_NAMES[MF_CHECK_KIND_COUNT] = {
    "invalid",      "unknown-name",   "wrong-rig",     "weight-sum",      "influence-cap",
    "missing-image","setup-attachment","key-past-end", "curve-range",     "value-range",
    "ik-shear",     "ik-unreachable", "joint-flip",    "loop-seam",       "uv-range",
};

const char *mf_check_kind_name(mf_check_kind k)
{
    return (unsigned)k < MF_CHECK_KIND_COUNT ? KIND_NAMES[k] : "?";
}

mf_severity mf_check_kind_severity(mf_check_kind k)
{
    /* broken data is an error; what an author may intend is a warning */
    return k >= MF_CHECK_IK_SHEAR ? MF_SEVERITY_WARNING : MF_SEVERITY_ERROR;
}

void mf_check_report_free(mf_check_report *rep)
{
    if (!rep) return;
    free(rep->items);
    memset(rep, 0, sizeof *rep);
}

static void copy(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

mf_finding *mf_check_add(mf_check_report *rep, mf_check_kind kind, const char *subject_kind,
                         const char *subject, const char *file, const char *where)
{
    if (rep->count == rep->cap) {
        int32_t cap = rep->cap ? rep->cap * 2 : 16;
        mf_finding *items = realloc(rep->items, (size_t)cap * sizeof *items);
        if (!items) {
            rep->oom = true;
            return NULL;
        }
        rep->items = items, rep->cap = cap;
    }
    mf_finding *f = &rep->items[rep->count++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->severity = mf_check_kind_severity(kind);
    f->subject_kind = subject_kind ? subject_kind : "rig";
    copy(f->subject, sizeof f->subject, subject);
    copy(f->file, sizeof f->file, file);
    copy(f->where, sizeof f->where, where);
    if (f->severity == MF_SEVERITY_ERROR) rep->errors++;
    else rep->warnings++;
    return f;
}

size_t mf_finding_format(const mf_finding *f, char *buf, size_t size)
{
    char t[48] = "";
    if (f->has_time) {
        char n[40];
        mf_format_number(n, sizeof n, f->time);
        snprintf(t, sizeof t, "t=%s: ", n);
    }
    int n = snprintf(buf, size, "%s%s%s%s%s%s%s: %s: %s \"%s\": %s%s%s", f->file, f->file[0] ? ": " : "",
                     f->where, f->where[0] ? ": " : "", t,
                     f->severity == MF_SEVERITY_ERROR ? "error" : "warning", "", mf_check_kind_name(f->kind),
                     f->subject_kind, f->subject, f->message, f->fix[0] ? "\n    fix: " : "", f->fix);
    return n < 0 ? 0 : (size_t)n;
}
