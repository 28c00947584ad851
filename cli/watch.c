/* watch.c — the --watch options that dhm serve and dhm tournament share (cli.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

const char CLI_WATCH_HELP[] =
    "  --watch [ADDR:]PORT  a live view in a browser at http://ADDR:PORT/ (ADDR 127.0.0.1 unless given;\n"
    "                     PORT 0 = any free port, printed at start); read-only, see docs/watch.md\n"
    "  --watch-delay MS   wait MS after every move the page shows, so people can follow (0)\n"
    "  --watch-hands yes|no  show every hand (and the cards given in the exchange) to viewers (yes)\n"
    "  --watch-viewers N  viewers at once; the next is refused with the reason (32)\n"
    "  --watch-timeout S  close a viewer's connection idle (or not reading) for S seconds (10)\n"
    "  --watch-linger MS  keep serving the final page MS after the end (0)\n";

int cli_watch_opt(const char *cmd, int c, const char *arg, CliWatch *w)
{
    long v;
    char err[256];
    switch (c) {
    case CLI_O_WATCH:
        if (watch_parse_addr(arg, &w->cfg, err, sizeof err))
            return cli_fail(cmd, "--watch: %s", err);
        w->on = 1;
        return 0;
    case CLI_O_WATCH_DELAY:
        if (cli_long(cmd, "--watch-delay", arg, 0, 60000, &v))
            return 2;
        w->cfg.delay_ms = (int)v;
        return 0;
    case CLI_O_WATCH_HANDS:
        if (strcmp(arg, "yes") && strcmp(arg, "no"))
            return cli_fail(cmd, "--watch-hands: yes or no, not '%s'", arg);
        w->cfg.hands = !strcmp(arg, "yes");
        return 0;
    case CLI_O_WATCH_VIEWERS:
        if (cli_long(cmd, "--watch-viewers", arg, 1, 1000, &v))
            return 2;
        w->cfg.max_viewers = (int)v;
        return 0;
    case CLI_O_WATCH_TIMEOUT:
        if (cli_long(cmd, "--watch-timeout", arg, 1, 3600, &v))
            return 2;
        w->cfg.timeout_s = (int)v;
        return 0;
    case CLI_O_WATCH_LINGER:
        if (cli_long(cmd, "--watch-linger", arg, 0, 86400000, &v))
            return 2;
        w->linger_ms = (int)v;
        return 0;
    default:
        return 1;
    }
}

int cli_watch_start(const char *cmd, CliWatch *w)
{
    w->server = NULL;
    if (!w->on)
        return 0;
    char err[512], url[128];
    if (watch_start(&w->server, &w->cfg, err, sizeof err))
        return cli_error(cmd, "--watch: %s", err);
    watch_url(w->server, url, sizeof url);
    fprintf(stderr, "dhm %s: watch live at %s (hands %s, %d viewers at most%s)\n", cmd, url,
            w->cfg.hands ? "shown" : "hidden", w->cfg.max_viewers, w->cfg.delay_ms ? ", delayed" : "");
    fflush(stderr);
    return 0;
}

void cli_watch_stop(const char *cmd, CliWatch *w, int quiet)
{
    if (!w->server)
        return;
    watch_finish(w->server);
    if (w->linger_ms > 0) {
        if (!quiet)
            fprintf(stderr, "dhm %s: the final page stays up for %d ms\n", cmd, w->linger_ms);
        struct timespec ts = {w->linger_ms / 1000, (long)(w->linger_ms % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
    watch_stop(w->server, quiet ? NULL : stderr, cmd);
    w->server = NULL;
}
