/* test_estnet.c — the learned hand estimator (players/estnet, est=net, dhm estimate --dump):
 * the sparse C forward pass equals a dense reference computed here from the same numbers; the
 * features are in range and never cut; the
 * net's chances are distributions over allowed holders only; model files (the built-in one
 * parses; a damaged, truncated or mismatched one is a one-line error naming the line); the
 * dump's records carry the true holders; the commands (estimate --est net, mc:est=net). The
 * sampler's hard constraints are checked with the others' in test_estimate.c. */
#include "testutil.h"

#include "analysis/decisions.h"
#include "estcheck.h"
#include "players/estnet.h"

static void random_net(EstNet *n, uint64_t seed)
{
    Rng r = rng_seed(seed);
    float *w = (float *)n;
    for (size_t i = 0; i < sizeof *n / sizeof(float); i++)
        w[i] = (float)(rng_double(&r) - 0.5) * 0.4f;
}

/* The network in double precision over dense inputs: an independent reading of estnet.h. */
static void dense_forward(const EstNet *n, const EstNetFeat *f, double out[ESTNET_OUT])
{
    static double xg[ESTNET_G], xo[4][ESTNET_O];
    memset(xg, 0, sizeof xg);
    memset(xo, 0, sizeof xo);
    for (int i = 0; i < f->ng; i++)
        xg[f->g[i]] += 1;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < f->no[j]; i++)
            xo[j][f->o[j][i]] += f->ow[j][i];
    double x[5 * ESTNET_E], h[ESTNET_H];
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
        h[k] = a > 0 ? a : 0;
    }
    for (int o = 0; o < ESTNET_OUT; o++) {
        double a = n->b2[o];
        for (int k = 0; k < ESTNET_H; k++)
            a += h[k] * n->w2[k][o];
        out[o] = a;
    }
}

typedef struct Walk {
    EstNet *net;
    const EstNet *builtin;
    EstOptions o;
    long decisions, checked_probs;
    double max_err;
} Walk;

static int on_decision(void *ctx, const Decision *d)
{
    Walk *w = ctx;
    if (d->exchange)
        return 0;
    const InfoSet *v = d->v;
    EstNetFeat f;
    estnet_features(v, &f);
    assert_int_equal(f.truncated, 0);
    for (int i = 0; i < f.ng; i++)
        assert_true(f.g[i] < ESTNET_G);
    for (int j = 0; j < 4; j++) {
        assert_true(f.opp[j] != v->me);
        for (int i = 0; i < f.no[j]; i++)
            assert_true(f.o[j][i] < ESTNET_O && f.ow[j][i] > 0);
    }
    if (w->decisions % 7 == 0) { /* the forward pass against the dense reference */
        float lg[ESTNET_OUT];
        double ref[ESTNET_OUT];
        estnet_forward(w->net, &f, lg);
        dense_forward(w->net, &f, ref);
        for (int o = 0; o < ESTNET_OUT; o++) {
            double e = fabs(lg[o] - ref[o]) / (1 + fabs(ref[o]));
            w->max_err = e > w->max_err ? e : w->max_err;
        }
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

static void test_forward_features_and_chances(void **state)
{
    (void)state;
    const char *specs[5] = {"simple", "policy", "random", "policy:temp=1", "simple"};
    char err[256];
    static Walk w;
    memset(&w, 0, sizeof w);
    w.net = malloc(sizeof *w.net);
    assert_non_null(w.net);
    random_net(w.net, 7);
    assert_int_equal(est_options_parse("net", &w.o, err, sizeof err), 0);
    assert_non_null(w.o.net);
    Player *pl[5];
    for (int p = 0; p < 5; p++)
        assert_int_equal(player_create(specs[p], (uint64_t)p + 1, &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 12;
    cfg.seed = 40;
    MatchResult res;
    GameRecord *rec = malloc(sizeof *rec);
    assert_int_equal(match_run(pl, &cfg, NULL, walk_game, &w, rec, &res), 0);
    free(rec);
    test_players_free(pl);
    assert_true(w.decisions > 500);
    assert_true(w.checked_probs > 5000);
    assert_true(w.max_err < 1e-4);
    est_options_free(&w.o);
    free(w.net);
}

/* Writes a model file: the numbers of n, with the tensor header `bad` (if not NULL) put in
 * place of the first tensor's, or only the first `keep` lines (0: all). */
static void write_net(const char *path, const EstNet *n, const char *shape, int keep)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int lines = 0;
#define LINE(...) do { if (!keep || lines < keep) fprintf(f, __VA_ARGS__); lines++; } while (0)
    LINE("dhm estnet 1\n");
    LINE("# test\n");
    if (shape)
        LINE("%s\n", shape);
    else
        LINE("shape %d %d %d %d %d\n", ESTNET_G, ESTNET_O, ESTNET_E, ESTNET_H, ESTNET_OUT);
    const struct { const char *name; int rows, cols; const float *w; } t[] = {
        {"wg", ESTNET_G, ESTNET_E, &n->wg[0][0]}, {"bg", 1, ESTNET_E, n->bg},
        {"wo", ESTNET_O, ESTNET_E, &n->wo[0][0]}, {"bo", 1, ESTNET_E, n->bo},
        {"w1", 5 * ESTNET_E, ESTNET_H, &n->w1[0][0]}, {"b1", 1, ESTNET_H, n->b1},
        {"w2", ESTNET_H, ESTNET_OUT, &n->w2[0][0]}, {"b2", 1, ESTNET_OUT, n->b2}};
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

static void test_model_files(void **state)
{
    (void)state;
    char err[512], dir[64], path[128], out[4096];
    assert_non_null(estnet_builtin(err, sizeof err));
    assert_non_null(test_tmpdir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/net", dir);
    EstNet *n = malloc(sizeof *n), *back = malloc(sizeof *back);
    assert_non_null(n);
    assert_non_null(back);
    random_net(n, 11);
    write_net(path, n, NULL, 0);
    if (estnet_load(path, back, err, sizeof err))
        fail_msg("%s", err);
    assert_memory_equal(n, back, sizeof *n); /* %.9g: floats exactly */
    char bad[80], text[200];
    snprintf(bad, sizeof bad, "shape %d %d %d %d %d", ESTNET_G, ESTNET_O, ESTNET_E / 2, ESTNET_H, ESTNET_OUT);
    write_net(path, n, bad, 0);
    assert_int_equal(estnet_load(path, back, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3: shape mismatch"));
    write_net(path, n, NULL, 600);
    assert_int_equal(estnet_load(path, back, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(estnet_parse("dhm estimation model 1\n", "x", back, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a dhm estnet model"));
    snprintf(text, sizeof text, "dhm estnet 1\nshape %d %d %d %d %d\nwg %d %d\n1 2 x\n", ESTNET_G, ESTNET_O, ESTNET_E,
             ESTNET_H, ESTNET_OUT, ESTNET_G, ESTNET_E);
    assert_int_equal(estnet_parse(text, "x", back, err, sizeof err), -1);
    assert_non_null(strstr(err, "x:4: wg row 0: number 3 of 64 missing or invalid"));
    /* through the options and the commands: one line, exit status 2 */
    EstOptions o;
    char spec[256];
    snprintf(spec, sizeof spec, "net:model=%s", path);
    assert_int_equal(est_options_parse(spec, &o, err, sizeof err), -1);
    assert_int_equal(est_options_parse("net:k=4", &o, err, sizeof err), -1);
    assert_int_equal(est_options_parse("uniform:point=1", &o, err, sizeof err), -1);
    assert_int_equal(est_options_parse("net:proposal=net", &o, err, sizeof err), -1);
    assert_int_equal(est_options_parse("policy:proposal=guess", &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "proposal=weights"));
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --est net:model=%s /dev/null 2>&1", dhm_bin(), path), 2);
    assert_non_null(strstr(out, "truncated"));
    assert_non_null(strchr(out, '\n'));
    assert_true(strchr(out, '\n') == out + strlen(out) - 1);
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:est=net:est-model=%s,simple,simple,simple,simple "
                                              "--games 1 2>&1", dhm_bin(), path), 2);
    assert_true(strchr(out, '\n') == out + strlen(out) - 1);
    free(n);
    free(back);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* The dump: one record per play decision, each card to guess labelled with its true holder
 * (checked against the kifu's hands by replaying), and the commands with est=net. */
static void test_dump_and_commands(void **state)
{
    (void)state;
    char dir[64], out[1 << 14], a[1 << 14], b[1 << 14];
    const char *D = dhm_bin();
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,policy,simple,policy,random --games 6 --seed 4 "
                                              "--record %s/m.kifu 2>&1", D, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --dump %s/d.bin %s/m.kifu", D, dir, dir), 0);
    long games = 0, recs = 0;
    assert_int_equal(sscanf(strchr(out, ':') + 1, " %ld games, %ld decisions", &games, &recs), 2);
    assert_int_equal(games, 6);
    size_t len;
    char path[128];
    snprintf(path, sizeof path, "%s/d.bin", dir);
    unsigned char *bin = (unsigned char *)read_all(path, &len);
    assert_non_null(bin);
    assert_memory_equal(bin, ESTNET_DUMP_MAGIC, 8);
    assert_int_equal(len, 8 + (size_t)recs * ESTNET_REC_SIZE);
    long labelled = 0;
    for (long r = 0; r < recs; r++) {
        const unsigned char *card = bin + 8 + r * ESTNET_REC_SIZE + ESTNET_REC_SIZE - 53;
        for (int c = 0; c < 53; c++)
            if (card[c] & 7) {
                const int label = card[c] & 7, allowed = card[c] >> 3;
                assert_true(label <= 4 && ((allowed >> (label - 1)) & 1)); /* the truth is allowed */
                labelled++;
            }
    }
    assert_true(labelled > recs * 5);
    free(bin);
    assert_int_equal(run_cmd(out, sizeof out, "%s estimate --dump %s/d.bin --est net %s/m.kifu 2>&1", D, dir, dir), 2);
    /* est=net and its point estimate: deterministic for the seed */
    const char *cmd = "%s estimate --kifu %s/m.kifu --est net --est net:point=1 --worlds 5 --csv | cut -d, -f1-8";
    assert_int_equal(run_cmd(a, sizeof a, cmd, D, dir), 0);
    assert_int_equal(run_cmd(b, sizeof b, cmd, D, dir), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"net point=1\",6,"));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players mc:sims=30:est=net,mc:sims=30:est=net:est-point=1,simple,"
                                              "simple,simple --games 2 2>&1", D), 0);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_features_and_chances),
        cmocka_unit_test(test_model_files),
        cmocka_unit_test(test_dump_and_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
