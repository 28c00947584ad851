/* diverge.c — where two players' games on the same deals part (diverge.h). */
#include "analysis/diverge.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const DIV_KIND_NAME[DIV_NKINDS] = {"never", "gift-me", "gift-other", "play-me", "play-other"};
const char *const DIV_LEFT_NAME[DIV_NLEFT] = {"11+", "7-10", "4-6", "1-3"};

int div_left_bin(int cards_left) { return cards_left >= 11 ? 0 : cards_left >= 7 ? 1 : cards_left >= 4 ? 2 : 3; }

int diverge_game(const GameRecord *a, const GameRecord *b, int me, DivGame *out, char *err, size_t errsz)
{
    if (memcmp(a->dealt, b->dealt, sizeof a->dealt) || memcmp(a->seat, b->seat, sizeof a->seat) ||
        memcmp(a->cls, b->cls, sizeof a->cls)) {
        snprintf(err, errsz, "the dealt hands, seats or starting classes differ: not one deal");
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->cls = a->cls[me] >= 0 && a->cls[me] < NPLAYERS ? a->cls[me] : -1;
    out->a = game_points(a->result[me]);
    out->b = game_points(b->result[me]);
    out->ply = -1;
    out->by = -1;
    if (memcmp(a->changed, b->changed, sizeof a->changed)) {
        out->cards_left = cards_count(a->dealt[me]);
        if (a->changed[me] != b->changed[me]) {
            out->kind = DIV_GIFT_ME;
            out->by = me;
        } else {
            out->kind = DIV_GIFT_OTHER;
            for (int p = 0; p < NPLAYERS && out->by < 0; p++)
                if (a->changed[p] != b->changed[p])
                    out->by = p;
        }
        return 0;
    }
    Cards hand = a->original[me];
    const int n = a->nplays < b->nplays ? a->nplays : b->nplays;
    for (int i = 0; i < n; i++) {
        const PlayRec *x = &a->plays[i], *y = &b->plays[i];
        if (!move_eq(x->move, y->move) || x->player != y->player) {
            out->kind = x->player == me ? DIV_PLAY_ME : DIV_PLAY_OTHER;
            out->ply = i;
            out->by = x->player;
            out->cards_left = cards_count(hand);
            return 0;
        }
        if (x->player == me)
            hand &= ~move_cards(x->move);
    }
    if (a->nplays != b->nplays) { /* one game goes on where the other stopped (a stalemate) */
        const PlayRec *x = a->nplays > n ? &a->plays[n] : &b->plays[n];
        out->kind = x->player == me ? DIV_PLAY_ME : DIV_PLAY_OTHER;
        out->ply = n;
        out->by = x->player;
        out->cards_left = cards_count(hand);
        return 0;
    }
    out->kind = DIV_NEVER;
    out->cards_left = -1;
    return 0;
}

static void sum_add(DivSum *s, const DivGame *g)
{
    const double d = g->b - g->a;
    s->n++;
    s->a += g->a;
    s->b += g->b;
    s->d += d;
    s->d2 += d * d;
}

void diverge_add(DivTotals *t, const DivGame *g)
{
    const double d = g->b - g->a;
    t->games++;
    sum_add(&t->all, g);
    sum_add(&t->kind[g->kind], g);
    sum_add(&t->cls[g->cls < 0 ? NPLAYERS : g->cls], g);
    if (g->kind == DIV_PLAY_ME)
        sum_add(&t->left[div_left_bin(g->cards_left)], g);
    t->part_d[g->kind] += d;
    t->part_d2[g->kind] += d * d;
}

double div_mean(const DivSum *s) { return s->n ? s->d / (double)s->n : 0; }

/* The standard error of the mean of values whose sum is d and sum of squares d2 over n. */
static double se_of(double d, double d2, long n)
{
    if (n < 2)
        return 0;
    const double m = d / (double)n, var = (d2 - (double)n * m * m) / (double)(n - 1);
    return var > 0 ? sqrt(var / (double)n) : 0;
}

double div_se(const DivSum *s) { return se_of(s->d, s->d2, s->n); }

void diverge_part(const DivTotals *t, int k, double *part, double *se)
{
    *part = t->games ? t->part_d[k] / (double)t->games : 0;
    *se = se_of(t->part_d[k], t->part_d2[k], t->games);
}
