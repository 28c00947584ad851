/* records.c — `dhm records`: what a tournament database holds: its sets (with their status),
 * its games' finishing orders, and the stored games of a set exported as kifu.
 * `sets --csv` writes exactly the `set,order,player,points` input of `dhm rate`, and
 * `games --csv` the `game,player,rank` input, so that `dhm rate` on them gives what
 * `dhm rate --db` gives; sets that were not clean are left out of both unless
 * --include-broken, as `dhm rate --db` does (each left-out set is named in a # comment). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diverge.h"
#include "analysis/handstrength.h"
#include "analysis/paired.h"
#include "cli/cli.h"
#include "record/kifu.h"
#include "record/pack.h"
#include "record/replay.h"
#include "record/store.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm records sets --db FILE.sqlite [--csv] [--include-broken] [--order-by index|start]\n"
               "       dhm records games --db FILE.sqlite --csv [--p] [--include-broken] [--order-by index|start]\n"
               "       dhm records export --db FILE.sqlite --set K [--format kifu] [--out FILE]\n"
               "       dhm records pairs --db FILE.sqlite [--csv] [--include-broken]\n"
               "       dhm records merge OUT.sqlite SHARD.sqlite...\n"
               "       dhm records diverge A.kifu B.kifu [--player P] [--csv | --json]\n"
               "sets:   one line per stored set: index, start, status, players and totals, note.\n"
               "        --csv: the set,order,player,points rows dhm rate reads (order = rating order).\n"
               "games:  --csv: the game,player,rank rows dhm rate reads (game = SET.GAME, rank 0 = daifugo).\n"
               "        --p: also the p column, each player's initial-hand win rate (dhm handstrength):\n"
               "        the mean of its p_ij over the opponents. (rate --db uses the p_ij themselves;\n"
               "        from this CSV, p_ij is rebuilt from the two players' p: logit p_ij =\n"
               "        (logit p_i - logit p_j) / 2, an approximation.)\n"
               "pairs:  a --duplicate run's groups (one deal sequence, the five players rotated through the\n"
               "        seats) as paired units: for every two players, the groups they shared, the mean per\n"
               "        group of the first's points minus the second's with a 95%% t interval over groups,\n"
               "        and the share of their games the first finished above the second.\n"
               "merge:  joins the stores of dhm tournament --shard I/N (all N of one run) into OUT, the whole\n"
               "        run as one machine would have stored it; OUT must not exist. A shard given twice,\n"
               "        shards of different runs or a missing shard are errors; nothing is overwritten.\n"
               "export: the games of set K (stored with dhm tournament --records) as kifu text.\n"
               "diverge: two runs on the same deals (dhm play --independent --seed S --record FILE, one\n"
               "        player changed), game by game: where the two games first parted (at player P's\n"
               "        gift, another's gift, P's play, another's play, or never; P = --player, default 0),\n"
               "        and P's points in each, B - A with its paired standard error over games, split by\n"
               "        where they parted, by P's class at the start and, for games parted at P's play, by\n"
               "        P's cards in hand then. --csv: one row per game (game, class, where, ply, by,\n"
               "        cards_left: P's cards just before, a, b); --json: the tables. Where they parted is\n"
               "        where they first differ, not what made the difference: a gift that differs is\n"
               "        followed by plays that differ too.\n"
               "Sets whose status is not ok (forfeit, timeouts, client-exit) are left out of the CSV\n"
               "output unless --include-broken, as dhm rate --db does.\n");
}

typedef struct ListCtx {
    char **names;
    int csv, games, include_broken, with_p;
    long seq;
    Store *st;
    HandSetP hp;
    char err[512];
} ListCtx;

/* Player i's p in game g of the set in l->hp: the mean of its p_ij over the opponents. */
static double mean_p(const ListCtx *l, int g, int i)
{
    const double *m = l->hp.p + (size_t)g * NPLAYERS * NPLAYERS;
    double s = 0;
    for (int j = 0; j < NPLAYERS; j++)
        s += j == i ? 0 : m[i * NPLAYERS + j];
    return s / (NPLAYERS - 1);
}

static void csv_name(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static int list_set(void *ctx, const StoredSet *x)
{
    ListCtx *l = ctx;
    if (!l->csv) {
        printf("%6ld  %s  %-11s", x->idx, x->started, x->status);
        for (int p = 0; p < NPLAYERS; p++)
            printf("  %s %ld", l->names[x->player[p]], x->total[p]);
        if (*x->note)
            printf("  (%s)", x->note);
        printf("\n");
        return 0;
    }
    if (!l->include_broken && !set_status_ok(x->status)) {
        printf("# set %ld left out: %s: %s\n", x->idx, x->status, x->note);
        return 0;
    }
    long order = l->seq++;
    if (!l->games) {
        for (int p = 0; p < NPLAYERS; p++) {
            printf("%ld,%ld,", x->idx, order);
            csv_name(l->names[x->player[p]]);
            printf(",%ld\n", x->total[p]);
        }
        return 0;
    }
    if (l->with_p) {
        int r = hand_set_p(l->st, x, &l->hp, l->err, sizeof l->err);
        if (r == 0)
            snprintf(l->err, sizeof l->err,
                     "set %ld has no initial-hand win rates (compute them with dhm handstrength --db)", x->idx);
        if (r <= 0)
            return -1;
    }
    for (int g = 0; g < x->games; g++) {
        int cls[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        for (int p = 0; p < NPLAYERS; p++) {
            printf("%ld.%d,", x->idx, g);
            csv_name(l->names[x->player[p]]);
            printf(",%d", cls[p]);
            if (l->with_p)
                printf(",%.6f", mean_p(l, g, p));
            putchar('\n');
        }
    }
    return 0;
}

static int export_set(const char *cmd, Store *st, long set, char **names, int n, const char *out)
{
    char err[512];
    uint8_t *data = NULL;
    size_t len = 0;
    int player[NPLAYERS], rc = 0;
    GameRecord *rec = malloc(sizeof *rec);
    if (!rec || store_set_records(st, set, &data, &len, player, err, sizeof err)) {
        free(rec);
        return cli_error(cmd, "%s", rec ? err : "out of memory");
    }
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        rc = cli_error(cmd, "cannot write %s: %m", out);
    } else {
        const char *nm[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            nm[p] = player[p] >= 0 && player[p] < n ? names[player[p]] : "?";
        kifu_write_header(f, nm);
        for (size_t off = 0; off < len;) {
            size_t used;
            if (unpack_game(data + off, len - off, store_records_format(st), rec, &used)) {
                rc = cli_error(cmd, "damaged database: set %ld: a stored game is damaged at byte %zu", set, off);
                break;
            }
            kifu_write_game(f, rec);
            off += used;
        }
        if (out && fclose(f) && !rc)
            rc = cli_error(cmd, "error writing %s", out);
    }
    free(data);
    free(rec);
    return rc;
}

/* Every pair of players of a --duplicate run, over the groups both played. */
static int list_pairs(const char *cmd, const char *db, CliStore *cs, int csv, int broken)
{
    if (!cs->run.duplicate)
        return cli_error(cmd, "%s is not a --duplicate run: its sets share no deals to pair", db);
    char err[512];
    if (csv)
        printf("a,b,groups,mean_point_diff,sd,lo95,hi95,score_a_above_b\n");
    else
        printf("%-16s %-16s %7s %12s %21s %9s\n", "a", "b", "groups", "points a-b", "95% t interval", "a above b");
    long left = 0;
    for (int a = 0; a < cs->n; a++)
        for (int b = a + 1; b < cs->n; b++) {
            GroupPair *g;
            long n, inc;
            if (paired_groups(cs->st, a, b, broken, &g, &n, &inc, err, sizeof err))
                return cli_error(cmd, "%s: %s", db, err);
            left += inc;
            if (n == 0) {
                free(g);
                continue;
            }
            double *d = malloc((size_t)n * sizeof *d), sc = 0, mean, sd, lo, hi;
            long games = 0;
            if (!d) {
                free(g);
                return cli_error(cmd, "out of memory");
            }
            for (long i = 0; i < n; i++) {
                d[i] = g[i].diff;
                sc += g[i].score * (double)g[i].games;
                games += g[i].games;
            }
            paired_interval(d, n, 0.95, &mean, &sd, &lo, &hi);
            if (csv) {
                csv_name(cs->names[a]);
                putchar(',');
                csv_name(cs->names[b]);
                printf(",%ld,%.4f,%.4f,%.4f,%.4f,%.5f\n", n, mean, sd, lo, hi, games ? sc / (double)games : NAN);
            } else {
                printf("%-16s %-16s %7ld %12.2f   [%8.2f, %8.2f] %9.4f\n", cs->names[a], cs->names[b], n, mean, lo, hi,
                       games ? sc / (double)games : NAN);
            }
            free(d);
            free(g);
        }
    if (!csv)
        printf("(per group: the five sets of one deal sequence; interval: Student's t over groups%s)\n",
               left ? "; groups with a set not played cleanly are left out" : "");
    return 0;
}

/* One kifu file of `diverge`, read game by game. */
typedef struct DivFile {
    const char *path;
    FILE *f;
    KifuReader r;
} DivFile;

/* The next game of d as a GameRecord: 1, 0 at the end, -1 on a problem (in err). */
static int div_next(DivFile *d, KifuGame *kg, GameRecord *rec, char *err, size_t errsz)
{
    int rc = kifu_next(&d->r, kg, err, errsz);
    if (rc == 1 && kifu_to_record(kg, d->path, rec, err, errsz))
        return -1;
    return rc;
}

/* One row of the table, or with key a JSON object {key: label, ...} (null means for no games). */
static void div_row(const char *label, const DivSum *s, const double *part, const double *part_se, const char *key)
{
    const double n = s->n ? (double)s->n : 1;
    if (key) {
        printf("{\"%s\": \"%s\", \"games\": %ld", key, label, s->n);
        if (s->n)
            printf(", \"a\": %.4f, \"b\": %.4f, \"b_minus_a\": %.4f, \"se\": %.4f", s->a / n, s->b / n, div_mean(s),
                   div_se(s));
        else
            printf(", \"a\": null, \"b\": null, \"b_minus_a\": null, \"se\": null");
        if (part)
            printf(", \"part_of_all\": %.4f, \"part_se\": %.4f", *part, *part_se);
        printf("}");
        return;
    }
    if (!s->n) {
        printf("  %-28s %7d %7s %7s %8s %7s%s\n", label, 0, "-", "-", "-", "-", part ? "         -       -" : "");
        return;
    }
    printf("  %-28s %7ld %7.3f %7.3f %+8.3f %7.3f", label, s->n, s->a / n, s->b / n, div_mean(s), div_se(s));
    if (part)
        printf(" %+9.3f %7.3f", *part, *part_se);
    printf("\n");
}

/* `dhm records diverge A.kifu B.kifu`: where two runs on the same deals part (analysis/diverge.h). */
static int records_diverge(int argc, char **argv)
{
    const char *cmd = "records diverge";
    static const struct option opts[] = {{"player", required_argument, 0, 'p'}, {"csv", no_argument, 0, 'c'},
                                         {"json", no_argument, 0, 'j'},       {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long me = 0;
    int csv = 0, json = 0, c;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case 'p': if (cli_long(cmd, "--player", optarg, 0, NPLAYERS - 1, &me)) return 2; break;
        case 'c': csv = 1; break;
        case 'j': json = 1; break;
        case 'h': usage(stdout); return 0;
        default: return 2;
        }
    }
    if (argc - optind != 2)
        return cli_fail(cmd, "needs two kifu files, A and B (try --help)");
    if (csv && json)
        return cli_fail(cmd, "--csv and --json exclude each other");
    DivFile d[2] = {{.path = argv[optind]}, {.path = argv[optind + 1]}};
    KifuGame *kg = malloc(sizeof *kg);
    GameRecord *rec = malloc(2 * sizeof *rec);
    DivTotals *t = calloc(1, sizeof *t);
    int rc = 0;
    char err[1024];
    if (!kg || !rec || !t) {
        rc = cli_error(cmd, "out of memory");
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        if (!(d[i].f = fopen(d[i].path, "r"))) {
            rc = cli_error(cmd, "cannot read %s: %m", d[i].path);
            goto out;
        }
        kifu_reader_init(&d[i].r, d[i].f, d[i].path);
    }
    if (csv)
        printf("game,class,where,ply,by,cards_left,a,b\n");
    for (long g = 0;; g++) {
        int ra = div_next(&d[0], kg, &rec[0], err, sizeof err);
        if (ra < 0) {
            rc = cli_error(cmd, "%s", err);
            goto out;
        }
        int rb = div_next(&d[1], kg, &rec[1], err, sizeof err);
        if (rb < 0) {
            rc = cli_error(cmd, "%s", err);
            goto out;
        }
        if (ra != rb) {
            rc = cli_error(cmd, "%s has more games than %s (%ld): not records of the same deals", d[ra ? 0 : 1].path,
                           d[ra ? 1 : 0].path, g);
            goto out;
        }
        if (!ra)
            break;
        DivGame dg;
        if (diverge_game(&rec[0], &rec[1], (int)me, &dg, err, sizeof err)) {
            rc = cli_error(cmd, "game %ld (%s line %d): %s (dhm play --independent with one seed deals them alike)",
                           g, d[1].path, kg->line, err);
            goto out;
        }
        diverge_add(t, &dg);
        if (csv)
            printf("%ld,%s,%s,%d,%d,%d,%d,%d\n", g, dg.cls < 0 ? "first" : cli_class_names[dg.cls],
                   DIV_KIND_NAME[dg.kind], dg.ply, dg.by, dg.cards_left, dg.a, dg.b);
    }
    if (t->games < 1) {
        rc = cli_error(cmd, "%s and %s hold no games", d[0].path, d[1].path);
        goto out;
    }
    if (csv)
        goto out;
    static const char *const WHERE[DIV_NKINDS] = {"never (identical games)", "at its own gift",
                                                  "at another player's gift", "at its own play",
                                                  "at another player's play"};
    if (json) {
        printf("{\"player\": %ld, \"a\": ", me);
        json_str(stdout, d[0].path);
        printf(", \"a_name\": ");
        json_str(stdout, d[0].r.have_names ? d[0].r.names[me] : "");
        printf(", \"b\": ");
        json_str(stdout, d[1].path);
        printf(", \"b_name\": ");
        json_str(stdout, d[1].r.have_names ? d[1].r.names[me] : "");
        printf(", \"games\": %ld, \"all\": ", t->games);
        div_row("all", &t->all, NULL, NULL, "where");
        printf(", \"where\": [");
        for (int k = 0; k < DIV_NKINDS; k++) {
            double part, se;
            diverge_part(t, k, &part, &se);
            printf("%s\n  ", k ? "," : "");
            div_row(DIV_KIND_NAME[k], &t->kind[k], &part, &se, "where");
        }
        printf("], \"by_class\": [");
        for (int k = 0, first = 1; k <= NPLAYERS; k++)
            if (t->cls[k].n) {
                printf("%s\n  ", first ? "" : ",");
                div_row(k < NPLAYERS ? cli_class_names[k] : "first", &t->cls[k], NULL, NULL, "class");
                first = 0;
            }
        printf("], \"own_play_by_cards_left\": [");
        for (int k = 0; k < DIV_NLEFT; k++) {
            printf("%s\n  ", k ? "," : "");
            div_row(DIV_LEFT_NAME[k], &t->left[k], NULL, NULL, "cards_left");
        }
        printf("]}\n");
        goto out;
    }
    printf("player %ld: A = %s (%s), B = %s (%s), %ld games of the same deals\n", me, d[0].path,
           d[0].r.have_names ? d[0].r.names[me] : "?", d[1].path, d[1].r.have_names ? d[1].r.names[me] : "?", t->games);
    printf("points a game (5 - the class reached); B - A with its standard error over games (paired;\n"
           "independent games assumed); part: the games' B - A summed over all games, so the parts add\n"
           "up to the whole, with its standard error\n");
    printf("  %-28s %7s %7s %7s %8s %7s %9s %7s\n", "where the two games parted", "games", "A", "B", "B - A", "SE",
           "part", "SE");
    for (int k = 0; k < DIV_NKINDS; k++) {
        double part, se;
        diverge_part(t, k, &part, &se);
        div_row(WHERE[k], &t->kind[k], &part, &se, NULL);
    }
    div_row("all", &t->all, NULL, NULL, NULL);
    printf("  by its class at the start:\n");
    for (int k = 0; k <= NPLAYERS; k++)
        if (t->cls[k].n)
            div_row(k < NPLAYERS ? cli_class_names[k] : "first game (no exchange)", &t->cls[k], NULL, NULL, NULL);
    printf("  parted at its own play, by its cards in hand then:\n");
    for (int k = 0; k < DIV_NLEFT; k++) {
        char label[32];
        snprintf(label, sizeof label, "%s cards", DIV_LEFT_NAME[k]);
        div_row(label, &t->left[k], NULL, NULL, NULL);
    }
out:
    for (int i = 0; i < 2; i++)
        if (d[i].f) {
            kifu_reader_free(&d[i].r);
            fclose(d[i].f);
        }
    free(kg);
    free(rec);
    free(t);
    return rc;
}

int cmd_records(int argc, char **argv)
{
    enum { O_ORDERBY = 1000, O_BROKEN, O_P };
    static const struct option opts[] = {{"db", required_argument, 0, 'd'},
                                         {"set", required_argument, 0, 's'},
                                         {"format", required_argument, 0, 'f'},
                                         {"out", required_argument, 0, 'o'},
                                         {"csv", no_argument, 0, 'c'},
                                         {"include-broken", no_argument, 0, O_BROKEN},
                                         {"p", no_argument, 0, O_P},
                                         {"order-by", required_argument, 0, O_ORDERBY},
                                         {"help", no_argument, 0, 'h'},
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
    if (!strcmp(argv[1], "diverge"))
        return records_diverge(argc - 1, argv + 1);
    if (!strcmp(argv[1], "merge")) {
        if (argc < 4 || argv[2][0] == '-')
            return cli_fail(cmd, "merge OUT.sqlite SHARD.sqlite... (try --help)");
        char err[1024];
        long sets = 0, run_sets = 0;
        if (store_merge(argv[2], (const char *const *)argv + 3, argc - 3, &sets, &run_sets, err, sizeof err))
            return cli_error(cmd, "%s", err);
        printf("merged %d shards into %s: %ld of the run's %ld sets\n", argc - 3, argv[2], sets, run_sets);
        if (sets < run_sets)
            printf("the run is not finished: dhm tournament --resume --db %s plays the %ld missing sets\n", argv[2],
                   run_sets - sets);
        return 0;
    }
    const char *sub = argv[1], *db = NULL, *out = NULL, *format = "kifu";
    long set = -1;
    int csv = 0, broken = 0, by_start = 0, with_p = 0, c;
    if (strcmp(sub, "sets") && strcmp(sub, "games") && strcmp(sub, "export") && strcmp(sub, "pairs"))
        return cli_fail(cmd, "unknown subcommand '%s' (sets, games, pairs, merge or export)", sub);
    optind = 1;
    while ((c = cli_getopt(cmd, argc - 1, argv + 1, opts)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 's': if (cli_long(cmd, "--set", optarg, 0, 1000000000, &set)) return 2; break;
        case 'f': format = optarg; break;
        case 'o': out = optarg; break;
        case 'c': csv = 1; break;
        case O_BROKEN: broken = 1; break;
        case O_P: with_p = 1; break;
        case O_ORDERBY: if ((by_start = cli_order_by(cmd, optarg)) < 0) return 2; break;
        case 'h': usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind + 1 < argc)
        return cli_fail(cmd, "unexpected argument '%s' (try --help)", argv[optind + 1]);
    if (!db)
        return cli_fail(cmd, "--db FILE.sqlite is required");
    if (strcmp(format, "kifu"))
        return cli_fail(cmd, "--format: only kifu is supported, not '%s'", format);
    if (!strcmp(sub, "export") && set < 0)
        return cli_fail(cmd, "export needs --set K");
    if (!strcmp(sub, "games") && !csv)
        return cli_fail(cmd, "games needs --csv (the per-game rows are meant for dhm rate and other programs)");
    if (with_p && strcmp(sub, "games"))
        return cli_fail(cmd, "--p is for games --csv");
    if (strcmp(sub, "export") && out)
        return cli_fail(cmd, "--out is for export; sets and games write to standard output");
    char err[512];
    CliStore cs;
    if (cli_store_open(cmd, db, 0, &cs))
        return 1;
    int rc = 0;
    if (!strcmp(sub, "pairs")) {
        rc = list_pairs(cmd, db, &cs, csv, broken);
    } else if (!strcmp(sub, "export")) {
        rc = export_set(cmd, cs.st, set, cs.names, cs.n, out);
    } else {
        ListCtx l = {cs.names, csv, !strcmp(sub, "games"), broken, with_p, 0, cs.st, {0}, ""};
        if (csv)
            printf(l.games ? (with_p ? "game,player,rank,p\n" : "game,player,rank\n") : "set,order,player,points\n");
        if (store_each_set(cs.st, by_start, list_set, &l, err, sizeof err))
            rc = cli_error(cmd, "%s: %s", db, *err ? err : *l.err ? l.err : "out of memory");
        hand_set_p_free(&l.hp);
    }
    cli_store_close(&cs);
    return rc;
}
