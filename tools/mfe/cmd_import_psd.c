/* mfe skel import-psd FILE.psd --out DIR [--name NAME]: a layered PSD → DIR/NAME.mskel,
 * DIR/images/, DIR/NAME.psdmap.json and DIR/import-report.txt; onto an existing DIR it
 * re-imports (docs/psd-import.md). Exit 2 with a located error on bad input; DIR is only
 * changed when the import succeeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_psd.h"

int mfe_skel_import_psd(int argc, char **argv)
{
    const char *psd = NULL, *out = NULL;
    mf_psd_import_options opt = {0};
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--out") || mfe_is_flag(argv[i], "--name")) {
            if (i + 1 >= argc) return mfe_usage_error("skel", "import-psd", "%s needs a value", argv[i]);
            if (argv[i][2] == 'o') out = argv[++i];
            else opt.name = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return mfe_usage_error("skel", "import-psd", "unknown option %s", argv[i]);
        } else if (psd) {
            return mfe_usage_error("skel", "import-psd", "more than one input (%s and %s)", psd, argv[i]);
        } else {
            psd = argv[i];
        }
    }
    if (!psd) return mfe_usage_error("skel", "import-psd", "no PSD file given");
    if (!out) return mfe_usage_error("skel", "import-psd", "no output folder given (--out DIR)");
    mf_psd_import_summary s;
    mf_diag diag;
    if (mf_psd_import(psd, out, &opt, &s, &diag) != MF_OK) return mfe_report(&diag);
    /* the report's first lines are the summary; the rest lists what needs a look */
    fputs(s.report ? s.report : "", stdout);
    printf("report: %s/import-report.txt\n", out);
    free(s.report);
    return MFE_OK;
}
