#define _POSIX_C_SOURCE 200809L
#include "parity.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct result {
    double *err;
    size_t n, cap;
    int issues;
    char first_issue[256];
} result;

static void push(result *r, double e)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 4096;
        r->err = realloc(r->err, r->cap * sizeof *r->err);
        assert_non_null(r->err);
    }
    r->err[r->n++] = e;
}

static void issue(result *r, const char *fmt, int frame, const char *what)
{
    if (!r->issues++) snprintf(r->first_issue, sizeof r->first_issue, fmt, frame, what);
}

static double nearest(const cJSON *pts, double x, double y)
{
    double best = INFINITY;
    int n = cJSON_GetArraySize(pts);
    for (int i = 0; i + 1 < n; i += 2) {
        double dx = cJSON_GetArrayItem(pts, i)->valuedouble - x;
        double dy = cJSON_GetArrayItem(pts, i + 1)->valuedouble - y;
        double d = sqrt(dx * dx + dy * dy);
        if (d < best) best = d;
    }
    return best;
}

/* Point-set distance both ways (regions: corners in any order; clipped geometry). */
static void compare_sets(result *r, const cJSON *a, const cJSON *b)
{
    int na = cJSON_GetArraySize(a), nb = cJSON_GetArraySize(b);
    for (int i = 0; i + 1 < na; i += 2)
        push(r, nearest(b, cJSON_GetArrayItem(a, i)->valuedouble, cJSON_GetArrayItem(a, i + 1)->valuedouble));
    for (int i = 0; i + 1 < nb; i += 2)
        push(r, nearest(a, cJSON_GetArrayItem(b, i)->valuedouble, cJSON_GetArrayItem(b, i + 1)->valuedouble));
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void compare_frame(result *r, int f, const cJSON *rf, const cJSON *of)
{
    const cJSON *rd = cJSON_GetObjectItemCaseSensitive(rf, "draw"), *od = cJSON_GetObjectItemCaseSensitive(of, "draw");
    int n = cJSON_GetArraySize(rd);
    if (n != cJSON_GetArraySize(od)) {
        issue(r, "frame %d: draw list length differs%s", f, "");
        return;
    }
    for (int i = 0; i < n; i++) {
        const cJSON *a = cJSON_GetArrayItem(rd, i), *b = cJSON_GetArrayItem(od, i);
        bool same_att = !strcmp(str(a, "attachment"), str(b, "attachment")) ||
                        !strcmp(str(a, "attachment"), str(b, "image"));
        if (strcmp(str(a, "slot"), str(b, "slot")) || !same_att) {
            issue(r, "frame %d: draw list differs at slot %s", f, str(a, "slot"));
            return;
        }
        const cJSON *va = cJSON_GetObjectItemCaseSensitive(a, "vertices"), *vb = cJSON_GetObjectItemCaseSensitive(b, "vertices");
        bool set = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "clipped")) ||
                   cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "clipped")) || cJSON_GetArraySize(va) == 8;
        if (set) {
            if (cJSON_GetArraySize(va) && cJSON_GetArraySize(vb)) compare_sets(r, va, vb);
            else if (cJSON_GetArraySize(va) != cJSON_GetArraySize(vb)) issue(r, "frame %d: clipped geometry of %s", f, str(a, "slot"));
            continue;
        }
        int nv = cJSON_GetArraySize(va);
        if (nv != cJSON_GetArraySize(vb)) {
            issue(r, "frame %d: vertex count of %s", f, str(a, "slot"));
            continue;
        }
        for (int k = 0; k + 1 < nv; k += 2) {
            double dx = cJSON_GetArrayItem(va, k)->valuedouble - cJSON_GetArrayItem(vb, k)->valuedouble;
            double dy = cJSON_GetArrayItem(va, k + 1)->valuedouble - cJSON_GetArrayItem(vb, k + 1)->valuedouble;
            push(r, sqrt(dx * dx + dy * dy));
        }
    }
    const cJSON *re = cJSON_GetObjectItemCaseSensitive(rf, "events"), *oe = cJSON_GetObjectItemCaseSensitive(of, "events");
    int ne = cJSON_GetArraySize(re);
    if (ne != cJSON_GetArraySize(oe)) {
        issue(r, "frame %d: %s events differ in number", f, "");
        return;
    }
    for (int i = 0; i < ne; i++) {
        const cJSON *a = cJSON_GetArrayItem(re, i), *b = cJSON_GetArrayItem(oe, i);
        if (strcmp(str(a, "name"), str(b, "name")) || strcmp(str(a, "string"), str(b, "string")) ||
            num(a, "int") != num(b, "int") || fabs(num(a, "float") - num(b, "float")) > 1e-3)
            issue(r, "frame %d: event %s differs", f, str(a, "name"));
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bool tu_parity_compare(const char *rig, const char *name, const cJSON *ref, const cJSON *ours, double tol_p99,
                       double tol_max, double *worst)
{
    result r = {0};
    const cJSON *rfs = cJSON_GetObjectItemCaseSensitive(ref, "frames"), *ofs = cJSON_GetObjectItemCaseSensitive(ours, "frames");
    int nf = cJSON_GetArraySize(rfs);
    if (nf != cJSON_GetArraySize(ofs)) issue(&r, "frame %d: frame count differs%s", nf, "");
    else
        for (int f = 0; f < nf; f++) compare_frame(&r, f, cJSON_GetArrayItem(rfs, f), cJSON_GetArrayItem(ofs, f));
    double p99 = 0, mx = 0;
    if (r.n) {
        qsort(r.err, r.n, sizeof *r.err, cmp_double);
        size_t at = (size_t)((double)r.n * 0.99);
        p99 = r.err[at < r.n ? at : r.n - 1];
        mx = r.err[r.n - 1];
    }
    bool ok = p99 <= tol_p99 && mx <= tol_max && r.issues == 0;
    if (worst) *worst = r.issues ? INFINITY : mx;
    printf("  %-16s %-24s %s p99 %.3f max %.3f px%s%s\n", rig, name, ok ? "ok  " : "MISS", p99, mx,
           r.issues ? "; " : "", r.issues ? r.first_issue : "");
    free(r.err);
    return ok;
}

bool tu_parity_scenario(const char *rig, const char *mskel, const char *ref_path, const char *name,
                        double tol_p99, double tol_max, double *worst)
{
    char out[1024];
    snprintf(out, sizeof out, "%s", tu_tmp(name));
    strncat(out, "-", sizeof out - strlen(out) - 1);
    strncat(out, rig, sizeof out - strlen(out) - 1);
    strncat(out, ".json", sizeof out - strlen(out) - 1);
    char *log = NULL;
    int rc = tu_mfe(&log, "skel simulate '%s' --scenario '%s' --out '%s'", mskel, ref_path, out);
    if (rc != 0) {
        printf("  %-16s %-24s FAILED to simulate: %s\n", rig, name, log ? log : "");
        free(log);
        if (worst) *worst = INFINITY;
        return false;
    }
    free(log);
    char *rt = tu_read(ref_path, NULL), *ot = tu_read(out, NULL);
    cJSON *rj = rt ? cJSON_Parse(rt) : NULL, *oj = ot ? cJSON_Parse(ot) : NULL;
    free(rt);
    free(ot);
    assert_non_null(rj);
    assert_non_null(oj);
    bool ok = tu_parity_compare(rig, name, rj, oj, tol_p99, tol_max, worst);
    cJSON_Delete(rj);
    cJSON_Delete(oj);
    return ok;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int tu_list_dir(const char *path, char **names, int cap)
{
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < cap;)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

static bool listed(const char *const *list, const char *name)
{
    for (int k = 0; list && list[k]; k++)
        if (!strcmp(list[k], name)) return true;
    return false;
}

static const char *known_reason(const tu_parity_known *known, const char *rig, const char *name)
{
    for (int k = 0; known && known[k].rig; k++)
        if (!strcmp(known[k].rig, rig) && !strcmp(known[k].scenario, name)) return known[k].why;
    return NULL;
}

/* Imports a corpus rig into a temporary folder; mskel gets the rig file. */
static bool import_rig(const char *dir, const char *rig, char *mskel, size_t size)
{
    char *files[64], json[1400] = "";
    int nf = tu_list_dir(dir, files, 64);
    for (int k = 0; k < nf; k++) {
        size_t l = strlen(files[k]);
        if (l > 5 && !strcmp(files[k] + l - 5, ".json") && !json[0]) snprintf(json, sizeof json, "%s/%s", dir, files[k]);
        free(files[k]);
    }
    if (!json[0]) return false;
    char atlas[1400], outdir[1024];
    snprintf(atlas, sizeof atlas, "%s/%s.atlas", dir, rig);
    snprintf(outdir, sizeof outdir, "%s", tu_tmp(rig));
    char *log = NULL;
    int rc = tu_mfe(&log, "skel import-spine '%s' --atlas '%s' --out '%s'", json, atlas, outdir);
    if (rc != 0) printf("  %-16s import FAILED: %s\n", rig, log ? log : "");
    free(log);
    char stem[512];
    snprintf(stem, sizeof stem, "%s", strrchr(json, '/') + 1);
    stem[strlen(stem) - 5] = 0;
    snprintf(mskel, size, "%s/%s.mskel", outdir, stem);
    return rc == 0;
}

void tu_parity_run(const char *const *rigs, const char *const *exclude, tu_parity_select select,
                   const tu_parity_known *known, tu_parity_totals *t)
{
    memset(t, 0, sizeof *t);
    const char *shared = tu_shared();
    if (!shared) {
        printf("skipped: no shared test data (../shared or $MF_SHARED)\n");
        skip();
    }
    char corpus[1024];
    snprintf(corpus, sizeof corpus, "%s/spine-corpus", shared);
    const char *only = getenv("MF_PARITY_RIGS"); /* optional subset, comma separated */
    char *all[128];
    int nr = tu_list_dir(corpus, all, 128);
    for (int i = 0; i < nr; i++) {
        const char *rig = all[i];
        bool use = (!rigs || listed(rigs, rig)) && !listed(exclude, rig) && (!only || strstr(only, rig));
        char dir[1200], refdir[1400], *refs[64];
        snprintf(dir, sizeof dir, "%s/%s", corpus, rig);
        snprintf(refdir, sizeof refdir, "%s/reference", dir);
        int nref = use ? tu_list_dir(refdir, refs, 64) : 0;
        double p99s[64], maxs[64];
        bool any = false;
        for (int k = 0; k < nref; k++) {
            char name[256];
            snprintf(name, sizeof name, "%s", refs[k]);
            if (strlen(name) > 5) name[strlen(name) - 5] = 0;
            if (select(rig, name, &p99s[k], &maxs[k])) any = true;
            else p99s[k] = -1;
        }
        char mskel[1600];
        if (any && !import_rig(dir, rig, mskel, sizeof mskel)) {
            t->missed++, t->total++;
            any = false;
        }
        for (int k = 0; k < nref; k++) {
            if (any && p99s[k] >= 0) {
                char ref[1800], name[256];
                snprintf(ref, sizeof ref, "%s/%s", refdir, refs[k]);
                snprintf(name, sizeof name, "%s", refs[k]);
                name[strlen(name) - 5] = 0;
                t->total++;
                bool ok = tu_parity_scenario(rig, mskel, ref, name, p99s[k], maxs[k], NULL);
                const char *why = known_reason(known, rig, name);
                if (why && ok) {
                    printf("    listed as known to miss (%s) but passes now: take it off the list\n", why);
                    t->fixed++;
                } else if (why) {
                    printf("    known: %s\n", why);
                    t->known++;
                } else if (!ok) {
                    t->missed++;
                }
            }
            free(refs[k]);
        }
        free(all[i]);
    }
    printf("parity: %d of %d scenarios within tolerance, %d known misses\n", t->total - t->missed - t->known,
           t->total, t->known);
}
