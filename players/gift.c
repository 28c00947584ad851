/* gift.c — the gift model's features, scores and weight files (see gift.h). gift_features() is
 * the one definition: scores are sums of the weights of its indices. */
#include "players/gift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/movegen.h"
#include "game/textfile.h"
#include "players/policy.h"
#include "players/rich.h"
#include "players/wtext.h"

/* ---------------------------------------------------------------- the layout */

#define GROUP_TEXT(name, size) #name ":" #size " "

const char *gift_layout(void)
{
    static const char text[] = "dhm-gift-features 1: " GIFT_GROUPS(GROUP_TEXT);
    return text;
}

uint64_t gift_layout_hash(void)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of the layout text */
    for (const char *s = gift_layout(); *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

const char *gift_group(int i, int *offset)
{
#define GROUP_FIND(name, size)                                                                                     \
    if (i >= GF_##name && i <= GF_##name##_END) {                                                                  \
        *offset = i - GF_##name;                                                                                   \
        return #name;                                                                                              \
    }
    GIFT_GROUPS(GROUP_FIND)
#undef GROUP_FIND
    *offset = 0;
    return "?";
}

/* ---------------------------------------------------------------- features */

static inline unsigned col_suits(Cards c, int col) { return (unsigned)(c >> (4 * col)) & 15u; }
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

/* The given rank g against every rank of cards c (and the joker column: the cards of g in c). */
static int rank_rows(int base, int g, Cards c, uint32_t *idx)
{
    const unsigned sg = col_suits(c, g);
    const int row = base + (g - 1) * 14 * GIFT_ORBITS;
    for (int r = COL_MIN; r <= COL_MAX; r++)
        idx[r - 1] = (uint32_t)(row + (r - 1) * GIFT_ORBITS + rich_orbit(sg, col_suits(c, r)));
    idx[13] = (uint32_t)(row + 13 * GIFT_ORBITS + __builtin_popcount(sg));
    return 14;
}

/* What the features read of the hand before any gift (the same for every candidate). */
typedef struct GiftHand {
    Cards hand;
    Cards inrun;              /* natural cards of the hand in a run of >= 3 of one suit */
    int melds;                /* rich_min_melds(hand) */
    unsigned have;            /* bit g: before[g] is written */
    uint32_t before[14][14];  /* rank_rows(GF_RB, g, hand), once a candidate gives rank g */
} GiftHand;

static void gift_hand(GiftHand *h, Cards hand)
{
    const Cards nat = hand & CARDS_NATURAL;
    const Cards s3 = nat & (nat >> 4) & (nat >> 8); /* starts of runs of three */
    h->hand = hand;
    h->inrun = s3 | (s3 << 4) | (s3 << 8);
    h->melds = rich_min_melds(hand);
    h->have = 0;
}

static int features(GiftHand *h, Cards give, uint32_t *idx)
{
    const Cards hand = h->hand, after = hand & ~give, gnat = give & CARDS_NATURAL;
    const int cls = cards_count(give) >= 2; /* 0 the fugo (one card), 1 the daifugo (two) */
    int k = rich_hand_parts(after, idx);
    for (int i = 0; i < k; i++)
        idx[i] += GF_HAND;
    /* what the hand keeps */
    const int s3 = (after & CARDS_S3) != 0, jk = (after & CARDS_JOKER) != 0;
    if (after & CARDS_D3)
        idx[k++] = GF_KEEP;
    if (s3 || jk)
        idx[k++] = (uint32_t)(GF_KEEP + (s3 && jk ? 1 : s3 ? 2 : 3));
    const Cards an = after & CARDS_NATURAL;
    const Cards ranks = movegen_col_counts(an);
    Cards present = movegen_cols_nonzero(ranks); /* one bit per rank held */
    int hi1 = 0, hi2 = 0, lo1 = 0, lo2 = 0;
    if (present) {
        hi1 = cards_highest_bit(present) >> 2;
        lo1 = cards_lowest_bit(present) >> 2;
        const Cards rest_hi = present & ~(1ULL << (hi1 * 4)), rest_lo = present & ~(1ULL << (lo1 * 4));
        hi2 = rest_hi ? cards_highest_bit(rest_hi) >> 2 : 0;
        lo2 = rest_lo ? cards_lowest_bit(rest_lo) >> 2 : 0;
    }
    if (jk) { /* the joker is the strongest card; the next is the strongest natural rank */
        hi2 = hi1;
        hi1 = 14;
    }
    idx[k++] = (uint32_t)(GF_TOP + hi1);
    idx[k++] = (uint32_t)(GF_TOP + 15 + hi2);
    idx[k++] = (uint32_t)(GF_LOW + lo1);
    idx[k++] = (uint32_t)(GF_LOW + 14 + lo2);
    /* the two given cards together */
    if (cards_count(gnat) == 2) {
        const int a = cards_lowest_bit(gnat), b = cards_highest_bit(gnat);
        if ((a >> 2) == (b >> 2))
            idx[k++] = GF_TWO;
        else if ((a & 3) == (b & 3) && b - a == 4)
            idx[k++] = GF_TWO + 1;
        else if ((a & 3) == (b & 3) && b - a == 8)
            idx[k++] = GF_TWO + 2;
    }
    /* the cards a strong program keeps */
    if (gnat & CARDS_COL(COL_8))
        idx[k++] = GF_BAN;
    if (gnat & CARDS_COL(COL_MAX))
        idx[k++] = GF_BAN + 1;
    if (give & CARDS_JOKER)
        idx[k++] = GF_BAN + 2;
    if (give & CARDS_D3)
        idx[k++] = GF_BAN + 3;
    if ((give & CARDS_S3) && jk)
        idx[k++] = GF_BAN + 4;
    if ((gnat & CARDS_COL(12)) && !rich_can_revolt(after))
        idx[k++] = GF_NOREV;
    /* each given natural card by class, rank, multiplicity, run */
    const Cards hc = movegen_col_counts(hand & CARDS_NATURAL);
    uint32_t prev = 0;
    for (Cards x = gnat; x; x &= x - 1) {
        const int b = cards_lowest_bit(x), col = b >> 2, n = (int)((hc >> (4 * col)) & 15);
        const uint32_t f = (uint32_t)(GF_GIVE + ((cls * 13 + col - 1) * 4 + (n - 1)) * 2 + (int)((h->inrun >> b) & 1));
        if (f != prev) /* two cards of one rank alike count once: every feature is 0 or 1 */
            idx[k++] = prev = f;
    }
    const int dm = rich_min_melds(after) - h->melds;
    idx[k++] = (uint32_t)(GF_MELDS + cls * 5 + imax(-2, imin(2, dm)) + 2);
    idx[k++] = (uint32_t)(GF_AVG + cls * 16 + imin(15, (int)rich_rank_avg(after)));
    /* each given rank against the hand's ranks, before and after */
    for (Cards x = (gnat | gnat >> 1 | gnat >> 2 | gnat >> 3) & CARDS_SUIT_LOW; x; x &= x - 1) {
        const int g = cards_lowest_bit(x) >> 2;
        if (!((h->have >> g) & 1)) { /* the same for every candidate giving rank g */
            rank_rows(GF_RB, g, hand, h->before[g]);
            h->have |= 1u << g;
        }
        memcpy(idx + k, h->before[g], sizeof h->before[g]);
        k += 14;
        k += rank_rows(GF_RA, g, after, idx + k);
    }
    return k;
}

int gift_features(Cards hand, Cards give, uint32_t *idx)
{
    GiftHand h;
    gift_hand(&h, hand);
    return features(&h, give, idx);
}

void gift_scores(const GiftWeights *w, Cards hand, const Cards *cand, int k, double *score)
{
    GiftHand h;
    uint32_t idx[GIFT_MAX_ACTIVE];
    gift_hand(&h, hand);
    for (int i = 0; i < k; i++) {
        const int m = features(&h, cand[i], idx);
        double s = 0;
        for (int j = 0; j < m; j++)
            s += w->w[idx[j]];
        score[i] = s;
    }
}

Cards gift_pick(const GiftWeights *w, Cards hand, int n, double temp, Rng *rng)
{
    Cards cand[GIFT_MAX_CANDS];
    double s[GIFT_MAX_CANDS + 3];
    const int k = policy_gifts(hand, n, cand);
    if (k == 0)
        return cards_weakest(hand, n);
    gift_scores(w, hand, cand, k, s);
    return cand[policy_pick_scores(s, k, temp, rng)];
}

double gift_logprob(const GiftWeights *w, Cards hand, Cards give)
{
    Cards cand[GIFT_MAX_CANDS];
    double s[GIFT_MAX_CANDS];
    const int n = cards_count(give), k = (give & ~hand) || n < 1 || n > 2 ? 0 : policy_gifts(hand, n, cand);
    int at = -1;
    for (int i = 0; i < k && at < 0; i++)
        at = cand[i] == give ? i : -1;
    if (at < 0)
        return -INFINITY;
    gift_scores(w, hand, cand, k, s);
    double mx = s[0], tot = 0;
    for (int i = 1; i < k; i++)
        mx = s[i] > mx ? s[i] : mx;
    for (int i = 0; i < k; i++)
        tot += exp(s[i] - mx);
    return s[at] - mx - log(tot);
}

/* ---------------------------------------------------------------- weight files
 *
 * Text: "dhm-gift 1", "layout HASH", then "gift N K" and K lines "index weight" (the weights
 * that are not zero), "end". */

int gift_save(FILE *f, const GiftWeights *w, const char *comment)
{
    fprintf(f, "dhm-gift 1\nlayout %016llx\n", (unsigned long long)gift_layout_hash());
    fprintf(f, "# %s\n", gift_layout());
    if (comment && *comment)
        fprintf(f, "# %s\n", comment);
    int nz = 0;
    for (int i = 0; i < GIFT_N; i++)
        nz += w->w[i] != 0;
    fprintf(f, "gift %d %d\n", GIFT_N, nz);
    int last = -1, off;
    for (int i = 0; i < GIFT_N; i++) {
        if (w->w[i] == 0)
            continue;
        const char *name = gift_group(i, &off);
        if (last < 0 || strcmp(name, gift_group(last, &off)))
            fprintf(f, "# %s\n", name);
        fprintf(f, "%d %.9g\n", i, w->w[i]);
        last = i;
    }
    fprintf(f, "end\n");
    return ferror(f) ? -1 : 0;
}

int gift_parse(const char *text, const char *name, GiftWeights *gw, char *err, size_t errsz)
{
    WText t;
    wtext_init(&t, text, name, err, errsz);
    if (wtext_magic(&t, "dhm-gift", "a dhm gift model weights file") ||
        wtext_layout(&t, gift_layout_hash(), "dhm train policy --model gift"))
        return -1;
    GiftWeights *x = calloc(1, sizeof *x); /* gw is written only when the whole file is good */
    if (!x) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = -1;
    long n, nz, prev = -1;
    if (wtext_expect(&t, "gift", "'gift N K'") || wtext_long(&t, 0, 100000000, "gift", &n))
        goto out;
    if (n != GIFT_N) {
        snprintf(err, errsz, "%s:%d: gift has %ld weights, this dhm's features need %d (a file for other features)",
                 name, t.line, n, GIFT_N);
        goto out;
    }
    if (wtext_long(&t, 0, GIFT_N, "the count of weights listed", &nz))
        goto out;
    for (long j = 0; j < nz; j++) {
        long i;
        double v;
        if (wtext_long(&t, 0, GIFT_N - 1, "a weight's index", &i) || wtext_double(&t, "a weight", &v))
            goto out;
        if (i <= prev) {
            snprintf(err, errsz, "%s:%d: index %ld out of order (after %ld)", name, t.line, i, prev);
            goto out;
        }
        x->w[i] = v;
        prev = i;
    }
    if (wtext_end(&t))
        goto out;
    memcpy(gw, x, sizeof *x);
    rc = 0;
out:
    free(x);
    return rc;
}

static int parse_any(const char *text, const char *name, void *w, char *err, size_t errsz)
{
    return gift_parse(text, name, w, err, errsz);
}

int gift_load(const char *path, GiftWeights *w, char *err, size_t errsz)
{
    return wtext_load(path, parse_any, w, err, errsz);
}

int gift_weights_option(const char *path, const char *key, const GiftWeights **use, GiftWeights **own, char *err,
                        size_t errsz)
{
    char e[400] = "";
    const void *u;
    void *o;
    int rc = wtext_option(path, key, path ? NULL : gift_builtin(e, sizeof e), e, sizeof(GiftWeights), parse_any, &u, &o, err,
                          errsz);
    *use = u;
    *own = o;
    return rc;
}

/* The built-in weights: players/gift.weights, compiled in as text (gift_embed.c). */
extern const char gift_weights_text[];
static WBuiltin g_builtin = WBUILTIN_INIT;

const GiftWeights *gift_builtin(char *err, size_t errsz)
{
    return wtext_builtin(&g_builtin, gift_weights_text, "the built-in players/gift.weights", sizeof(GiftWeights), parse_any,
                         err, errsz);
}
