/* estimate.c — `dhm estimate`: the accuracy of world samplers on recorded games (paper 003's
 * measure; analysis/estimation.h). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/estimation.h"
#include "cli/cli.h"
#include "report/analysis.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm estimate (--kifu FILE... | --db FILE.sqlite) [--est SPEC]... [options]\n"
            "How well world samplers guess the hidden cards (paper 003's accuracy): at every play\n"
            "decision of the records, from the turn player's view, --worlds worlds are dealt and\n"
            "compared with the true hands. accuracy = share of the opponents' cards (known ones\n"
            "included) given to their true holder; dealt = the same over the cards the sampler had\n"
            "to guess; exact = share of worlds entirely right.\n\n"
            "  --kifu FILE        records (repeatable; also: the remaining arguments)\n"
            "  --db FILE          a tournament store made with --records (repeatable)\n"
            "  --est SPEC         a sampler (repeatable; default uniform): uniform,\n"
            "                     weights[:order=suit-a|suit-d|rank-a|rank-d|random][:model=FILE],\n"
            "                     oracle:method=all-w|all-s|each-w|each-s:p=P[:model=FILE],\n"
            "                     policy[:k=64][:beta=0.5][:mcmc=0][:point=0|1][:weights=FILE][:model=FILE]\n"
            "                     (point=1: every world is the one best guess, the world with the\n"
            "                     highest expected accuracy; most accurate with\n"
            "                     beta=0.1:weights=rich and many candidates: k=4096, about\n"
            "                     80 ms a decision; more candidates add little;\n"
            "                     fresh=M: every world from M fresh proposals, no shared pool;\n"
            "                     exch=1..4: each candidate also weighted by the exchange's likelihood\n"
            "                     (1: the certain part, 2: all of it, 3 and 4: the same and a poor\n"
            "                     player's gift under the gift model);\n"
            "                     proposal=weights|net|uniform: where the candidates come from;\n"
            "                     weights=rich: the likelihood under the built-in rich policy;\n"
            "                     time=1: each candidate also weighted by how likely it makes\n"
            "                     the opponents' thinking times of their passes, learnt for each\n"
            "                     player's name from the games before: a searching program\n"
            "                     passes at once when nothing in its hand beats the table),\n"
            "                     net[:point=0|1][:model=FILE] (the learned estimator, players/estnet.h;\n"
            "                     seq=1: its sequence model, players/estseq.h; temp=T: logits / T)\n"
            "  --worlds N         worlds per decision (100)\n"
            "  --games N          only the first N games\n"
            "  --seed S           (1)\n"
            "  --dump FILE        instead: write the learned estimator's training records (the\n"
            "                     features of every play decision and the cards' true holders;\n"
            "                     tools/train_estnet.sh) to FILE and say how many\n"
            "  --game-base N      --dump: the first game's number in the records (0)\n"
            "  --dump-seq FILE    --dump: also the sequence model's rows (players/estseq.h;\n"
            "                     tools/train_estseq.sh) to FILE\n"
            "  --csv | --json     machine-readable output instead of the table\n"
            "  --quiet            no progress line\n");
}

/* The games a run reads (for the progress line's ETA): every game of the source, or the first
 * max of them. */
typedef struct GameCount {
    long n, max;
} GameCount;

static int count_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    (void)rec;
    (void)names;
    GameCount *c = ctx;
    if (c->max && index >= c->max)
        return 1;
    c->n++;
    return 0;
}

/* Whether the record files can be read twice (regular files): the progress line counts the games
 * in a pass of its own, which would use up a pipe. */
static int kifu_rereadable(const CliSources *in)
{
    struct stat sb;
    for (int i = 0; i < in->nkifu; i++)
        if (stat(in->kifu[i], &sb) || !S_ISREG(sb.st_mode))
            return 0;
    return 1;
}

/* The progress line over every sampler's pass: base = the games of the passes before. */
typedef struct EstProgress {
    Progress p;
    long base;
} EstProgress;

static void on_progress(void *ctx, long done)
{
    EstProgress *e = ctx;
    progress_update(&e->p, e->base + done, " games");
}

int cmd_estimate(int argc, char **argv)
{
    enum { O_KIFU = 1000, O_DB, O_EST, O_WORLDS, O_GAMES, O_SEED, O_CSV, O_JSON, O_HELP, O_DUMP, O_BASE, O_DSEQ, O_QUIET };
    static const struct option opts[] = {{"kifu", required_argument, 0, O_KIFU},     {"db", required_argument, 0, O_DB},
                                         {"est", required_argument, 0, O_EST},       {"worlds", required_argument, 0, O_WORLDS},
                                         {"games", required_argument, 0, O_GAMES},   {"seed", required_argument, 0, O_SEED},
                                         {"csv", no_argument, 0, O_CSV},             {"json", no_argument, 0, O_JSON},
                                         {"help", no_argument, 0, O_HELP},           {"dump", required_argument, 0, O_DUMP},
                                         {"game-base", required_argument, 0, O_BASE},
                                         {"dump-seq", required_argument, 0, O_DSEQ},  {"quiet", no_argument, 0, O_QUIET},
                                         {0, 0, 0, 0}};
    const char *cmd = "estimate";
    CliSources in;
    memset(&in, 0, sizeof in);
    const char *specs[32];
    int nspec = 0, csv = 0, json = 0, quiet = 0, c;
    long worlds = 100, games = 0, base = 0;
    const char *dump = NULL, *dseq = NULL;
    uint64_t seed = 1;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_KIFU: if (cli_sources_add(cmd, &in, 0, optarg)) return 2; break;
        case O_DB: if (cli_sources_add(cmd, &in, 1, optarg)) return 2; break;
        case O_EST:
            if (nspec >= 32)
                return cli_fail(cmd, "at most 32 samplers");
            specs[nspec++] = optarg;
            break;
        case O_WORLDS: if (cli_long(cmd, "--worlds", optarg, 1, 100000, &worlds)) return 2; break;
        case O_GAMES: if (cli_long(cmd, "--games", optarg, 1, 100000000, &games)) return 2; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_CSV: csv = 1; break;
        case O_JSON: json = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_DUMP: dump = optarg; break;
        case O_DSEQ: dseq = optarg; break;
        case O_BASE: if (cli_long(cmd, "--game-base", optarg, 0, 4000000000L, &base)) return 2; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (cli_sources_rest(cmd, &in, argc, argv, 1))
        return 2;
    if (csv && json)
        return cli_fail(cmd, "--csv and --json exclude each other");
    char err[512];
    if (dseq && !dump)
        return cli_fail(cmd, "--dump-seq goes with --dump");
    if (dump) {
        if (nspec || csv || json)
            return cli_fail(cmd, "--dump writes records only: no --est, --csv or --json");
        FILE *f = fopen(dump, "wb");
        if (!f)
            return cli_error(cmd, "cannot write %s", dump);
        FILE *fs = dseq ? fopen(dseq, "wb") : NULL;
        if (dseq && !fs) {
            fclose(f);
            return cli_error(cmd, "cannot write %s", dseq);
        }
        GameSource ds = {in.kifu, in.nkifu, in.db, in.ndb, 0};
        EstDumpResult dr;
        int drc = est_dump_run(&ds, f, fs, games, (uint32_t)base, &dr, err, sizeof err);
        if (fclose(f) && !drc) {
            drc = -1;
            snprintf(err, sizeof err, "error writing %s", dump);
        }
        if (fs && fclose(fs) && !drc) {
            drc = -1;
            snprintf(err, sizeof err, "error writing %s", dseq);
        }
        if (drc)
            return cli_error(cmd, "%s", err);
        printf("%s: %ld games, %ld decisions (records), %ld features dropped, %ld cards without a label\n", dump,
               dr.games, dr.records, dr.truncated, dr.unlabeled);
        return 0;
    }
    if (!nspec)
        specs[nspec++] = "uniform";
    EstOptions *eo = calloc((size_t)nspec, sizeof *eo);
    if (!eo)
        return cli_error(cmd, "out of memory");
    int rc = 0, parsed = 0;
    for (; parsed < nspec && !rc; parsed++)
        if (est_options_parse(specs[parsed], &eo[parsed], err, sizeof err))
            rc = cli_fail(cmd, "--est %s: %s", specs[parsed], err);
    if (rc)
        parsed--;
    GameSource src = {in.kifu, in.nkifu, in.db, in.ndb, 0};
    EstAccRow *rows = calloc((size_t)nspec, sizeof *rows);
    if (!rc && !rows)
        rc = cli_error(cmd, "out of memory");
    GameCount gc = {0, games};
    const int shown = !quiet && kifu_rereadable(&in); /* from a pipe: no progress line */
    if (!rc && shown && games_each(&src, count_game, &gc, err, sizeof err) < 0)
        rc = cli_error(cmd, "%s", err);
    EstProgress ep = {.base = 0};
    progress_init(&ep.p, "estimate:", gc.n * nspec, shown);
    for (int i = 0; i < nspec && !rc; i++) {
        EstAccConfig ac = {&eo[i], (int)worlds, seed, games, on_progress, &ep};
        ep.base = gc.n * i;
        if (est_accuracy_run(&ac, &src, &rows[i].r, err, sizeof err)) {
            rc = cli_error(cmd, "%s", err);
            break;
        }
        if (eo[i].own || eo[i].ownw || eo[i].ownnet) /* files of its own: only the spec tells the rows apart */
            snprintf(rows[i].desc, sizeof rows[i].desc, "%s", specs[i]);
        else
            est_options_describe(&eo[i], rows[i].desc, sizeof rows[i].desc);
    }
    progress_done(&ep.p);
    if (!rc)
        report_est_accuracy(stdout, rows, nspec, worlds, seed, csv ? REPORT_CSV : json ? REPORT_JSON : REPORT_TABLE);
    free(rows);
    for (int i = 0; i < parsed; i++)
        est_options_free(&eo[i]);
    free(eo);
    return rc;
}
