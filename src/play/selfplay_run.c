/* `mtref selfplay` as a whole: loads the rules, then plays in one thread or hands the
 * matches to selfplay_jobs. Above both selfplay.c and selfplay_jobs.c, so that the
 * calls between them run one way. */
#include "selfplay_run.h"

#include <errno.h>
#include <string.h>

#include "selfplay_jobs.h"

/* The rules of the files, through the loader (no session needed to load them):
 * a handle to release, or NULL with *rules canonical when there are none. */
static void *load_rules(const struct rules_loader *loader, const char *const files[], int n,
                        const struct rules *canonical, const struct rules **rules, char *err, bool *failed)
{
    *rules = canonical;
    *failed = false;
    if (n == 0) return NULL;
    void *handle = NULL;
    if (!loader->load)
        snprintf(err, RULES_MESSAGE_SIZE, "%s: house rules are not available in this build", files[0]);
    else if (n > RULES_MAX_FILES)
        snprintf(err, RULES_MESSAGE_SIZE, "at most %d rules files", RULES_MAX_FILES);
    else
        handle = loader->load(loader->ctx, files, n, rules, err);
    *failed = handle == NULL;
    return handle;
}

int selfplay_run(const struct selfplay_options *o, const struct rules_loader *loader,
                 const char *const rules_files[], int nrules, FILE *out, char *err)
{
    struct rules canonical;
    rules_init_canonical(&canonical);
    const struct rules *rules;
    bool failed;
    void *handle = load_rules(loader, rules_files, nrules, &canonical, &rules, err, &failed);
    if (failed) return 2;
    int status = 0;
    if (o->players < rules->min_players || o->players > rules->max_players) {
        snprintf(err, RULES_MESSAGE_SIZE, "%d players: these rules seat %d to %d", o->players,
                 rules->min_players, rules->max_players);
        status = 2;
        goto done;
    }
    if (o->jobs > 1 && o->games > 1 && (nrules == 0 || o->job_loaders)) {
        status = selfplay_run_jobs(o, rules, rules_files, nrules, out, err);
        goto done;
    }
    for (long i = 0; i < o->games && status == 0; i++) {
        if (o->out_dir) status = selfplay_match_file(o, rules, rules_files, nrules, i, err);
        else status = selfplay_stream_match(o, rules, rules_files, nrules, i, out, err);
    }
done:
    if (handle && loader->release) loader->release(loader->ctx, handle);
    if ((fflush(out) != 0 || ferror(out)) && status == 0) {
        snprintf(err, RULES_MESSAGE_SIZE, "cannot write the records: %s", strerror(errno ? errno : EIO));
        status = 2;
    }
    clearerr(out);          /* reported here, once */
    return status;
}
