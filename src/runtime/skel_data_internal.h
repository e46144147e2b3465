/* Shared by the skel_data loader files: the located-error helper and the content checks. */
#ifndef MF_SKEL_DATA_INTERNAL_H
#define MF_SKEL_DATA_INTERNAL_H
#include "mf/mf_skel_data.h"

/* Sets diag with where = "<record>[<index>].<field>" (index < 0: "<record>"; field NULL or "":
 * no ".field") and returns MF_ERR_CORRUPT. */
mf_result mf_sd_bad(mf_diag *diag, const char *record, int64_t index, const char *field,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Every index and range inside a view whose sections are already in bounds. */
mf_result mf_sd_check_content(const mf_skel_data *d, mf_diag *diag);
#endif
