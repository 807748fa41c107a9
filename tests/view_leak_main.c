/* mtref with the planted view leak (MTREF_VIEW_LEAK), for the spy test that must fail
 * against it: this view_of is linked before the engine library's, which is then not
 * pulled in. */
#define MTREF_VIEW_LEAK 1
#include "../src/engine/view.c"
