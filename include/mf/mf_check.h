/* mf_check.h — the checks of `mfe skel check`: everything a rig author wants caught in a rig and
 * its clips, as a list of findings (offline module).
 *
 *     mf_check_report rep = {0};
 *     mf_diag diag;
 *     if (mf_check_file("hero.mskel", NULL, &rep, &diag) != MF_OK) { ... unreadable: diag ... }
 *     for (int32_t i = 0; i < rep.count; i++) {
 *         char line[2048]; mf_finding_format(&rep.items[i], line, sizeof line); puts(line);
 *     }
 *     mf_check_report_free(&rep);
 *
 * Each finding has a severity (data that is broken is an error; what may be intended, such as a
 * joint flip, an unreachable IK target or shear on an IK chain, is a warning), a kind, what it is
 * about (a bone, slot, constraint, attachment, image, clip or event, by name), the file and JSON
 * path, the clip time where it applies, and a suggested fix.
 */
#ifndef MF_CHECK_H
#define MF_CHECK_H

#include "mf/mf_clip.h"
#include "mf/mf_skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mf_severity { MF_SEVERITY_WARNING = 0, MF_SEVERITY_ERROR = 1 } mf_severity;

typedef enum mf_check_kind {
    MF_CHECK_INVALID = 0,     /* error: the file breaks a format rule (located reader error) */
    MF_CHECK_UNKNOWN_NAME,    /* error: a bone, slot, attachment, skin, constraint or event the rig lacks */
    MF_CHECK_WRONG_RIG,       /* error: the clip's skeleton uid is another rig's */
    MF_CHECK_WEIGHT_SUM,      /* error: a weighted vertex whose weights do not sum to 1 */
    MF_CHECK_INFLUENCE_CAP,   /* error: more influences on a vertex than MF_MAX_INFLUENCES */
    MF_CHECK_MISSING_IMAGE,   /* error: an attachment's image is not in the images folder */
    MF_CHECK_SETUP_ATTACHMENT,/* error: a slot's setup attachment is in no skin */
    MF_CHECK_KEY_PAST_END,    /* error: a key after the clip's length (never played) */
    MF_CHECK_CURVE_RANGE,     /* error: a bezier's time handles outside 0..1 (time runs backwards) */
    MF_CHECK_VALUE_RANGE,     /* error: a mix, alpha or colour key outside 0..1 */
    MF_CHECK_IK_SHEAR,        /* warning: a bone of an IK chain has or is keyed with shear */
    MF_CHECK_IK_UNREACHABLE,  /* warning: an IK target beyond the chain's reach (no stretch) */
    MF_CHECK_JOINT_FLIP,      /* warning: rotation jumping more than 180° between two keys */
    MF_CHECK_LOOP_SEAM,       /* warning: a looping clip whose timeline ends away from its start */
    MF_CHECK_UV_RANGE,        /* warning: mesh uvs outside the image (0..1) */
    MF_CHECK_KIND_COUNT
} mf_check_kind;

/* "invalid", "unknown-name", "joint-flip" … (the spelling of the text and JSON output). */
const char *mf_check_kind_name(mf_check_kind k);
mf_severity mf_check_kind_severity(mf_check_kind k);

typedef struct mf_finding {
    mf_severity severity;
    mf_check_kind kind;
    const char *subject_kind; /* "bone", "slot", "constraint", "attachment", "image", "clip", "event", "rig" */
    char subject[160];        /* its name ("thigh_l"; attachments "skin/slot/name") */
    char file[256];
    char where[256];          /* JSON path, "" for the whole file */
    bool has_time;
    float time;               /* seconds into the clip, when has_time */
    char message[512];
    char fix[384];            /* suggested fix, "" when none fits */
} mf_finding;

typedef struct mf_check_report {
    int32_t count, cap;
    mf_finding *items;
    int32_t errors, warnings;
    int32_t clips_checked;
    bool oom; /* a finding could not be stored */
} mf_check_report;

void mf_check_report_free(mf_check_report *rep);
/* Appends a finding (severity from the kind) and returns it so that the caller fills message,
 * fix and time; NULL when out of memory (rep->oom is set). */
mf_finding *mf_check_add(mf_check_report *rep, mf_check_kind kind, const char *subject_kind,
                         const char *subject, const char *file, const char *where);
/* "file: where: t=0.4: warning: joint-flip: bone "thigh_l": message\n    fix: …" */
size_t mf_finding_format(const mf_finding *f, char *buf, size_t size);

/* Rig checks that need no clips: weights, influences, IK shear, setup attachments, uvs, and
 * images found under images_dir (a folder path with trailing '/'; NULL skips the image check). */
void mf_check_skeleton(const mf_skeleton *sk, const char *file, const char *images_dir,
                       mf_check_report *rep);
/* One clip against its rig: names (all of them, each with a suggestion), keys past the end,
 * curve and value ranges, joint flips, loop seams, shear keyed on IK chains. Returns true when
 * the clip is consistent with the rig (so it can be built and posed). */
bool mf_check_clip(const mf_skeleton *sk, const mf_clip *clip, const char *file,
                   mf_check_report *rep);
/* IK targets out of reach, in the setup pose and at every key time of the clips given (which
 * must be consistent with the rig). Builds the rig in memory; a failure is a finding. */
void mf_check_reach(const mf_skeleton *sk, const mf_clip *const *clips, const char *const *files,
                    int32_t clip_count, const char *rig_file, mf_check_report *rep);

/* Everything for a rig file and its clips folder (only the clip named only_clip when not NULL).
 * Returns MF_ERR_IO when the rig cannot be read (diag says why) and MF_ERR_ARGUMENT when
 * only_clip names no clip (diag suggests one); a rig or clip that breaks a format rule is a
 * finding, not a failure. */
mf_result mf_check_file(const char *path, const char *only_clip, mf_check_report *rep, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
