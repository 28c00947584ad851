/* test_errorrate.c — the decisions of a record and their error rate (analysis/decisions,
 * analysis/errorrate, dhm errorrate): the information sets rebuilt from a record are exactly
 * the ones the engine gave the players; a player that always plays the evaluator's own choice
 * (on the same worlds) scores exactly 0; random scores clearly more than simple; decisions with
 * one choice are skipped and counted; changing the opponents' hidden cards changes no Q; the
 * command is deterministic and independent of --jobs; bad input is one line. */
#include "testutil.h"

#include "analysis/decisions.h"
#include "analysis/errorrate.h"
#include "players/mc.h"
#include "players/policy.h"

/* ---- the engine's views, recorded by spy players ---- */

#define MAX_VIEWS 20000

typedef struct SeenView {
    InfoSet v;
    PlayRec plays[GAME_MAX_PLAYS];
    int exchange;
} SeenView;

static SeenView *seen;
static int nseen;

typedef struct Spy {
    Player base;
    Player *inner;
} Spy;

static void remember(const InfoSet *v, int exchange)
{
    if (nseen >= MAX_VIEWS)
        return;
    SeenView *s = &seen[nseen++];
    s->v = *v;
    memcpy(s->plays, v->plays, (size_t)v->nplays * sizeof *s->plays);
    s->exchange = exchange;
}

static Move spy_play(Player *self, const InfoSet *v)
{
    Spy *s = (Spy *)self;
    remember(v, 0);
    return s->inner->play(s->inner, v);
}

static Cards spy_exchange(Player *self, const InfoSet *v, int n)
{
    Spy *s = (Spy *)self;
    remember(v, 1);
    return s->inner->exchange(s->inner, v, n);
}

typedef struct Rebuilt {
    int k, compared;
} Rebuilt;

static int compare_view(void *ctx, const Decision *d)
{
    Rebuilt *r = ctx;
    if (r->k >= nseen)
        fail_msg("more decisions rebuilt than the engine asked for");
    const SeenView *s = &seen[r->k++];
    assert_int_equal(s->exchange, d->exchange);
    InfoSet a = s->v, b = *d->v;
    assert_int_equal(a.nplays, b.nplays);
    assert_memory_equal(s->plays, b.plays, (size_t)b.nplays * sizeof *b.plays);
    a.plays = b.plays = NULL;
    assert_memory_equal(&a, &b, sizeof a);
    r->compared++;
    return 0;
}

static GameRecord *records;
static int nrecords;

static int keep_record(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)ctx;
    (void)sofar;
    records[nrecords++] = *rec;
    return 0;
}

static void test_views_equal_the_engines(void **state)
{
    (void)state;
    seen = malloc(MAX_VIEWS * sizeof *seen);
    records = malloc(30 * sizeof *records);
    assert_non_null(seen);
    assert_non_null(records);
    Spy spies[5];
    Player *pl[5];
    char err[128];
    for (int p = 0; p < 5; p++) {
        memset(&spies[p], 0, sizeof spies[p]);
        assert_int_equal(player_create(p % 2 ? "random" : "simple", (uint64_t)p, &spies[p].inner, err, sizeof err), 0);
        spies[p].base.kind = "spy";
        spies[p].base.play = spy_play;
        spies[p].base.exchange = spy_exchange;
        pl[p] = &spies[p].base;
    }
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 30;
    cfg.seed = 12;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    nseen = nrecords = 0;
    assert_int_equal(match_run(pl, &cfg, NULL, keep_record, NULL, rec, &res), 0);
    free(rec);
    /* the engine asks every player on every turn, forced or not; so does decisions_each */
    Rebuilt r = {0, 0};
    for (int g = 0; g < nrecords; g++)
        assert_int_equal(decisions_each(&records[g], compare_view, &r), 0);
    assert_int_equal(r.k, nseen);
    assert_true(r.compared > 1500);
    for (int p = 0; p < 5; p++)
        player_destroy(spies[p].inner);
    free(seen);
}

/* ---- a player that plays the evaluator's own choice ---- */

typedef struct Oracle {
    Player base;
    Player *ev;
    uint64_t seed;
    int worlds;
} Oracle;

static Move oracle_play(Player *self, const InfoSet *v)
{
    Oracle *o = (Oracle *)self;
    Move mv[MOVEGEN_MAX];
    double q[MOVEGEN_MAX];
    int n = movegen(v->hand, v->table, v->rev, v->lock, mv);
    if (n < 2)
        return n ? mv[0] : move_pass();
    /* the seeding errorrate uses: (seed, game index, ply + 2); one match, so index = number */
    assert_int_equal(mc_action_values(o->ev, v, mv, n, o->worlds, rng_derive(o->seed, (uint64_t)v->game,
                                                                               (uint64_t)v->nplays + 2),
                                      q),
                     0);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (q[i] > q[best])
            best = i;
    return mv[best];
}

static Cards oracle_exchange(Player *self, const InfoSet *v, int n)
{
    Oracle *o = (Oracle *)self;
    Cards gifts[128];
    double q[128];
    int k = policy_gifts(v->hand, n, gifts);
    assert_int_equal(mc_gift_values(o->ev, v, gifts, k, o->worlds, rng_derive(o->seed, (uint64_t)v->game,
                                                                                v->cls[v->me] == 0),
                                    q),
                     0);
    int best = 0;
    for (int i = 1; i < k; i++)
        if (q[i] > q[best])
            best = i;
    return gifts[best];
}

static void test_evaluators_own_choices_score_zero(void **state)
{
    (void)state;
    char err[256];
    Oracle o;
    memset(&o, 0, sizeof o);
    o.base.kind = "oracle";
    o.base.play = oracle_play;
    o.base.exchange = oracle_exchange;
    o.seed = 77;
    o.worlds = 24;
    assert_int_equal(player_create("mc:sims=100", 0, &o.ev, err, sizeof err), 0);
    Player *pl[5] = {&o.base};
    for (int p = 1; p < 5; p++)
        assert_int_equal(player_create(p % 2 ? "random" : "simple", (uint64_t)p, &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 8;
    cfg.seed = 3;
    GameRecord *rec = malloc(sizeof *rec);
    MatchResult res;
    nrecords = 0;
    assert_int_equal(match_run(pl, &cfg, NULL, keep_record, NULL, rec, &res), 0);
    free(rec);
    Player *ev;
    assert_int_equal(player_create("mc:sims=100", 0, &ev, err, sizeof err), 0);
    long judged_oracle = 0, judged_random = 0;
    double loss_random = 0;
    for (int g = 0; g < nrecords; g++) {
        double loss[5];
        long judged[5], skipped[5];
        assert_int_equal(errorrate_game(ev, &records[g], g, 77, 24, loss, judged, skipped), 0);
        if (loss[0] != 0)
            fail_msg("game %d: the evaluator's own choices lost %.6f", g, loss[0]);
        judged_oracle += judged[0];
        judged_random += judged[1] + judged[3];
        loss_random += loss[1] + loss[3];
    }
    assert_true(judged_oracle > 40);
    assert_true(judged_random > 20);
    assert_true(loss_random > 0); /* the others do lose something on the same worlds */
    player_destroy(ev);
    player_destroy(o.ev);
    for (int p = 1; p < 5; p++)
        player_destroy(pl[p]);
}

/* ---- hidden cards never reach a Q ---- */

typedef struct Pick {
    int ply;
    InfoSet v;
    PlayRec plays[GAME_MAX_PLAYS];
} Pick;

static int pick_view(void *ctx, const Decision *d)
{
    Pick *p = ctx;
    if (d->ply != p->ply)
        return 0;
    p->v = *d->v;
    memcpy(p->plays, d->v->plays, (size_t)d->v->nplays * sizeof *p->plays);
    p->v.plays = p->plays;
    return 1;
}

/* Every world sampler but the oracle (players/estimate.h) reads the information set only: the
 * evaluator's values, which come from its sampled worlds, are the same. */
static void hidden_cards_change_nothing(const char *spec)
{
    Player *ev;
    char err[128];
    assert_int_equal(player_create(spec, 0, &ev, err, sizeof err), 0);
    Rng r = rng_seed(9);
    int checked = 0;
    for (int t = 0; t < 400 && checked < 40; t++) {
        const GameRecord *a = &records[t % nrecords];
        int ply = 1 + (int)rng_below(&r, (uint32_t)(a->nplays - 1));
        static Pick pa, pb;
        memset(&pa, 0, sizeof pa);
        pa.ply = ply;
        if (decisions_each(a, pick_view, &pa) != 1)
            continue;
        /* the same game with two opponents' unplayed cards swapped (as dealt and held) */
        GameRecord *b = malloc(sizeof *b);
        *b = *a;
        Cards played = pa.v.played;
        int me = pa.v.me, o1 = (me + 1 + (int)rng_below(&r, 4)) % 5, o2 = (o1 + 1) % 5;
        if (o2 == me)
            o2 = (o2 + 1) % 5;
        Cards c1 = b->original[o1] & ~played & ~b->changed[o1] & CARDS_NATURAL,
              c2 = b->original[o2] & ~played & ~b->changed[o2] & CARDS_NATURAL;
        if (!c1 || !c2 || (b->cls[0] >= 0 && (b->cls[o1] >= 3 || b->cls[o2] >= 3))) {
            free(b);
            continue;
        }
        Cards x = c1 & (0 - c1), y = c2 & (0 - c2);
        for (int k = 0; k < 2; k++) {
            Cards *h = k ? b->dealt : b->original;
            h[o1] = (h[o1] & ~x) | y;
            h[o2] = (h[o2] & ~y) | x;
        }
        b->first = game_first_player(b->original);
        memset(&pb, 0, sizeof pb);
        pb.ply = ply;
        if (b->first != a->first || decisions_each(b, pick_view, &pb) != 1) {
            free(b);
            continue;
        }
        InfoSet va = pa.v, vb = pb.v;
        va.plays = vb.plays = NULL;
        assert_memory_equal(&va, &vb, sizeof va);
        Move mv[MOVEGEN_MAX];
        int n = movegen(pa.v.hand, pa.v.table, pa.v.rev, pa.v.lock, mv);
        double qa[MOVEGEN_MAX], qb[MOVEGEN_MAX];
        assert_int_equal(mc_action_values(ev, &pa.v, mv, n, 16, 5, qa), 0);
        assert_int_equal(mc_action_values(ev, &pb.v, mv, n, 16, 5, qb), 0);
        if (memcmp(qa, qb, (size_t)n * sizeof *qa))
            fail_msg("%s: the values changed with hidden cards", spec);
        free(b);
        checked++;
    }
    assert_true(checked >= 20);
    player_destroy(ev);
}

static void test_hidden_cards_change_nothing(void **state)
{
    (void)state;
    hidden_cards_change_nothing("mc:sims=100:pendgame=0:endgame=0");
    hidden_cards_change_nothing("mc:sims=100");
    hidden_cards_change_nothing("mc:sims=100:est=weights");
    hidden_cards_change_nothing("mc:sims=100:est=weights:order=suit-a");
    hidden_cards_change_nothing("mc:sims=100:est=policy:est-k=8:est-mcmc=2");
    hidden_cards_change_nothing("mc:sims=100:est=policy:est-k=16:est-beta=0.1:est-point=1");
    hidden_cards_change_nothing("mc:sims=100:est=net");
    hidden_cards_change_nothing("mc:sims=100:est=net:est-point=1");
}

/* ---- the command ---- */

static void test_cli(void **state)
{
    (void)state;
    char dir[64], out[1 << 15], a[1 << 15];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players random,simple,random,simple,simple --games 12 --seed 4 "
                                              "--record %s/m.kifu --quiet >/dev/null",
                             dhm_bin(), dir),
                     0);
    assert_int_equal(run_cmd(a, sizeof a, "%s errorrate %s/m.kifu --worlds 30 --json --quiet --jobs 1", dhm_bin(), dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate %s/m.kifu --worlds 30 --json --quiet --jobs 2", dhm_bin(), dir),
                     0);
    assert_string_equal(a, out); /* deterministic, whatever --jobs */
    const char *rp = strstr(a, "{\"player\": \"random\""), *sp = strstr(a, "{\"player\": \"simple\"");
    assert_non_null(rp);
    assert_non_null(sp);
    double er = atof(strstr(rp, "\"error_rate\": ") + 14), es = atof(strstr(sp, "\"error_rate\": ") + 14);
    double rhi = atof(strstr(rp, "\"ci\": [") + 7), shi = atof(strchr(strstr(sp, "\"ci\": [") + 7, ',') + 1);
    if (!(er > 1.5 * es && rhi > shi))
        fail_msg("random %.4f vs simple %.4f", er, es);
    /* every decision with one choice is counted as skipped: the same count the engine sees */
    long skipped = atol(strstr(a, "\"skipped\": ") + 11), judged = atol(strstr(a, "\"judged\": ") + 10);
    assert_true(skipped > 100 && judged > 100);
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate %s/m.kifu --worlds 10 --marks 3 --players random --quiet",
                             dhm_bin(), dir),
                     0);
    assert_non_null(strstr(out, "the 3 costliest decisions"));
    assert_null(strstr(out, "\nsimple "));
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate %s/m.kifu --worlds 10 --csv --quiet", dhm_bin(), dir), 0);
    assert_int_equal(strncmp(out, "player,games,judged,skipped,error_rate,ci_low,ci_high", 52), 0);
    /* bad input */
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate 2>&1", dhm_bin()), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate %s/m.kifu --evaluator simple 2>&1", dhm_bin(), dir), 2);
    assert_non_null(strstr(out, "not an mc or search player"));
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate %s/missing.kifu 2>&1", dhm_bin(), dir), 1);
    assert_non_null(strstr(out, "cannot open"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_equal_the_engines),
        cmocka_unit_test(test_evaluators_own_choices_score_zero),
        cmocka_unit_test(test_hidden_cards_change_nothing),
        cmocka_unit_test(test_cli),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(records);
    return rc;
}
