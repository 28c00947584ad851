/* play.c — `dhm play`: a match among five built-in players, in-process. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "game/match.h"
#include "players/players.h"
#include "record/kifu.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm play [--players P1,P2,P3,P4,P5] [--games N] [--seed S] [options]\n"
            "Plays one match in-process and prints each player's total points, mean points per\n"
            "game and how often it reached each class.\n\n"
            "  --players LIST     five player specs NAME[:key=value...], comma separated\n"
            "                     (default simple,simple,simple,random,random; kinds: %s)\n"
            "                     e.g. mc:bandit=ucb-v:sims=2000; every option: docs/players.md\n"
            "  --games N          games in the match (default 100)\n"
            "  --seed S           seed for dealing, seats and the players (default 1)\n"
            "  --seat-change K    new random seats at games with n mod K == 1 (default 3)\n"
            "  --class-reset R    classes reset every R games (default 100)\n"
            "  --independent      every game draws its own seats and classes (random; every game has\n"
            "                     the exchange): games do not depend on one another, and two runs with one\n"
            "                     seed start every game alike (paired comparisons, docs/ladder.md); with\n"
            "                     --class-reset 1 every game is a first game (no classes, no exchange)\n"
            CLI_CLASS0_HELP
            "  --deals FILE       play these dealt hands (a kifu file, or one deal per line: five { cards }\n"
            "                     groups, the hands of players 0-4) instead of shuffling; game i plays deal i\n"
            "  --record FILE      write every game as a kifu record (each move with its thinking time, µs)\n"
            "  --json             print the summary as JSON instead of a table\n"
            "  --quiet            no progress line\n",
            player_kinds());
}

typedef struct PlayCtx {
    FILE *record;
    Progress progress;
} PlayCtx;

static int on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    PlayCtx *c = ctx;
    if (c->record)
        kifu_write_game(c->record, rec);
    progress_update(&c->progress, sofar->games, " games");
    return 0;
}

int cmd_play(int argc, char **argv)
{
    static const struct option opts[] = {{"players", required_argument, 0, 'p'},
                                         CLI_MATCH_OPTS,
                                         CLI_CLASS0_OPT,
                                         {"record", required_argument, 0, 'o'},
                                         {"json", no_argument, 0, 'j'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *players = "simple,simple,simple,random,random", *record = NULL;
    MatchConfig cfg;
    match_config_default(&cfg);
    int json = 0, quiet = 0, c;
    optind = 1;
    while ((c = cli_getopt("play", argc, argv, opts)) != -1) {
        switch (c) {
        case 'p': players = optarg; break;
        case 'o': record = optarg; break;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default:
            if (cli_match_opt("play", c, optarg, &cfg))
                return 2;
        }
    }
    if (optind < argc)
        return cli_fail("play", "unexpected argument '%s' (try --help)", argv[optind]);
    if (cli_match_check("play", &cfg))
        return 2;
    cfg.timed = record != NULL; /* records carry each move's thinking time */

    char specs[NPLAYERS + 1][128];
    int n = player_split_list(players, specs, NPLAYERS + 1);
    if (n != NPLAYERS)
        return cli_fail("play", "--players needs exactly five comma-separated player specs, got '%s'", players);
    Player *pl[NPLAYERS] = {0};
    char err[256];
    int rc = 0;
    for (int p = 0; p < NPLAYERS && !rc; p++)
        if (player_create(specs[p], player_seed(cfg.seed, p), &pl[p], err, sizeof err))
            rc = cli_fail("play", "player %d: %s", p, err);
    PlayCtx ctx = {0};
    GameRecord *rec = rc ? NULL : malloc(sizeof *rec);
    if (!rc && !rec)
        rc = cli_error("play", "out of memory");
    if (!rc && record) {
        const char *names[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            names[p] = pl[p]->name;
        if (!(ctx.record = cli_kifu_open("play", record, names)))
            rc = 1;
    }
    if (!rc) {
        MatchResult res;
        progress_init(&ctx.progress, "play:", cfg.games, !quiet);
        double t0 = cli_now();
        match_run(pl, &cfg, NULL, on_game, &ctx, rec, &res);
        double secs = cli_now() - t0;
        progress_done(&ctx.progress);
        cli_print_match(stdout, pl, &res, &cfg, secs, json);
        if (ctx.record && fclose(ctx.record)) {
            ctx.record = NULL;
            rc = cli_error("play", "error writing %s", record);
        }
        ctx.record = NULL;
    }
    if (ctx.record)
        fclose(ctx.record);
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
    return rc;
}
