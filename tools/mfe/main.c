/* mfe — the mfanim command line: `mfe skel …` (2D rigs and clips), later `mfe anim …`.
 * Exit codes: 0 ok, 1 failed checks, 2 usage or input error. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const mfe_command COMMANDS[] = {
    {"skel", "fmt", mfe_skel_fmt, "FILE… [--check]",
     "rewrite .mskel / .manim files in canonical form (--check: exit 1 if one is not)"},
    {"skel", "describe", mfe_skel_describe, "RIG.mskel [--clip NAME] [--json]",
     "summarise a rig and its clips (exit 2 with a located error when invalid)"},
    {"skel", "check", mfe_skel_check, "RIG.mskel [--clip NAME] [--json]",
     "every finding in a rig and its clips: severity, subject, file + JSON path, time, fix (exit 1 on errors)"},
    {"skel", "key", mfe_skel_key,
     "CLIP.manim --bone B|--slot S|--ik C|--transform C|--path C|--physics C --timeline T --t TIME [--v VALUE] "
     "[--curve linear|stepped|ease|ease-in|ease-out|x1,y1,x2,y2] [--rig RIG.mskel]",
     "add a key or change the key at TIME, keeping the file canonical (names checked against the rig)"},
    {"skel", "render", mfe_skel_render,
     "RIG.mskel --clip NAME [--frames 8] [--frame TIME] [--size W[xH]] [--skin S…] [--out sheet.png]",
     "contact sheet by the software renderer: frames with onion, bones, bounds; timeline strip; check summary"},
    {"skel", "build", mfe_skel_build, "RIG.mskel -o OUT [--json]",
     "build the rig and its clips into the binary runtime build"},
    {"skel", "import-spine", mfe_skel_import_spine, "RIG.json [--atlas RIG.atlas] --out DIR",
     "import a Spine 4.x JSON export, its atlas and pages (report of what did not map in DIR)"},
    {"skel", "import-psd", mfe_skel_import_psd, "FILE.psd --out DIR [--name NAME]",
     "import a layered PSD: layers to images, slots and Region/Mesh attachments, groups to bones, [skin] groups to skins; onto an existing DIR it re-imports"},
    {"skel", "simulate", mfe_skel_simulate, "RIG.mskel --scenario SCENARIO.json [--out FRAMES.json]",
     "play a scenario (one clip on track 0) and write the frames: bones, draw list, events"},
    {"skel", "automesh", mfe_skel_automesh, "RIG.mskel --slot S [--attachment A] [--density D] [--json]",
     "turn a slot's Region (or unweighted Mesh) into a Mesh traced from its image; prints counts and quality"},
    {"skel", "bench", mfe_skel_bench, "RIG.mskel --clip NAME [--skin S…] [--instances 200] [--frames 300] [--threads N] [--offscreen P%] [--prefetch-min K|off] [--simd LEVEL] [--draw full|items|none] [--track-slots] [--merge | --gpu | --gpu-cpu [--gpu-world] [--gpu-check]] [--heap] [--json]",
     "time N staggered instances of a clip per stage (tracks, world, world vertices, draw runs), allocations per frame, load times"},
    {"skel", "digest", mfe_skel_digest, "RIG.mskel… [--simd auto|base|avx|avx2|avx512] [--all-simd] [--json]",
     "bit-exact digests of every pose, world vertex, event and draw list of every clip; --all-simd: at every SIMD level this CPU offers, exit 1 where they differ"},
    {"anim", "rig", mfe_anim_rig, "MODEL [--write-meta] [--json]",
     "humanoid map of a rigged glTF: bone tree, canonical bones with source and confidence, rest kind, proportions"},
    {"anim", "poses", mfe_anim_poses, "[--json]",
     "the named poses and the canonical bones, angle components and limits"},
};
static const int COMMAND_COUNT = (int)(sizeof COMMANDS / sizeof COMMANDS[0]);

static const mfe_command *find(const char *group, const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(COMMANDS[i].group, group) == 0 && strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

static void help(FILE *out)
{
    fprintf(out, "usage: mfe <group> <command> [args]\n\ncommands:\n");
    for (int i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  mfe %s %s %s\n      %s\n", COMMANDS[i].group, COMMANDS[i].name,
                COMMANDS[i].usage, COMMANDS[i].summary);
    fprintf(out, "\nexit codes: 0 ok, 1 failed checks, 2 usage or input error\n");
}

int mfe_report(const mf_diag *d)
{
    char msg[1200];
    mf_diag_format(d, msg, sizeof msg);
    fprintf(stderr, "mfe: %s\n", msg);
    return MFE_USAGE;
}

int mfe_usage_error(const char *group, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "mfe %s %s: ", group, name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    const mfe_command *c = find(group, name);
    if (c) fprintf(stderr, "\nusage: mfe %s %s %s\n", group, name, c->usage);
    else fputc('\n', stderr);
    return MFE_USAGE;
}

bool mfe_is_flag(const char *arg, const char *name) { return strcmp(arg, name) == 0; }

int main(int argc, char **argv)
{
    if (argc < 2 || mfe_is_flag(argv[1], "--help") || mfe_is_flag(argv[1], "-h") ||
        mfe_is_flag(argv[1], "help")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? MFE_USAGE : MFE_OK;
    }
    if (mfe_is_flag(argv[1], "--version")) {
        printf("mfe %d.%d.%d\n", MF_VERSION_MAJOR, MF_VERSION_MINOR, MF_VERSION_PATCH);
        return MFE_OK;
    }
    if (argc < 3) {
        fprintf(stderr, "mfe: missing command after \"%s\"\n", argv[1]);
        help(stderr);
        return MFE_USAGE;
    }
    const mfe_command *c = find(argv[1], argv[2]);
    if (!c) {
        fprintf(stderr, "mfe: unknown command \"%s %s\"\n", argv[1], argv[2]);
        help(stderr);
        return MFE_USAGE;
    }
    for (int i = 3; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--help") || mfe_is_flag(argv[i], "-h")) {
            printf("usage: mfe %s %s %s\n%s\n", c->group, c->name, c->usage, c->summary);
            return MFE_OK;
        }
    }
    return c->run(argc - 3, argv + 3);
}
