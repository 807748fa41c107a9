/* The session loop (session.h) with the callback the caller hands it at run time. */
#include "session.h"


int session_run(int fd, const struct session_options *o, struct session_result *res)
{
    return session_loop(fd, o, o->respond, res, false);
}

int session_run_notable(int fd, const struct session_options *o, struct session_result *res)
{
    return session_loop(fd, o, o->respond, res, true);
}
