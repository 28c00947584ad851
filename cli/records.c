/* records.c — `dhm records`: what a tournament database holds: its sets, and the stored
 * games of a set exported as kifu (for dhm replay). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "record/kifu.h"
#include "record/pack.h"
#include "record/store.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm records sets --db FILE.sqlite [--csv]\n"
               "       dhm records export --db FILE.sqlite --set K [--format kifu] [--out FILE]\n"
               "sets: one line per stored set (index, start, players, totals, status).\n"
               "export: the games of set K (stored with dhm tournament --records) as kifu text.\n");
}

typedef struct ListCtx {
    char **names;
    int n, csv;
} ListCtx;

static int list_set(void *ctx, long idx, const char *started, const int player[NPLAYERS], const long total[NPLAYERS],
                    const uint8_t *classes, int games)
{
    (void)classes;
    ListCtx *l = ctx;
    if (l->csv) {
        for (int p = 0; p < NPLAYERS; p++)
            printf("%ld,%s,%d,\"%s\",%ld,%d\n", idx, started, p, l->names[player[p]], total[p], games);
        return 0;
    }
    printf("%6ld  %s", idx, started);
    for (int p = 0; p < NPLAYERS; p++)
        printf("  %s %ld", l->names[player[p]], total[p]);
    printf("\n");
    return 0;
}

int cmd_records(int argc, char **argv)
{
    static const struct option opts[] = {{"db", required_argument, 0, 'd'},  {"set", required_argument, 0, 's'},
                                         {"format", required_argument, 0, 'f'}, {"out", required_argument, 0, 'o'},
                                         {"csv", no_argument, 0, 'c'},       {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *cmd = "records";
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    const char *sub = argv[1], *db = NULL, *out = NULL, *format = "kifu";
    long set = -1;
    int csv = 0, c;
    if (strcmp(sub, "sets") && strcmp(sub, "export"))
        return cli_fail(cmd, "unknown subcommand '%s' (sets or export)", sub);
    optind = 1;
    while ((c = cli_getopt(cmd, argc - 1, argv + 1, opts)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 's': if (cli_long(cmd, "--set", optarg, 0, 1000000000, &set)) return 2; break;
        case 'f': format = optarg; break;
        case 'o': out = optarg; break;
        case 'c': csv = 1; break;
        case 'h': usage(stdout); return 0;
        default: return 2;
        }
    }
    if (!db)
        return cli_fail(cmd, "--db FILE.sqlite is required");
    if (strcmp(format, "kifu"))
        return cli_fail(cmd, "--format: only kifu is supported, not '%s'", format);
    if (!strcmp(sub, "export") && set < 0)
        return cli_fail(cmd, "export needs --set K");
    char err[512];
    CliStore cs;
    if (cli_store_open(cmd, db, 0, &cs))
        return 1;
    Store *st = cs.st;
    char **names = cs.names;
    int n = cs.n, rc = 0;
    if (!strcmp(sub, "sets")) {
        ListCtx l = {names, n, csv};
        if (csv)
            printf("set,started,player_no,player,total,games\n");
        if (store_each_set(st, 0, list_set, &l, err, sizeof err))
            rc = cli_error(cmd, "%s", err);
    } else {
        uint8_t *data = NULL;
        size_t len = 0;
        int player[NPLAYERS];
        GameRecord *rec = malloc(sizeof *rec);
        if (!rec || store_set_records(st, set, &data, &len, player, err, sizeof err)) {
            rc = cli_error(cmd, "%s", rec ? err : "out of memory");
        } else {
            FILE *f = out ? fopen(out, "w") : stdout;
            if (!f) {
                rc = cli_error(cmd, "cannot write %s: %m", out);
            } else {
                const char *nm[NPLAYERS];
                for (int p = 0; p < NPLAYERS; p++)
                    nm[p] = player[p] >= 0 && player[p] < n ? names[player[p]] : "?";
                kifu_write_header(f, (const char *const *)nm);
                for (size_t off = 0; off < len;) {
                    size_t used;
                    if (unpack_game(data + off, len - off, rec, &used)) {
                        rc = cli_error(cmd, "set %ld: a stored game is damaged at byte %zu", set, off);
                        break;
                    }
                    kifu_write_game(f, rec, NULL);
                    off += used;
                }
                if (out && fclose(f) && !rc)
                    rc = cli_error(cmd, "error writing %s", out);
            }
        }
        free(data);
        free(rec);
    }
    cli_store_close(&cs);
    return rc;
}
