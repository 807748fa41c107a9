/* mtref check FILE...: one verdict per file, the worst status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "cli.h"
#include "cpus.h"

static const char usage[] =
    "usage: mtref check [OPTIONS] FILE...   adjudicate records, one verdict per file\n"
    "options:\n"
    "  --json            one JSON object per file\n"
    "  --rules NAME      load a house-rule file (repeatable; after the record's own)\n"
    "  --jobs N          referee each file on N threads, the same verdicts (default: the\n"
    "                    CPUs available)\n"
    "  -h, --help        this help;  --version  the version\n"
    "See mtref(1).\n";

enum { OPT_JSON, OPT_RULES, OPT_JOBS };
static const struct cli_option options[] = {
    [OPT_JSON] = {"--json", 0, false},
    [OPT_RULES] = {"--rules", 0, true},
    [OPT_JOBS] = {"--jobs", 'j', true},
};

#define CHECK_MAX_JOBS 256

/* Each file gets a fresh Lua bridge: no state a hook keeps carries from one file to
 * the next. */
static void check_file(const char *path, const char *const rules[], int nrules, int jobs, struct check_result *res)
{
    int fd, err = cli_open_input(path, &fd);
    if (err) {
        memset(res, 0, sizeof *res);
        res->status = 2;
        snprintf(res->io_error, sizeof res->io_error, "%s", strerror(err));
        return;
    }
    struct luarules *lua = luarules_new();
    struct rules_loader loader = luarules_loader(lua);
    if (lua) {
        check_descriptor_jobs(fd, &loader, rules, nrules, jobs, res);
    } else {
        snprintf(res->io_error, sizeof res->io_error, "out of memory");
        res->status = 2;
    }
    luarules_free(lua);
    if (fd) close(fd);
}

static int run(int argc, char **argv, const struct cli_env *env)
{
    (void)env;
    enum output_mode mode = OUTPUT_TEXT;
    const char *rules[RULES_MAX_FILES];
    int nrules = 0, nfiles = 0, jobs = 0;
    const char **files = mt_malloc((size_t)argc * sizeof *files);
    if (!files) { fputs("mtref: out of memory\n", stderr); return 2; }
    struct cli_parser p;
    cli_parser_init(&p, argc, argv, &cli_check, options, (int)(sizeof options / sizeof options[0]));
    const char *value;
    int opt, status = -1;
    while (status < 0 && (opt = cli_parser_next(&p, &value, &status)) != CLI_END) {
        switch (opt) {
        case CLI_EXIT: break;
        case CLI_OPERAND:
            if (nfiles == CLI_MAX_OPERANDS) status = cli_usage_error(&cli_check, "too many files (at most %d)", CLI_MAX_OPERANDS);
            else files[nfiles++] = value;
            break;
        case OPT_JSON: mode = OUTPUT_JSON; break;
        case OPT_JOBS: {
            long long n;
            if (!cli_parse_count(value, 1, CHECK_MAX_JOBS, &n))
                status = cli_usage_error(&cli_check, "bad option or value: '%s'", p.word);
            else jobs = (int)n;
            break;
        }
        case OPT_RULES:
            if (nrules == RULES_MAX_FILES) status = cli_usage_error(&cli_check, "too many %s files", "--rules");
            else rules[nrules++] = value;
            break;
        }
    }
    if (status < 0 && nfiles == 0) status = cli_usage_error(&cli_check, "check needs at least one %s", "FILE");
    struct check_result *res = status < 0 ? mt_malloc(sizeof *res) : NULL;
    if (status < 0 && !res) {
        fputs("mtref: out of memory\n", stderr);
        status = 2;
    }
    if (status < 0) {
        status = 0;
        if (jobs == 0) jobs = sys_cpus_available();
        for (int i = 0; i < nfiles; i++) {
            check_file(files[i], rules, nrules, jobs, res);
            check_print(stdout, mode, files[i], res);
            fflush(stdout);
            if (res->status > status) status = res->status;
        }
    }
    free(res);
    free(files);
    return status;
}

const struct subcommand cli_check = {"check", "adjudicate records, one verdict per file", usage, run};
