/* rich.c — the rich policy's features and scores (see rich.h). rich_features() is the one
 * definition: scores are sums of the weights of its indices. */
#include "players/rich.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "players/players.h"
#include "game/textfile.h"
#include "players/wtext.h"

/* ---------------------------------------------------------------- the layout */

#define GROUP_TEXT(name, size) #name ":" #size " "

const char *rich_layout(void)
{
    static const char text[] = "dhm-rich-features 1; play: " RICH_PLAY_GROUPS(GROUP_TEXT);
    return text;
}

uint64_t rich_layout_hash(void)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of the layout text, and of the exchange's */
    for (const char *s = rich_layout(); *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h ^ policy_layout_hash();
}

const char *rich_play_group(int i, int *offset)
{
#define GROUP_FIND(name, size)                                                                                     \
    if (i >= RF_##name && i <= RF_##name##_END) {                                                                  \
        *offset = i - RF_##name;                                                                                   \
        return #name;                                                                                              \
    }
    RICH_PLAY_GROUPS(GROUP_FIND)
#undef GROUP_FIND
    *offset = 0;
    return "?";
}

/* ---------------------------------------------------------------- small pieces */

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int col_count(Cards c, int col) { return cards_count(c & CARDS_COL(col)); }
static inline unsigned col_suits(Cards c, int col) { return (unsigned)(c >> (4 * col)) & 15u; }

/* The orbit of a pair of suit sets (m, a) under renaming the suits: it is fixed by the sizes
 * of the four cells m & a, m - a, a - m and neither (x, y, z, 4 - x - y - z), numbered in the
 * order of (x, y, z): 35 of them. The table is that numbering (a test recomputes it). */
static const uint8_t ORBIT[16][16] = {
    {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4},
    {5, 15, 6, 16, 6, 16, 7, 17, 6, 16, 7, 17, 7, 17, 8, 18},
    {5, 6, 15, 16, 6, 7, 16, 17, 6, 7, 16, 17, 7, 8, 17, 18},
    {9, 19, 19, 25, 10, 20, 20, 26, 10, 20, 20, 26, 11, 21, 21, 27},
    {5, 6, 6, 7, 15, 16, 16, 17, 6, 7, 7, 8, 16, 17, 17, 18},
    {9, 19, 10, 20, 19, 25, 20, 26, 10, 20, 11, 21, 20, 26, 21, 27},
    {9, 10, 19, 20, 19, 20, 25, 26, 10, 11, 20, 21, 20, 21, 26, 27},
    {12, 22, 22, 28, 22, 28, 28, 31, 13, 23, 23, 29, 23, 29, 29, 32},
    {5, 6, 6, 7, 6, 7, 7, 8, 15, 16, 16, 17, 16, 17, 17, 18},
    {9, 19, 10, 20, 10, 20, 11, 21, 19, 25, 20, 26, 20, 26, 21, 27},
    {9, 10, 19, 20, 10, 11, 20, 21, 19, 20, 25, 26, 20, 21, 26, 27},
    {12, 22, 22, 28, 13, 23, 23, 29, 22, 28, 28, 31, 23, 29, 29, 32},
    {9, 10, 10, 11, 19, 20, 20, 21, 19, 20, 20, 21, 25, 26, 26, 27},
    {12, 22, 13, 23, 22, 28, 23, 29, 22, 28, 23, 29, 28, 31, 29, 32},
    {12, 13, 22, 23, 22, 23, 28, 29, 22, 23, 28, 29, 28, 29, 31, 32},
    {14, 24, 24, 30, 24, 30, 30, 33, 24, 30, 30, 33, 30, 33, 33, 34}};
static inline int orbit(unsigned m, unsigned a) { return ORBIT[m & 15u][a & 15u]; }
int rich_orbit(unsigned m, unsigned a) { return orbit(m, a); }
/* A sequence's suit s against a suit set a: (s in a) x |a|. */
static inline int orbit1(unsigned s, unsigned a) { return ((s & a) != 0) * 5 + __builtin_popcount(a); }

/* Cards c holding a run of >= 3 cells of one suit starting here (bit b: b, b + 4, b + 8 held). */
static inline Cards run_starts(Cards c, int len)
{
    Cards t = c & CARDS_NATURAL;
    for (int k = 1; k < len; k++)
        t &= c >> (4 * k);
    return t;
}

/* One bit per column of c holding a natural card (the column's suit-0 bit), in column order. */
static inline Cards ranks_held(Cards c) { return movegen_cols_nonzero(movegen_col_counts(c & CARDS_NATURAL)); }

/* rich_min_melds over the runs starting at card bits >= from: a set of disjoint runs gives the
 * same count in any order, so each set is tried once, in the order of its runs' first cells. */
static int min_melds_from(Cards c, int from)
{
    const int jk = (int)((c >> JOKER_BIT) & 1);
    const Cards nat = c & CARDS_NATURAL;
    int best = cards_count(ranks_held(nat)); /* one meld a rank */
    /* where a run starts (bit 4a + s: cells a, a + 1, a + 2 of suit s): all three held, or with
     * the joker the first and one of the next two. Runs whose first cell is the joker's are not
     * tried: the run a cell higher that ends in the cell after theirs (the joker there, or the
     * natural card if held, which leaves the joker to stand for that card wherever it served)
     * leaves no more melds. tests/test_rich.c checks the count against every set of runs. */
    const Cards n1 = nat >> 4, n2 = nat >> 8;
    Cards starts = jk ? nat & (n1 | n2) : nat & n1 & n2;
    starts &= ~0ULL << from; /* from <= 52: the starts lie in columns 1..12 */
    /* with no start (most hands) the ranks are the answer */
    for (; starts; starts &= starts - 1) {
        const int b = cards_lowest_bit(starts), suit = b & 3;
        int miss = 0;
        Cards run = 0;
        for (int e = b >> 2; e <= COL_TOP; e++) {
            const Cards cell = card_of(e, suit) & CARDS_NATURAL;
            if (nat & cell)
                run |= cell;
            else if (++miss > jk)
                break;
            if (e - (b >> 2) >= 2 && cards_count(run) >= 2) {
                const int r = 1 + min_melds_from(c & ~(run | (miss ? CARDS_JOKER : 0)), b + 1);
                best = r < best ? r : best;
            }
        }
    }
    return best;
}

int rich_min_melds(Cards c) { return min_melds_from(c, 0); }

/* The average rank of the hand's ranks (joker: 14) in order rev; 0 for an empty hand. */
static double rank_avg(Cards c, int rev)
{
    int sum = 0, n = 0;
    for (Cards x = ranks_held(c); x; x &= x - 1, n++)
        sum += cards_lowest_bit(x) >> 2;
    if (rev)
        sum = 14 * n - sum;
    if (c & CARDS_JOKER) {
        sum += 14;
        n++;
    }
    return n ? (double)sum / n : 0;
}

/* One bit per rank of c at position 4 * rank + (cards of it - 1). */
static Cards count_bits(Cards c)
{
    Cards p = 0;
    const Cards counts = movegen_col_counts(c & CARDS_NATURAL);
    for (Cards x = movegen_cols_nonzero(counts); x; x &= x - 1) {
        const int b = cards_lowest_bit(x);
        p |= 1ULL << (b + (int)((counts >> b) & 15) - 1);
    }
    return p;
}

/* Whether some meld of the cards u (held by anyone of the others) beats m on the table (order
 * rev, lock). A lone joker is beaten only by the spade 3; an 8-cut is never answered. */
static int answerable(Cards u, Move m, int rev, int lock)
{
    if (m.type == MOVE_PASS)
        return 1;
    if (move_is_eight(m))
        return 0;
    return movegen_can_follow(u, m, rev, lock);
}

/* Whether cards c could make a revolution: four of a rank (the joker counts) or a run of five
 * of one suit (one cell of it the joker). */
static int can_revolt(Cards c)
{
    const int jk = (int)((c >> JOKER_BIT) & 1);
    for (int col = COL_MIN; col <= COL_MAX; col++)
        if (col_count(c, col) + jk >= 4)
            return 1;
    for (int suit = 0; suit < 4; suit++)
        for (int a = COL_MIN; a + 4 <= COL_MAX; a++) {
            int held = 0;
            for (int e = a; e < a + 5; e++)
                held += (c & card_of(e, suit)) != 0;
            if (held + jk >= 5)
                return 1;
        }
    return 0;
}

int rich_can_revolt(Cards c) { return can_revolt(c); }
double rich_rank_avg(Cards c) { return rank_avg(c, 0); }

/* ---------------------------------------------------------------- the situation */

void rich_ctx(RichCtx *c, const RichView *v)
{
    memset(c, 0, sizeof *c);
    c->hand = v->hand;
    c->unseen = CARDS_ALL & ~v->hand & ~v->played;
    c->table = v->table;
    c->rev = v->rev;
    c->lock = v->lock;
    c->lead = v->table.type == MOVE_PASS;
    c->ncards = cards_count(v->hand);
    int seat_of[NPLAYERS];
    for (int s = 0; s < NPLAYERS; s++)
        seat_of[v->seat[s]] = s;
    for (int q = 0; q < NPLAYERS; q++) {
        c->nrem += v->ncards[q];
        const int in = !((v->out >> q) & 1);
        c->nawake += in && (q == v->me || !((v->passed >> q) & 1));
    }
    const int me = v->me, owner = v->owner;
    const int owner_in = !((v->out >> owner) & 1);
    if (!c->lead) {
        c->own_meld = owner == me;
        c->owner_cards = owner_in ? v->ncards[owner] : 0;
        c->last_awake = c->own_meld || c->nawake == 1;
        /* who leads when the table clears: the owner, or the next player still in after it */
        int lead = owner;
        for (int k = 1; !owner_in && k < NPLAYERS; k++) {
            int q = v->seat[(seat_of[owner] + k) % NPLAYERS];
            if (!((v->out >> q) & 1)) {
                lead = q;
                break;
            }
        }
        c->pass_dom = c->own_meld || (lead == me && !c->last_awake && !answerable(c->unseen, v->table, v->rev, v->lock));
        if (!c->own_meld) {
            c->dist = 1 + owner_in;
            for (int s = (seat_of[me] + NPLAYERS - 1) % NPLAYERS; s != seat_of[owner]; s = (s + NPLAYERS - 1) % NPLAYERS)
                c->dist += !((v->out >> v->seat[s]) & 1);
        }
    }
    c->rel_class = 2; /* no classes (a class period's first game): everyone the middle class */
    if (v->cls[me] >= 0) {
        c->rel_class = v->cls[me];
        for (int q = 0; q < NPLAYERS; q++)
            c->rel_class -= q != me && ((v->out >> q) & 1) && v->cls[q] >= 0 && v->cls[q] < v->cls[me];
    }
    c->minmelds = rich_min_melds(v->hand);
    c->hand_counts = count_bits(v->hand);
    c->rank_avg = rank_avg(v->hand, v->rev);
    if (v->hand) { /* the joker counts as the strongest card (column 15) */
        c->low_col = cards_lowest_bit(v->hand) >> 2;
        c->high_col = cards_highest_bit(v->hand) >> 2;
    }
}

/* The public facts every view has, from the fields GameState and InfoSet share by name. */
#define VIEW_FROM(v, x, hand_, me_)                                                                                \
    do {                                                                                                           \
        (v).hand = (hand_);                                                                                        \
        (v).played = (x)->played;                                                                                  \
        (v).table = (x)->table;                                                                                    \
        (v).rev = (x)->rev;                                                                                        \
        (v).lock = (x)->lock;                                                                                      \
        (v).me = (me_);                                                                                            \
        (v).owner = (x)->owner;                                                                                    \
        (v).passed = (x)->passed;                                                                                  \
        (v).out = (x)->out;                                                                                        \
        memcpy((v).seat, (x)->seat, sizeof (v).seat);                                                              \
    } while (0)

void rich_ctx_state(RichCtx *c, const GameState *g, const int8_t cls[NPLAYERS])
{
    RichView v;
    VIEW_FROM(v, g, g->hand[g->turn], g->turn);
    for (int q = 0; q < NPLAYERS; q++) {
        v.ncards[q] = cards_count(g->hand[q]);
        v.cls[q] = cls ? cls[q] : -1;
    }
    rich_ctx(c, &v);
}

void rich_ctx_info(RichCtx *c, const InfoSet *i)
{
    RichView v;
    VIEW_FROM(v, i, i->hand, i->me);
    for (int q = 0; q < NPLAYERS; q++)
        v.ncards[q] = i->ncards[q];
    memcpy(v.cls, i->cls, sizeof v.cls);
    rich_ctx(c, &v);
}

/* ---------------------------------------------------------------- features */

/* Cards of c with the same card n ranks up (the run starts of length n + 1 when chained). */
static inline Cards ranks_up(Cards c, int n) { return c & (c >> (4 * n)); }
/* Every card of c and the n - 1 ranks above it. */
static inline Cards spread(Cards c, int n)
{
    Cards t = 0;
    for (int k = 0; k < n; k++)
        t |= c << (4 * k);
    return t;
}
/* The hand left, cut into runs and groups (HAND), for situation sit and order rev. Runs are
 * found all suits at once: starts of 3-runs, of 4-runs among them, of 5-runs among those; a
 * 5-run (or longer) counts once, at its lowest start, and takes every card of its starts' five
 * ranks; 4-runs take their four, 3-runs their three; the cards left count by rank and size. */
static int hand_features(Cards after, int sit, int rev, uint32_t *idx)
{
    int k = 0;
    const int base = RF_HAND + (sit * 2 + rev) * 83;
    if (after & CARDS_JOKER)
        idx[k++] = (uint32_t)(base + 82);
    Cards rest = after & CARDS_NATURAL;
    Cards s3 = run_starts(rest, 3);
    if (s3) {
        Cards s4 = ranks_up(s3, 1);
        if (s4) {
            Cards s5 = ranks_up(s4, 1);
            if (s5) {
                s4 &= ~spread(s5, 2);
                s3 &= ~spread(s5, 3);
                rest &= ~spread(s5, 5);
                while (s5) {
                    const int b = cards_lowest_bit(s5);
                    idx[k++] = (uint32_t)(base + (b >> 2) - 1);
                    s5 &= ~spread(1ULL << b, 5);
                }
            }
            if (s4) {
                rest &= ~spread(s4, 4);
                s3 &= ~spread(s4, 2);
                for (; s4; s4 &= s4 - 1)
                    idx[k++] = (uint32_t)(base + 9 + (cards_lowest_bit(s4) >> 2) - 1);
            }
        }
        if (s3) {
            rest &= ~spread(s3, 3);
            for (; s3; s3 &= s3 - 1)
                idx[k++] = (uint32_t)(base + 19 + (cards_lowest_bit(s3) >> 2) - 1);
        }
    }
    for (Cards p = count_bits(rest); p; p &= p - 1)
        idx[k++] = (uint32_t)(base + 26 + cards_lowest_bit(p));
    return k;
}

int rich_hand_parts(Cards c, uint32_t *idx)
{
    const int k = hand_features(c, 0, 0, idx);
    for (int i = 0; i < k; i++)
        idx[i] -= RF_HAND;
    return k;
}

static inline uint32_t mcg_index(int base, int rev, int mrow, int locks, int hrow, int pat)
{
    return (uint32_t)(base + (((rev * 14 + mrow) * 2 + locks) * 14 + hrow) * RICH_ORBITS + pat);
}
static inline uint32_t mcs_index(int base, int rev, int low, int qcls, int hrow, int pat)
{
    return (uint32_t)(base + (((rev * 13 + low - 1) * 3 + qcls) * 14 + hrow) * RICH_ORBITS1 + pat);
}

/* The move against every rank of the cards x (MC: the hand left; MO: the unseen cards). */
static int pattern_features(const RichCtx *c, Move m, Cards x, int gbase, int sbase, uint32_t *idx)
{
    int k = 0;
    const int rev = c->rev;
    if (m.type == MOVE_SEQ) {
        const unsigned s = m.suits & 15u;
        const int q = imin(m.n - 3, 2);
        for (Cards p = ranks_held(x); p; p &= p - 1) {
            const int col = cards_lowest_bit(p) >> 2;
            idx[k++] = mcs_index(sbase, rev, m.low, q, col - 1, orbit1(s, col_suits(x, col)));
        }
        if (x & CARDS_JOKER)
            idx[k++] = mcs_index(sbase, rev, m.low, q, 13, 0);
        return k;
    }
    if (m.type == MOVE_JOKER) {
        for (Cards p = ranks_held(x); p; p &= p - 1) {
            const int col = cards_lowest_bit(p) >> 2;
            idx[k++] = mcg_index(gbase, rev, 13, 0, col - 1, col_count(x & CARDS_NATURAL, col) - 1);
        }
        return k;
    }
    const int locks = !c->lead && m.suits == c->table.suits;
    for (Cards p = ranks_held(x); p; p &= p - 1) {
        const int col = cards_lowest_bit(p) >> 2;
        idx[k++] = mcg_index(gbase, rev, m.low - 1, locks, col - 1, orbit(m.suits, col_suits(x, col)));
    }
    if (x & CARDS_JOKER)
        idx[k++] = mcg_index(gbase, rev, m.low - 1, locks, 13, imin(m.n, 5) - 1);
    return k;
}

/* Whether no meld of the unseen cards u could answer m on an empty table of order rev (the
 * answer compared in the order after m; an 8-cut, a group of five, a lone joker without the
 * spade 3 out are never answered). */
static int unanswerable(Cards u, Move m, int rev)
{
    if (m.type == MOVE_PASS)
        return 0;
    if (move_is_eight(m) || (m.type == MOVE_GROUP && m.n > 4))
        return 1;
    if (m.type == MOVE_JOKER)
        return !(u & CARDS_S3);
    return !answerable(u, m, rev ^ move_is_revolution(m), 0);
}

int rich_features(const RichCtx *c, Move m, uint32_t *idx)
{
    int k = 0;
    const int lead = c->lead;
    const int pass = m.type == MOVE_PASS;
    const Cards cards = move_cards(m);
    const Cards after = c->hand & ~cards;
    const int arev = c->rev ^ move_is_revolution(m);
    const int q = m.n, q4 = imin(q, 4);
    const int eight = move_is_eight(m), seq = m.type == MOVE_SEQ, lone = m.type == MOVE_JOKER;
    if (!pass && !after) {
        idx[k++] = RF_FINAL;
        return k;
    }
    const int sit = lead ? 0 : c->own_meld ? 2 : 1;
    k += hand_features(after, sit, arev, idx + k);
    {
        const int s3 = (after & CARDS_S3) != 0, jk = (after & CARDS_JOKER) != 0;
        const int us3 = (c->unseen & CARDS_S3) != 0, ujk = (c->unseen & CARDS_JOKER) != 0;
        if (s3 && jk)
            idx[k++] = RF_S3JK;
        else if (s3 && ujk)
            idx[k++] = RF_S3JK + 1;
        else if (us3 && jk)
            idx[k++] = RF_S3JK + 2;
    }
    if (c->rank_avg > 0) {
        const double ra = rank_avg(after, arev);
        const double v = c->ncards * log(ra / c->rank_avg > 1e-6 ? ra / c->rank_avg : 1e-6);
        const int b = (int)floor((v + 8.0) * 4.0);
        idx[k++] = (uint32_t)(RF_RANKAVG + imax(0, imin(63, b)));
    }
    idx[k++] = (uint32_t)(RF_PARTY + (!lead) * 8 + imax(0, imin(7, rich_min_melds(after) - c->minmelds + 3)));
    if ((after & CARDS_JOKER) && ranks_up(after & CARDS_NATURAL, 2))
        idx[k++] = RF_GAPJK;
    if (lead && !pass)
        idx[k++] = (uint32_t)(RF_QTY + q4 - 1);
    if (lead && !pass && !seq) {
        const Cards cnt = c->hand_counts;
        const int same = cards_count(cnt & (CARDS_SUIT_LOW << (q4 - 1)));
        if (m.jk == JK_NONE)
            idx[k++] = (uint32_t)(RF_SAMEQ + imin(same, 7));
        else {
            idx[k++] = (uint32_t)(RF_SAMEQ + 8 + imin(same, 7));
            if (q4 >= 2)
                idx[k++] = (uint32_t)(RF_SAMEQ + 16 + imin(cards_count(cnt & (CARDS_SUIT_LOW << (q4 - 2))), 7));
        }
    }
    if (!pass && !lead && !c->last_awake && !lone && m.suits == c->table.suits) {
        int i = 2;
        if (q == 1) {
            const Cards locked = cards_of_suits(c->table.suits) & CARDS_NATURAL;
            const Cards mine = after & locked, theirs = c->unseen & locked;
            if (!(after & CARDS_NATURAL))
                i = 0;
            else {
                /* whether the mover keeps the strongest card of the locked suits (in the order
                 * after the move; a mover without one counts as strongest in a revolution) */
                const int strong = !arev ? mine > theirs : (mine & (0 - mine)) < (theirs & (0 - theirs));
                i = strong || (!(c->unseen & CARDS_S3) && cards_count(count_bits(after)) < 2) ? 0 : 1;
            }
        }
        idx[k++] = (uint32_t)(RF_LOCKFX + i);
    }
    if (!c->rev && move_is_revolution(m))
        idx[k++] = (uint32_t)(RF_REVCLS + c->rel_class);
    if (pass) {
        idx[k++] = (uint32_t)(RF_PASSPH + (c->nrem > 30 ? 0 : c->nrem > 15 ? 1 : 2));
        if (c->pass_dom) {
            idx[k++] = RF_PASSDOM;
            if (!c->own_meld)
                idx[k++] = RF_PASSDOM + 1;
        }
        if (!lead && !c->own_meld)
            idx[k++] = (uint32_t)(RF_PASSDIST + imin(c->dist - 1, 4));
        if (!lead && !c->own_meld && c->owner_cards > 0)
            idx[k++] = (uint32_t)(RF_PASSAWAKE + imin(imax(c->nawake - 2, 0), 3) * 8 + imin(c->owner_cards, 8) - 1);
    }
    if (c->table.type == MOVE_JOKER && m.type == MOVE_SINGLE && (cards & CARDS_S3))
        idx[k++] = (uint32_t)(RF_S3ONJK + (c->pass_dom != 0));
    if (lone)
        idx[k++] = (uint32_t)(RF_JKVS3 + ((after & CARDS_S3) ? 0 : (c->last_awake || !(c->unseen & CARDS_S3)) ? 1 : 2));
    if (lead && seq) {
        idx[k++] = RF_SEQ;
        idx[k++] = (uint32_t)(RF_SEQ + 1 + imin(c->ncards, 15));
    }
    if (!lead && !c->own_meld && (m.type == MOVE_SINGLE || m.type == MOVE_GROUP) && m.jk == JK_NONE &&
        col_count(c->hand, m.low) != m.n) {
        const Cards un = c->unseen & CARDS_NATURAL;
        if (eight)
            idx[k++] = RF_GRBRK;
        else if (un && (arev ? m.low <= (cards_lowest_bit(un) >> 2) : m.low >= (cards_highest_bit(un) >> 2)))
            idx[k++] = (uint32_t)(RF_GRBRK + ((c->unseen & CARDS_JOKER) ? 2 : 1));
    }
    if (c->pass_dom && unanswerable(c->unseen, m, c->rev))
        idx[k++] = RF_DOMPD;
    if (lead && eight && !seq && !can_revolt(after)) {
        /* weak ranks (3-7, or 9-2 in a revolution) outside runs: at least two cards and two ranks
         * of them (run starts masked out of the count bits too, as the champion's list does) */
        const Cards starts = run_starts(after, 3);
        const Cards weak = CARDS_NATURAL & (c->rev ? ~cards_below_col(7) : cards_below_col(6));
        if (cards_count(after & weak & ~starts) >= 2 && cards_count(c->hand_counts & weak & ~starts) >= 2)
            idx[k++] = RF_EIGHTW;
    }
    if (eight)
        idx[k++] = (uint32_t)(RF_EIGHTQ + imin(c->ncards - q, 15));
    if (!pass && !lone && (c->rev ? m.low == c->high_col : m.low == c->low_col))
        idx[k++] = (uint32_t)(RF_MINRANK + (c->rev != 0));
    if (lead) {
        if (m.jk != JK_NONE)
            idx[k++] = RF_KIND + 2;
        else if (eight)
            idx[k++] = RF_KIND + 3;
        if (m.type == MOVE_GROUP)
            idx[k++] = RF_KIND;
        else if (seq)
            idx[k++] = RF_KIND + 1;
        if (move_is_revolution(m))
            idx[k++] = RF_KIND + 4;
    } else {
        const int base = RF_KIND + 5 + 4 * (c->table.type == MOVE_SEQ ? 2 : c->table.type == MOVE_GROUP ? 1 : 0);
        if (pass)
            idx[k++] = (uint32_t)base;
        else if (m.jk != JK_NONE)
            idx[k++] = (uint32_t)(base + (lone && c->nmoves == 2 ? 1 : 2));
        else if (eight)
            idx[k++] = (uint32_t)(base + 3);
    }
    if (!pass) {
        k += pattern_features(c, m, after, RF_MCG, RF_MCS, idx + k);
        k += pattern_features(c, m, c->unseen, RF_MOG, RF_MOS, idx + k);
    }
    return k;
}

double rich_net_term(const RichWeights *w, const uint32_t *idx, int k, double *hid)
{
    const int nh = w->nhid;
    if (nh <= 0)
        return 0;
    double h[RICH_HID_MAX];
    const double *net = w->net;
    memcpy(h, rich_net_bias(net), (size_t)nh * sizeof *h);
    for (int j = 0; j < k; j++)
        if (idx[j] < RICH_NSMALL) {
            const double *in = rich_net_in(net, idx[j]);
            for (int u = 0; u < nh; u++)
                h[u] += in[u];
        }
    const double *out = rich_net_out(net);
    double s = 0;
    for (int u = 0; u < nh; u++)
        s += out[u] * (h[u] > 0 ? h[u] : 0);
    if (hid)
        memcpy(hid, h, (size_t)nh * sizeof *h);
    return s;
}

void rich_net_init(RichWeights *w, int n, uint64_t seed)
{
    memset(w->net, 0, sizeof w->net);
    w->nhid = n < 0 ? 0 : n > RICH_HID_MAX ? RICH_HID_MAX : n;
    Rng r = rng_seed(rng_derive(seed, 0x6e6574, 0));
    for (int u = 0; u < w->nhid; u++)
        rich_net_bias(w->net)[u] = 0.1;
    for (uint32_t i = 0; i < RICH_NSMALL; i++)
        for (int u = 0; u < w->nhid; u++) { /* Box-Muller */
            const double a = rng_double(&r), b = rng_double(&r);
            rich_net_in(w->net, i)[u] = 0.1 * sqrt(-2 * log(1 - a)) * cos(2 * M_PI * b);
        }
}

void rich_scores(const RichWeights *rw, RichCtx *c, const Move *mv, int n, double *score)
{
    uint32_t idx[RICH_MAX_ACTIVE];
    const double *w = rw->play;
    c->nmoves = n;
    for (int i = 0; i < n; i++) {
        const int k = rich_features(c, mv[i], idx);
        double s = 0;
        for (int j = 0; j < k; j++)
            s += w[idx[j]];
        score[i] = rw->nhid ? s + rich_net_term(rw, idx, k, NULL) : s;
    }
}

/* ---------------------------------------------------------------- weight files
 *
 * Text: "dhm-rich 1", "layout HASH", then "play N K" and K lines "index weight" (the weights
 * that are not zero: most features of a large model are never seen), "exchange M" and M
 * numbers, with a hidden layer "hidden H S" (H units over S small features) and its biases,
 * outputs and S lines of H inputs, then "end". */

int rich_save(FILE *f, const RichWeights *w, const char *comment)
{
    fprintf(f, "dhm-rich 1\nlayout %016llx\n", (unsigned long long)rich_layout_hash());
    fprintf(f, "# %s\n", rich_layout());
    if (comment && *comment)
        fprintf(f, "# %s\n", comment);
    int nz = 0;
    for (int i = 0; i < RICH_NPLAY; i++)
        nz += w->play[i] != 0;
    fprintf(f, "play %d %d\n", RICH_NPLAY, nz);
    int last = -1;
    for (int i = 0; i < RICH_NPLAY; i++) {
        if (w->play[i] == 0)
            continue;
        int off;
        const char *name = rich_play_group(i, &off);
        if (last < 0 || strcmp(name, rich_play_group(last, &off)))
            fprintf(f, "# %s\n", name);
        fprintf(f, "%d %.9g\n", i, w->play[i]);
        last = i;
    }
    fprintf(f, "exchange %d\n", POLICY_NEXCH);
    for (int i = 0; i < POLICY_NEXCH; i++)
        fprintf(f, "%.9g%c", w->exch[i], (i + 1) % 8 == 0 || i + 1 == POLICY_NEXCH ? '\n' : ' ');
    if (w->nhid > 0) {
        const int nh = w->nhid;
        const double *net = w->net;
        fprintf(f, "hidden %d %d\n# biases, outputs, then one line of inputs per feature\n", nh, RICH_NSMALL);
        for (int part = 0; part < 2; part++)
            for (int u = 0; u < nh; u++)
                fprintf(f, "%.9g%c", (part ? rich_net_out(net) : rich_net_bias(net))[u], u + 1 == nh ? '\n' : ' ');
        for (uint32_t i = 0; i < RICH_NSMALL; i++)
            for (int u = 0; u < nh; u++)
                fprintf(f, "%.9g%c", rich_net_in(net, i)[u], u + 1 == nh ? '\n' : ' ');
    }
    fprintf(f, "end\n");
    return ferror(f) ? -1 : 0;
}

int rich_parse(const char *text, const char *name, RichWeights *rw, char *err, size_t errsz)
{
    WText t;
    wtext_init(&t, text, name, err, errsz);
    if (wtext_magic(&t, "dhm-rich", "a dhm rich policy weights file") ||
        wtext_layout(&t, rich_layout_hash(), "dhm train policy --model rich"))
        return -1;
    RichWeights *x = calloc(1, sizeof *x); /* rw is written only when the whole file is good */
    if (!x) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = -1;
    long n, nz;
    if (wtext_expect(&t, "play", "'play N K'") || wtext_long(&t, 0, 100000000, "play", &n))
        goto out;
    if (n != RICH_NPLAY) {
        snprintf(err, errsz, "%s:%d: play has %ld weights, this dhm's features need %d (a file for other features)",
                 name, t.line, n, RICH_NPLAY);
        goto out;
    }
    if (wtext_long(&t, 0, RICH_NPLAY, "the count of weights listed", &nz))
        goto out;
    long prev = -1;
    for (long k = 0; k < nz; k++) {
        long i;
        double v;
        if (wtext_long(&t, 0, RICH_NPLAY - 1, "a weight's index", &i) || wtext_double(&t, "a weight", &v))
            goto out;
        if (i <= prev) {
            snprintf(err, errsz, "%s:%d: index %ld out of order (after %ld)", name, t.line, i, prev);
            goto out;
        }
        x->play[i] = v;
        prev = i;
    }
    if (wtext_numbers(&t, "exchange", POLICY_NEXCH, x->exch))
        goto out;
    WText peek = t;
    char word[WTEXT_WORD];
    if (wtext_word(&peek, word) == 1 && !strcmp(word, "hidden")) {
        long nh, ns;
        t = peek;
        if (wtext_long(&t, 1, RICH_HID_MAX, "the hidden layer's units", &nh) ||
            wtext_long(&t, RICH_NSMALL, RICH_NSMALL, "the hidden layer's features", &ns))
            goto out;
        x->nhid = (int)nh;
        for (long j = 0; j < (2 + RICH_NSMALL) * nh; j++) {
            const long part = j / nh, u = j % nh;
            double *at = part == 0 ? rich_net_bias(x->net) + u
                         : part == 1 ? rich_net_out(x->net) + u
                                     : rich_net_in(x->net, (uint32_t)(part - 2)) + u;
            if (wtext_double(&t, "a hidden-layer weight", at))
                goto out;
        }
    }
    if (wtext_end(&t))
        goto out;
    memcpy(rw, x, sizeof *x);
    rc = 0;
out:
    free(x);
    return rc;
}

static int parse_any(const char *text, const char *name, void *w, char *err, size_t errsz)
{
    return rich_parse(text, name, w, err, errsz);
}

int rich_load(const char *path, RichWeights *w, char *err, size_t errsz) { return wtext_load(path, parse_any, w, err, errsz); }

int rich_weights_option(const char *path, const char *key, const RichWeights **use, RichWeights **own, char *err,
                        size_t errsz)
{
    return rich_weights_option_rl(path, RICH_IMITATION, key, use, own, err, errsz);
}

int rich_weights_option_rl(const char *path, int builtin, const char *key, const RichWeights **use, RichWeights **own,
                           char *err, size_t errsz)
{
    char e[400] = "";
    const void *u;
    void *o;
    const RichWeights *b = path ? NULL
                           : builtin == RICH_DK ? rich_dk_builtin(e, sizeof e)
                           : builtin == RICH_RL ? rich_rl_builtin(e, sizeof e)
                                                : rich_builtin(e, sizeof e);
    int rc = wtext_option(path, key, b, e, sizeof(RichWeights), parse_any, &u, &o, err, errsz);
    *use = u;
    *own = o;
    return rc;
}

int rich_file_kind(const char *path, char *err, size_t errsz)
{
    char *text;
    if (textfile_read(path, (size_t)64 << 20, &text, NULL, err, errsz))
        return -1;
    const int rich = !strncmp(text + strspn(text, " \t\r\n"), "dhm-rich", 8);
    free(text);
    return rich;
}

/* The built-in weights: players/rich.weights, compiled in as text (rich_embed.c). */
extern const char rich_weights_text[];
static WBuiltin g_builtin = WBUILTIN_INIT;

const RichWeights *rich_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin, rich_weights_text, "the built-in players/rich.weights", sizeof(RichWeights), parse_any,
                         err, errsz);
}

/* The `policy` player's: players/rich_rl.weights (rich_rl_embed.c). */
extern const char rich_rl_weights_text[];
static WBuiltin g_builtin_rl = WBUILTIN_INIT;

const RichWeights *rich_rl_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin_rl, rich_rl_weights_text, "the built-in players/rich_rl.weights", sizeof(RichWeights),
                         parse_any, err, errsz);
}

/* Against four sample clients: players/rich_dk.weights (rich_dk_embed.c). */
extern const char rich_dk_weights_text[];
static WBuiltin g_builtin_dk = WBUILTIN_INIT;

const RichWeights *rich_dk_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin_dk, rich_dk_weights_text, "the built-in players/rich_dk.weights", sizeof(RichWeights),
                         parse_any, err, errsz);
}
