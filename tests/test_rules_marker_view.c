/* [R12] what a player sees of a marker: the text of `show`. The rules of a turn
 * (R7-R18) are tested as data, in tests/rules/R07-*.t to R18-*.t. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A double on the Mexican train that its layer cannot cover: the pass marks their own
 * train [R16], never the Mexican train where the double lies [R12]. */
static void R12_no_marker_on_the_mexican_train(void **state)
{
    (void)state;
    struct referee *ref = tu_session(NULL, 0);
    tu_feed(ref, "players 2");
    tu_deal(ref, (const char *const[]){"5-12 5-5", "1-12"}, (const unsigned[]){TU_PIP(5) | TU_PIP(12), 0}, "3-4", NULL);
    tu_moves(ref, "p1 play 12-5 mex\np2 play 12-1 p2\np1 play 5-5 mex\np1 draw 3-4\np1 pass");
    assert_true(ref->game.trains[0].marker);
    assert_false(ref->game.trains[TRAIN_MEX].marker);
    char *out = NULL;
    /* what a player sees: p1's train marked, the Mexican train not */
    struct response resp;
    referee_line(ref, "show", 4, false, 99, &resp);
    FILE *mem = open_memstream(&out, &(size_t){0});
    output_response(mem, OUTPUT_TEXT, &ref->game, &resp);
    fclose(mem);
    assert_non_null(strstr(out, "  train p1               open 12 marked |\n"));
    assert_non_null(strstr(out, "  train mex              open  5        | 12-5 5-5\n"));
    free(out);
    tu_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(R12_no_marker_on_the_mexican_train),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
