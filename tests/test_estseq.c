/* test_estseq.c — the learned hand estimator's sequence model (players/estseq, est=net:seq=1,
 * dhm estimate --dump-seq): the C forward pass (GRU and hidden layer) equals a dense
 * double-precision reference computed here from the same numbers, cold and with the state kept
 * between decisions (equal to the last bit); the events are in range, one per play; the chances
 * are distributions over the allowed holders; model files round-trip, and a damaged, truncated
 * or mismatched one is a one-line error; the dump's sequence rows match its records; the
 * commands are deterministic for the seed. The sampler's hard constraints are checked with the
 * others' in test_estimate.c. */
#include "testutil.h"

#include "analysis/decisions.h"
#include "estcheck.h"
#include "players/estseq.h"

static void random_seq(EstSeq *m, uint64_t seed)
{
    Rng r = rng_seed(seed);
    float *w = (float *)m;
    for (size_t i = 0; i < sizeof *m / sizeof(float); i++)
        w[i] = (float)(rng_double(&r) - 0.5) * 0.4f;
}

static double sig(double x) { return 1 / (1 + exp(-x)); }

/* The model in double precision over dense inputs: an independent reading of estseq.h. */
static void dense_forward(const EstSeq *m, const InfoSet *v, const EstNetFeat *f, double out[ESTNET_OUT])
{
    static EstSeqEv ev[GAME_MAX_PLAYS];
    const int nev = estseq_events(v, 0, ev, GAME_MAX_PLAYS);
    double h[ESTSEQ_GH] = {0};
    for (int t = 0; t < nev; t++) {
        double xs[ESTSEQ_S] = {0}, xc[53] = {0}, gi[ESTSEQ_G3], gh[ESTSEQ_G3];
        for (int i = 0; i < ev[t].n; i++)
            xs[ev[t].idx[i]] += 1;
        for (int c = 0; c < 64; c++)
            if ((ev[t].cards >> c) & 1)
                xc[estnet_card(c)] += 1;
        for (int k = 0; k < ESTSEQ_G3; k++) {
            double a = m->sb[k], b = m->hb[k];
            for (int i = 0; i < ESTSEQ_S; i++)
                a += xs[i] * m->si[i][k];
            for (int i = 0; i < 53; i++)
                a += xc[i] * m->sc[i][k];
            for (int j = 0; j < ESTSEQ_GH; j++)
                b += h[j] * m->hh[j][k];
            gi[k] = a;
            gh[k] = b;
        }
        for (int k = 0; k < ESTSEQ_GH; k++) {
            const double r = sig(gi[k] + gh[k]), z = sig(gi[ESTSEQ_GH + k] + gh[ESTSEQ_GH + k]);
            const double n = tanh(gi[2 * ESTSEQ_GH + k] + r * gh[2 * ESTSEQ_GH + k]);
            h[k] = (1 - z) * n + z * h[k];
        }
    }
    static double xg[ESTNET_G], xo[4][ESTNET_O];
    memset(xg, 0, sizeof xg);
    memset(xo, 0, sizeof xo);
    for (int i = 0; i < f->ng; i++)
        xg[f->g[i]] += 1;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < f->no[j]; i++)
            xo[j][f->o[j][i]] += f->ow[j][i];
    const EstNet *n = &m->net;
    double x[5 * ESTNET_E], hid[ESTNET_H];
    for (int e = 0; e < ESTNET_E; e++) {
        double a = n->bg[e];
        for (int i = 0; i < ESTNET_G; i++)
            a += xg[i] * n->wg[i][e];
        x[e] = a > 0 ? a : 0;
        for (int j = 0; j < 4; j++) {
            double b = n->bo[e];
            for (int i = 0; i < ESTNET_O; i++)
                b += xo[j][i] * n->wo[i][e];
            x[(1 + j) * ESTNET_E + e] = b > 0 ? b : 0;
        }
    }
    for (int k = 0; k < ESTNET_H; k++) {
        double a = n->b1[k];
        for (int i = 0; i < 5 * ESTNET_E; i++)
            a += x[i] * n->w1[i][k];
        for (int j = 0; j < ESTSEQ_GH; j++)
            a += h[j] * m->ws[j][k];
        hid[k] = a > 0 ? a : 0;
    }
    for (int o = 0; o < ESTNET_OUT; o++) {
        double a = n->b2[o];
        for (int k = 0; k < ESTNET_H; k++)
            a += hid[k] * n->w2[k][o];
        out[o] = a;
    }
}

/* Writes a model file with the numbers of m; `shape` (if not NULL) in place of the shape line,
 * only the first `keep` lines (0: all), magic in place of the first line (if not NULL). */
static void write_seq(const char *path, const EstSeq *m, const char *magic, const char *shape, int keep)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int lines = 0;
#define LINE(...) do { if (!keep || lines < keep) fprintf(f, __VA_ARGS__); lines++; } while (0)
    LINE("%s\n", magic ? magic : "dhm estseq 1");
    LINE("# test\n");
    if (shape)
        LINE("%s\n", shape);
    else
        LINE("shape %d %d %d %d %d %d %d\n", ESTNET_G, ESTNET_O, ESTNET_E, ESTNET_H, ESTNET_OUT, ESTSEQ_S, ESTSEQ_GH);
    const EstNet *n = &m->net;
    const struct { const char *name; int rows, cols; const float *w; } t[] = {
        {"wg", ESTNET_G, ESTNET_E, &n->wg[0][0]}, {"bg", 1, ESTNET_E, n->bg},
        {"wo", ESTNET_O, ESTNET_E, &n->wo[0][0]}, {"bo", 1, ESTNET_E, n->bo},
        {"w1", 5 * ESTNET_E, ESTNET_H, &n->w1[0][0]}, {"b1", 1, ESTNET_H, n->b1},
        {"w2", ESTNET_H, ESTNET_OUT, &n->w2[0][0]}, {"b2", 1, ESTNET_OUT, n->b2},
        {"si", ESTSEQ_S, ESTSEQ_G3, &m->si[0][0]}, {"sc", 53, ESTSEQ_G3, &m->sc[0][0]},
        {"sb", 1, ESTSEQ_G3, m->sb}, {"hh", ESTSEQ_GH, ESTSEQ_G3, &m->hh[0][0]},
        {"hb", 1, ESTSEQ_G3, m->hb}, {"ws", ESTSEQ_GH, ESTNET_H, &m->ws[0][0]}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        LINE("%s %d %d\n", t[i].name, t[i].rows, t[i].cols);
        for (int r = 0; r < t[i].rows; r++) {
            if (!keep || lines < keep) {
                for (int c = 0; c < t[i].cols; c++)
                    fprintf(f, "%s%.9g", c ? " " : "", t[i].w[(size_t)r * t[i].cols + c]);
                fputc('\n', f);
            }
            lines++;
        }
    }
#undef LINE
    fclose(f);
}

typedef struct Walk {
    EstSeq *m;
    EstSeqCache cache;
    EstOptions o;
    long decisions, checked, checked_probs;
    double max_err, max_inc;
} Walk;

static int on_decision(void *ctx, const Decision *d)
{
    Walk *w = ctx;
    if (d->exchange)
        return 0;
    const InfoSet *v = d->v;
    static EstSeqEv ev[GAME_MAX_PLAYS];
    const int nev = estseq_events(v, 0, ev, GAME_MAX_PLAYS);
    assert_int_equal(nev, v->nplays); /* legal games: one event per play or pass */
    for (int t = 0; t < nev; t++) {
        assert_true(ev[t].n >= 4 && ev[t].n <= ESTSEQ_EW);
        for (int i = 0; i < ev[t].n; i++)
            assert_true(ev[t].idx[i] < ESTSEQ_S);
        assert_true((ev[t].cards & ~CARDS_ALL) == 0);
    }
    EstNetFeat f;
    estnet_features(v, &f);
    float cold[ESTNET_OUT], inc[ESTNET_OUT];
    estseq_logits(w->m, NULL, v, &f, cold);
    estseq_logits(w->m, &w->cache, v, &f, inc); /* the state kept from this viewer's last decision */
    for (int o = 0; o < ESTNET_OUT; o++) {
        const double e = fabs((double)cold[o] - inc[o]);
        w->max_inc = e > w->max_inc ? e : w->max_inc;
    }
    if (w->decisions % 5 == 0) {
        double ref[ESTNET_OUT];
        dense_forward(w->m, v, &f, ref);
        for (int o = 0; o < ESTNET_OUT; o++) {
            const double e = fabs(cold[o] - ref[o]) / (1 + fabs(ref[o]));
            w->max_err = e > w->max_err ? e : w->max_err;
        }
        w->checked++;
    }
    /* the net's chances: for every card to deal a distribution over the holders allowed */
    w->checked_probs += check_chances(&w->o, v);
    w->decisions++;
    return 0;
}

static int walk_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    return decisions_each(rec, on_decision, ctx);
}

static void test_forward_events_and_chances(void **state)
{
    (void)state;
    const char *specs[5] = {"simple", "policy", "random", "policy:temp=1", "simple"};
    char err[512], dir[64], path[128], spec[200];
    static Walk w;
    memset(&w, 0, sizeof w);
    w.m = malloc(sizeof *w.m);
    assert_non_null(w.m);
    random_seq(w.m, 7);
    assert_non_null(test_tmpdir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/seq", dir);
    write_seq(path, w.m, NULL, NULL, 0);
    snprintf(spec, sizeof spec, "net:seq=1:model=%s", path);
    if (est_options_parse(spec, &w.o, err, sizeof err))
        fail_msg("%s", err);
    assert_non_null(w.o.seq);
    assert_memory_equal(w.o.seq, w.m, sizeof *w.m); /* %.9g: floats exactly */
    Player *pl[5];
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create(specs[p], (uint64_t)p + 1, &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 6;
    cfg.seed = 41;
    MatchResult res;
    GameRecord *rec = malloc(sizeof *rec);
    assert_int_equal(match_run(pl, &cfg, NULL, walk_game, &w, rec, &res), 0);
    free(rec);
    test_players_free(pl);
    assert_true(w.decisions > 250);
    assert_true(w.checked > 50);
    assert_true(w.checked_probs > 2500);
    assert_true(w.max_err < 1e-4);
    assert_true(w.max_inc == 0);               /* the kept state: the same numbers */
    assert_true(w.cache.warm > w.decisions / 2); /* and it was kept */
    est_options_free(&w.o);
    free(w.m);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

static void test_model_files(void **state)
{
    (void)state;
    char err[512], dir[64], path[128], out[4096], bad[120];
    assert_non_null(estseq_builtin(err, sizeof err));
    assert_non_null(test_tmpdir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/seq", dir);
    EstSeq *m = malloc(sizeof *m), *back = malloc(sizeof *back);
    assert_non_null(m);
    assert_non_null(back);
    random_seq(m, 11);
    write_seq(path, m, NULL, NULL, 0);
    if (estseq_load(path, back, err, sizeof err))
        fail_msg("%s", err);
    assert_memory_equal(m, back, sizeof *m);
    snprintf(bad, sizeof bad, "shape %d %d %d %d %d %d %d", ESTNET_G, ESTNET_O, ESTNET_E, ESTNET_H, ESTNET_OUT, ESTSEQ_S,
             ESTSEQ_GH + 1);
    write_seq(path, m, NULL, bad, 0);
    assert_int_equal(estseq_load(path, back, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3: shape mismatch"));
    write_seq(path, m, "dhm estnet 1", NULL, 0); /* the feature model's magic */
    assert_int_equal(estseq_load(path, back, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a dhm estseq model"));
    write_seq(path, m, NULL, NULL, 1200); /* cut inside the sequence tensors */
    assert_int_equal(estseq_load(path, back, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    assert_null(strchr(err, '\n'));
    char text[300];
    snprintf(text, sizeof text, "dhm estseq 1\nshape %d %d %d %d %d %d %d\nwg %d %d\n1 2 x\n", ESTNET_G, ESTNET_O,
             ESTNET_E, ESTNET_H, ESTNET_OUT, ESTSEQ_S, ESTSEQ_GH, ESTNET_G, ESTNET_E);
    assert_int_equal(estseq_parse(text, "x", back, err, sizeof err), -1);
    assert_non_null(strstr(err, "x:4: wg row 0: number 3 of 64 missing or invalid"));
    /* options and commands: one line, exit status 2 */
    EstOptions o;
    assert_int_equal(est_options_parse("weights:seq=1", &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "seq= is for est=net"));
    assert_int_equal(est_options_parse("net:seq=2", &o, err, sizeof err), -1);
    assert_int_equal(est_options_parse("policy:temp=1.2", &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "temp= is for est=net"));
    assert_int_equal(est_options_parse("net:temp=0", &o, err, sizeof err), -1);
    assert_int_equal(est_options_parse("net:temp=1.22", &o, err, sizeof err), 0);
    est_options_free(&o);
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --est net:seq=1:model=%s /dev/null 2>&1", dhm_bin(), path), 2);
    assert_non_null(strstr(out, "truncated"));
    assert_true(strchr(out, '\n') == out + strlen(out) - 1);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:est=net:est-seq=1:est-model=%s,simple,simple,simple,"
                                              "simple --games 1 2>&1", dhm_bin(), path), 2);
    assert_true(strchr(out, '\n') == out + strlen(out) - 1);
    /* a feature model where a sequence model is expected, and the reverse */
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --est net:seq=1:model=players/estnet.weights /dev/null 2>&1",
                             dhm_bin()), 2);
    assert_non_null(strstr(out, "not a dhm estseq model"));
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --est net:model=players/estseq.weights /dev/null 2>&1",
                             dhm_bin()), 2);
    assert_non_null(strstr(out, "not a dhm estnet model"));
    free(m);
    free(back);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

static uint32_t u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* The dump's sequence rows: one decision row per record, in order; each sequence's events come
 * before the decisions that see them, and a decision sees every play of its game so far. */
static void test_dump_and_commands(void **state)
{
    (void)state;
    char dir[64], out[1 << 14], a[1 << 14], b[1 << 14], path[128];
    const char *D = dhm_bin();
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,policy,simple,policy,random --games 6 --seed 4 "
                                              "--record %s/m.kifu 2>&1", D, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --dump %s/d.bin --dump-seq %s/d.seq %s/m.kifu", D, dir, dir,
                             dir), 0);
    long games = 0, recs = 0;
    assert_int_equal(sscanf(strchr(out, ':') + 1, " %ld games, %ld decisions", &games, &recs), 2);
    assert_int_equal(games, 6);
    size_t len;
    snprintf(path, sizeof path, "%s/d.seq", dir);
    unsigned char *q = (unsigned char *)read_all(path, &len);
    assert_non_null(q);
    assert_memory_equal(q, ESTSEQ_DUMP_MAGIC, 8);
    assert_int_equal((len - 8) % ESTSEQ_ROW, 0);
    static int nev[4096];
    memset(nev, 0, sizeof nev);
    long decs = 0, events = 0, maxseq = -1;
    for (size_t at = 8; at < len; at += ESTSEQ_ROW) {
        const uint32_t tag = u32(q + at);
        const uint32_t seq = tag & 0x7fffffffu;
        assert_true(seq < 4096);
        maxseq = (long)seq > maxseq ? (long)seq : maxseq;
        if (tag >> 31) {
            const int step = q[at + 4] | q[at + 5] << 8;
            assert_int_equal(step, nev[seq]); /* every event before it, and only those */
            decs++;
        } else {
            for (int i = 0; i < ESTSEQ_EW; i++)
                assert_true((q[at + 4 + 2 * i] | q[at + 5 + 2 * i] << 8) <= ESTSEQ_S);
            nev[seq]++;
            events++;
        }
    }
    assert_int_equal(decs, recs);
    assert_true(events > recs);
    assert_true(maxseq + 1 <= 5 * games);
    free(q);
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --dump-seq %s/d.seq %s/m.kifu 2>&1", D, dir, dir), 2);
    /* est=net:seq=1 and its point estimate: deterministic for the seed */
    const char *cmd = "%s estimate --kifu %s/m.kifu --est net:seq=1 --est net:seq=1:point=1 --worlds 5 --csv | cut -d, -f1-8";
    assert_int_equal(run_cmd(a, sizeof a, cmd, D, dir), 0);
    assert_int_equal(run_cmd(b, sizeof b, cmd, D, dir), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"net seq=1 point=1\",6,"));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:sims=30:est=net:est-seq=1,"
                                              "mc:sims=30:est=net:est-seq=1:est-point=1,simple,simple,simple --games 2 2>&1",
                             D), 0);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_events_and_chances),
        cmocka_unit_test(test_model_files),
        cmocka_unit_test(test_dump_and_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
