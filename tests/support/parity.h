/* Parity with the Spine runtime's reference dumps (../shared/spine-corpus, its README): compare
 * frames, play scenarios through `mfe skel simulate`, walk the corpus. Shared by the parity
 * tests so that every one of them compares by the same rules. */
#ifndef MF_TEST_PARITY_H
#define MF_TEST_PARITY_H
#include <cjson/cJSON.h>
#include <stdbool.h>

/* Compares two dumps (their "frames"): the same draw list (slot, attachment — or our image
 * name, since Spine names an attachment by its path where it has one) in order, vertices (regions
 * and clipped geometry as point sets, meshes vertex by vertex), the same events. Prints one line
 * "rig name ok|MISS p99 … max …"; returns true within (tol_p99, tol_max). *worst (may be NULL)
 * gets the max error, INFINITY when the draw lists or events differ. */
bool tu_parity_compare(const char *rig, const char *name, const cJSON *ref, const cJSON *ours, double tol_p99,
                       double tol_max, double *worst);

/* Plays the reference's scenario with `mfe skel simulate` on mskel and compares. */
bool tu_parity_scenario(const char *rig, const char *mskel, const char *ref_path, const char *name,
                        double tol_p99, double tol_max, double *worst);

/* Which scenarios a test runs: return false to leave one out, else set the tolerances. */
typedef bool (*tu_parity_select)(const char *rig, const char *scenario, double *tol_p99, double *tol_max);

/* A scenario known to miss, with the measured error and the reason. */
typedef struct tu_parity_known {
    const char *rig, *scenario, *why;
} tu_parity_known;

typedef struct tu_parity_totals {
    int total, missed, known, fixed; /* fixed: listed as known but passing now */
} tu_parity_totals;

/* Imports every corpus rig (only those in rigs, a NULL-terminated list, when rigs is not NULL;
 * never those in exclude; $MF_PARITY_RIGS picks a subset), plays every selected scenario and
 * compares. known (terminated by a NULL rig) may be NULL. Calls skip() without the corpus. */
void tu_parity_run(const char *const *rigs, const char *const *exclude, tu_parity_select select,
                   const tu_parity_known *known, tu_parity_totals *totals);

/* Sorted entries of a folder, without dot files (malloc'd names); returns the count. */
int tu_list_dir(const char *path, char **names, int cap);
#endif
