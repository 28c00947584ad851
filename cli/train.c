/* train.c — `dhm train policy`: fits the policy's weights to recorded decisions (a store made
 * with --records, or kifu files) and writes a weights file; prints top-1 agreement and
 * log-loss on held-out decisions next to chance and the zero-weight model. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/games.h"
#include "analysis/teacher.h"
#include "analysis/train.h"
#include "analysis/estimation.h"
#include "analysis/train_est.h"
#include "cli/cli.h"
#include "players/players.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm train policy (--db FILE.sqlite | --kifu FILE... | --rl-games N) -o WEIGHTS [options]\n"
            "Fits the policy (players/policy.h: a linear softmax over features of a move in its\n"
            "situation, and of a gift in the exchange) to the recorded choices by maximum likelihood\n"
            "(conditional logit over the legal moves) with an L2 penalty; games are split into a\n"
            "training and a held-out part by --seed. Writes the weights (text, versioned by the\n"
            "feature layout) for policy:weights=FILE and mc:...:weights=FILE.\n\n"
            "  --db FILE          a tournament store made with --records (its clean sets; repeatable)\n"
            "  --kifu FILE        kifu records (repeatable; also: the remaining arguments)\n"
            "  --players LIST     learn from these players' decisions only (names as in the records;\n"
            "                     default: everyone)\n"
            "  -o, --out FILE     the weights file to write (required)\n"
            "  --init FILE        start from these weights (default: zero)\n"
            "  --epochs N         full-batch Adam steps (300); with a hidden layer, passes over the play\n"
            "                     decisions in minibatches of --batch\n"
            "  --lr X             Adam step size (0.05)\n"
            "  --l2 X             L2 penalty per weight (1e-4)\n"
            "  --holdout F        share of games held out for evaluation (0.1)\n"
            "  --seed S           which games are held out (1)\n"
            "  --test-kifu FILE   also report agreement on these records (never trained on)\n"
            "  --model M          fast (default: the policy of the playouts, players/policy.h), rich (the\n"
            "                     rich policy, players/rich.h: many more features, for the policy player and\n"
            "                     the search's prior) or gift (the gift model alone, players/gift.h: fitted\n"
            "                     on the recorded gifts only; reports its agreement next to --baseline's)\n"
            "  --baseline FILE    with --model gift: the weights file (rich or fast) whose exchange weights\n"
            "                     are reported beside the gift model (default: the built-in rich policy's)\n"
            "  --by-kind          report agreement apart for the decisions where the mover can be certain to\n"
            "                     win (dhm's sure-win test, or the exact solve with two players left) and for\n"
            "                     the rest, the decisions a policy makes\n"
            "  --policy-decisions fit only the decisions where no certain win is found (with --by-kind's\n"
            "                     search): a program that found one plays it by fixed tie-breaks, not by\n"
            "                     its policy\n"
            "  --teacher-games N  also learn from N self-play games of the policy (the --init weights, at\n"
            "                     --teacher-temp) in which a Monte Carlo teacher values every decision\n"
            "                     with a choice from the decider's information set; the targets are\n"
            "                     softmax(value / --teacher-tau) over the candidates (expert iteration)\n"
            "  --teacher SPEC     the teacher, an mc player spec (mc)\n"
            "  --teacher-worlds W --teacher-tau T --teacher-temp T\n"
            "                     worlds per decision (64), the targets' temperature in reward units\n"
            "                     (0.05), the students' sampling temperature (1)\n"
            "  --rl-games N       then improve the weights by policy gradient (REINFORCE) over N games:\n"
            "                     each decision's log-probability is moved by its reward minus the\n"
            "                     batch's mean for that kind of game; games are one learner among four\n"
            "                     simple players, one learner among four league players, or self-play\n"
            "                     (0 = none; the records are then optional)\n"
            "  --rl-batch B --rl-lr X --rl-temp T --rl-vs-simple F --rl-rule simple|devkit\n"
            "                     games per update (512), Adam step (0.003), the learner's sampling\n"
            "                     temperature (1), the share of games against four rule-based players\n"
            "                     (0.5), and which rule: simple (default) or devkit, the organisers'\n"
            "                     sample client\n"
            "  --rl-league W1,W2,...  weights files of the league: in a league game each other seat\n"
            "                     plays one of them (drawn at random), its first choice (up to 16)\n"
            "  --rl-vs-league F   the share of games against the league (0; the rest is self-play)\n"
            "  --rl-reward R      points: a class's points in the game (default); match: its value over\n"
            "                     the rest of a class period, as mc:reward=match (1 to 5 points)\n"
            "  --rl-class C       the learner's class in games with the exchange (4 in 5 games): C, 0\n"
            "                     (daifugo) to 4 (daihinmin); default drawn at random\n"
            "  --rl-repeat K      play each deal K times (1 to 64; default 1) with the learner's own\n"
            "                     draws, and move each decision by its reward minus the learner's mean in\n"
            "                     the deal's other K - 1 plays instead of the batch's mean (the deal's\n"
            "                     luck cancels); --rl-batch must be a multiple of K\n"
            "  --hidden H         with --model rich: give the --init weights a hidden layer of H units (1\n"
            "                     to 64) over the hand, move and pass features, drawn from --seed with its\n"
            "                     outputs zero, so that learning starts from the --init policy\n"
            "                     (players/rich.h); weights that have one keep it and learn it, from\n"
            "                     records (minibatch Adam, --batch) and by --rl-games\n"
            "  --batch N          with a hidden layer: play decisions a step of the records' fit (256);\n"
            "                     their order is drawn from --seed every pass\n"
            "  --jobs J           threads (2)\n"
            "  --json             the evaluation as JSON\n"
            "  --quiet            no progress line\n");
}

typedef struct Collect {
    TrainData *d;
    char names[16][64];
    int nnames;
    uint64_t seed;
    double holdout;
    int test; /* everything is held out (a test set) */
} Collect;

/* Writes weights w to out by save, with the command that made them as the file's comment ("made
 * by: dhm train ARGS"): 0, or the error status with the message printed. */
typedef int (*SaveFn)(FILE *f, const void *w, const char *comment);
static int write_weights(const char *cmd, const char *out, SaveFn save, const void *w, int argc, char **argv)
{
    char comment[1200];
    size_t k = (size_t)snprintf(comment, sizeof comment, "made by: dhm train");
    for (int i = 0; i < argc && k + 2 < sizeof comment; i++)
        k += (size_t)snprintf(comment + k, sizeof comment - k, " %s", argv[i]);
    FILE *f = fopen(out, "w");
    if (!f)
        return cli_error(cmd, "cannot write %s: %m", out);
    int bad = save(f, w, comment);
    if (fclose(f) || bad)
        return cli_error(cmd, "error writing %s", out);
    return 0;
}
static int save_policy(FILE *f, const void *w, const char *c) { return policy_save(f, w, c); }
static int save_rich(FILE *f, const void *w, const char *c) { return rich_save(f, w, c); }
static int save_gift(FILE *f, const void *w, const char *c) { return gift_save(f, w, c); }
static int save_est(FILE *f, const void *w, const char *c) { return est_model_save(f, w, c); }

static int collect(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    Collect *c = ctx;
    unsigned mask = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        int want = c->nnames == 0;
        for (int i = 0; i < c->nnames && !want; i++)
            want = !strcmp(c->names[i], names[p]);
        mask |= (unsigned)want << p;
    }
    int held = c->test || train_held_out(c->seed, index, c->holdout);
    return train_add_game(c->d, rec, mask, held) ? -1 : 0;
}

/* Reads the test records into td (prepared by the caller: its features), every game held out,
 * with col's players: 0, or the error status with the message printed (td freed). */
static int collect_test(const char *cmd, const Collect *col, TrainData *td, const char *const *test, int ntest)
{
    Collect tc = *col; /* the same players' decisions */
    char err[512];
    tc.d = td;
    tc.holdout = 1;
    tc.test = 1;
    GameSource ts = {test, ntest, NULL, 0, 0};
    if (games_each(&ts, collect, &tc, err, sizeof err)) {
        train_data_free(td);
        return cli_error(cmd, "--test-kifu: %s", err);
    }
    return 0;
}

static void on_epoch(void *ctx, int epoch, int epochs, double train, double held)
{
    Progress *p = ctx;
    char extra[96];
    snprintf(extra, sizeof extra, " epochs, log-loss train %.4f held-out %.4f", train, held);
    progress_update(p, epoch, extra);
    (void)epochs;
}

static void on_teacher(void *ctx, long games, long total)
{
    (void)total;
    progress_update(ctx, games, " games valued by the teacher");
}

static const char *rl_rule = "simple"; /* --rl-rule, for the progress line */

static void on_rl(void *ctx, long games, long total, double vs_simple, double vs_league, double self)
{
    Progress *p = ctx;
    char extra[160];
    size_t k = (size_t)snprintf(extra, sizeof extra, " games; the learner's mean reward");
    (void)total;
    (void)self;
    if (vs_simple == vs_simple)
        k += (size_t)snprintf(extra + k, sizeof extra - k, " against %s %.3f", rl_rule, vs_simple);
    if (vs_league == vs_league)
        snprintf(extra + k, sizeof extra - k, " against the league %.3f", vs_league);
    progress_update(p, games, extra);
}

static void print_eval(FILE *o, const char *what, const TrainEval *z, const TrainEval *t, int json, int *first)
{
    if (json) {
        fprintf(o, "%s\n  \"%s\": {\"decisions\": %ld, \"top1\": %.4f, \"top1_ties_split\": %.4f, \"logloss\": %.4f, "
                   "\"chance_top1\": %.4f, \"chance_logloss\": %.4f, \"zero_weights_top1\": %.4f, "
                   "\"zero_weights_logloss\": %.4f}",
                *first ? "" : ",", what, t->n, t->top1, t->top1_ties, t->logloss, t->chance_top1, t->chance_logloss,
                z->top1, z->logloss);
        *first = 0;
        return;
    }
    fprintf(o, "\n%s: %ld decisions\n  %-14s %9s %9s %9s\n", what, t->n, "", "top-1", "ties 1/k", "log-loss");
    fprintf(o, "  %-14s %9.4f %9s %9.4f\n", "chance", t->chance_top1, "", t->chance_logloss);
    fprintf(o, "  %-14s %9.4f %9.4f %9.4f\n", "zero weights", z->top1, z->top1_ties, z->logloss);
    fprintf(o, "  %-14s %9.4f %9.4f %9.4f\n", "trained", t->top1, t->top1_ties, t->logloss);
}

/* The model's weights as arrays (either model), and the rich policy's weights when they have a
 * hidden layer (else NULL). */
typedef struct ModelW {
    const double *play, *exch;
    const RichWeights *net;
} ModelW;

/* Agreement of the play weights (with their hidden layer, if any). */
static void eval_play(const DecisionSet *s, ModelW w, int held, unsigned kinds, TrainEval *out)
{
    if (w.net)
        train_eval_rich(s, w.net, held, kinds, out);
    else
        train_eval_set(s, w.play, held, kinds, out);
}

/* Agreement on one data set (held: 1 held-out, -1 all): plays (all of them, or with by_kind the
 * policy's decisions and the certain wins apart) and gifts. */
static void print_evals(FILE *o, const TrainData *d, ModelW zero, ModelW w, const char *set, int by_kind, int json,
                        int *first)
{
    static const struct {
        const char *what;
        unsigned kinds;
    } KINDS[] = {{"plays", ~0u},
                 {"plays, the policy's decisions (no certain win found)",
                  1u << TRAIN_WIN_NONE | 1u << TRAIN_LOSS_SOLVED | 1u << TRAIN_UNDECIDED},
                 {"plays with a certain win (sure-win test or exact two-player solve)",
                  1u << TRAIN_WIN_SURE | 1u << TRAIN_WIN_SOLVED}};
    TrainEval z, t;
    char what[160];
    if (!strcmp(set, "held-out")) { /* the fit itself: how far the model can follow its data */
        train_eval_set(&d->play, zero.play, 0, ~0u, &z);
        eval_play(&d->play, w, 0, ~0u, &t);
        if (t.n)
            print_eval(o, "training plays", &z, &t, json, first);
    }
    for (int k = 0; k < (by_kind ? 3 : 1); k++) {
        train_eval_set(&d->play, zero.play, 1, KINDS[k].kinds, &z);
        eval_play(&d->play, w, 1, KINDS[k].kinds, &t);
        snprintf(what, sizeof what, "%s %s", set, KINDS[k].what);
        if (t.n)
            print_eval(o, what, &z, &t, json, first);
    }
    train_eval_set(&d->exch, zero.exch, 1, ~0u, &z);
    train_eval_set(&d->exch, w.exch, 1, ~0u, &t);
    snprintf(what, sizeof what, "%s gifts", set);
    if (t.n)
        print_eval(o, what, &z, &t, json, first);
}

/* The gift model's agreement on one data set (held: 1 held-out, 0 training, -1 all) next to the
 * baseline's exchange weights (the same decisions, the fast exchange features). */
static void print_gift_evals(FILE *o, const TrainData *d, const double *zero, const double *base, const char *bname,
                             const GiftWeights *gw, const char *set, int held, int json, int *first)
{
    TrainEval z, b, t;
    train_eval_set(&d->gift, zero, held, ~0u, &z);
    train_eval_set(&d->exch, base, held, ~0u, &b);
    train_eval_set(&d->gift, gw->w, held, ~0u, &t);
    if (!t.n)
        return;
    char what[200];
    if (json) {
        snprintf(what, sizeof what, "%s gifts, baseline", set);
        print_eval(o, what, &z, &b, 1, first);
        snprintf(what, sizeof what, "%s gifts, gift model", set);
        print_eval(o, what, &z, &t, 1, first);
        return;
    }
    fprintf(o, "\n%s gifts: %ld decisions\n  %-44s %9s %9s %9s\n", set, t.n, "", "top-1", "ties 1/k", "log-loss");
    fprintf(o, "  %-44s %9.4f %9s %9.4f\n", "chance", t.chance_top1, "", t.chance_logloss);
    fprintf(o, "  %-44s %9.4f %9.4f %9.4f\n", "zero weights", z.top1, z.top1_ties, z.logloss);
    fprintf(o, "  %-44s %9.4f %9.4f %9.4f\n", "the gift model", t.top1, t.top1_ties, t.logloss);
    fprintf(o, "  before: the exchange weights of %s\n  %-44s %9.4f %9.4f %9.4f\n", bname, "", b.top1, b.top1_ties,
            b.logloss);
}

static int collect_players(const char *cmd, const char *players, Collect *col)
{
    if (!players)
        return 0;
    char specs[16][128];
    int n = player_split_list(players, specs, 16);
    if (n < 1)
        return cli_fail(cmd, "--players: a comma-separated list of up to 16 names");
    for (int i = 0; i < n; i++)
        snprintf(col->names[i], sizeof col->names[i], "%.63s", specs[i]);
    col->nnames = n;
    return 0;
}

/* `dhm train policy --model gift`: the gift model (players/gift.h) fitted on the recorded gifts. */
static int train_gift(const char *cmd, const CliSources *in, const char *players, const char *out, const char *init,
                      const char *baseline, const char *const *test, int ntest, TrainOpts *o, double holdout,
                      uint64_t seed, int json, int quiet, int argc, char **argv)
{
    static GiftWeights gw, zero;
    static RichWeights brw;
    static PolicyWeights bpw;
    char err[512];
    memset(&gw, 0, sizeof gw);
    if (init && gift_load(init, &gw, err, sizeof err))
        return cli_fail(cmd, "--init: %s", err);
    const double *base;
    const char *bname = baseline ? baseline : "the built-in rich policy";
    if (baseline) {
        const int kind = rich_file_kind(baseline, err, sizeof err);
        if (kind < 0 || (kind ? rich_load(baseline, &brw, err, sizeof err) : policy_load(baseline, &bpw, err, sizeof err)))
            return cli_fail(cmd, "--baseline: %s", err);
        base = kind ? brw.exch : bpw.exch;
    } else {
        const RichWeights *b = rich_builtin(err, sizeof err);
        if (!b)
            return cli_error(cmd, "%s", err);
        base = b->exch;
    }
    Collect col = {NULL, {{0}}, 0, seed, holdout, 0};
    if (collect_players(cmd, players, &col))
        return 2;
    TrainData d;
    train_data_init(&d);
    d.gift_model = 1;
    col.d = &d;
    GameSource src = {in->kifu, in->nkifu, in->db, in->ndb, 0};
    double t0 = cli_now();
    if (games_each(&src, collect, &col, err, sizeof err)) {
        train_data_free(&d);
        return cli_error(cmd, "%s", *err ? err : "out of memory");
    }
    if (d.gift.n == 0) {
        train_data_free(&d);
        return cli_error(cmd, "no gifts to learn from (%ld games; --players names no one?)", d.games);
    }
    if (!quiet)
        fprintf(stderr, "dhm train policy: %ld games (%ld held out), %ld gifts with a choice; read in %.1f s\n",
                d.games, d.held_games, d.gift.n, cli_now() - t0);
    Progress pr;
    progress_init(&pr, "train:", o->epochs, !quiet);
    o->progress = on_epoch;
    o->progress_ctx = &pr;
    if (train_fit_gift(&d, o, &gw)) {
        train_data_free(&d);
        return cli_error(cmd, "out of memory");
    }
    progress_done(&pr);
    int rc = write_weights(cmd, out, save_gift, &gw, argc, argv);
    if (rc) {
        train_data_free(&d);
        return rc;
    }
    int first = 1;
    if (json) {
        printf("{\"games\": %ld, \"held_out_games\": %ld, \"weights\": ", d.games, d.held_games);
        json_str(stdout, out);
        first = 0; /* the evaluations follow the weights' name */
    } else
        printf("%ld games (%ld held out)\n", d.games, d.held_games);
    print_gift_evals(stdout, &d, zero.w, base, bname, &gw, "training", 0, json, &first);
    print_gift_evals(stdout, &d, zero.w, base, bname, &gw, "held-out", 1, json, &first);
    train_data_free(&d);
    if (ntest) { /* an external test set, never trained on */
        TrainData td;
        train_data_init(&td);
        td.gift_model = 1;
        if ((rc = collect_test(cmd, &col, &td, test, ntest)))
            return rc;
        print_gift_evals(stdout, &td, zero.w, base, bname, &gw, "test", 1, json, &first);
        train_data_free(&td);
    }
    if (json)
        printf("\n}\n");
    else
        printf("\nwrote %s\n", out);
    return 0;
}

static int train_policy(int argc, char **argv)
{
    enum { O_DB = 1000, O_KIFU, O_PLAYERS, O_INIT, O_EPOCHS, O_LR, O_L2, O_HOLD, O_SEED, O_TEST, O_JOBS, O_JSON,
           O_QUIET, O_HELP, O_MODEL, O_BYKIND, O_POLDEC, O_RLG, O_RLB, O_RLLR, O_RLT, O_RLS, O_RLRULE, O_RLLG, O_RLVL, O_RLRW, O_RLCLS, O_RLREP, O_TG, O_TS, O_TW, O_TTAU, O_TTEMP, O_BASE, O_HID, O_BATCH };
    static const struct option opts[] = {
        {"db", required_argument, 0, O_DB},         {"kifu", required_argument, 0, O_KIFU},
        {"players", required_argument, 0, O_PLAYERS}, {"out", required_argument, 0, 'o'},
        {"init", required_argument, 0, O_INIT},     {"epochs", required_argument, 0, O_EPOCHS},
        {"lr", required_argument, 0, O_LR},         {"l2", required_argument, 0, O_L2},
        {"holdout", required_argument, 0, O_HOLD},  {"seed", required_argument, 0, O_SEED},
        {"test-kifu", required_argument, 0, O_TEST}, {"jobs", required_argument, 0, O_JOBS},
        {"json", no_argument, 0, O_JSON},           {"quiet", no_argument, 0, O_QUIET},
        {"rl-games", required_argument, 0, O_RLG},  {"rl-batch", required_argument, 0, O_RLB},
        {"rl-lr", required_argument, 0, O_RLLR},    {"rl-temp", required_argument, 0, O_RLT},
        {"rl-vs-simple", required_argument, 0, O_RLS}, {"rl-rule", required_argument, 0, O_RLRULE}, {"rl-league", required_argument, 0, O_RLLG},
        {"rl-vs-league", required_argument, 0, O_RLVL}, {"rl-reward", required_argument, 0, O_RLRW},
        {"rl-class", required_argument, 0, O_RLCLS}, {"rl-repeat", required_argument, 0, O_RLREP},
        {"teacher-games", required_argument, 0, O_TG}, {"teacher", required_argument, 0, O_TS},
        {"teacher-worlds", required_argument, 0, O_TW}, {"teacher-tau", required_argument, 0, O_TTAU},
        {"teacher-temp", required_argument, 0, O_TTEMP}, {"model", required_argument, 0, O_MODEL},
        {"by-kind", no_argument, 0, O_BYKIND}, {"policy-decisions", no_argument, 0, O_POLDEC},
        {"baseline", required_argument, 0, O_BASE}, {"hidden", required_argument, 0, O_HID},
        {"batch", required_argument, 0, O_BATCH},
        {"help", no_argument, 0, O_HELP},           {0, 0, 0, 0}};
    const char *cmd = "train policy";
    const char *out = NULL, *init = NULL, *players = NULL, *league = NULL, *baseline = NULL;
    CliSources in;
    memset(&in, 0, sizeof in);
    const char *test[64];
    int ntest = 0, json = 0, quiet = 0, rich = 0, giftm = 0, by_kind = 0, pol_only = 0, hidden = 0, batch = 0, c;
    TrainOpts o;
    train_opts_default(&o);
    o.jobs = 2;
    double holdout = 0.1;
    uint64_t seed = 1;
    RlOpts rl;
    rl_opts_default(&rl);
    rl.games = 0;
    TeacherOpts tch;
    teacher_opts_default(&tch);
    tch.games = 0;
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_DB: if (cli_sources_add(cmd, &in, 1, optarg)) return 2; break;
        case O_KIFU: if (cli_sources_add(cmd, &in, 0, optarg)) return 2; break;
        case O_PLAYERS: players = optarg; break;
        case 'o': out = optarg; break;
        case O_INIT: init = optarg; break;
        case O_EPOCHS: if (cli_long(cmd, "--epochs", optarg, 0, 1000000, &v)) return 2; o.epochs = (int)v; break;
        case O_LR: if (cli_double(cmd, "--lr", optarg, 1e-9, 10, &o.lr)) return 2; break;
        case O_L2: if (cli_double(cmd, "--l2", optarg, 0, 100, &o.l2)) return 2; break;
        case O_HOLD: if (cli_double(cmd, "--holdout", optarg, 0, 0.9, &holdout)) return 2; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &seed)) return 2; break;
        case O_TEST:
            if (ntest >= 64)
                return cli_fail(cmd, "at most 64 --test-kifu files");
            test[ntest++] = optarg;
            break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &v)) return 2; o.jobs = (int)v; break;
        case O_RLG: if (cli_long(cmd, "--rl-games", optarg, 0, 1000000000, &rl.games)) return 2; break;
        case O_RLB: if (cli_long(cmd, "--rl-batch", optarg, 1, 1000000, &v)) return 2; rl.batch = (int)v; break;
        case O_RLLR: if (cli_double(cmd, "--rl-lr", optarg, 1e-9, 10, &rl.lr)) return 2; break;
        case O_RLT: if (cli_double(cmd, "--rl-temp", optarg, 0.01, 100, &rl.temp)) return 2; break;
        case O_RLS: if (cli_double(cmd, "--rl-vs-simple", optarg, 0, 1, &rl.vs_simple)) return 2; break;
        case O_RLRULE:
            if (strcmp(optarg, "simple") && strcmp(optarg, "devkit"))
                return cli_fail(cmd, "--rl-rule: '%s' is not simple or devkit", optarg);
            rl.rule_devkit = !strcmp(optarg, "devkit");
            rl_rule = rl.rule_devkit ? "devkit" : "simple";
            break;
        case O_RLLG: league = optarg; break;
        case O_TG: if (cli_long(cmd, "--teacher-games", optarg, 0, 100000000, &tch.games)) return 2; break;
        case O_TS: tch.teacher = optarg; break;
        case O_TW: if (cli_long(cmd, "--teacher-worlds", optarg, 1, 2048, &v)) return 2; tch.worlds = (int)v; break;
        case O_TTAU: if (cli_double(cmd, "--teacher-tau", optarg, 1e-4, 100, &tch.tau)) return 2; break;
        case O_TTEMP: if (cli_double(cmd, "--teacher-temp", optarg, 0.01, 100, &tch.temp)) return 2; break;
        case O_RLVL: if (cli_double(cmd, "--rl-vs-league", optarg, 0, 1, &rl.vs_league)) return 2; break;
        case O_RLRW:
            if (strcmp(optarg, "points") && strcmp(optarg, "match"))
                return cli_fail(cmd, "--rl-reward %s: valid are points, match", optarg);
            rl.reward_match = !strcmp(optarg, "match");
            break;
        case O_RLCLS: if (cli_long(cmd, "--rl-class", optarg, 0, 4, &v)) return 2; rl.learner_class = (int)v; break;
        case O_RLREP: if (cli_long(cmd, "--rl-repeat", optarg, 1, 64, &v)) return 2; rl.repeat = (int)v; break;
        case O_JSON: json = 1; break;
        case O_QUIET: quiet = 1; break;
        case O_MODEL:
            if (strcmp(optarg, "fast") && strcmp(optarg, "rich") && strcmp(optarg, "gift"))
                return cli_fail(cmd, "--model %s: valid are fast, rich, gift", optarg);
            rich = !strcmp(optarg, "rich");
            giftm = !strcmp(optarg, "gift");
            break;
        case O_BASE: baseline = optarg; break;
        case O_HID: if (cli_long(cmd, "--hidden", optarg, 1, RICH_HID_MAX, &v)) return 2; hidden = (int)v; break;
        case O_BATCH: if (cli_long(cmd, "--batch", optarg, 1, 1000000, &v)) return 2; batch = (int)v; break;
        case O_BYKIND: by_kind = 1; break;
        case O_POLDEC: by_kind = pol_only = 1; break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (cli_sources_rest(cmd, &in, argc, argv, 0))
        return 2;
    if (!in.ndb && !in.nkifu && rl.games == 0 && tch.games == 0 && !(init && ntest))
        return cli_fail(cmd, "give --db FILE.sqlite, --kifu FILE, --teacher-games N, --rl-games N, or --init W with "
                             "--test-kifu F (try --help)");
    const int have_data = in.ndb || in.nkifu || tch.games > 0;
    if (!out)
        return cli_fail(cmd, "-o WEIGHTS is required");
    if (rich && tch.games > 0)
        return cli_fail(cmd, "--model rich learns from records and by --rl-games (no --teacher-* options)");
    if (giftm && (tch.games > 0 || rl.games > 0 || league || by_kind))
        return cli_fail(cmd, "--model gift learns from recorded gifts only (no --teacher-*, --rl-*, --by-kind, "
                             "--policy-decisions)");
    if (baseline && !giftm)
        return cli_fail(cmd, "--baseline goes with --model gift");
    if (rl.repeat > 1 && rl.games == 0)
        return cli_fail(cmd, "--rl-repeat goes with --rl-games N");
    if (rl.batch % rl.repeat)
        return cli_fail(cmd, "--rl-repeat %d: --rl-batch (%d) must be a multiple of it", rl.repeat, rl.batch);
    if (giftm)
        return train_gift(cmd, &in, players, out, init, baseline, test, ntest, &o, holdout, seed, json, quiet, argc,
                          argv);
    static PolicyWeights w;
    static RichWeights rw;
    char err[512];
    memset(&w, 0, sizeof w);
    memset(&rw, 0, sizeof rw);
    if (init && (rich ? rich_load(init, &rw, err, sizeof err) : policy_load(init, &w, err, sizeof err)))
        return cli_fail(cmd, "--init: %s", err);
    if (hidden && !rich)
        return cli_fail(cmd, "--hidden goes with --model rich");
    if (hidden && rw.nhid)
        return cli_fail(cmd, "--hidden: the --init weights have a hidden layer already (%d units)", rw.nhid);
    if (hidden)
        rich_net_init(&rw, hidden, seed);
    if (batch && !rw.nhid)
        return cli_fail(cmd, "--batch goes with --model rich and weights with a hidden layer (--init or --hidden)");
    o.batch = batch;
    o.seed = seed;
    static PolicyWeights leaguew[RL_LEAGUE_MAX];
    static RichWeights leaguer[RL_LEAGUE_MAX]; /* rich members (zero pages until loaded) */
    if (league) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", league);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
            if (rl.nleague >= RL_LEAGUE_MAX)
                return cli_fail(cmd, "--rl-league: at most %d weights files", RL_LEAGUE_MAX);
            const int kind = rich_file_kind(t, err, sizeof err);
            if (kind < 0)
                return cli_fail(cmd, "--rl-league: %s", err);
            if (kind) {
                if (rich_load(t, &leaguer[rl.nleague], err, sizeof err))
                    return cli_fail(cmd, "--rl-league: %s", err);
                rl.rich_league[rl.nleague] = &leaguer[rl.nleague];
            } else {
                if (policy_load(t, &leaguew[rl.nleague], err, sizeof err))
                    return cli_fail(cmd, "--rl-league: %s", err);
                rl.league[rl.nleague] = &leaguew[rl.nleague];
            }
            rl.nleague++;
        }
    }
    if (rl.vs_league > 0 && !rl.nleague)
        return cli_fail(cmd, "--rl-vs-league needs --rl-league W1,W2,...");
    if (rl.vs_simple + rl.vs_league > 1)
        return cli_fail(cmd, "--rl-vs-simple and --rl-vs-league add up to more than 1");
    Collect col = {NULL, {{0}}, 0, seed, holdout, 0};
    if (collect_players(cmd, players, &col))
        return 2;
    TrainData d;
    train_data_init(&d);
    d.rich = rich;
    d.tag_wins = by_kind;
    if (pol_only)
        d.play.skip_kinds = 1u << TRAIN_WIN_SURE | 1u << TRAIN_WIN_SOLVED;
    col.d = &d;
    GameSource src = {in.kifu, in.nkifu, in.db, in.ndb, 0};
    double t0 = cli_now();
    if (games_each(&src, collect, &col, err, sizeof err)) {
        train_data_free(&d);
        return cli_error(cmd, "%s", *err ? err : "out of memory");
    }
    if (tch.games > 0) {
        Progress tp;
        progress_init(&tp, "teacher:", tch.games, !quiet);
        tch.seed = seed;
        tch.jobs = o.jobs;
        tch.holdout = holdout;
        tch.progress = on_teacher;
        tch.progress_ctx = &tp;
        static PolicyWeights students;
        students = w;
        if (teacher_data(&d, &students, &tch, err, sizeof err)) {
            train_data_free(&d);
            return cli_error(cmd, "%s", err);
        }
        progress_done(&tp);
    }
    if (d.play.n == 0 && have_data) {
        train_data_free(&d);
        return cli_error(cmd, "no decisions to learn from (%ld games; --players names no one?)", d.games);
    }
    if (!quiet && have_data)
        fprintf(stderr, "dhm train policy: %ld games (%ld held out), %ld play decisions, %ld gifts; read in %.1f s\n",
                d.games, d.held_games, d.play.n, d.exch.n, cli_now() - t0);
    Progress pr;
    progress_init(&pr, "train:", o.epochs, !quiet);
    o.progress = on_epoch;
    o.progress_ctx = &pr;
    static RichWeights zero; /* zero weights of either model */
    memset(&zero, 0, sizeof zero);
    if (rich ? train_fit_rich(&d, &o, &rw) : train_fit(&d, &o, &w)) {
        train_data_free(&d);
        return cli_error(cmd, "out of memory");
    }
    progress_done(&pr);
    if (rl.games > 0) {
        Progress rp;
        progress_init(&rp, "reinforce:", rl.games, !quiet);
        rl.seed = seed;
        rl.jobs = o.jobs;
        rl.progress = on_rl;
        rl.progress_ctx = &rp;
        if (rich ? train_reinforce_rich(&rl, &rw) : train_reinforce(&rl, &w)) {
            train_data_free(&d);
            return cli_error(cmd, "out of memory");
        }
        progress_done(&rp);
    }
    int rc = write_weights(cmd, out, rich ? save_rich : save_policy, rich ? (const void *)&rw : (const void *)&w, argc,
                           argv);
    if (rc) {
        train_data_free(&d);
        return rc;
    }
    ModelW zw = {zero.play, zero.exch, NULL}, mw = {rich ? rw.play : w.play, rich ? rw.exch : w.exch, NULL};
    if (rich && rw.nhid)
        mw.net = &rw;
    int first = 1;
    if (json)
        printf("{\"games\": %ld, \"held_out_games\": %ld, \"forced\": %ld, \"unknown\": %ld, \"weights\": ", d.games,
               d.held_games, d.forced, d.unknown);
    if (json)
        json_str(stdout, out);
    else if (have_data)
        printf("%ld games (%ld held out); %ld plays with one legal move skipped; %ld recorded moves not generated by "
               "dhm skipped\n",
               d.games, d.held_games, d.forced, d.unknown);
    print_evals(stdout, &d, zw, mw, "held-out", by_kind, json, &first);
    train_data_free(&d);
    if (ntest) { /* an external test set, never trained on */
        TrainData td;
        train_data_init(&td);
        td.rich = rich;
        td.tag_wins = by_kind;
        if ((rc = collect_test(cmd, &col, &td, test, ntest)))
            return rc;
        print_evals(stdout, &td, zw, mw, "test", by_kind, json, &first);
        if (!json && td.unknown)
            printf("  (%ld recorded test moves are not generated by dhm and were skipped)\n", td.unknown);
        train_data_free(&td);
    }
    if (json)
        printf("\n}\n");
    else
        printf("\nwrote %s\n", out);
    return 0;
}

static void est_usage(FILE *f)
{
    fprintf(f,
            "usage: dhm train estimation (--db FILE.sqlite | --kifu FILE...) -o MODEL [options]\n"
            "Learns the weight table of the `weights` world sampler (mc:est=weights; players/estimate.h)\n"
            "from records with every hand known: at every play decision, from the turn player's view,\n"
            "each card the sampler would deal is an example whose true holder the model should give the\n"
            "highest probability (P(holder = p) proportional to cards p still gets x exp(prior of p's\n"
            "class and the card + a term per earlier play or pass of p and the card's relation to it):\n"
            "a conditional logit, the documented equivalent of snowl's Bradley-Terry card strengths).\n"
            "Prints the held-out log-loss and hit rate (the expected share of dealt cards right) against\n"
            "dealing in proportion to the cards each player gets, and with --test-kifu the accuracy of\n"
            "est=weights on a test set that nothing is fitted on (dhm estimate's measure).\n\n"
            "  --db FILE          a store made with --records (repeatable)\n"
            "  --kifu FILE        records (repeatable)\n"
            "  -o, --out FILE     the model to write (for mc:est=weights:est-model=FILE)\n"
            "  --epochs N         full-batch Adam steps (200)\n"
            "  --lr X             step size (0.05)\n"
            "  --l2 X             L2 penalty (1e-4)\n"
            "  --holdout F        share of games held out (0.1)\n"
            "  --games N          only the first N games\n"
            "  --seed S           which games are held out; test worlds (1)\n"
            "  --test-kifu FILE   accuracy of est=weights (order=random, 100 worlds a decision) on FILE\n"
            "  --jobs J           threads (2); the result does not depend on it\n"
            "  --quiet            no progress line\n");
}

static void on_est_epoch(void *ctx, int epoch, int epochs, double loss)
{
    (void)epochs;
    (void)loss;
    progress_update(ctx, epoch, " epochs");
}

static int train_estimation(int argc, char **argv)
{
    enum { O_DB = 1000, O_KIFU, O_EPOCHS, O_LR, O_L2, O_HOLD, O_GAMES, O_SEED, O_TEST, O_JOBS, O_QUIET, O_HELP };
    static const struct option opts[] = {
        {"db", required_argument, 0, O_DB},          {"kifu", required_argument, 0, O_KIFU},
        {"out", required_argument, 0, 'o'},          {"epochs", required_argument, 0, O_EPOCHS},
        {"lr", required_argument, 0, O_LR},          {"l2", required_argument, 0, O_L2},
        {"holdout", required_argument, 0, O_HOLD},   {"games", required_argument, 0, O_GAMES},
        {"seed", required_argument, 0, O_SEED},      {"test-kifu", required_argument, 0, O_TEST},
        {"jobs", required_argument, 0, O_JOBS},      {"quiet", no_argument, 0, O_QUIET},
        {"help", no_argument, 0, O_HELP},            {0, 0, 0, 0}};
    const char *cmd = "train estimation";
    CliSources in;
    memset(&in, 0, sizeof in);
    const char *out = NULL, *test = NULL;
    int quiet = 0, c;
    EstTrainOpts o;
    est_train_opts_default(&o);
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case O_DB: if (cli_sources_add(cmd, &in, 1, optarg)) return 2; break;
        case O_KIFU: if (cli_sources_add(cmd, &in, 0, optarg)) return 2; break;
        case 'o': out = optarg; break;
        case O_EPOCHS: if (cli_long(cmd, "--epochs", optarg, 0, 1000000, &v)) return 2; o.epochs = (int)v; break;
        case O_LR: if (cli_double(cmd, "--lr", optarg, 1e-9, 10, &o.lr)) return 2; break;
        case O_L2: if (cli_double(cmd, "--l2", optarg, 0, 100, &o.l2)) return 2; break;
        case O_HOLD: if (cli_double(cmd, "--holdout", optarg, 0, 0.9, &o.holdout)) return 2; break;
        case O_GAMES: if (cli_long(cmd, "--games", optarg, 1, 100000000, &o.max_games)) return 2; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &o.seed)) return 2; break;
        case O_TEST: test = optarg; break;
        case O_JOBS: if (cli_long(cmd, "--jobs", optarg, 1, 256, &v)) return 2; o.jobs = (int)v; break;
        case O_QUIET: quiet = 1; break;
        case O_HELP: est_usage(stdout); return 0;
        default: return 2;
        }
    }
    if (cli_sources_rest(cmd, &in, argc, argv, 1))
        return 2;
    if (!out)
        return cli_fail(cmd, "-o MODEL is required");
    char err[512];
    Progress pr;
    progress_init(&pr, "train estimation:", o.epochs, !quiet);
    o.progress = on_est_epoch;
    o.progress_ctx = &pr;
    GameSource src = {in.kifu, in.nkifu, in.db, in.ndb, 0};
    static EstModel m;
    EstTrainResult r;
    int rc = est_train(&o, &src, &m, &r, err, sizeof err);
    progress_done(&pr);
    if (rc)
        return cli_error(cmd, "%s", err);
    if ((rc = write_weights(cmd, out, save_est, &m, argc, argv)))
        return rc;
    printf("%ld games (%ld held out)\n", r.games, r.held_games);
    printf("%-10s %9s %10s %10s %10s %8s %8s\n", "", "decisions", "cards", "log-loss", "flat", "hit", "flat");
    const EstTrainEval *e[2] = {&r.train, &r.held};
    for (int i = 0; i < 2; i++)
        printf("%-10s %9ld %10ld %10.4f %10.4f %8.4f %8.4f\n", i ? "held out" : "training", e[i]->decisions,
               e[i]->cards, e[i]->logloss, e[i]->flat_logloss, e[i]->hit, e[i]->flat_hit);
    printf("(per dealt card; flat: in proportion to the cards each opponent still gets; hit: mean probability of the\n"
           "true holder, the expected share of dealt cards right)\n");
    if (test) {
        EstOptions eo;
        memset(&eo, 0, sizeof eo);
        eo.kind = EST_WEIGHTS;
        eo.order = ORDER_RANDOM;
        eo.model = &m;
        EstOptions uo = eo;
        uo.kind = EST_UNIFORM;
        const char *tk[1] = {test};
        GameSource ts = {tk, 1, NULL, 0, 0};
        EstAccResult a, u;
        EstAccConfig ac = {&eo, 100, o.seed, 0, NULL, NULL}, uc = {&uo, 100, o.seed, 0, NULL, NULL};
        if (est_accuracy_run(&ac, &ts, &a, err, sizeof err) || est_accuracy_run(&uc, &ts, &u, err, sizeof err))
            return cli_error(cmd, "--test-kifu: %s", err);
        printf("test %s: accuracy %.4f with est=weights (uniform: %.4f), %ld decisions\n", test,
               (double)a.right / (double)(a.total ? a.total : 1), (double)u.right / (double)(u.total ? u.total : 1),
               a.decisions);
    }
    printf("\nwrote %s\n", out);
    return 0;
}

int cmd_train(int argc, char **argv)
{
    const char *cmd = "train";
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, "usage: dhm train policy|estimation [options]   (dhm train MODEL --help)\n"
                   "  policy       fit the policy's weights to recorded decisions\n"
                   "  estimation   fit the weight table of the world sampler est=weights\n");
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "policy"))
        return train_policy(argc - 1, argv + 1);
    if (!strcmp(argv[1], "estimation"))
        return train_estimation(argc - 1, argv + 1);
    return cli_fail(cmd, "unknown model '%s' (policy, estimation)", argv[1]);
}
