/* devkit.c — the `devkit` player: the organisers' sample client (the UECda development kit
 * tndhm_devkit_c-20180826, public repository honohonopi/UECda, folder client/) as a built-in
 * player, written anew from a reading of how that client decides, so that in-process games
 * against it are the games its real binary plays on dhm serve (docs/players.md says how that
 * was checked). No line of the client is copied; the behaviour, quirks included, is:
 *  - leading: the longest sequence it holds (with the joker, one gap or one end filled), the
 *    lowest of that length; else the group of most cards (with the joker, one more card of any
 *    rank it holds), the lowest; else its lowest single (the joker when nothing else is left);
 *    in a revolution the highest of each instead;
 *  - following a single: its lowest card above the table that belongs to no pair and no
 *    sequence of three in its hand, else the joker;
 *  - following a group or a sequence: the lowest one of exactly the table's size above the
 *    table (a rank with more cards than the table's count is not split), natural first, else
 *    with the joker;
 *  - the exchange: its lowest cards (of equal rank: spades, hearts, diamonds, clubs).
 * The client reads the table the server broadcasts after every move into a few numbers (the
 * table's strength, count, kind and suits) that persist between turns, one of them even
 * between games; its answer is an 8x15 protocol table. So does this player: it follows the
 * broadcasts in observe(), answers with a table, and reads that table with the protocol's own
 * reader (core/table.h), as a server would. An answer that is no meld, or not legal, is a pass.
 * Deterministic: it uses no randomness.
 */
#include <stdlib.h>
#include <string.h>

#include "players/devkit.h"

#include "core/table.h"
#include "players/oppmodel.h"
#include "players/players.h"

enum { ROWS = TABLE_ROWS, COLS = TABLE_COLS, CELLS = ROWS * COLS };

/* A protocol table read and written as one row-major array of 120 cells: the client indexes
 * past the end of a row in a few places, and lands in the next row's first cells. */
typedef struct Grid {
    int32_t v[CELLS];
} Grid;

static inline int32_t at(const Grid *g, int r, int c)
{
    const int k = r * COLS + c;
    return k >= 0 && k < CELLS ? g->v[k] : 0;
}
static inline void put(Grid *g, int r, int c, int32_t x)
{
    const int k = r * COLS + c;
    if (k >= 0 && k < CELLS)
        g->v[k] = x;
}

static void grid_of_table(Grid *g, const Table *t) { memcpy(g->v, t->c, sizeof g->v); }

static void grid_of_hand(Grid *g, Cards hand)
{
    Table t;
    memset(&t, 0, sizeof t);
    table_put_hand(&t, hand);
    grid_of_table(g, &t);
}

/* The hand table the server sends before every move (every seat gets one): a new trick resets
 * what was read from the table. */
static void read_state(DevkitSeen *s, Move table, int rev, int lock)
{
    s->onset = table.type == MOVE_PASS;
    s->rev = rev;
    s->lock = lock;
    if (s->onset) {
        s->qty = 0;
        s->ord = 0;
        s->lock = 0;
        memset(s->suit, 0, sizeof s->suit);
    }
}

/* The field broadcast after a move: the meld on the table, as the client reads it (the first
 * card found column by column, then along its row for a sequence or down its column for a
 * group). */
static void read_field(DevkitSeen *s, const Grid *b)
{
    int i = 0, j = 0;
    while (j < 15 && at(b, i, j) == 0) {
        s->suit[i] = 0;
        if (++i == 4) {
            j++;
            i = 0;
        }
    }
    const int joker = at(b, i, j) == 2;
    if (j < 14)
        s->sequence = at(b, i, j + 1) > 0;
    int count = 0;
    if (!s->sequence) {
        for (; i < 5; i++) {
            s->suit[i] = at(b, i, j) > 0;
            count += s->suit[i];
        }
        s->ord = joker && count == 1 ? (s->rev ? 0 : 14) : j;
    } else {
        while (j + count < 15 && at(b, i, j + count) > 0)
            count++;
        s->ord = s->rev ? j : j + count - 1;
        s->suit[i] = 1;
    }
    s->qty = count;
    if (count > 0)
        s->onset = 0;
}

/* Runs of three or more along a row, by their lowest cell: t[row][col] = the run's length from
 * col upwards. With the joker, one missing card (or the cell above the 2, or below the 3) is
 * counted in. */
static void seq_table(Grid *t, const Grid *h, int joker)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 4; i++) {
        if (joker) {
            int count = 1, natural = 0;
            for (int j = 13; j >= 0; j--) {
                if (at(h, i, j) == 1) {
                    count++;
                    natural++;
                } else {
                    count = natural + 1;
                    natural = 0;
                }
                put(t, i, j, count > 2 ? count : 0);
            }
        } else {
            int count = 0;
            for (int j = 13; j > 0; j--) {
                count = at(h, i, j) == 1 ? count + 1 : 0;
                put(t, i, j, count > 2 ? count : 0);
            }
        }
    }
}

/* Ranks held two or more times: t[row][col] = how many (with the joker: one more, and a single
 * card of a rank counts as two). */
static void group_table(Grid *t, const Grid *h, int joker)
{
    memset(t, 0, sizeof *t);
    for (int j = 0; j < (joker ? 14 : 15); j++) {
        int count = joker;
        for (int i = 0; i < 4; i++)
            count += at(h, i, j);
        if (count > 1)
            for (int i = 0; i < 4; i++)
                if (at(h, i, j) == 1)
                    put(t, i, j, count);
    }
}

/* Only the cells of value n; whether there is one. */
static int only_n(Grid *out, const Grid *t, int n)
{
    int found = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 15; j++)
            if (at(t, i, j) == n) {
                put(out, i, j, n);
                found = 1;
            }
    return found;
}

/* h with rows 0-3 kept only strictly above column th (cards_above) or strictly below it. */
static void cards_above(Grid *out, const Grid *h, int th)
{
    *out = *h;
    for (int j = 0; j <= th; j++)
        for (int i = 0; i < 4; i++)
            put(out, i, j, 0);
}
static void cards_below(Grid *out, const Grid *h, int th)
{
    *out = *h;
    for (int j = th; j < 15; j++)
        for (int i = 0; i < 4; i++)
            put(out, i, j, 0);
}

static void lock_rows(Grid *t, const DevkitSeen *s)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 15; j++)
            put(t, i, j, at(t, i, j) * s->suit[i]);
}

/* The joker fills the group at column j: the first rows the hand lacks (and the lock allows). */
static void fill_group(Grid *o, const Grid *h, const DevkitSeen *s, int j, int count, int qty)
{
    for (int i = 0; count < qty && i < 5; i++)
        if (at(h, i, j) == 0 && (!s->lock || s->suit[i])) {
            put(o, i, j, 2);
            count++;
        }
}

/* The group of g at its lowest (high = 0) or highest column. */
static void pick_group(Grid *o, const Grid *h, const Grid *g, const DevkitSeen *s, int high)
{
    memset(o, 0, sizeof *o);
    int count = 0, qty = 0, j = high ? 13 : 1;
    for (; high ? j > 0 : j < 14; j += high ? -1 : 1) {
        for (int i = 0; i < 4; i++)
            if (at(g, i, j) > 1) {
                put(o, i, j, 1);
                count++;
                qty = at(g, i, j);
            }
        if (count > 0)
            break;
    }
    fill_group(o, h, s, j, count, qty);
}

static void write_run(Grid *o, const Grid *h, int row, int col, int len)
{
    for (int c = col; c < col + len; c++)
        put(o, row, c, at(h, row, c) == 1 ? 1 : 2);
}

/* The sequence of t with the lowest bottom (the longest among those). */
static void pick_low_sequence(Grid *o, const Grid *h, const Grid *t)
{
    memset(o, 0, sizeof *o);
    int best = 0, row = 0, col = 0;
    for (int c = 0; c < 15 && !best; c++)
        for (int i = 0; i < 4; i++)
            if (at(t, i, c) > best) {
                best = at(t, i, c);
                row = i;
                col = c;
            }
    if (best)
        write_run(o, h, row, col, best);
}

/* The sequence of t reaching highest: from the highest column where a row holds a card and a
 * run is recorded, the run starting there or just above or below it that the client settles
 * on (the longest, ties to the lowest start). */
static void pick_high_sequence(Grid *o, const Grid *h, const Grid *t)
{
    memset(o, 0, sizeof *o);
    int best = 0, row = 0, col = 0;
    for (int c = 14; c > 0 && !best; c--)
        for (int i = 0; i < 4; i++) {
            if (at(t, i, c) == 0 || at(h, i, c) == 0)
                continue;
            int k = -1, prev;
            do {
                if (at(t, i, c - k) >= best) {
                    best = at(t, i, c - k);
                    row = i;
                    col = c - k;
                }
                prev = at(t, i, c - k);
                k++;
            } while (c - k >= 0 && prev <= at(t, i, c - k));
        }
    write_run(o, h, row, col, best);
}

/* The lowest (high = 0) or highest single of t; the joker when there is none and it is held. */
static void pick_single(Grid *o, const Grid *t, int joker, int high)
{
    memset(o, 0, sizeof *o);
    for (int j = high ? 13 : 1; high ? j > 0 : j < 14; j += high ? -1 : 1)
        for (int i = 0; i < 4; i++)
            if (at(t, i, j) == 1) {
                put(o, i, j, 1);
                return;
            }
    if (joker)
        put(o, 0, high ? 0 : 14, 2);
}

static void lead(Grid *o, const Grid *h, const DevkitSeen *s)
{
    Grid g, q, t;
    group_table(&g, h, s->joker);
    seq_table(&q, h, s->joker);
    for (int n = 15; n >= 3; n--)
        if (only_n(&t, &q, n)) {
            if (s->rev)
                pick_high_sequence(o, h, &t);
            else
                pick_low_sequence(o, h, &t);
            return;
        }
    for (int n = 5; n >= 2; n--)
        if (only_n(&t, &g, n)) {
            pick_group(o, h, &t, s, s->rev);
            return;
        }
    pick_single(o, h, s->joker, s->rev);
}

/* The cards of h in no natural group and no natural run of three. */
static void loose_cards(Grid *out, const Grid *h)
{
    Grid g, q, t;
    group_table(&g, h, 0);
    seq_table(&q, h, 0);
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 15; j++) {
            const int run = at(&q, i, j);
            if (at(h, i, j) == 1 && run == 0)
                put(&t, i, j, 1);
            else if (run > 2) {
                for (int k = 0; k < run; k++)
                    put(&t, i, j + k, 0);
                j += run - 1;
            } else
                put(&t, i, j, 0);
        }
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 15; j++)
            put(out, i, j, at(&t, i, j) == 1 && at(&g, i, j) == 0);
}

static void follow(Grid *o, const Grid *h, const DevkitSeen *s)
{
    Grid t, u, n;
    memset(o, 0, sizeof *o);
    if (s->qty == 1) {
        loose_cards(&u, h);
        if (s->rev)
            cards_below(&t, &u, s->ord);
        else
            cards_above(&t, &u, s->ord);
        if (s->lock)
            lock_rows(&t, s);
        pick_single(o, &t, s->joker, s->rev);
        return;
    }
    if (s->rev)
        cards_below(&t, h, s->ord);
    else
        cards_above(&t, h, s->ord);
    if (s->lock)
        lock_rows(&t, s);
    if (!s->sequence) {
        group_table(&u, &t, 0);
        if (!only_n(&n, &u, s->qty) && s->joker) {
            group_table(&u, &t, 1);
            only_n(&n, &u, s->qty);
        }
        pick_group(o, h, &n, s, s->rev);
    } else {
        seq_table(&u, &t, 0);
        if (!only_n(&n, &u, s->qty) && s->joker) {
            seq_table(&u, &t, 1);
            only_n(&n, &u, s->qty);
        }
        if (s->rev)
            pick_high_sequence(o, h, &n);
        else
            pick_low_sequence(o, h, &n);
    }
}

void devkit_seen_game_start(DevkitSeen *s)
{
    s->cur = move_pass();
    read_state(s, move_pass(), 0, 0);
}

void devkit_seen_move(DevkitSeen *s, Move m, Move table, int rev, int lock)
{
    Table t;
    memset(&t, 0, sizeof t);
    table_put_move(&t, m.type != MOVE_PASS ? m : s->cur);
    Grid b;
    grid_of_table(&b, &t);
    read_field(s, &b);
    s->cur = table;
    read_state(s, table, rev, lock);
}

Move devkit_choose(DevkitSeen *s, Cards hand, Move table, int rev, int lock)
{
    read_state(s, table, rev, lock);
    s->joker = (hand & CARDS_JOKER) != 0;
    Grid h, o;
    grid_of_hand(&h, hand);
    if (s->onset)
        lead(&o, &h, s);
    else
        follow(&o, &h, s);
    Table t;
    memcpy(t.c, o.v, sizeof t.c);
    Move m;
    return table_to_move(&t, &m) ? move_invalid() : m;
}

Cards devkit_gift(Cards hand, int n)
{
    Cards out = 0;
    for (int c = COL_MIN; c <= COL_MAX && n > 0; c++)
        for (int s = SUIT_S; s >= SUIT_C && n > 0; s--)
            if (hand & card_of(c, s)) {
                out |= card_of(c, s);
                n--;
            }
    return out;
}

static Move devkit_play(Player *self, const InfoSet *v)
{
    return devkit_choose(self->impl, v->hand, v->table, v->rev, v->lock);
}

static void devkit_observe(Player *self, const InfoSet *v, int who, Move m)
{
    (void)who;
    devkit_seen_move(self->impl, m, v->table, v->rev, v->lock);
}

static void devkit_game_start(Player *self, const InfoSet *v)
{
    (void)v;
    devkit_seen_game_start(self->impl);
}

static Cards devkit_exchange(Player *self, const InfoSet *v, int n)
{
    (void)self;
    return devkit_gift(v->hand, n);
}

static void devkit_destroy(Player *self) { free(self->impl); }

int devkit_player_create(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz)
{
    (void)seed;
    if (spec_check_unused(s, "", err, errsz))
        return -1;
    DevkitSeen *d = calloc(1, sizeof *d); /* all zero, as the client's state when it starts */
    if (!d) {
        snprintf(err, errsz, "devkit: out of memory");
        return -1;
    }
    devkit_seen_game_start(d);
    p->impl = d;
    p->game_start = devkit_game_start;
    p->play = devkit_play;
    p->observe = devkit_observe;
    p->exchange = devkit_exchange;
    p->destroy = devkit_destroy;
    return 0;
}

/* ------------------------------------------------- which opponents play it */

void devkit_finder_init(DevkitFinder *f, long cap, int all)
{
    memset(f, 0, sizeof *f);
    f->cap = cap;
    f->all = all;
    devkit_seen_game_start(&f->seen);
    f->start = f->seen;
}

void devkit_finder_game_start(DevkitFinder *f)
{
    devkit_seen_game_start(&f->seen);
    f->start = f->seen;
}

void devkit_finder_observe(DevkitFinder *f, const InfoSet *v, Move m)
{
    if (!f->done)
        devkit_seen_move(&f->seen, m, v->table, v->rev, v->lock);
}

/* Opponent p: still to be checked (1), named or not for good (0). */
static int finder_open(const DevkitFinder *f, int p)
{
    return !f->cap || (f->dec[p] < f->cap && f->miss[p] * 100 <= f->cap);
}

unsigned devkit_finder_game_end(DevkitFinder *f, const InfoSet *v)
{
    int open = 0, lost = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (p != v->me) {
            open |= finder_open(f, p);
            lost |= f->cap && f->miss[p] * 100 > f->cap;
        }
    if (!open || (f->all && lost)) {
        f->done = 1;
        return f->mask;
    }
    Cards hand[NPLAYERS];
    if (oppmodel_hands(v, hand))
        return f->mask; /* the hands cannot be made out (two left at a stalemate) */
    GameState g;
    state_init(&g, hand, v->seat, v->first);
    DevkitSeen dk = f->start;
    long dec[NPLAYERS] = {0}, miss[NPLAYERS] = {0};
    for (int i = 0; i < v->nplays && !g.over; i++) {
        const int p = v->plays[i].player;
        const Move m = v->plays[i].move;
        if (p != g.turn || !state_is_legal(&g, m))
            return f->mask; /* not the game the engine played: learn nothing from it */
        if (p != v->me && finder_open(f, p)) {
            Move d = devkit_choose(&dk, g.hand[p], g.table, g.rev, g.lock);
            if (!state_is_legal(&g, d))
                d = move_pass();
            dec[p]++;
            miss[p] += !move_eq(d, m);
        }
        state_apply(&g, m);
        devkit_seen_move(&dk, m, g.table, g.rev, g.lock);
    }
    f->mask = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        f->dec[p] += dec[p];
        f->miss[p] += miss[p];
        if (p != v->me && f->dec[p] >= 30 && f->miss[p] * 100 <= f->dec[p])
            f->mask |= 1u << p;
    }
    return f->mask;
}

void devkit_finder_json(FILE *out, const char *key, unsigned mask, const DevkitFinder *f)
{
    fprintf(out, ", \"%s\": [", key);
    for (int p = 0, first = 1; p < NPLAYERS; p++)
        if ((mask >> p) & 1) {
            fprintf(out, "%s%d", first ? "" : ", ", p);
            first = 0;
        }
    fprintf(out, "]");
    if (!f)
        return;
    fprintf(out, ", \"%s_checked\": [", key);
    for (int p = 0; p < NPLAYERS; p++)
        fprintf(out, "%s[%ld, %ld]", p ? ", " : "", f->dec[p], f->miss[p]);
    fprintf(out, "]");
}
