/* match.c — N games with seat changes, class resets and cumulative points. */
#include "game/match.h"

#include <string.h>

void match_config_default(MatchConfig *cfg)
{
    cfg->games = 100;
    cfg->seat_change = 3;
    cfg->class_reset = 100;
    cfg->independent = 0;
    cfg->class0 = 0;
    cfg->seed = 1;
    cfg->timed = 0;
    cfg->deals = NULL;
    cfg->ndeals = cfg->deal_offset = 0;
}

/* A uniform permutation of 0..4 into a[] (Fisher-Yates). */
static void shuffle5(uint8_t a[NPLAYERS], Rng *rng)
{
    for (int i = 0; i < NPLAYERS; i++)
        a[i] = (uint8_t)i;
    for (int i = NPLAYERS - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)(i + 1));
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void match_setup_game(const MatchConfig *cfg, int index, const GameSetup *prev, const GameRecord *prev_rec,
                      Rng *rng, GameSetup *out)
{
    const int n = index + 1; /* the server's 1-based game number */
    out->number = index;
    out->timed = cfg->timed;
    out->deal = cfg->deals && cfg->ndeals > 0 ? cfg->deals[(cfg->deal_offset + index) % cfg->ndeals] : NULL;
    if (cfg->independent) {
        uint8_t cls[NPLAYERS];
        shuffle5(out->seat, rng);
        shuffle5(cls, rng);
        for (int p = 1; cfg->class0 >= 1 && cfg->class0 <= NPLAYERS && p < NPLAYERS; p++)
            if (cls[p] == cfg->class0 - 1) { /* player 0's class fixed: swap it in */
                cls[p] = cls[0];
                cls[0] = (uint8_t)(cfg->class0 - 1);
            }
        for (int p = 0; p < NPLAYERS; p++) {
            out->cls[p] = cfg->class_reset == 1 ? -1 : (int8_t)cls[p]; /* R = 1: every game a first game */
            if (cls[p] == 0)
                out->dealer = p;
        }
        return;
    }
    if (prev)
        memcpy(out->seat, prev->seat, sizeof out->seat);
    else
        for (int s = 0; s < NPLAYERS; s++)
            out->seat[s] = (uint8_t)s;
    if (cfg->seat_change > 1 && n % cfg->seat_change == 1) { /* K = 1: 1 mod 1 = 0, never */
        for (int i = NPLAYERS - 1; i > 0; i--) {
            int j = (int)rng_below(rng, (uint32_t)(i + 1));
            uint8_t t = out->seat[i];
            out->seat[i] = out->seat[j];
            out->seat[j] = t;
        }
    }
    const int reset = !prev || !prev_rec || (cfg->class_reset > 0 && (n - 1) % cfg->class_reset == 0);
    if (reset) {
        for (int p = 0; p < NPLAYERS; p++)
            out->cls[p] = -1;
        out->dealer = (int)rng_below(rng, NPLAYERS);
    } else {
        for (int p = 0; p < NPLAYERS; p++) {
            out->cls[p] = (int8_t)prev_rec->result[p];
            if (prev_rec->result[p] == 0)
                out->dealer = p;
        }
    }
}

int match_run(Player *const pl[NPLAYERS], const MatchConfig *cfg, const GameHooks *hooks, MatchGameFn on_game,
              void *ctx, GameRecord *rec, MatchResult *res)
{
    memset(res, 0, sizeof *res);
    GameSetup su, prev;
    for (int i = 0; i < cfg->games; i++) {
        Rng rng = match_game_rng(cfg->seed, i);
        match_setup_game(cfg, i, i ? &prev : NULL, i ? rec : NULL, &rng, &su);
        int rc = game_play(pl, &su, &rng, hooks, rec);
        if (rc)
            return rc;
        res->games++;
        res->stalemates += rec->stalemate;
        for (int p = 0; p < NPLAYERS; p++) {
            res->points[p] += game_points(rec->result[p]);
            res->class_count[p][rec->result[p]]++;
            res->illegal[p] += rec->illegal[p];
            res->bad_exchange[p] += rec->bad_exchange[p];
        }
        if (on_game && (rc = on_game(ctx, rec, res)) != 0)
            return rc;
        prev = su;
    }
    return 0;
}
