/* bench_estimate.c — opponent-hand estimation on one core, over the play decisions of
 * ../shared/data/blaux5.kifu (or, when it is absent, 40 games of policy self-play):
 *   - nanoseconds per sampled world: uniform, weights (random order and suit-a);
 *   - nanoseconds per table update: est_features + est_table for a decision, divided by the
 *     plays and passes it reads (each one event of the weight table);
 *   - microseconds to prepare the policy sampler's 64 candidates for a decision;
 *   - the learned estimator (est=net): microseconds per information set for its features and
 *     forward pass (issue 38's bound: 50), and for est_prepare (that plus the chances);
 *   - its sequence model (est=net:seq=1): the same, cold (the GRU over the whole history) and
 *     incremental (the GRU state kept per viewer between its decisions, the decisions in the
 *     games' order), and est_prepare with the state kept. */
#include <string.h>

#include "analysis/decisions.h"
#include "analysis/games.h"
#include "bench.h"
#include "game/match.h"
#include "players/estimate.h"
#include "players/estnet.h"
#include "players/estseq.h"
#include "players/players.h"

#define MAXPOS 12000

typedef struct Pos {
    InfoSet v;
    PlayRec plays[GAME_MAX_PLAYS];
    int count[NPLAYERS];
} Pos;

static Pos *pos;
static int npos;

static int keep(void *ctx, const Decision *d)
{
    (void)ctx;
    if (d->exchange || npos >= MAXPOS)
        return 0;
    Pos *p = &pos[npos++];
    p->v = *d->v;
    memcpy(p->plays, d->v->plays, (size_t)d->v->nplays * sizeof *p->plays);
    p->v.plays = p->plays;
    for (int q = 0; q < NPLAYERS; q++)
        p->count[q] = d->v->ncards[q];
    return 0;
}

static int on_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    (void)names;
    (void)index;
    return decisions_each(rec, keep, ctx);
}

static int on_match_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    return decisions_each(rec, keep, ctx);
}

/* Times est_prepare with o over every step-th position and reports the microseconds each. */
static void prepare_us(const EstOptions *o, int step, Rng *r, const char *name)
{
    EstSampler s;
    est_sampler_init(&s, o);
    int n = 0;
    const double t0 = bench_now();
    for (int i = 0; i < npos; i += step) {
        EstKnown k;
        if (est_known(&pos[i].v, pos[i].count, &k))
            continue;
        est_prepare(&s, o, &pos[i].v, &k, r);
        n++;
    }
    bench_report(name, n ? 1e6 * (bench_now() - t0) / n : 0, "us");
    est_sampler_free(&s);
}

static void load_positions(void)
{
    pos = malloc(MAXPOS * sizeof *pos);
    const char *kifu = bench_shared("data/blaux5.kifu");
    char err[256];
    if (kifu) {
        GameSource src = {&kifu, 1, NULL, 0, 0};
        if (games_each(&src, on_game, NULL, err, sizeof err) >= 0)
            return;
    }
    Player *pl[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        player_create("policy:temp=1", (uint64_t)p + 1, &pl[p], err, sizeof err);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 40;
    cfg.seed = 1;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    match_run(pl, &cfg, NULL, on_match_game, NULL, rec, &res);
    free(rec);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
}

/* The fastest of three runs of 64 worlds at every step-th position. */
static void bench_worlds(const char *name, const char *spec, int step)
{
    EstOptions o;
    char err[256];
    if (est_options_parse(spec, &o, err, sizeof err)) {
        fprintf(stderr, "bench_estimate: %s\n", err);
        exit(1);
    }
    EstSampler s;
    est_sampler_init(&s, &o);
    Rng r = rng_seed(1);
    double best = 1e9;
    for (int run = 0; run < 3; run++) {
        double secs = 0;
        long worlds = 0;
        for (int i = 0; i < npos; i += step) {
            EstKnown k;
            if (est_known(&pos[i].v, pos[i].count, &k))
                continue;
            est_prepare(&s, &o, &pos[i].v, &k, &r);
            Cards hand[NPLAYERS];
            hand[pos[i].v.me] = pos[i].v.hand;
            double t0 = bench_now();
            for (int j = 0; j < 64; j++)
                est_sample(&s, &k, &r, hand);
            secs += bench_now() - t0;
            worlds += 64;
        }
        if (worlds && secs / worlds < best)
            best = secs / worlds;
    }
    char label[96];
    snprintf(label, sizeof label, "estimate_ns_per_world_%s", name);
    bench_report(label, best * 1e9, "ns");
    est_sampler_free(&s);
    est_options_free(&o);
}

int main(void)
{
    load_positions();
    if (npos == 0) {
        fprintf(stderr, "bench_estimate: no positions\n");
        return 1;
    }
    bench_report("estimate_positions", npos, "decisions");
    bench_worlds("uniform", "uniform", 1);
    bench_worlds("weights_random", "weights", 1);
    bench_worlds("weights_suit_a", "weights:order=suit-a", 1);
    bench_worlds("net", "net", 1);
    /* search's worlds: 16 fresh proposals each (the play replayed for every one), and with the
     * exchange's gift term (est-exch=3: the gift model scores every gift of the giver's hand) */
    const int step = npos > 300 ? npos / 300 : 1; /* about 300 positions: 60 to 150 us a world */
    bench_worlds("policy_fresh16", "policy:fresh=16", step);
    bench_worlds("policy_fresh16_exch3", "policy:fresh=16:exch=3", step);
    bench_worlds("policy_fresh16_uniform_exch3", "policy:fresh=16:proposal=uniform:exch=3", step);

    /* table updates */
    char err[256];
    const EstModel *m = est_builtin(err, sizeof err);
    double best = 1e9;
    for (int run = 0; run < 5; run++) {
        long events = 0;
        double t0 = bench_now(), sink = 0;
        for (int i = 0; i < npos; i++) {
            EstFeatures f;
            double lw[NPLAYERS][EST_BINS];
            est_features(&pos[i].v, &f);
            est_table(m, &f, lw);
            sink += lw[0][0];
            for (int p = 0; p < NPLAYERS; p++)
                events += f.nev[p];
        }
        double per = (bench_now() - t0) / (double)(events ? events : 1);
        if (per < best && sink == sink)
            best = per;
    }
    bench_report("estimate_ns_per_table_update", best * 1e9, "ns");

    /* the policy sampler's candidates */
    EstOptions o;
    if (est_options_parse("policy:k=64", &o, err, sizeof err))
        return 1;
    Rng r = rng_seed(2);
    prepare_us(&o, npos > 1500 ? npos / 1500 : 1, &r, "estimate_us_per_policy_prepare_k64");
    est_options_free(&o);

    /* the learned estimator: features + forward pass, then the whole est_prepare */
    const EstNet *net = estnet_builtin(err, sizeof err);
    if (!net || est_options_parse("net", &o, err, sizeof err)) {
        fprintf(stderr, "bench_estimate: %s\n", err);
        return 1;
    }
    best = 1e9;
    for (int run = 0; run < 3; run++) {
        float sink = 0;
        const double t0 = bench_now();
        for (int i = 0; i < npos; i++) {
            EstNetFeat f;
            float lg[ESTNET_OUT];
            estnet_features(&pos[i].v, &f);
            estnet_forward(net, &f, lg);
            sink += lg[0];
        }
        double per = (bench_now() - t0) / npos;
        if (per < best && sink == sink)
            best = per;
    }
    bench_report("estimate_us_per_net_forward", best * 1e6, "us");
    prepare_us(&o, 1, &r, "estimate_us_per_net_prepare");
    est_options_free(&o);

    /* the sequence model: cold, incremental, and est_prepare (incremental) */
    const EstSeq *seq = estseq_builtin(err, sizeof err);
    if (!seq || est_options_parse("net:seq=1", &o, err, sizeof err)) {
        fprintf(stderr, "bench_estimate: %s\n", err);
        return 1;
    }
    long plays = 0;
    for (int i = 0; i < npos; i++)
        plays += pos[i].v.nplays;
    bench_report("estimate_seq_events_per_decision", (double)plays / npos, "events");
    static EstSeqCache cache;
    for (int warm = 0; warm < 2; warm++) {
        best = 1e9;
        for (int run = 0; run < 3; run++) {
            float sink = 0;
            memset(&cache, 0, sizeof cache);
            const double t0 = bench_now();
            for (int i = 0; i < npos; i++) {
                EstNetFeat f;
                float lg[ESTNET_OUT];
                estnet_features(&pos[i].v, &f);
                estseq_logits(seq, warm ? &cache : NULL, &pos[i].v, &f, lg);
                sink += lg[0];
            }
            double per = (bench_now() - t0) / npos;
            if (per < best && sink == sink)
                best = per;
        }
        bench_report(warm ? "estimate_us_per_seq_forward_incremental" : "estimate_us_per_seq_forward_cold", best * 1e6,
                     "us");
    }
    prepare_us(&o, 1, &r, "estimate_us_per_seq_prepare");
    est_options_free(&o);
    free(pos);
    return 0;
}
