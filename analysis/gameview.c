/* gameview.c — laying out a recorded game (see gameview.h). */
#include "analysis/gameview.h"

#include <stdio.h>
#include <string.h>

const char *gameview_class_name(int cls)
{
    static const char *const NAMES[NPLAYERS] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};
    return cls >= 0 && cls < NPLAYERS ? NAMES[cls] : "?";
}

static int player_of_class(const int8_t cls[NPLAYERS], int c)
{
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] == c)
            return p;
    return -1;
}

static void gifts_of(const GameRecord *rec, GameView *v)
{
    v->ngifts = 0;
    v->exchange = rec->cls[0] >= 0;
    if (!v->exchange)
        return;
    static const int FROM[4] = {4, 3, 0, 1}, TO[4] = {0, 1, 4, 3};
    for (int k = 0; k < 4; k++) {
        int from = player_of_class(rec->cls, FROM[k]), to = player_of_class(rec->cls, TO[k]);
        if (from < 0 || to < 0)
            continue;
        ViewGift *g = &v->gifts[v->ngifts++];
        g->from = from;
        g->to = to;
        g->cards = rec->changed[from];
        g->chosen = k >= 2;
    }
}

int gameview_build(const GameRecord *rec, GameView *v, char *err, size_t errsz)
{
    v->rec = rec;
    gifts_of(rec, v);
    v->nplays = v->ntricks = 0;
    GameState g;
    state_init(&g, rec->original, rec->seat, rec->first);
    int place = 0;
    for (int i = 0; i < rec->nplays; i++) {
        const Move m = rec->plays[i].move;
        char mt[MOVE_MAX_TEXT];
        if (g.over || !state_is_legal(&g, m)) {
            move_format(m, mt, sizeof mt);
            snprintf(err, errsz, "game %d: play %d (%s) by player %d %s", rec->number, i, mt, g.turn,
                     g.over ? "comes after the end of the game" : "is not legal");
            return -1;
        }
        ViewPlay *p = &v->plays[v->nplays++];
        const int lead = move_is_pass(g.table);
        if (v->ntricks == 0 || (v->plays[v->nplays - 2].ev & EV_CLEAR)) {
            ViewTrick *t = &v->tricks[v->ntricks++];
            t->first = i;
            t->n = 0;
            t->leader = g.turn;
            t->cleared = 0;
        }
        ViewTrick *t = &v->tricks[v->ntricks - 1];
        p->ply = i;
        p->trick = v->ntricks - 1;
        p->player = g.turn;
        p->lead = (uint8_t)lead;
        p->rev = g.rev;
        p->lock = g.lock;
        p->move = m;
        p->table = g.table;
        p->ev = state_apply(&g, m);
        p->eight = (p->ev & EV_CLEAR) && move_is_eight(m);
        p->place = (int8_t)((p->ev & EV_FINISH) ? place++ : -1);
        p->left = (uint8_t)cards_count(g.hand[p->player]);
        t->n++;
        t->cleared = (p->ev & EV_CLEAR) != 0;
        if (p->ev & EV_STALEMATE)
            break;
    }
    if (!g.over && !(v->nplays && (v->plays[v->nplays - 1].ev & EV_STALEMATE))) {
        snprintf(err, errsz, "game %d: the plays end before the game is over", rec->number);
        return -1;
    }
    if (v->nplays != rec->nplays) {
        snprintf(err, errsz, "game %d: plays continue after the 20-pass stalemate", rec->number);
        return -1;
    }
    int seen = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        const int c = rec->result[p];
        if (c < 0 || c >= NPLAYERS || (seen >> c & 1)) {
            snprintf(err, errsz, "game %d: the classes reached are not a permutation of 0..4", rec->number);
            return -1;
        }
        seen |= 1 << c;
        v->order[c] = p;
        v->points[p] = game_points(c);
    }
    return 0;
}
