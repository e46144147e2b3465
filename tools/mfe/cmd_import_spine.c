/* mfe skel import-spine RIG.json [--atlas RIG.atlas] --out DIR: a Spine 4.x JSON export with its
 * atlas and pages → DIR/NAME.mskel, DIR/NAME.clips/, DIR/images/ and DIR/import-report.txt.
 * Exit 2 with a located error on bad input; DIR is only changed when the import succeeds. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_spine.h"

int mfe_skel_import_spine(int argc, char **argv)
{
    const char *json = NULL, *out = NULL;
    mf_spine_options opt = {0};
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--out") || mfe_is_flag(argv[i], "--atlas")) {
            if (i + 1 >= argc)
                return mfe_usage_error("skel", "import-spine", "%s needs a value", argv[i]);
            if (argv[i][2] == 'o') out = argv[++i];
            else opt.atlas = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return mfe_usage_error("skel", "import-spine", "unknown option %s", argv[i]);
        } else if (json) {
            return mfe_usage_error("skel", "import-spine", "more than one input (%s and %s)", json, argv[i]);
        } else {
            json = argv[i];
        }
    }
    if (!json) return mfe_usage_error("skel", "import-spine", "no Spine JSON file given");
    if (!out) return mfe_usage_error("skel", "import-spine", "no output folder given (--out DIR)");
    mf_spine_summary s;
    mf_diag diag;
    if (mf_spine_import(json, out, &opt, &s, &diag) != MF_OK) return mfe_report(&diag);
    printf("imported %s -> %s/%s.mskel in %.2f s\n", json, out, s.name, s.seconds);
    printf("  bones %d, slots %d, skins %d, attachments %d, constraints %d, events %d\n", s.bones, s.slots,
           s.skins, s.attachments, s.constraints, s.events);
    printf("  clips %d in %s/%s.clips/, images %d in %s/images/\n", s.clips, out, s.name, s.images, out);
    if (s.report_lines == 0)
        printf("  import report: everything mapped (%s/import-report.txt)\n", out);
    else
        printf("  import report: %d line%s (%s), see %s/import-report.txt\n", s.report_lines,
               s.report_lines == 1 ? "" : "s", s.report_counts, out);
    return MFE_OK;
}
