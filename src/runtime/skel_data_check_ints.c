/* The timelines' int checks. Timelines may share int ranges, so checking each one's ints in
 * turn could cost timelines × ints. An honest build's timelines own disjoint ranges: within
 * that budget (the ints pool) each range is walked; past it, per rule (a predicate on every
 * stride-th int), one table of the next int breaking it answers each timeline at once, and the
 * walk runs only to give the located error. */
#include <stdint.h>

#include "skel_data_internal.h"

#define BAD(rec, i, field, ...) return mf_sd_bad(diag, rec, (int64_t)(i), field, __VA_ARGS__)

enum { R_INHERIT, R_ATTACHMENT, R_SEQUENCE, R_BEND, R_FLAG, R_SLOT, R_EVENT, R_EVENT_STRING };
static const int8_t STRIDE[MF_SD_INT_RULES] = {1, 1, 2, 3, 3, 1, 3, 3};

static bool rule_ok(const mf_skel_data *d, int rule, int32_t v)
{
    switch (rule) {
    case R_INHERIT: return v >= 0 && v < MF_SD_INHERIT_COUNT;
    case R_ATTACHMENT:
    case R_EVENT_STRING: return mf_sd_str_opt(d, v);
    case R_SEQUENCE: return v >= 0 && v < MF_SD_SEQ_MODE_COUNT;
    case R_BEND: return v == 1 || v == -1;
    case R_FLAG: return (uint32_t)v <= 1;
    case R_SLOT: return v >= 0 && v < d->slot_count;
    case R_EVENT: return v >= 0 && v < d->event_count;
    }
    return false;
}

static void table_build(const mf_skel_data *d, mf_sd_int_tables *tab, int rule)
{
    tab->tried[rule] = true;
    int32_t n = d->int_count, s = STRIDE[rule];
    if ((uint64_t)n > SIZE_MAX / sizeof(int32_t)) return;
    int32_t *next = mf_alloc(NULL, (size_t)n * sizeof(int32_t));
    if (!next) return;
    for (int32_t j = n - 1; j >= 0; j--)
        next[j] = !rule_ok(d, rule, d->ints[j]) ? j : (int64_t)j + s < n ? next[j + s] : INT32_MAX;
    tab->next[rule] = next;
}

/* Whether every int at comp, comp + stride, ... of the range [first, end) keeps the rule. */
static bool table_ok(const mf_skel_data *d, mf_sd_int_tables *tab, int rule, int32_t first, int32_t comp,
                     int64_t end)
{
    if (!tab->tried[rule]) table_build(d, tab, rule);
    return tab->next[rule] && tab->next[rule][first + comp] >= end;
}

/* Whether the tables answer that t's ints are all kept (past the budget only). */
static bool tables_accept(const mf_skel_data *d, mf_sd_int_tables *tab, const mf_sd_timeline *t, int64_t count)
{
    if (count > tab->budget) tab->budget = -1; /* past it: every later timeline asks the tables */
    if (tab->budget >= 0) return false;
    int32_t f = t->int_first;
    int64_t end = f + count;
    switch (t->kind) {
    case MF_SD_TL_INHERIT: return table_ok(d, tab, R_INHERIT, f, 0, end);
    case MF_SD_TL_ATTACHMENT: return table_ok(d, tab, R_ATTACHMENT, f, 0, end);
    case MF_SD_TL_SEQUENCE: return table_ok(d, tab, R_SEQUENCE, f, 0, end);
    case MF_SD_TL_IK:
        return table_ok(d, tab, R_BEND, f, 0, end) && table_ok(d, tab, R_FLAG, f, 1, end) &&
               table_ok(d, tab, R_FLAG, f, 2, end);
    case MF_SD_TL_DRAW_ORDER: return table_ok(d, tab, R_SLOT, f, 0, end);
    case MF_SD_TL_EVENT: return table_ok(d, tab, R_EVENT, f, 0, end) && table_ok(d, tab, R_EVENT_STRING, f, 2, end);
    default: return false;
    }
}

mf_result mf_sd_check_ints(const mf_skel_data *d, int32_t i, const mf_sd_timeline *t, mf_sd_int_tables *tab,
                           mf_diag *diag)
{
    int64_t count = (int64_t)t->key_count * t->int_comps;
    if (count == 0) return MF_OK; /* kinds without ints check nothing */
    if (tables_accept(d, tab, t, count)) return MF_OK;
    if (tab->budget >= 0) tab->budget -= count;
    for (int32_t k = 0; k < t->key_count; k++) {
        const int32_t *v = d->ints + t->int_first + (long long)k * t->int_comps;
        switch (t->kind) {
        case MF_SD_TL_INHERIT:
            if (v[0] < 0 || v[0] >= MF_SD_INHERIT_COUNT)
                BAD("timelines", i, "ints", "key %d: unknown inherit mode %d", k, v[0]);
            break;
        case MF_SD_TL_ATTACHMENT:
            if (!mf_sd_str_opt(d, v[0]))
                BAD("timelines", i, "ints", "key %d: string offset %d outside the string table", k, v[0]);
            break;
        case MF_SD_TL_SEQUENCE:
            if (v[0] < 0 || v[0] >= MF_SD_SEQ_MODE_COUNT)
                BAD("timelines", i, "ints", "key %d: unknown sequence mode %d", k, v[0]);
            break;
        case MF_SD_TL_IK:
            if ((v[0] != 1 && v[0] != -1) || (uint32_t)v[1] > 1 || (uint32_t)v[2] > 1)
                BAD("timelines", i, "ints", "key %d: bend must be 1 or -1 and compress, stretch 0 or 1", k);
            break;
        case MF_SD_TL_DRAW_ORDER:
            for (int32_t s = 0; s < t->int_comps; s++)
                if (v[s] < 0 || v[s] >= d->slot_count)
                    BAD("timelines", i, "ints", "key %d: draw order entry %d is slot %d, outside 0..%d", k, s, v[s],
                        d->slot_count - 1);
            break;
        case MF_SD_TL_EVENT:
            if (v[0] < 0 || v[0] >= d->event_count)
                BAD("timelines", i, "ints", "key %d: event %d outside 0..%d", k, v[0], d->event_count - 1);
            if (!mf_sd_str_opt(d, v[2]))
                BAD("timelines", i, "ints", "key %d: string offset %d outside the string table", k, v[2]);
            break;
        default: break;
        }
    }
    return MF_OK;
}

void mf_sd_int_tables_free(mf_sd_int_tables *tab)
{
    for (int r = 0; r < MF_SD_INT_RULES; r++) mf_free(NULL, tab->next[r]);
}
