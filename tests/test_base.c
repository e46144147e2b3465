#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "mf/mf_base.h"
#include "util/buf.h"
#include "util/suggest.h"

static void diag_formats_located_message(void **state)
{
    (void)state;
    mf_diag d;
    mf_diag_set(&d, "hero.mskel", "bones[4].parent", "unknown bone \"%s\"", "thigh_x");
    char out[600];
    mf_diag_format(&d, out, sizeof out);
    assert_string_equal(out, "hero.mskel: bones[4].parent: unknown bone \"thigh_x\"");
    mf_diag_set(&d, "a.bin", "", "truncated");
    mf_diag_format(&d, out, sizeof out);
    assert_string_equal(out, "a.bin: truncated");
}

static void numbers_are_shortest_and_stable(void **state)
{
    (void)state;
    char out[40];
    mf_format_number(out, sizeof out, 42.0f);
    assert_string_equal(out, "42");
    mf_format_number(out, sizeof out, -0.0f);
    assert_string_equal(out, "0");
    mf_format_number(out, sizeof out, 0.1f);
    assert_string_equal(out, "0.1");
    mf_format_number(out, sizeof out, -96.5f);
    assert_string_equal(out, "-96.5");
    mf_format_number(out, sizeof out, 1.0f / 3.0f);
    assert_true(strtof(out, NULL) == 1.0f / 3.0f);
    mf_format_number(out, sizeof out, 1e20f);
    assert_true(strtof(out, NULL) == 1e20f);
}

static void suggestions_find_typos_only(void **state)
{
    (void)state;
    const char *names[] = {"thigh_l", "thigh_r", "shin_l", "torso", NULL};
    assert_string_equal(mf_suggest_list("thigh_x", names), "thigh_l");
    assert_string_equal(mf_suggest_list("Torso", names), "torso");
    assert_null(mf_suggest_list("completely_else", names));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diag_formats_located_message),
        cmocka_unit_test(numbers_are_shortest_and_stable),
        cmocka_unit_test(suggestions_find_typos_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
