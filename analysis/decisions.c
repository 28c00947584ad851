/* decisions.c — decisions of a record with their information sets (see decisions.h). The
 * views follow game/game.c step by step: the start view (dealt counts; the rich see their
 * enriched hand, the poor what was taken), the gifts, then after the exchange the first
 * player, the counts after it, and what the poor received. */
#include "analysis/decisions.h"

#include <string.h>

int decisions_each(const GameRecord *rec, DecisionFn fn, void *ctx)
{
    const int classes = rec->cls[0] >= 0;
    InfoSet view[NPLAYERS];
    GameState g;
    memset(view, 0, sizeof view);
    state_init(&g, rec->dealt, rec->seat, 0);
    for (int p = 0; p < NPLAYERS; p++) {
        InfoSet *v = &view[p];
        infoset_public(v, &g);
        v->me = p;
        v->game = rec->number;
        memcpy(v->cls, rec->cls, sizeof v->cls);
        v->given = classes && rec->cls[p] >= 3 ? rec->changed[p] : 0;
        v->start_hand = v->hand = classes && rec->cls[p] <= 1 ? rec->original[p] | rec->changed[p] : rec->dealt[p];
        v->first = -1;
        memcpy(v->start_ncards, v->ncards, sizeof v->ncards);
        v->plays = rec->plays;
        v->nplays = 0;
    }
    int rc;
    if (classes)
        for (int c = 0; c < 2; c++) { /* the daifugo chooses first, then the fugo */
            int rich = 0;
            while (rec->cls[rich] != c)
                rich++;
            Decision d = {&view[rich], 1, 2 - c, move_pass(), rec->changed[rich], -1, NULL};
            if ((rc = fn(ctx, &d)) != 0)
                return rc;
            view[rich].given = rec->changed[rich];
        }
    state_init(&g, rec->original, rec->seat, rec->first);
    for (int p = 0; p < NPLAYERS; p++) {
        InfoSet *v = &view[p];
        if (classes && rec->cls[p] >= 3)
            v->received = rec->original[p] & ~rec->dealt[p];
        v->first = rec->first;
        for (int q = 0; q < NPLAYERS; q++)
            v->start_ncards[q] = (uint8_t)cards_count(rec->original[q]);
    }
    Rng none = rng_seed(0);
    for (int i = 0; i < rec->nplays && !g.over; i++) {
        const int p = g.turn;
        InfoSet *v = &view[p];
        infoset_public(v, &g);
        v->hand = g.hand[p];
        v->nplays = i;
        Decision d = {v, 0, 0, rec->plays[i].move, 0, i, &g};
        if ((rc = fn(ctx, &d)) != 0)
            return rc;
        if (state_apply(&g, rec->plays[i].move) & EV_STALEMATE)
            state_finish_stalemate(&g, &none);
    }
    return 0;
}
