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

/* A string offset inside the string table; optional: or -1 (none). */
static inline bool mf_sd_str_ok(const mf_skel_data *d, int32_t off) { return off >= 0 && off < d->string_bytes; }
static inline bool mf_sd_str_opt(const mf_skel_data *d, int32_t off) { return off == -1 || mf_sd_str_ok(d, off); }

/* Neither NaN nor infinite. */
static inline bool mf_sd_finite(float v) { return v - v == 0.0f; }

/* The tables past the budget of the timelines' int checks (see skel_data_check_ints.c). */
enum { MF_SD_INT_RULES = 8 };
typedef struct mf_sd_int_tables {
    int64_t budget;                 /* ints still walked before the tables */
    bool tried[MF_SD_INT_RULES];    /* the rule's table was tried (it may have failed to allocate) */
    int32_t *next[MF_SD_INT_RULES]; /* per int: the next one at the rule's stride that breaks it */
} mf_sd_int_tables;

/* The ints of timeline i (kind, ranges and counts already checked). */
mf_result mf_sd_check_ints(const mf_skel_data *d, int32_t i, const mf_sd_timeline *t, mf_sd_int_tables *tab,
                           mf_diag *diag);
void mf_sd_int_tables_free(mf_sd_int_tables *tab);

/* Every index and range inside a view whose sections are already in bounds. */
mf_result mf_sd_check_content(const mf_skel_data *d, mf_diag *diag);
#endif
