/* The Lua bridge (placeholder until house rules land). */
#include "luarules.h"

#include <lua.h>

struct luarules { int unused; };

static struct luarules shared;

struct luarules *luarules_new(void) { return &shared; }
void luarules_free(struct luarules *lr) { (void)lr; }
struct rules_loader luarules_loader(struct luarules *lr)
{
    struct rules_loader l = {lr, 0, 0};
    return l;
}
const char *luarules_version(void) { return LUA_VERSION_MAJOR "." LUA_VERSION_MINOR "." LUA_VERSION_RELEASE; }
int luarules_describe(struct luarules *lr, const char *const files[], int n, FILE *out, FILE *err)
{
    (void)lr; (void)files; (void)n; (void)out;
    fputs("mtref: house rules are not available yet\n", err);
    return 2;
}
