/* The view test against a view that leaks (MTREF_VIEW_LEAK): ctest expects it to fail,
 * which proves that test_view can catch a leak. */
#define MTREF_VIEW_LEAK 1
#include "../src/engine/view.c"
#include "test_view.c"
