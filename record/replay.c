/* replay.c — replaying a kifu game through the engine and reporting the first disagreement. */
#include "record/replay.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

static int bad(char *err, size_t errsz, const char *path, int line, const KifuGame *kg, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errsz, "%s:%d: game %d: %s", path, line, kg->number, msg);
    return -1;
}

static int check_deal(const KifuGame *kg, const uint8_t seat[NPLAYERS], int exchange, const char *path, char *err,
                      size_t errsz)
{
    Cards all = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        if (all & kg->dealt[p])
            return bad(err, errsz, path, kg->line, kg, "a card is dealt to two players");
        all |= kg->dealt[p];
    }
    if (all != CARDS_ALL)
        return bad(err, errsz, path, kg->line, kg, "the dealt hands do not hold all 53 cards");
    int dealer_seat = -1;
    for (int ds = 0; ds < NPLAYERS; ds++) {
        int ok = 1;
        for (int k = 0; k < NPLAYERS; k++)
            ok &= cards_count(kg->dealt[seat[(ds + k) % NPLAYERS]]) == (k < 3 ? 11 : 10);
        if (ok)
            dealer_seat = ds;
    }
    if (dealer_seat < 0)
        return bad(err, errsz, path, kg->line, kg, "dealt counts are not 11/11/11/10/10 around the seats");
    if (exchange && kg->cls[seat[dealer_seat]] != 0)
        return bad(err, errsz, path, kg->line, kg, "the deal did not start at the daifugo's seat");
    return 0;
}

static int check_exchange(const KifuGame *kg, int exchange, const char *path, char *err, size_t errsz)
{
    Cards expect[NPLAYERS];
    memcpy(expect, kg->dealt, sizeof expect);
    if (exchange) {
        int who[NPLAYERS], mask = 0;
        for (int p = 0; p < NPLAYERS; p++) {
            who[kg->cls[p]] = p;
            mask |= 1 << kg->cls[p];
        }
        if (mask != 31)
            return bad(err, errsz, path, kg->line, kg, "the classes are not a permutation of 0..4");
        for (int k = 0; k < 2; k++) {
            int poor = who[4 - k], rich = who[k], n = 2 - k;
            if (kg->changed[poor] != cards_strongest(kg->dealt[poor], n))
                return bad(err, errsz, path, kg->line, kg, "player %d (class %d) did not give its %d strongest card%s",
                           poor, 4 - k, n, n > 1 ? "s" : "");
            expect[poor] &= ~kg->changed[poor];
            expect[rich] |= kg->changed[poor];
        }
        for (int k = 0; k < 2; k++) {
            int poor = who[4 - k], rich = who[k], n = 2 - k;
            if (cards_count(kg->changed[rich]) != n || (kg->changed[rich] & ~expect[rich]))
                return bad(err, errsz, path, kg->line, kg, "player %d (class %d) did not give %d card%s it held", rich, k,
                           n, n > 1 ? "s" : "");
            expect[rich] &= ~kg->changed[rich];
            expect[poor] |= kg->changed[rich];
        }
        if (kg->changed[who[2]])
            return bad(err, errsz, path, kg->line, kg, "the heimin gave cards");
    }
    for (int p = 0; p < NPLAYERS; p++)
        if (expect[p] != kg->original[p])
            return bad(err, errsz, path, kg->line, kg, "player %d's hand after the exchange does not add up", p);
    return 0;
}

int replay_game(const KifuGame *kg, const char *path, ReplayPositionFn on_position, void *ctx, char *err,
                size_t errsz)
{
    uint8_t seat[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        seat[kg->seat_of[p]] = (uint8_t)p;
    int exchange = 0;
    for (int p = 0; p < NPLAYERS; p++)
        exchange |= kg->changed[p] != 0;
    if (check_deal(kg, seat, exchange, path, err, errsz) || check_exchange(kg, exchange, path, err, errsz))
        return -1;

    GameState g;
    state_init(&g, kg->original, seat, game_first_player(kg->original));
    for (int i = 0; i < kg->nplays; i++) {
        char mt[MOVE_MAX_TEXT];
        if (g.over) {
            move_format(kg->plays[i], mt, sizeof mt);
            return bad(err, errsz, path, kg->play_line, kg, "play %d (%s): the game was already over", i + 1, mt);
        }
        if (on_position)
            on_position(ctx, &g, kg->plays[i]);
        if (!state_is_legal(&g, kg->plays[i])) {
            char hand[200], table[MOVE_MAX_TEXT];
            move_format(kg->plays[i], mt, sizeof mt);
            cards_format(g.hand[g.turn], hand, sizeof hand);
            move_format(g.table, table, sizeof table);
            return bad(err, errsz, path, kg->play_line, kg,
                       "play %d (%s) by player %d is not legal (hand { %s }, table %s%s%s)", i + 1, mt, g.turn, hand,
                       table, g.rev ? ", revolution" : "", g.lock ? ", lock" : "");
        }
        int ev = state_apply(&g, kg->plays[i]);
        if (ev & EV_STALEMATE) {
            if (i + 1 != kg->nplays)
                return bad(err, errsz, path, kg->play_line, kg, "plays continue after the 20-pass stalemate");
            /* the remaining ranks were drawn at random: accept the recorded ones if consistent */
            for (int k = 0; k < g.nout; k++)
                if (kg->result[g.order[k]] != k)
                    return bad(err, errsz, path, kg->result_line, kg, "result disagrees with the finishing order");
            return 0;
        }
    }
    if (!g.over)
        return bad(err, errsz, path, kg->play_line, kg, "the plays end before the game is over");
    int cls[NPLAYERS];
    state_classes(&g, cls);
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] != kg->result[p])
            return bad(err, errsz, path, kg->result_line, kg, "player %d finished with class %d, the record says %d",
                       p, cls[p], kg->result[p]);
    return 0;
}

typedef struct Who {
    GameRecord *rec;
    int k;
} Who;

static void note_player(void *ctx, const GameState *g, Move played)
{
    (void)played;
    Who *w = ctx;
    w->rec->plays[w->k++].player = g->turn;
}

int kifu_to_record(const KifuGame *kg, const char *path, GameRecord *rec, char *err, size_t errsz)
{
    memset(rec, 0, offsetof(GameRecord, plays));
    Who w = {rec, 0};
    if (replay_game(kg, path, note_player, &w, err, errsz))
        return -1;
    int exchange = 0;
    for (int p = 0; p < NPLAYERS; p++)
        exchange |= kg->changed[p] != 0;
    rec->number = kg->number;
    for (int p = 0; p < NPLAYERS; p++) {
        rec->seat[kg->seat_of[p]] = (uint8_t)p;
        rec->cls[p] = (int8_t)(exchange ? kg->cls[p] : -1);
        rec->dealt[p] = kg->dealt[p];
        rec->changed[p] = kg->changed[p];
        rec->original[p] = kg->original[p];
        rec->result[p] = kg->result[p];
    }
    rec->dealer = rec->seat[0];
    for (int s = 0; s < NPLAYERS; s++) /* the seat that got 11 cards with the next two */
        if (cards_count(kg->dealt[rec->seat[s]]) == 11 && cards_count(kg->dealt[rec->seat[(s + 3) % NPLAYERS]]) == 10 &&
            cards_count(kg->dealt[rec->seat[(s + 2) % NPLAYERS]]) == 11)
            rec->dealer = rec->seat[s];
    rec->first = game_first_player(kg->original);
    rec->nplays = kg->nplays;
    for (int i = 0; i < kg->nplays; i++) {
        rec->plays[i].move = kg->plays[i];
        rec->plays[i].usec = kg->usec[i] < 0 ? 0 : kg->usec[i] > 0xFFFFFFFFL ? 0xFFFFFFFFu : (uint32_t)kg->usec[i];
    }
    GameState g; /* stalemate: the last play ended the game by 20 passes */
    state_init(&g, rec->original, rec->seat, rec->first);
    int ev = 0;
    for (int i = 0; i < kg->nplays; i++)
        ev = state_apply(&g, kg->plays[i]);
    rec->stalemate = (ev & EV_STALEMATE) != 0;
    return 0;
}
