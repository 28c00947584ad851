/* replay.c — `dhm replay FILE.kifu...`: replays every game through the engine and reports
 * every game the engine disagrees with. Exit status: 0 all consistent, 1 problems, 2 usage. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "record/replay.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm replay [--json] [--quiet] FILE.kifu...\n"
               "Replays every game of each kifu file through the rules engine and reports any deal,\n"
               "exchange, move or result the engine would not allow or reach (file:line: reason).\n\n"
               "  --json    print the summary as JSON\n"
               "  --quiet   print only problems and the summary line\n");
}

int cmd_replay(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, 0, 'j'}, {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int json = 0, quiet = 0, c;
    optind = 1;
    while ((c = cli_getopt("replay", argc, argv, opts)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    KifuGame *g = malloc(sizeof *g);
    if (!g)
        return cli_error("replay", "out of memory");
    long games = 0, plays = 0, problems = 0, files_bad = 0;
    for (int i = optind; i < argc; i++) {
        const char *path = argv[i];
        FILE *f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "dhm replay: cannot open %s: %m\n", path);
            files_bad++;
            continue;
        }
        KifuReader r;
        kifu_reader_init(&r, f, path);
        char err[512];
        int rc;
        while ((rc = kifu_next(&r, g, err, sizeof err)) == 1) {
            games++;
            plays += g->nplays;
            if (replay_game(g, path, NULL, NULL, err, sizeof err)) {
                problems++;
                printf("%s\n", err);
            } else if (!quiet && !json) {
                printf("%s: game %d: ok (%d plays)\n", path, g->number, g->nplays);
            }
        }
        if (rc < 0) {
            printf("%s\n", err);
            files_bad++;
        }
        kifu_reader_free(&r);
        fclose(f);
    }
    free(g);
    if (json)
        printf("{\"games\": %ld, \"plays\": %ld, \"games_with_problems\": %ld, \"unreadable_files\": %ld}\n", games,
               plays, problems, files_bad);
    else
        printf("%ld games, %ld plays replayed: %ld with problems%s\n", games, plays, problems,
               files_bad ? ", some files unreadable" : "");
    return problems || files_bad ? 1 : 0;
}
