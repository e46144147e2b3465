/* Shared by the mfe commands: exit codes, diagnostics, small argument helpers. */
#ifndef MFE_CLI_H
#define MFE_CLI_H
#include <stdbool.h>

#include "mf/mf_base.h"
#include "mf/mf_pose.h"

enum { MFE_OK = 0, MFE_FAILED = 1, MFE_USAGE = 2 };

/* One command: `mfe <group> <name> …`. run gets argv after the command name. */
typedef struct mfe_command {
    const char *group, *name;
    int (*run)(int argc, char **argv);
    const char *usage;   /* one line: arguments */
    const char *summary; /* one line: what it does */
} mfe_command;

/* Prints "mfe: file: where: message" to stderr; returns MFE_USAGE (exit 2). */
int mfe_report(const mf_diag *d);
/* Prints "mfe <group> <name>: message" and the usage to stderr; returns MFE_USAGE. */
int mfe_usage_error(const char *group, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* True when arg is a flag such as "--json". */
bool mfe_is_flag(const char *arg, const char *name);

struct mf_rig;
/* The clip of a loaded rig named by --clip; prints a located error with a suggestion and the
 * clip list, and returns -1, when the rig has no such clip. */
int32_t mfe_find_clip_arg(const struct mf_rig *rig, const char *name, const char *rig_path);

/* `--simd` levels (simd_arg.c): "auto", "base", "avx", "avx2", "avx512" to mf_simd and back;
 * -1 / NULL when unknown. */
int mfe_simd_parse(const char *name);
const char *mfe_simd_name(mf_simd level);

/* The commands (one file each). */
int mfe_skel_fmt(int argc, char **argv);
int mfe_skel_describe(int argc, char **argv);
int mfe_skel_build(int argc, char **argv);
int mfe_skel_import_spine(int argc, char **argv);
int mfe_skel_import_psd(int argc, char **argv);
int mfe_skel_simulate(int argc, char **argv);
int mfe_skel_automesh(int argc, char **argv);
int mfe_skel_check(int argc, char **argv);
int mfe_skel_key(int argc, char **argv);
int mfe_skel_render(int argc, char **argv);
int mfe_skel_bench(int argc, char **argv);
int mfe_skel_digest(int argc, char **argv);
int mfe_anim_rig(int argc, char **argv);
int mfe_anim_poses(int argc, char **argv);
#endif
