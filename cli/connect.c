/* connect.c — `dhm connect`: runs a built-in player as a UECda client. */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "net/client.h"
#include "players/players.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm connect --player SPEC [--host H] [--port P] [--name NAME] [options]\n"
            "Joins a UECda server (protocol 20070) with a built-in player and plays until the\n"
            "server ends the match.\n\n"
            "  --player SPEC      the player, NAME[:key=value...] (kinds: %s)\n"
            "  --host H           server host (127.0.0.1)\n"
            "  --port P           server port (42485)\n"
            "  --name NAME        name sent to the server (default: the player spec; 9 characters kept)\n"
            "  --seed S           the player's seed: it uses the stream the server's in-process seats\n"
            "                     would use for the same player number (1)\n"
            "  --timeout MS       give up if the server is silent this long (off)\n"
            "  --json             a JSON summary at the end instead of the table\n"
            "  --quiet            no per-game lines\n",
            player_kinds());
}

int cmd_connect(int argc, char **argv)
{
    static const struct option opts[] = {{"player", required_argument, 0, 'P'}, {"host", required_argument, 0, 'H'},
                                         {"port", required_argument, 0, 'p'},   {"name", required_argument, 0, 'n'},
                                         {"seed", required_argument, 0, 's'},   {"timeout", required_argument, 0, 't'},
                                         {"json", no_argument, 0, 'j'},         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    const char *cmd = "connect";
    ClientConfig cfg = {"127.0.0.1", 42485, NULL, NULL, 1, 0, stderr, NULL, NULL};
    int json = 0, c;
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case 'P': cfg.spec = optarg; break;
        case 'H': cfg.host = optarg; break;
        case 'p': if (cli_long(cmd, "--port", optarg, 1, 65535, &v)) return 2; cfg.port = (int)v; break;
        case 'n': cfg.name = optarg; break;
        case 's': if (cli_u64(cmd, "--seed", optarg, &cfg.seed)) return 2; break;
        case 't': if (cli_long(cmd, "--timeout", optarg, 0, 86400000, &v)) return 2; cfg.timeout_ms = (int)v; break;
        case 'j': json = 1; break;
        case 'q': cfg.log = NULL; break;
        case 'h': usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind]);
    if (!cfg.spec)
        return cli_fail(cmd, "--player is required (kinds: %s)", player_kinds());
    char err[512];
    Player *probe; /* check the spec before connecting */
    if (player_create(cfg.spec, 0, &probe, err, sizeof err))
        return cli_fail(cmd, "%s", err);
    int hidden = probe->reads_hidden;
    player_destroy(probe);
    if (hidden)
        return cli_fail(cmd, "%s reads the other players' hidden cards (an experiments-only option): never over the "
                             "network",
                        cfg.spec);
    if (!cfg.name)
        cfg.name = cfg.spec;
    ClientResult res;
    double t0 = cli_now();
    int rc = client_run(&cfg, &res, err, sizeof err);
    double secs = cli_now() - t0;
    if (rc) {
        client_result_free(&res);
        return cli_error(cmd, "%s", err);
    }
    MatchResult mr;
    memset(&mr, 0, sizeof mr);
    mr.games = res.games;
    memcpy(mr.points, res.points, sizeof mr.points);
    memcpy(mr.class_count, res.class_count, sizeof mr.class_count);
    Player named[NPLAYERS];
    Player *pl[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++) {
        memset(&named[p], 0, sizeof named[p]);
        named[p].kind = "remote"; /* another client of the server: only its name is known */
        snprintf(named[p].name, sizeof named[p].name, "player %d", p);
        pl[p] = p == res.me ? res.player : &named[p];
    }
    snprintf(res.player->name, sizeof res.player->name, "%s (me)", cfg.name);
    MatchConfig mc;
    match_config_default(&mc);
    mc.games = res.games;
    mc.seed = cfg.seed;
    if (!json)
        printf("player %d of the server; the totals as this client saw the games:\n", res.me);
    cli_print_match(stdout, pl, &mr, &mc, secs, json);
    client_result_free(&res);
    return 0;
}
