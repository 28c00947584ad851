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
 * broadcasts in observe(), and answers a meld of several cards with a table that it reads with
 * the protocol's own reader (core/table.h), as a server would. An answer that is no meld, or not
 * legal, is a pass. Deterministic: it uses no randomness.
 *
 * The client works cell by cell on 15-column tables; this player works on the same tables as
 * bit masks, one per row (about 100 ns a move with the engine's, against 450 ns cell by cell).
 * Every decision and every reading of the field is the cell-by-cell version's: checked side by
 * side over 9 M of them, of seeded games and of random states, before that version was retired
 * (2026-11-30); test_devkit pins 700,000 of them to its hash, and checks the real client's
 * 35,414 recorded plays where the teacher corpus is present.
 */
#include <stdlib.h>
#include <string.h>

#include "players/devkit.h"

#include "core/table.h"
#include "players/oppmodel.h"
#include "players/players.h"

enum { COLS = TABLE_COLS };

/* A table's rows 0-3 as bit masks (bit = column): card bit b is row 3 - suit, column b / 4. */
static inline void mark(uint16_t *row, int b) { row[3 - (b & 3)] |= (uint16_t)(1u << (b >> 2)); }

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

/* The field broadcast after a move (table_put_move's cells: naturals 1, the joker 2 in the cell it
 * stands for, row 4 of the column for a five-card group, [0][14] alone), as the client reads it:
 * the first card found column by column in rows 0-3, then along its row for a sequence (when the
 * cell right of it is filled) or down its column, row 4 included, for a group. A cell past the
 * last column is the next row's first: on an empty field the client reads those, all empty. */
static void read_field(DevkitSeen *s, Move m)
{
    uint16_t row[5] = {0, 0, 0, 0, 0};
    int jr = -1, jc = -1; /* the joker's cell */
    if (m.type == MOVE_JOKER) {
        jr = 0;
        jc = COL_TOP;
    } else if (m.type != MOVE_PASS) {
        for (Cards x = move_cells(m); x; x &= x - 1) /* the joker's cell among them */
            mark(row, __builtin_ctzll(x));
        if (m.jk == JK_ROW4) {
            jr = 4;
            jc = m.low;
        } else if (m.jk != JK_NONE) {
            jr = 3 - ((m.jk - 1) & 3);
            jc = (m.jk - 1) >> 2;
        }
    }
    if (jr >= 0)
        row[jr] |= (uint16_t)(1u << jc);
    const unsigned any = row[0] | row[1] | row[2] | row[3];
    int i = 0, j = COLS; /* the first card: none on an empty field */
    if (any) {
        j = __builtin_ctz(any);
        while (!((row[i] >> j) & 1))
            i++;
    }
    for (int r = 0; r < (j > 0 ? 4 : i); r++) /* the cells it passed on the way */
        s->suit[r] = 0;
    const int joker = jr == i && jc == j;
    if (j < 14)
        s->sequence = (row[i] >> (j + 1)) & 1;
    int count = 0;
    if (!s->sequence) {
        for (; i < 5; i++) {
            s->suit[i] = j < COLS && (row[i] >> j) & 1;
            count += s->suit[i];
        }
        s->ord = joker && count == 1 ? (s->rev ? 0 : 14) : j;
    } else {
        while (j + count < COLS && (row[i] >> (j + count)) & 1)
            count++;
        s->ord = s->rev ? j : j + count - 1;
        s->suit[i] = 1;
    }
    s->qty = count;
    if (count > 0)
        s->onset = 0;
}

/* The client's decision reads the hand as a protocol table and builds tables of runs and
 * groups from it. Here a table of cards is four row masks (bit = column, row i = suit 3 - i),
 * and each of the client's value tables is read only through the cells of one value (its
 * only_n) or its largest value, so it is computed as exactly those. */
typedef struct Rows {
    uint16_t r[4];
} Rows;

static Rows rows_of(Cards c)
{
    Rows h = {{0, 0, 0, 0}};
    for (Cards x = c & CARDS_NATURAL; x; x &= x - 1)
        mark(h.r, __builtin_ctzll(x));
    return h;
}

/* Row r's values in the client's run table with the joker: at column j (0-13), the length of
 * the run from j upwards with one missing card (or the cell above the 2, or the 3's below it)
 * counted in, when 3 or more; else 0. */
static void joker_run_values(uint16_t r, uint8_t v[TABLE_COLS])
{
    memset(v, 0, TABLE_COLS);
    int count = 1, natural = 0;
    for (int j = 13; j >= 0; j--) {
        if ((r >> j) & 1) {
            count++;
            natural++;
        } else {
            count = natural + 1;
            natural = 0;
        }
        v[j] = (uint8_t)(count > 2 ? count : 0);
    }
}

/* The cells of value n in the run table of t (only_n): without the joker, the value at column j
 * is the length of the run of held cards from j upwards when 3 or more. 0 when none. */
static Rows run_cells(const Rows *t, int joker, int n)
{
    Rows o = {{0, 0, 0, 0}};
    if (n < 3)
        return o;
    for (int i = 0; i < 4; i++) {
        if (!joker) { /* a run of exactly n from j: j..j+n-1 held, j+n not */
            uint32_t a = t->r[i] & ~((uint32_t)t->r[i] >> n);
            for (int k = 1; k < n; k++)
                a &= (uint32_t)t->r[i] >> k;
            o.r[i] = (uint16_t)a;
            continue;
        }
        uint8_t v[TABLE_COLS];
        joker_run_values(t->r[i], v);
        for (int j = 0; j < TABLE_COLS; j++)
            o.r[i] |= (uint16_t)((v[j] == n) << j);
    }
    return o;
}

/* The run table's largest value (0: no run of three). */
static int run_max(const Rows *t, int joker)
{
    int best = 0;
    for (int i = 0; i < 4; i++) {
        if (!joker) {
            int len = 0;
            for (uint32_t x = t->r[i]; x; x &= x >> 1)
                len++;
            best = len > best ? len : best;
            continue;
        }
        uint8_t v[TABLE_COLS];
        joker_run_values(t->r[i], v);
        for (int j = 0; j < TABLE_COLS; j++)
            best = v[j] > best ? v[j] : best;
    }
    return best > 2 ? best : 0;
}

/* How many of the four rows hold each column, bit-sliced: column j holds 1*s0 + 2*s1 + 4*s2. */
typedef struct ColCount {
    uint16_t s0, s1, s2;
} ColCount;

static ColCount col_count(const Rows *t)
{
    const uint16_t x1 = t->r[0] ^ t->r[1], c1 = t->r[0] & t->r[1], x2 = t->r[2] ^ t->r[3], c2 = t->r[2] & t->r[3];
    return (ColCount){(uint16_t)(x1 ^ x2), (uint16_t)(c1 ^ c2 ^ (x1 & x2)), (uint16_t)(c1 & c2)};
}

/* The columns held exactly k times (k = 1..4). */
static uint16_t cols_held(ColCount c, int k)
{
    return (uint16_t)((k & 1 ? c.s0 : ~c.s0) & (k & 2 ? c.s1 : ~c.s1) & (k & 4 ? c.s2 : ~c.s2));
}

/* The cells of value n in the client's group table of t (a held card's value: how many its
 * column holds, one more with the joker, when 2 or more); 0 when none. */
static Rows group_cells(const Rows *t, int joker, int n)
{
    Rows o = {{0, 0, 0, 0}};
    const int k = n - joker;
    if (n < 2 || k < 1 || k > 4)
        return o;
    const uint16_t cols = cols_held(col_count(t), k);
    for (int i = 0; i < 4; i++)
        o.r[i] = t->r[i] & cols;
    return o;
}

/* The group table's largest value (0: no group). */
static int group_max(const Rows *t, int joker)
{
    const ColCount c = col_count(t);
    for (int k = 4; k >= 1; k--)
        if (cols_held(c, k))
            return k + joker > 1 ? k + joker : 0;
    return 0;
}

static int rows_empty(const Rows *t) { return !(t->r[0] | t->r[1] | t->r[2] | t->r[3]); }

/* The cards of h in no natural group and no natural run of three. */
static Rows loose_cards(const Rows *h)
{
    const ColCount c = col_count(h);
    const uint16_t grouped = c.s1 | c.s2;
    Rows o;
    for (int i = 0; i < 4; i++) {
        const uint32_t r = h->r[i], a = r & (r >> 1) & (r >> 2), run = a | a << 1 | a << 2;
        o.r[i] = (uint16_t)(r & ~run & ~grouped);
    }
    return o;
}

/* t's cards strictly above column th (in a revolution: strictly below), in the lock's rows. */
static Rows playable(const Rows *t, const DevkitSeen *s)
{
    const int th = s->ord < 0 ? 0 : s->ord > 15 ? 15 : s->ord;
    const uint32_t keep = s->rev ? (1u << th) - 1 : ~((2u << th) - 1);
    Rows o;
    for (int i = 0; i < 4; i++)
        o.r[i] = (uint16_t)(t->r[i] & keep & (s->lock && !s->suit[i] ? 0 : 0xFFFF));
    return o;
}

/* The lowest (high = 0) or highest card of t in columns 1-13, spades first within a column;
 * the joker when there is none and it is held; else a pass. */
static Move pick_single(const Rows *t, int joker, int high)
{
    for (int j = high ? 13 : 1; high ? j > 0 : j < 14; j += high ? -1 : 1)
        for (int i = 0; i < 4; i++)
            if ((t->r[i] >> j) & 1)
                return move_single(card_bit(j, 3 - i));
    return joker ? move_lone_joker() : move_pass();
}

/* An answer of several cells is a protocol table read by the protocol's own reader, as a server
 * reads it (core/table.h), so that an answer that is no meld is refused as it would be. Cell
 * (r, c) of the 120 row-major cells; rows 5-7 are no part of an answer. */
static void answer_put(Table *a, int r, int c, int x)
{
    const int k = r * COLS + c;
    if (k >= 0 && k < 5 * COLS)
        a->c[k / COLS][k % COLS] = x;
}
static Move answer_move(const Table *a)
{
    Move m;
    return table_to_move(a, &m) ? move_invalid() : m;
}

/* The group of cells g (each of value n) at its lowest (high = 0) or highest column; the joker
 * fills it to n in the first rows the hand h lacks (and the lock allows), row 4 included. */
static Move pick_group(const Rows *h, int joker, const Rows *g, int n, const DevkitSeen *s, int high)
{
    for (int j = high ? 13 : 1; high ? j > 0 : j < 14; j += high ? -1 : 1) {
        if (!((g->r[0] | g->r[1] | g->r[2] | g->r[3]) >> j & 1))
            continue;
        Table a;
        table_clear_cards(&a);
        int count = 0;
        for (int i = 0; i < 4; i++)
            if ((g->r[i] >> j) & 1) {
                answer_put(&a, i, j, 1);
                count++;
            }
        for (int i = 0; count < n && i < 5; i++) {
            const int held = i < 4 ? (h->r[i] >> j) & 1 : joker && j == 1; /* row 4: the hand's joker at [4][1] */
            if (!held && (!s->lock || s->suit[i])) {
                answer_put(&a, i, j, 2);
                count++;
            }
        }
        return answer_move(&a);
    }
    return move_pass();
}

/* The run of length n from (row, col): the hand's cards, the joker in a cell it lacks. */
static Move write_run(const Rows *h, int row, int col, int n)
{
    if (n <= 0)
        return move_pass();
    Table a;
    table_clear_cards(&a);
    for (int c = col; c < col + n; c++)
        answer_put(&a, row, c, c < TABLE_COLS && (h->r[row] >> c) & 1 ? 1 : 2);
    return answer_move(&a);
}

/* The run of cells t (each of value n) with the lowest bottom. */
static Move pick_low_sequence(const Rows *h, const Rows *t, int n)
{
    for (int c = 0; c < TABLE_COLS; c++)
        for (int i = 0; i < 4; i++)
            if ((t->r[i] >> c) & 1)
                return write_run(h, i, c, n);
    return move_pass();
}

/* The run reaching highest: from the highest column where a row holds a card and a run is
 * recorded, the run starting there or just above or below it that the client settles on (the
 * longest, ties to the lowest start). t's cells each have value n. */
static Move pick_high_sequence(const Rows *h, const Rows *t, int n)
{
#define RUN_AT(i, c) (((t->r[i] >> (c)) & 1) ? n : 0)
    int best = 0, row = 0, col = 0;
    for (int c = 14; c > 0 && !best; c--)
        for (int i = 0; i < 4; i++) {
            if (!RUN_AT(i, c) || !((h->r[i] >> c) & 1))
                continue;
            int k = -1, prev;
            do {
                if (RUN_AT(i, c - k) >= best) {
                    best = RUN_AT(i, c - k);
                    row = i;
                    col = c - k;
                }
                prev = RUN_AT(i, c - k);
                k++;
            } while (c - k >= 0 && prev <= RUN_AT(i, c - k));
        }
#undef RUN_AT
    return write_run(h, row, col, best);
}

static Move lead(const Rows *h, const DevkitSeen *s)
{
    /* the client tries each run length from 15 down to 3, then each group size from 5 down
     * to 2: the first it finds is the table's largest value */
    int n = run_max(h, s->joker);
    if (n) {
        const Rows t = run_cells(h, s->joker, n);
        return s->rev ? pick_high_sequence(h, &t, n) : pick_low_sequence(h, &t, n);
    }
    n = group_max(h, s->joker);
    if (n) {
        const Rows t = group_cells(h, s->joker, n);
        return pick_group(h, s->joker, &t, n, s, s->rev);
    }
    return pick_single(h, s->joker, s->rev);
}

static Move follow(const Rows *h, const DevkitSeen *s)
{
    if (s->qty == 1) {
        const Rows u = loose_cards(h), t = playable(&u, s);
        return pick_single(&t, s->joker, s->rev);
    }
    const Rows t = playable(h, s);
    if (!s->sequence) {
        Rows g = group_cells(&t, 0, s->qty);
        if (rows_empty(&g) && s->joker)
            g = group_cells(&t, 1, s->qty);
        return pick_group(h, s->joker, &g, s->qty, s, s->rev);
    }
    Rows q = run_cells(&t, 0, s->qty);
    if (rows_empty(&q) && s->joker)
        q = run_cells(&t, 1, s->qty);
    return s->rev ? pick_high_sequence(h, &q, s->qty) : pick_low_sequence(h, &q, s->qty);
}

void devkit_seen_game_start(DevkitSeen *s)
{
    s->cur = move_pass();
    read_state(s, move_pass(), 0, 0);
}

void devkit_seen_move(DevkitSeen *s, Move m, Move table, int rev, int lock)
{
    read_field(s, m.type != MOVE_PASS ? m : s->cur);
    s->cur = table;
    read_state(s, table, rev, lock);
}

Move devkit_choose(DevkitSeen *s, Cards hand, Move table, int rev, int lock)
{
    read_state(s, table, rev, lock);
    s->joker = (hand & CARDS_JOKER) != 0;
    const Rows h = rows_of(hand);
    return s->onset ? lead(&h, s) : follow(&h, s);
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
