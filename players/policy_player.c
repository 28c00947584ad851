/* policy_player.c — the `policy` player: the learned policy, no sampling of hidden hands. Plays
 * the move the policy ranks first (temp=0, the default) or draws from its softmax at temp=T;
 * gives the gift the gift model ranks first (or draws). Two exact shortcuts come first
 * (both read only what the player sees): surewin=1 (default) plays a chain of melds nobody can
 * break when there is one (endgame_sure_win), and endgame=N solves the two-player ending
 * exactly within N nodes, where the last opponent's hand is every unseen card (default 100
 * with the rich model, 0 = off with model=fast, as before: +0.012 ± 0.002 a game against
 * KleinBlauw, about 1% of a VecEnv's steps; docs/strength.md). Options: model=rich|fast (the
 * rich policy, players/rich.h, the default; or the fast policy of the playouts,
 * players/policy.h), weights=FILE (default: the model's built-in weights, for the rich model
 * players/rich_rl.weights, the imitation improved by REINFORCE; a weights file says which
 * model it is for), temp=T, surewin=0|1, endgame=N, pass=B (the rich
 * model's pass scores B lower: B > 0 passes less; docs/strength.md measured it), gift=model|exch
 * (the gift in the exchange: the gift model, players/gift.h, the default with the rich model; or
 * the exchange weights of the policy's own weights file, the only choice before it and the
 * default with model=fast), gift-weights=FILE (the gift model's weights; default: built in),
 * devkit=auto|0|1 (the rich model: once every opponent is found to play the organisers' sample
 * client, players/devkit.h, it plays and gives by weights learnt against four of them; 1: from
 * the first game; default auto with the built-in weights, else 0), devkit-weights=FILE (those weights; default:
 * players/rich_dk.weights, built in). Reads only its InfoSet and the games it has seen; its RNG
 * stream comes from its seed. */
#include <stdlib.h>
#include <string.h>

#include "players/devkit.h"
#include "players/endgame.h"
#include "players/gift.h"
#include "players/players.h"
#include "players/policy.h"
#include "players/rich.h"

/* The rich policy's default endgame budget (100 nodes: +0.012 ± 0.002 a game against KleinBlauw;
 * 100,000: +0.015 to +0.017, at 7% of a VecEnv's steps), and the table of larger budgets: 2^12 entries,
 * 64 KB a player, so that thousands of them fit in a VecEnv; budgets up to 10,000 nodes solve
 * as well without one */
#define POLICY_ENDGAME 100
#define POLICY_TT_BITS 12
#define POLICY_TT_FROM 10000
/* devkit=auto checks each opponent's first 300 decisions (about 30 games) against the sample
 * client's, and stops as soon as one opponent has missed more than 3 of them */
#define POLICY_DEVKIT_CHECKS 300

typedef struct PolicyPlayer {
    PolicyWeights w;
    const RichWeights *rich; /* the rich model (else the fast one in w) */
    RichWeights *rich_own;   /* from weights=FILE */
    const GiftWeights *gift; /* gift=model: the gift model (else the exchange weights of w or rich) */
    GiftWeights *gift_own;   /* from gift-weights=FILE */
    double temp, pass; /* pass: subtracted from the pass's score (rich model) */
    long surewin, endgame;
    EndgameTT tt; /* only with endgame > POLICY_TT_FROM */
    Rng rng;
    Move moves[MOVEGEN_MAX];
    long devkit;               /* devkit=0|1|auto (2): the weights against a table of sample clients */
    const RichWeights *dk;     /* those weights */
    RichWeights *dk_own;       /* from devkit-weights=FILE */
    DevkitFinder dkf;          /* auto: whether every opponent plays the sample client */
    int dk_on;                 /* this game: play by dk */
    long games, dk_games;      /* games played, and by dk */
} PolicyPlayer;

static Move pp_play(Player *self, const InfoSet *v)
{
    PolicyPlayer *p = self->impl;
    int n = movegen(v->hand, v->table, v->rev, v->lock, p->moves);
    if (n <= 1)
        return n ? p->moves[0] : move_pass();
    Move m;
    if (p->surewin && endgame_sure_win_view(v, &m))
        return m;
    if (p->endgame > 0 && endgame_solve_view(v, p->endgame, &p->tt, &m) == 1)
        return m; /* one opponent left, and a win against every hand it can hold */
    if (p->rich) {
        RichCtx c;
        double s[MOVEGEN_MAX + 3];
        rich_ctx_info(&c, v);
        rich_scores(p->dk_on ? p->dk : p->rich, &c, p->moves, n, s);
        if (p->pass != 0)
            for (int i = 0; i < n; i++)
                s[i] -= p->moves[i].type == MOVE_PASS ? p->pass : 0;
        return p->moves[policy_pick_scores(s, n, p->temp, &p->rng)];
    }
    PolicyCtx c;
    policy_ctx_info(&c, v);
    return p->moves[policy_pick(&p->w, &c, p->moves, n, p->temp, &p->rng)];
}

static Cards pp_exchange(Player *self, const InfoSet *v, int n)
{
    PolicyPlayer *p = self->impl;
    if (p->dk_on) /* against the sample clients: the exchange weights learnt with dk's play */
        return policy_pick_gift_w(p->dk->exch, v->hand, n, p->temp, &p->rng);
    if (p->gift)
        return gift_pick(p->gift, v->hand, n, p->temp, &p->rng);
    return policy_pick_gift_w(p->rich ? p->rich->exch : p->w.exch, v->hand, n, p->temp, &p->rng);
}

static void pp_game_start(Player *self, const InfoSet *v)
{
    PolicyPlayer *p = self->impl;
    devkit_finder_game_start(&p->dkf);
    p->dk_on = p->devkit == 1 || (p->devkit == 2 && p->dkf.mask == (31u & ~(1u << v->me)));
    p->games++;
    p->dk_games += p->dk_on;
}

/* With devkit=1|auto: the games played by the weights against the sample clients, and (auto)
 * the opponents found to play it, with each one's checks. */
static void pp_report(Player *self, FILE *out)
{
    PolicyPlayer *p = self->impl;
    fprintf(out, "{\"games\": %ld, \"devkit_games\": %ld", p->games, p->dk_games);
    if (p->devkit == 2)
        devkit_finder_json(out, "devkit", p->dkf.mask, &p->dkf);
    fprintf(out, "}");
}

static void pp_observe(Player *self, const InfoSet *v, int who, Move m)
{
    PolicyPlayer *p = self->impl;
    (void)who;
    devkit_finder_observe(&p->dkf, v, m);
}

static void pp_game_end(Player *self, const InfoSet *v, const int cls[NPLAYERS])
{
    PolicyPlayer *p = self->impl;
    (void)cls;
    devkit_finder_game_end(&p->dkf, v);
}

static void pp_free(PolicyPlayer *p)
{
    endgame_tt_free(&p->tt);
    free(p->rich_own);
    free(p->gift_own);
    free(p->dk_own);
    free(p);
}

static void pp_destroy(Player *self) { pp_free(self->impl); }

/* devkit= and devkit-weights=: the rich model's weights against four sample clients. */
static int devkit_option(PlayerSpec *s, PolicyPlayer *pp, char *err, size_t errsz)
{
    /* auto by default with the built-in rich weights; weights=FILE plays those weights everywhere */
    const char *d = spec_get_str(s, "devkit", pp->rich && !spec_get_str(s, "weights", NULL) ? "auto" : "0");
    const char *path = spec_get_str(s, "devkit-weights", NULL);
    if (strcmp(d, "0") && strcmp(d, "1") && strcmp(d, "auto")) {
        snprintf(err, errsz, "policy: devkit=%s: valid are 0, 1, auto", d);
        return -1;
    }
    pp->devkit = !strcmp(d, "auto") ? 2 : atoi(d);
    if (pp->devkit && !pp->rich) {
        snprintf(err, errsz, "policy: devkit=%s needs the rich model", d);
        return -1;
    }
    if (!pp->devkit) {
        if (path) {
            snprintf(err, errsz, "policy: devkit-weights=%s needs devkit=1 or auto", path);
            return -1;
        }
        return 0;
    }
    devkit_finder_init(&pp->dkf, POLICY_DEVKIT_CHECKS, 1);
    return rich_weights_option_rl(path, RICH_DK, "policy: devkit-weights", &pp->dk, &pp->dk_own, err, errsz);
}

/* gift= and gift-weights=: the gift model into pp->gift, or none (the exchange weights). */
static int gift_option(PlayerSpec *s, PolicyPlayer *pp, char *err, size_t errsz)
{
    const char *g = spec_get_str(s, "gift", pp->rich ? "model" : "exch"), *path = spec_get_str(s, "gift-weights", NULL);
    if (strcmp(g, "model") && strcmp(g, "exch")) {
        snprintf(err, errsz, "policy: gift=%s: valid are model, exch", g);
        return -1;
    }
    if (!strcmp(g, "exch")) {
        if (path) {
            snprintf(err, errsz, "policy: gift-weights=%s needs gift=model", path);
            return -1;
        }
        return 0;
    }
    return gift_weights_option(path, "policy: gift-weights", &pp->gift, &pp->gift_own, err, errsz);
}

/* model= and weights=: the rich weights into pp->rich, or the fast ones into pp->w. */
static int weights_option(PlayerSpec *s, PolicyPlayer *pp, char *err, size_t errsz)
{
    const char *model = spec_get_str(s, "model", NULL), *path = spec_get_str(s, "weights", NULL);
    if (model && strcmp(model, "fast") && strcmp(model, "rich")) {
        snprintf(err, errsz, "policy: model=%s: valid are fast, rich", model);
        return -1;
    }
    char e[400];
    int rich = model ? !strcmp(model, "rich") : 1; /* the rich model unless the file or model= says fast */
    if (path && !model && (rich = rich_file_kind(path, e, sizeof e)) < 0) { /* the file says which model */
        snprintf(err, errsz, "policy: weights=%s: %s", path, e);
        return -1;
    }
    if (!rich)
        return policy_weights_option(s, &pp->w, err, errsz);
    return rich_weights_option_rl(path, RICH_RL, "policy: weights", &pp->rich, &pp->rich_own, err, errsz);
}

int policy_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    PolicyPlayer *pp = calloc(1, sizeof *pp);
    if (!pp) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (weights_option(s, pp, err, errsz) || spec_get_double(s, "temp", 0, 100, 0, &pp->temp, err, errsz) ||
        spec_get_int(s, "surewin", 0, 1, 1, &pp->surewin, err, errsz) ||
        spec_get_int(s, "endgame", 0, 100000000, pp->rich ? POLICY_ENDGAME : 0, &pp->endgame, err, errsz) ||
        spec_get_double(s, "pass", -100, 100, 0, &pp->pass, err, errsz) || gift_option(s, pp, err, errsz) ||
        devkit_option(s, pp, err, errsz) ||
        spec_check_unused(s, "model, weights, temp, surewin, endgame, pass, gift, gift-weights, devkit, devkit-weights",
                          err, errsz)) {
        pp_free(pp);
        return -1;
    }
    if (pp->endgame > POLICY_TT_FROM && endgame_tt_init(&pp->tt, POLICY_TT_BITS)) {
        snprintf(err, errsz, "out of memory");
        pp_free(pp);
        return -1;
    }
    pp->rng = rng_seed(seed);
    p->impl = pp;
    p->play = pp_play;
    p->exchange = pp_exchange;
    p->destroy = pp_destroy;
    if (pp->devkit) {
        p->game_start = pp_game_start;
        p->game_end = pp_game_end;
        p->report_json = pp_report;
    }
    if (pp->devkit == 2)
        p->observe = pp_observe;
    return 0;
}
