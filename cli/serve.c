/* serve.c — `dhm serve`: a UECda game server for remote clients and built-in players. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "net/server.h"
#include "players/players.h"
#include "record/kifu.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm serve [options]\n"
            "Runs a UECda game server (protocol 20070): waits for the remote seats' clients, in\n"
            "connection order, then plays the match with the dhm engine and prints one line per game.\n\n"
            "  --port P           TCP port (42485; 0 = any free port, printed at start)\n"
            "  --bind ADDR        address to listen on (127.0.0.1; 0.0.0.0 for every interface)\n"
            "  --seats LIST       five seats, comma separated: remote or a player spec\n"
            "                     (default remote,remote,remote,remote,remote; kinds: %s)\n"
            "  --games N          games (100)\n"
            "  --seat-change K    new random seats at games with n mod K == 1 (3)\n"
            "  --class-reset R    classes reset every R games (100)\n"
            "  --independent      every game draws its own seats and classes (random; every game has\n"
            "                     the exchange): games do not depend on one another, and two runs with one\n"
            "                     seed start every game alike (paired comparisons, docs/ladder.md); with\n"
            "                     --class-reset 1 every game is a first game (no classes, no exchange)\n"
            CLI_CLASS0_HELP
            "                     (player 0: the first of --seats; when it is remote, the first client\n"
            "                     to connect)\n"
            "  --deals FILE       play these dealt hands instead of shuffling (as dhm play --deals)\n"
            "  --seed S           seed for dealing, seats and built-in players (1)\n"
            "  --move-timeout MS  a client silent this long on its turn passes (off)\n"
            "  --wait MS          give up if the clients have not all connected by then (forever)\n"
            "  --record FILE      write every game as a kifu record (each move with its time, µs)\n"
            "  --json             a JSON summary at the end instead of the table\n"
            "  --quiet            no per-game lines and no log lines\n"
            "%s",
            player_kinds(), CLI_WATCH_HELP);
}

typedef struct ServeCtx {
    FILE *record;
    int quiet;
} ServeCtx;

static int on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    ServeCtx *c = ctx;
    if (c->record)
        kifu_write_game(c->record, rec);
    if (!c->quiet) {
        fprintf(stderr, "game %d: classes %d %d %d %d %d totals %ld %ld %ld %ld %ld\n", rec->number, rec->result[0],
                rec->result[1], rec->result[2], rec->result[3], rec->result[4], sofar->points[0], sofar->points[1],
                sofar->points[2], sofar->points[3], sofar->points[4]);
    }
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    static const struct option opts[] = {{"port", required_argument, 0, 'p'},
                                         {"bind", required_argument, 0, 'b'},
                                         {"seats", required_argument, 0, 'S'},
                                         CLI_MATCH_OPTS,
                                         CLI_CLASS0_OPT,
                                         {"move-timeout", required_argument, 0, 't'},
                                         {"wait", required_argument, 0, 'w'},
                                         {"record", required_argument, 0, 'o'},
                                         {"json", no_argument, 0, 'j'},
                                         {"quiet", no_argument, 0, 'q'},
                                         CLI_WATCH_OPTS,
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *cmd = "serve";
    ServerConfig cfg;
    server_config_default(&cfg);
    cfg.log = stderr;
    const char *seats = NULL, *record = NULL;
    int json = 0, quiet = 0, c, r;
    long v;
    CliWatch watch = {.on = 0};
    watch_config_default(&watch.cfg);
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case 'p': if (cli_long(cmd, "--port", optarg, 0, 65535, &v)) return 2; cfg.port = (int)v; break;
        case 'b': cfg.bind = optarg; break;
        case 'S': seats = optarg; break;
        case 't': if (cli_long(cmd, "--move-timeout", optarg, 0, 86400000, &v)) return 2; cfg.move_timeout_ms = (int)v; break;
        case 'w': if (cli_long(cmd, "--wait", optarg, 0, 86400000, &v)) return 2; cfg.wait_ms = (int)v; break;
        case 'o': record = optarg; break;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default:
            if ((r = cli_watch_opt(cmd, c, optarg, &watch)) == 1 && cli_match_opt(cmd, c, optarg, &cfg.match))
                return 2;
            if (r == 2)
                return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    if (cli_match_check(cmd, &cfg.match))
        return 2;
    if (seats) {
        char specs[NPLAYERS + 1][128];
        if (player_split_list(seats, specs, NPLAYERS + 1) != NPLAYERS)
            return cli_fail(cmd, "--seats needs exactly five comma-separated seats, got '%s'", seats);
        for (int p = 0; p < NPLAYERS; p++)
            snprintf(cfg.seats[p], sizeof cfg.seats[p], "%.127s", specs[p]);
    }
    if (quiet)
        cfg.log = NULL;
    cfg.match.timed = record != NULL; /* records carry each move's time (a remote seat's: until its answer came) */
    char err[512];
    Server *s;
    if (server_open(&s, &cfg, err, sizeof err))
        return cli_error(cmd, "%s", err);
    fprintf(stderr, "dhm serve: listening on %s:%d\n", cfg.bind, server_port(s));
    fflush(stderr);
    ServeCtx ctx = {NULL, quiet};
    GameRecord *rec = malloc(sizeof *rec);
    int rc = 0;
    if (!rec)
        rc = cli_error(cmd, "out of memory");
    WatchFeed *feed = NULL;
    if (!rc)
        rc = cli_watch_start(cmd, &watch);
    if (!rc && watch.server && !(feed = watch_match(watch.server, cfg.match.games)))
        rc = cli_error(cmd, "--watch: out of memory");
    if (!rc && server_accept_clients(s, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    if (!rc && feed) { /* the page shows the players from now on, and every game */
        const char *names[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            names[p] = server_player_name(s, p);
        watch_match_begin(watch.server, names);
        server_set_watch(s, watch_feed_hooks(feed));
    }
    if (!rc && record) {
        const char *names[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            names[p] = server_player_name(s, p);
        if (!(ctx.record = cli_kifu_open(cmd, record, names)))
            rc = 1;
    }
    if (!rc) {
        MatchResult res;
        double t0 = cli_now();
        server_run_match(s, on_game, &ctx, rec, &res);
        double secs = cli_now() - t0;
        if (feed)
            watch_feed_over(feed);
        Player *pl[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++) {
            pl[p] = server_player(s, p);
            snprintf(pl[p]->name, sizeof pl[p]->name, "%s", server_player_name(s, p));
        }
        cli_print_match(stdout, pl, &res, &cfg.match, secs, json);
        if (!json)
            for (int p = 0; p < NPLAYERS; p++)
                if (server_timeouts(s, p) || server_garbage(s, p) || server_disconnected(s, p))
                    printf("player %d: %ld timeouts, %ld garbage tables%s\n", p, server_timeouts(s, p),
                           server_garbage(s, p), server_disconnected(s, p) ? ", disconnected" : "");
        if (ctx.record && fclose(ctx.record))
            rc = cli_error(cmd, "error writing %s", record);
        ctx.record = NULL;
    }
    if (ctx.record)
        fclose(ctx.record);
    free(rec);
    server_close(s);
    cli_watch_stop(cmd, &watch, quiet);
    return rc;
}
