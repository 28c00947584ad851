/* estimate.c — hard constraints, the weight table and world samplers (estimate.h). */
#include "players/estimate.h"

#include "game/game.h"
#include "game/textfile.h"
#include "players/devkit.h"
#include "players/estnet.h"
#include "players/estseq.h"
#include "players/gift.h"
#include "players/players.h"
#include "players/rich.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const KIND_NAMES[EST_KINDS] = {"uniform", "weights", "oracle", "policy", "net"};
static const char *const ORDER_NAMES[ORDER_KINDS] = {"suit-a", "suit-d", "rank-a", "rank-d", "random"};
static const char *const ORACLE_NAMES[ORACLE_KINDS] = {"all-w", "all-s", "each-w", "each-s"};

static int parse_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

const char *est_kind_name(int k) { return k >= 0 && k < EST_KINDS ? KIND_NAMES[k] : "?"; }
int est_kind_parse(const char *s) { return parse_name(KIND_NAMES, EST_KINDS, s); }
const char *est_order_name(int o) { return o >= 0 && o < ORDER_KINDS ? ORDER_NAMES[o] : "?"; }
int est_order_parse(const char *s) { return parse_name(ORDER_NAMES, ORDER_KINDS, s); }
const char *est_oracle_name(int m) { return m >= 0 && m < ORACLE_KINDS ? ORACLE_NAMES[m] : "?"; }
int est_oracle_parse(const char *s) { return parse_name(ORACLE_NAMES, ORACLE_KINDS, s); }

#define S2_BIT (COL_MAX * 4 + SUIT_S)
#define CARD_S2 (1ULL << S2_BIT)

/* ---------------------------------------------------------------- constraints */

static int partner_of(const int8_t cls[NPLAYERS], int me)
{
    int want = 4 - cls[me];
    for (int p = 0; p < NPLAYERS; p++)
        if (cls[p] == want)
            return p;
    return -1;
}

/* Whether the joker and the spade 2 (the only cards with forbidden holders) can be placed. */
static int specials_fit(const EstKnown *k)
{
    int ej = 0, es = 0, both = -1, nboth = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == k->me || k->room[p] <= 0)
            continue;
        int j = !(k->forbid[p] & CARDS_JOKER), s = !(k->forbid[p] & CARD_S2);
        ej += j;
        es += s;
        if (j && s) {
            both = p;
            nboth++;
        }
    }
    int needj = (k->deal & CARDS_JOKER) != 0, needs = (k->deal & CARD_S2) != 0;
    if ((needj && !ej) || (needs && !es))
        return 0;
    /* both cards with a single possible holder that has room for one */
    if (needj && needs && ej == 1 && es == 1 && nboth == 1 && k->room[both] < 2)
        return 0;
    return 1;
}

int est_known(const InfoSet *v, const int count[NPLAYERS], EstKnown *k)
{
    const int me = v->me;
    memset(k, 0, sizeof *k);
    k->me = me;
    const Cards hidden = CARDS_ALL & ~v->hand & ~v->played;
    int need = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (p != me) {
            if (count[p] < 0 || count[p] > 53)
                return -1;
            need += count[p];
        }
    if (need != cards_count(hidden))
        return -1;
    const int exch = v->cls[me] >= 0;
    if (exch && v->cls[me] != 2) {
        int partner = partner_of(v->cls, me);
        if (partner >= 0)
            k->fixed[partner] |= v->given & hidden; /* rich: what I gave; poor: what was taken */
    }
    if (v->first >= 0 && v->first != me && (hidden & CARDS_D3))
        k->fixed[v->first] |= CARDS_D3;
    Cards fixed_all = 0;
    int ok = 1;
    for (int p = 0; p < NPLAYERS; p++)
        if (p != me) {
            ok &= cards_count(k->fixed[p]) <= count[p];
            ok &= !(fixed_all & k->fixed[p]);
            fixed_all |= k->fixed[p];
        }
    if (!ok) { /* inconsistent knowledge: deal everything */
        memset(k->fixed, 0, sizeof k->fixed);
        fixed_all = 0;
    }
    k->deal = hidden & ~fixed_all;
    for (int p = 0; p < NPLAYERS; p++)
        k->room[p] = p == me ? 0 : count[p] - cards_count(k->fixed[p]);
    if (exch) {
        for (int p = 0; p < NPLAYERS; p++) {
            if (p == me)
                continue;
            if (v->cls[p] == 4) /* the daihinmin gave its two strongest cards */
                k->forbid[p] |= CARDS_JOKER | CARD_S2;
            else if (v->cls[p] == 3) /* the hinmin gave its strongest */
                k->forbid[p] |= CARDS_JOKER;
        }
        /* what a rich partner I am gave back is in fixed, never dealt */
        if (!specials_fit(k))
            memset(k->forbid, 0, sizeof k->forbid);
    }
    return 0;
}

int est_world_ok(const EstKnown *k, const Cards hand[NPLAYERS])
{
    Cards all = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == k->me)
            continue;
        if ((hand[p] & k->fixed[p]) != k->fixed[p])
            return 0;
        Cards dealt = hand[p] & ~k->fixed[p];
        if (cards_count(dealt) != k->room[p] || (dealt & ~k->deal) || (dealt & k->forbid[p]) || (all & hand[p]))
            return 0;
        all |= hand[p];
    }
    return (all & k->deal) == k->deal;
}

/* ---------------------------------------------------------------- the weight table */

static int size_bucket(int n) { return n <= 3 ? 0 : n <= 7 ? 1 : 2; }
static int kind_of(Move m) { return m.type == MOVE_GROUP ? 1 : m.type == MOVE_SEQ ? 2 : 0; }
static int strength(int col, int rev) { return rev ? 14 - col : col; }

int est_meld_strength(Move m, int rev)
{
    if (m.type == MOVE_JOKER)
        return 14;
    int hi = m.type == MOVE_SEQ ? m.low + m.n - 1 : m.low;
    return rev ? strength(m.low, 1) : strength(hi, 0);
}

void est_features(const InfoSet *v, EstFeatures *f)
{
    memset(f, 0, sizeof *f);
    for (int p = 0; p < NPLAYERS; p++)
        f->cls[p] = v->cls[p] >= 0 && v->cls[p] < NPLAYERS ? 1 + v->cls[p] : 0;
    if (v->first < 0 || v->first >= NPLAYERS)
        return; /* the exchange: no play yet */
    static const Cards none[NPLAYERS] = {0};
    GameState g;
    state_init(&g, none, v->seat, v->first);
    int left[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        left[p] = v->start_ncards[p];
    for (int i = 0; i < v->nplays && !g.over; i++) {
        const Move m = v->plays[i].move;
        const int p = g.turn;
        if (p != v->plays[i].player)
            break; /* a history that does not follow the turns: stop reading it */
        const int sb = size_bucket(left[p]);
        EstEvent e = {0, 0, g.rev};
        int have = 0;
        if (m.type == MOVE_PASS) {
            if (g.table.type != MOVE_PASS) {
                e.bucket = (uint8_t)(18 + kind_of(g.table) * 3 + sb);
                e.ref = (uint8_t)est_meld_strength(g.table, g.rev);
                have = 1;
            }
        } else {
            const int lead = g.table.type == MOVE_PASS;
            e.bucket = (uint8_t)(lead * 9 + kind_of(m) * 3 + sb);
            e.ref = (uint8_t)est_meld_strength(m, g.rev);
            have = 1;
            left[p] -= m.n;
        }
        if (have && f->nev[p] < EST_MAX_EVENTS)
            f->ev[p][f->nev[p]++] = e;
        if (state_apply_ex(&g, m, m.type != MOVE_PASS && left[p] <= 0) & EV_STALEMATE)
            break;
    }
}

int est_rel(int b, const EstEvent *e)
{
    if (b == 13)
        return 0;
    if (b + 1 == COL_8)
        return 8;
    int d = strength(b + 1, e->rev) - e->ref;
    return d <= -3 ? 1 : d >= 3 ? 7 : 4 + d;
}

void est_table(const EstModel *m, const EstFeatures *f, double lw[NPLAYERS][EST_BINS])
{
    for (int p = 0; p < NPLAYERS; p++) {
        for (int b = 0; b < EST_BINS; b++)
            lw[p][b] = m->prior[f->cls[p]][b];
        for (int k = 0; k < f->nev[p]; k++) {
            const EstEvent *e = &f->ev[p][k];
            const double *row = m->ev[e->bucket];
            for (int b = 0; b < EST_BINS; b++)
                lw[p][b] += row[est_rel(b, e)];
        }
    }
}

/* ---------------------------------------------------------------- model files */

#define EST_MAGIC "dhm estimation model 1"

int est_model_save(FILE *f, const EstModel *m, const char *comment)
{
    fprintf(f, "%s\n", EST_MAGIC);
    if (comment)
        fprintf(f, "# %s\n", comment);
    fprintf(f, "# prior[class][bin]: class unknown, daifugo..daihinmin; bins 3..2, joker\n");
    for (int c = 0; c < EST_CLASSES; c++) {
        fprintf(f, "prior");
        for (int b = 0; b < EST_BINS; b++)
            fprintf(f, " %.6f", m->prior[c][b]);
        fputc('\n', f);
    }
    fprintf(f, "# ev[event][relation]: relations joker, <=-3, -2, -1, same, +1, +2, >=+3, an 8\n");
    for (int e = 0; e < EST_EVENTS; e++) {
        fprintf(f, "ev");
        for (int r = 0; r < EST_REL; r++)
            fprintf(f, " %.6f", m->ev[e][r]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

/* One "prior" or "ev" line's numbers, p..e, into row. */
static int est_row(const char *p, const char *e, const char *name, int line, const char *key, int want, double *row,
                   char *err, size_t errsz)
{
    for (int i = 0; i < want; i++) {
        while (p < e && isspace((unsigned char)*p))
            p++;
        if (p == e) {
            snprintf(err, errsz, "%s:%d: the %s line has %d of its %d numbers", name, line, key, i, want);
            return -1;
        }
        char *q;
        errno = 0;
        double x = strtod(p, &q);
        if (q == p || q > e || (q < e && !isspace((unsigned char)*q)) || errno || !isfinite(x)) {
            const char *w = p;
            while (w < e && !isspace((unsigned char)*w))
                w++;
            snprintf(err, errsz, "%s:%d: '%.*s' is not a number", name, line, (int)(w - p > 24 ? 24 : w - p), p);
            return -1;
        }
        if (fabs(x) > 100) {
            snprintf(err, errsz, "%s:%d: %g is outside [-100, 100]", name, line, x);
            return -1;
        }
        row[i] = x;
        p = q;
    }
    while (p < e && isspace((unsigned char)*p))
        p++;
    if (p < e) {
        snprintf(err, errsz, "%s:%d: the %s line has more than %d numbers", name, line, key, want);
        return -1;
    }
    return 0;
}

int est_model_parse(const char *text, const char *name, EstModel *m, char *err, size_t errsz)
{
    memset(m, 0, sizeof *m);
    const char *s = text;
    int line = 0, np = 0, ne = 0, magic = 0;
    while (*s) {
        line++;
        const char *end = strchr(s, '\n');
        const char *p = s, *e = end ? end : s + strlen(s); /* the line is p..e, without white space around */
        s = end ? end + 1 : e;
        while (e > p && isspace((unsigned char)e[-1]))
            e--;
        while (p < e && isspace((unsigned char)*p))
            p++;
        if (!magic) {
            if ((size_t)(e - p) != strlen(EST_MAGIC) || memcmp(p, EST_MAGIC, strlen(EST_MAGIC))) {
                snprintf(err, errsz, "%s: not a dhm estimation model (its first line must be '%s')", name, EST_MAGIC);
                return -1;
            }
            magic = 1;
            continue;
        }
        if (p == e || *p == '#')
            continue;
        const char *w = p;
        while (w < e && !isspace((unsigned char)*w))
            w++;
        int isp = w - p == 5 && !memcmp(p, "prior", 5), ise = w - p == 2 && !memcmp(p, "ev", 2);
        double *row = isp && np < EST_CLASSES ? m->prior[np] : ise && ne < EST_EVENTS ? m->ev[ne] : NULL;
        if (!row) {
            snprintf(err, errsz, "%s:%d: unexpected line (a model has %d prior and %d ev lines)", name, line,
                     EST_CLASSES, EST_EVENTS);
            return -1;
        }
        if (est_row(w, e, name, line, isp ? "prior" : "ev", isp ? EST_BINS : EST_REL, row, err, errsz))
            return -1;
        np += isp;
        ne += ise;
    }
    if (!magic) {
        snprintf(err, errsz, "%s: empty, not a dhm estimation model", name);
        return -1;
    }
    if (np != EST_CLASSES || ne != EST_EVENTS) {
        snprintf(err, errsz, "%s: truncated: %d of %d prior lines and %d of %d ev lines", name, np, EST_CLASSES, ne,
                 EST_EVENTS);
        return -1;
    }
    return 0;
}

int est_model_load(const char *path, EstModel *m, char *err, size_t errsz)
{
    char *text;
    if (textfile_read(path, (size_t)64 << 20, &text, NULL, err, errsz))
        return -1;
    int rc = est_model_parse(text, path, m, err, errsz);
    free(text);
    return rc;
}

extern const char est_weights_text[];
static EstModel g_builtin;
static int g_builtin_ok;
static char g_builtin_err[256];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
    g_builtin_ok = est_model_parse(est_weights_text, "the built-in players/est.weights", &g_builtin, g_builtin_err,
                                   sizeof g_builtin_err) == 0;
}

const EstModel *est_builtin(char *err, size_t errsz)
{
    pthread_once(&g_once, builtin_init);
    if (!g_builtin_ok && err)
        snprintf(err, errsz, "%s", g_builtin_err);
    return g_builtin_ok ? &g_builtin : NULL;
}

/* ---------------------------------------------------------------- sampling */

static uint8_t g_order[ORDER_RANDOM][53];
static pthread_once_t g_order_once = PTHREAD_ONCE_INIT;
static const int SUIT_ORDER[4] = {SUIT_S, SUIT_H, SUIT_D, SUIT_C};

static void orders_init(void)
{
    for (int o = 0; o < ORDER_RANDOM; o++) {
        int n = 0;
        g_order[o][n++] = JOKER_BIT;
        g_order[o][n++] = S2_BIT;
        const int asc = o == ORDER_SUIT_A || o == ORDER_RANK_A, suit_major = o == ORDER_SUIT_A || o == ORDER_SUIT_D;
        for (int a = 0; a < 4 * 13; a++) {
            int si = suit_major ? a / 13 : a % 4, ci = suit_major ? a % 13 : a / 4;
            int bit = card_bit(asc ? COL_MIN + ci : COL_MAX - ci, SUIT_ORDER[si]);
            if (bit != S2_BIT)
                g_order[o][n++] = (uint8_t)bit;
        }
    }
}

/* The plays' log-likelihood; with tm, also the times of the opponents' passes, in *tll. */
static double history_loglik(const InfoSet *v, const Cards hand[NPLAYERS], const PolicyWeights *w,
                             const RichWeights *rw, unsigned dkmask, const DevkitSeen *dk0, const EstTiming *tm,
                             double *tll);

double est_history_loglik(const InfoSet *v, const Cards hand[NPLAYERS], const PolicyWeights *w, const RichWeights *rw)
{
    return history_loglik(v, hand, w, rw, 0, NULL, NULL, NULL);
}

double est_history_loglik_dk(const InfoSet *v, const Cards hand[NPLAYERS], const PolicyWeights *w,
                             const RichWeights *rw, unsigned dkmask, const DevkitSeen *dk0)
{
    return history_loglik(v, hand, w, rw, dkmask, dk0, NULL, NULL);
}

/* Whether some move but the pass is among mv[0..n). */
static int has_play(const Move *mv, int n)
{
    for (int j = 0; j < n; j++)
        if (mv[j].type != MOVE_PASS)
            return 1;
    return 0;
}

void est_time_count(const GameRecord *rec, EstTimeCounts c[NPLAYERS])
{
    est_time_count_plays(rec->original, rec->seat, rec->first, rec->plays, rec->nplays, c);
}

void est_time_count_plays(const Cards start[NPLAYERS], const uint8_t seat[NPLAYERS], int first, const PlayRec *plays,
                          int nplays, EstTimeCounts c[NPLAYERS])
{
    GameState g;
    state_init(&g, start, seat, first);
    Move mv[MOVEGEN_MAX];
    for (int i = 0; i < nplays && !g.over; i++) {
        const PlayRec *pr = &plays[i];
        if (pr->move.type == MOVE_PASS && pr->usec > 0 && g.turn < NPLAYERS)
            c[g.turn].n[has_play(mv, state_moves(&g, mv))][est_time_bin(pr->usec)]++;
        if (state_apply(&g, pr->move) & EV_STALEMATE)
            break;
    }
}

void est_time_model(const EstTimeCounts *c, double lp[2][EST_TBINS])
{
    for (int h = 0; h < 2; h++) {
        double tot = 0;
        for (int b = 0; b < EST_TBINS; b++)
            tot += (double)c->n[h][b] + 0.5;
        for (int b = 0; b < EST_TBINS; b++)
            lp[h][b] = log(((double)c->n[h][b] + 0.5) / tot);
    }
}

/* A candidate world's log-weight: beta x its plays' log-likelihood, plus the exchange's
 * (mode exch) and the times of the opponents' passes (tm) when asked. */
static double cand_loglik(const InfoSet *v, const Cards hand[NPLAYERS], double beta, const PolicyWeights *w,
                          const RichWeights *rw, unsigned dkmask, const DevkitSeen *dk, int exch, const EstTiming *tm)
{
    double t = 0, ll = history_loglik(v, hand, w, rw, dkmask, dk, tm, &t);
    if (ll == -INFINITY)
        return ll;
    return beta * ll + t + (exch ? est_exchange_loglik(v, hand, exch) : 0);
}

static double history_loglik(const InfoSet *v, const Cards hand[NPLAYERS], const PolicyWeights *w,
                             const RichWeights *rw, unsigned dkmask, const DevkitSeen *dk0, const EstTiming *tm,
                             double *tll)
{
    DevkitSeen dk;
    memset(&dk, 0, sizeof dk);
    if (dkmask)
        dk = *dk0;
    Cards init[NPLAYERS];
    memcpy(init, hand, sizeof init);
    for (int i = 0; i < v->nplays; i++)
        if (v->plays[i].move.type != MOVE_PASS && v->plays[i].player < NPLAYERS)
            init[v->plays[i].player] |= move_cards(v->plays[i].move);
    GameState g;
    state_init(&g, init, v->seat, v->first);
    double ll = 0;
    Move mv[MOVEGEN_MAX];
    double sc[MOVEGEN_MAX];
    for (int i = 0; i < v->nplays && !g.over; i++) {
        const Move m = v->plays[i].move;
        if (g.turn != v->me) {
            int n = state_moves(&g, mv), at = -1;
            for (int j = 0; j < n; j++)
                if (!memcmp(&mv[j], &m, sizeof m))
                    at = j;
            if (at < 0)
                return -INFINITY; /* this world cannot have made that play */
            if (tm && m.type == MOVE_PASS && v->plays[i].usec > 0)
                *tll += tm->lp[g.turn][has_play(mv, n)][est_time_bin(v->plays[i].usec)];
            if ((dkmask >> g.turn) & 1) {
                Move d = devkit_choose(&dk, g.hand[g.turn], g.table, g.rev, g.lock);
                if (!state_is_legal(&g, d))
                    d = move_pass();
                if (!move_eq(d, m))
                    ll += log(EST_DEVKIT_MISS);
            } else if (n >= 2) {
                if (rw) {
                    RichCtx c;
                    rich_ctx_state(&c, &g, v->cls);
                    rich_scores(rw, &c, mv, n, sc);
                } else {
                    PolicyCtx c;
                    policy_ctx_state(&c, &g);
                    policy_scores(w, &c, mv, n, sc);
                }
                double mx = sc[0], z = 0;
                for (int j = 1; j < n; j++)
                    mx = sc[j] > mx ? sc[j] : mx;
                for (int j = 0; j < n; j++)
                    z += exp(sc[j] - mx);
                ll += sc[at] - mx - log(z);
            }
        }
        if (state_apply(&g, m) & EV_STALEMATE)
            break;
        if (dkmask)
            devkit_seen_move(&dk, m, g.table, g.rev, g.lock);
    }
    return ll;
}

/* C(k, n) for n = 1, 2. */
static double choose_n(int k, int n) { return n == 1 ? k : k * (k - 1) / 2.0; }

/* The cards strictly stronger than the strongest of c, in the exchange's order (joker, 2, A ...,
 * ties spades > hearts > diamonds > clubs: the bit order); every card when c is empty. */
static Cards stronger_than_top(Cards c) { return c ? ~((2ULL << cards_highest_bit(c)) - 1) : ~0ULL; }

static const GiftWeights *g_exch_gift;
static pthread_once_t g_exch_gift_once = PTHREAD_ONCE_INIT;
static void exch_gift_init(void)
{
    char err[256];
    g_exch_gift = gift_builtin(err, sizeof err);
}
/* The built-in gift model (NULL if it cannot be read: the gift's term is then left out). */
static const GiftWeights *exch_gift(void)
{
    pthread_once(&g_exch_gift_once, exch_gift_init);
    return g_exch_gift;
}

double est_exchange_loglik(const InfoSet *v, const Cards hand[NPLAYERS], int mode)
{
    if (v->cls[v->me] < 0)
        return 0; /* a class period's first game: no exchange */
    int by_cls[NPLAYERS];
    for (int c = 0; c < NPLAYERS; c++)
        by_cls[c] = -1;
    for (int p = 0; p < NPLAYERS; p++)
        if (v->cls[p] >= 0 && v->cls[p] < NPLAYERS)
            by_cls[v->cls[p]] = p;
    Cards orig[NPLAYERS]; /* each hand as the exchange left it: now plus what it played */
    memcpy(orig, hand, sizeof orig);
    for (int i = 0; i < v->nplays; i++)
        if (v->plays[i].move.type != MOVE_PASS && v->plays[i].player < NPLAYERS)
            orig[v->plays[i].player] |= move_cards(v->plays[i].move);
    double ll = 0;
    for (int n = 1; n <= 2; n++) {
        const int rich = by_cls[2 - n], poor = by_cls[2 + n];
        if (rich < 0 || poor < 0 || (poor == v->me && mode < 3) ||
            (mode % 2 && rich != v->me && poor != v->me))
            continue; /* modes 1 and 2: the poor knows what it gave and got; modes 1 and 3: only my own pair */
        double l;
        if (poor == v->me) {
            /* modes 3 and 4: the gift I got, as the rich partner's change policy would give it from
             * its hand as it stood (now, plus what it played, plus the gift) */
            const GiftWeights *gw = exch_gift();
            if (!gw || cards_count(v->received) != n)
                continue;
            const double lp = gift_logprob(gw, orig[rich] | v->received, v->received);
            ll += lp > -INFINITY ? lp : log(1e-3);
            continue;
        } else if (rich == v->me) {
            /* I got the poor's n strongest among the cards I was shown (start_hand, before I
             * gave): every card the poor kept is weaker than them, so the number of ways is the
             * number of n-sets of my shown cards above its strongest kept card. Exact. */
            l = choose_n(cards_count(v->start_hand & stronger_than_top(orig[poor] & ~v->given)), n);
            if (mode % 2) /* the certain part only: possible or not */
                l = l > 0;
        } else {
            /* The same for a pair I am not in, with the rich's hand (after giving) for mine,
             * and the gift unknown: the rich gives cards it does not want, so most of the
             * weight assumes the gift is not the poor's strongest; 0.1 that the gift was its n
             * strongest (then the bound is the next card). */
            const Cards top = cards_strongest(orig[poor], n);
            l = choose_n(cards_count(orig[rich] & stronger_than_top(orig[poor])), n) +
                0.1 * choose_n(cards_count(orig[rich] & stronger_than_top(orig[poor] & ~top)), n);
        }
        ll += log(l + 1e-3); /* a world the rules rule out: almost never, not never (a server of its own) */
    }
    return ll;
}

static void flat(EstSampler *s)
{
    for (int p = 0; p < NPLAYERS; p++)
        for (int b = 0; b < EST_BINS; b++)
            s->w[p][b] = 1;
}

/* The point estimate (point=1; see estimate.h). */
static double expected_right(const double (*chance)[64], const EstKnown *k, const Cards hand[NPLAYERS])
{
    double e = 0;
    for (int p = 0; p < NPLAYERS; p++)
        if (p != k->me)
            for (Cards x = hand[p] & k->deal; x; x &= x - 1)
                e += chance[p][cards_lowest_bit(x)];
    return e;
}

/* The world with the highest expected number of cards placed right under chance[p][c]: an
 * assignment of the cards to deal to the opponents' free places (each opponent k->room[p] of
 * them), solved exactly (the Hungarian method over cards x places, at most 53 x 53). A pair
 * the constraints forbid costs more than any allowed one, so it is used only where nothing
 * else fits (as the dealing does). Returns 0, or -1 when the rooms do not add up to the cards. */
int est_assign_world(const double (*chance)[64], const EstKnown *k, Cards built[NPLAYERS])
{
    enum { N = 54 };
    int card[N], slot[N], n = 0, m = 0;
    for (Cards x = k->deal; x; x &= x - 1) {
        if (n == N - 1)
            return -1;
        card[++n] = cards_lowest_bit(x); /* 1-based, as the method's arrays */
    }
    for (int p = 0; p < NPLAYERS; p++)
        for (int r = 0; p != k->me && r < k->room[p]; r++) {
            if (m == N - 1)
                return -1;
            slot[++m] = p;
        }
    if (m != n)
        return -1;
    static const double FORBIDDEN = 1e3;
    double u[N] = {0}, w[N] = {0}, minv[N];
    int match[N] = {0}, way[N], used[N];
    for (int i = 1; i <= n; i++) { /* e-maxx's O(n^3) Hungarian, minimising -chance */
        match[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) {
            minv[j] = INFINITY;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            const int i0 = match[j0], c = card[i0];
            double delta = INFINITY;
            int j1 = 0;
            for (int j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                const int p = slot[j];
                const double cost = ((k->forbid[p] >> c) & 1) ? FORBIDDEN : -chance[p][c];
                const double cur = cost - u[i0] - w[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) {
                    u[match[j]] += delta;
                    w[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (match[j0] != 0);
        do {
            const int j1 = way[j0];
            match[j0] = match[j1];
            j0 = j1;
        } while (j0);
    }
    for (int p = 0; p < NPLAYERS; p++)
        if (p != k->me)
            built[p] = k->fixed[p];
    for (int j = 1; j <= n; j++)
        built[slot[j]] |= 1ULL << card[match[j]];
    return 0;
}

void est_point(EstSampler *s, const EstKnown *k)
{
    double chance[NPLAYERS][64] = {{0}};
    for (int i = 0; i < s->npool; i++) {
        const double wi = s->cum[i] - (i ? s->cum[i - 1] : 0);
        for (int p = 0; p < NPLAYERS; p++)
            if (p != k->me)
                for (Cards x = s->pool[i][p] & k->deal; x; x &= x - 1)
                    chance[p][cards_lowest_bit(x)] += wi;
    }
    int best = 0;
    double best_e = -1;
    for (int i = 0; i < s->npool; i++) {
        double e = expected_right((const double (*)[64])chance, k, s->pool[i]);
        if (e > best_e) {
            best_e = e;
            best = i;
        }
    }
    Cards built[NPLAYERS];
    built[k->me] = s->pool[best][k->me];
    if (est_assign_world((const double (*)[64])chance, k, built) == 0 && est_world_ok(k, built) &&
        expected_right((const double (*)[64])chance, k, built) >= best_e)
        memcpy(s->pool[0], built, sizeof built);
    else
        memmove(s->pool[0], s->pool[best], sizeof s->pool[0]);
    s->npool = 1;
    s->cum[0] = 1;
}

/* Room for n candidates in the sampler's pool (0), or -1 with the sampler freed (out of memory). */
static int pool_reserve(EstSampler *s, int n)
{
    if (s->cap >= n)
        return 0;
    Cards(*pool)[NPLAYERS] = realloc(s->pool, (size_t)n * sizeof *pool);
    if (pool)
        s->pool = pool;
    double *cum = pool ? realloc(s->cum, (size_t)n * sizeof *cum) : NULL;
    if (cum)
        s->cum = cum;
    double *ll = cum ? realloc(s->ll, (size_t)n * sizeof *ll) : NULL;
    if (!ll) {
        est_sampler_free(s);
        return -1;
    }
    s->ll = ll;
    s->cap = n;
    return 0;
}

/* Resample-move over the prepared candidates (log-weights ll, total weight tot): npool draws
 * by weight, then o->mcmc Metropolis swaps on each; equal weights after. */
static void resample_move(EstSampler *s, const EstOptions *o, const InfoSet *v, const EstKnown *k, Rng *rng,
                          const double *ll, double tot)
{
    static __thread Cards (*tmp)[NPLAYERS];
    static __thread double *tll;
    static __thread int tcap;
    const int n = s->npool;
    if (n > tcap) {
        free(tmp);
        free(tll);
        tmp = malloc((size_t)n * sizeof *tmp);
        tll = malloc((size_t)n * sizeof *tll);
        tcap = tmp && tll ? n : 0;
        if (!tcap)
            return;
    }
    for (int i = 0; i < n; i++) {
        double r = rng_double(rng) * tot;
        int j = 0;
        while (j < n - 1 && r >= s->cum[j])
            j++;
        memcpy(tmp[i], s->pool[j], sizeof tmp[i]);
        tll[i] = ll[j];
    }
    for (int i = 0; i < n; i++) {
        Cards *h = tmp[i];
        double cur = tll[i];
        for (int step = 0; step < o->mcmc; step++) {
            int p = (int)rng_below(rng, NPLAYERS), q = (int)rng_below(rng, NPLAYERS);
            Cards dp = h[p] & k->deal, dq = h[q] & k->deal;
            if (p == q || p == k->me || q == k->me || !dp || !dq)
                continue;
            int b1 = rng_pick_bit(rng, dp), b2 = rng_pick_bit(rng, dq);
            if (((k->forbid[q] >> b1) & 1) || ((k->forbid[p] >> b2) & 1))
                continue;
            const Cards c1 = 1ULL << b1, c2 = 1ULL << b2;
            h[p] ^= c1 | c2;
            h[q] ^= c1 | c2;
            double nl = o->beta * est_history_loglik(v, h, o->pw, o->rw);
            double prior = log(s->w[q][est_bin(b1)] * s->w[p][est_bin(b2)] / (s->w[p][est_bin(b1)] * s->w[q][est_bin(b2)]));
            if (nl > -INFINITY && log(rng_double(rng) + 1e-300) < nl - cur + prior) {
                cur = nl;
            } else { /* rejected: swap back */
                h[p] ^= c1 | c2;
                h[q] ^= c1 | c2;
            }
        }
        memcpy(s->pool[i], h, sizeof tmp[i]);
        s->cum[i] = i + 1.0;
    }
}

/* est=net: the network's chances for this decision, the per-card dealing weights, and with
 * point=1 the point estimate as the only candidate. */
static void prepare_net(EstSampler *s, const EstNet *net, const EstSeq *seq, double temp, int point,
                        const InfoSet *v, const EstKnown *k)
{
    EstNetFeat f;
    float logit[ESTNET_OUT];
    estnet_features(v, &f);
    if (seq) {
        if (!s->seqc)
            s->seqc = calloc(1, sizeof *s->seqc); /* NULL: every decision cold */
        estseq_logits(seq, s->seqc, v, &f, logit);
    } else {
        estnet_forward(net, &f, logit);
    }
    if (temp > 0 && temp != 1)
        for (int o = 0; o < ESTNET_OUT; o++)
            logit[o] /= (float)temp;
    memset(s->prob, 0, sizeof s->prob);
    memset(s->wc, 0, sizeof s->wc);
    int col[NPLAYERS]; /* player -> its column in wc (opponents by ascending number) */
    for (int p = 0, j = 0; p < NPLAYERS; p++)
        col[p] = p == k->me ? -1 : j++;
    for (Cards x = k->deal; x; x &= x - 1) {
        const int c = cards_lowest_bit(x), ci = estnet_card(c);
        float mx = -INFINITY, z = 0, e[4] = {0};
        for (int pass = 0; pass < 2 && z <= 0; pass++) { /* allowed holders; any with room if none is */
            for (int j = 0; j < 4; j++) {
                const int p = f.opp[j];
                if (k->room[p] > 0 && (pass || !((k->forbid[p] >> c) & 1)) && logit[ci * 4 + j] > mx)
                    mx = logit[ci * 4 + j];
            }
            for (int j = 0; j < 4; j++) {
                const int p = f.opp[j];
                e[j] = k->room[p] > 0 && (pass || !((k->forbid[p] >> c) & 1)) ? expf(logit[ci * 4 + j] - mx) : 0;
                z += e[j];
            }
        }
        for (int j = 0; j < 4 && z > 0; j++) {
            const int p = f.opp[j];
            s->prob[c][p] = e[j] / z;
            if (k->room[p] > 0)
                s->wc[c][col[p]] = e[j] / z / (float)k->room[p];
        }
    }
    if (!point || pool_reserve(s, 1))
        return; /* out of memory: draws instead */
    double chance[NPLAYERS][64] = {{0}};
    for (int p = 0; p < NPLAYERS; p++)
        for (int c = 0; c < 64; c++)
            chance[p][c] = s->prob[c][p];
    s->pool[0][k->me] = v->hand;
    if (est_assign_world((const double (*)[64])chance, k, s->pool[0]) != 0)
        return; /* no world fits the counts: draws instead */
    s->npool = 1;
    s->cum[0] = 1;
}

void est_prepare(EstSampler *s, const EstOptions *o, const InfoSet *v, const EstKnown *k, Rng *rng)
{
    s->npool = 0;
    s->percard = 0;
    s->nprop = 0;
    if (s->kind == EST_NET && (o->net || o->seq)) {
        s->percard = 1;
        prepare_net(s, o->net, o->seq, o->temp, o->point, v, k);
        return;
    }
    if (s->kind == EST_UNIFORM || !o->model || o->uprop) {
        flat(s);
    } else {
        EstFeatures f;
        double lw[NPLAYERS][EST_BINS];
        est_features(v, &f);
        est_table(o->model, &f, lw);
        for (int p = 0; p < NPLAYERS; p++) {
            double mx = lw[p][0];
            for (int b = 1; b < EST_BINS; b++)
                mx = lw[p][b] > mx ? lw[p][b] : mx;
            for (int b = 0; b < EST_BINS; b++)
                s->w[p][b] = exp(lw[p][b] - mx); /* per-player normalisation (snowl): only ratios matter */
        }
    }
    if (s->kind != EST_POLICY || (!o->pw && !o->rw))
        return;
    if (o->fresh > 0) { /* every world drawn from fresh proposals by est_sample */
        s->fresh = o->fresh;
        s->beta = o->beta;
        s->exch = o->exch;
        s->time = o->time;
        s->uprop = o->uprop;
        s->nprop = o->net != NULL;
        if (o->net)
            prepare_net(s, o->net, NULL, 1, 0, v, k);
        s->v = v;
        s->pw = o->pw;
        s->rw = o->rw;
        return;
    }
    int n = o->k < 1 ? 1 : o->k > EST_MAX_POOL ? EST_MAX_POOL : o->k;
    if (pool_reserve(s, n))
        return; /* out of memory: the weight table alone */
    static __thread EstSampler base;
    base = *s;
    base.kind = o->uprop ? EST_UNIFORM : EST_WEIGHTS;
    base.order = ORDER_RANDOM;
    base.pool = NULL;
    base.cum = base.ll = NULL;
    base.cap = 0;
    if (o->net) { /* est-proposal=net: the candidates from the learned estimator */
        prepare_net(&base, o->net, NULL, 1, 0, v, k);
        base.kind = EST_NET;
        base.percard = 1;
    }
    double *ll = s->ll, mx = -INFINITY;
    for (int i = 0; i < n; i++) {
        s->pool[i][k->me] = v->hand;
        est_sample(&base, k, rng, s->pool[i]);
        ll[i] = cand_loglik(v, s->pool[i], o->beta, o->pw, o->rw, s->dkmask, s->dkstart, o->exch,
                            o->time ? s->timing : NULL);
        mx = ll[i] > mx ? ll[i] : mx;
    }
    double tot = 0;
    for (int i = 0; i < n; i++) {
        tot += mx > -INFINITY ? exp(ll[i] - mx) : 1;
        s->cum[i] = tot;
    }
    s->npool = n;
    if (o->mcmc > 0)
        resample_move(s, o, v, k, rng, ll, tot);
    if (o->point)
        est_point(s, k);
}

void est_sampler_free(EstSampler *s)
{
    free(s->pool);
    free(s->cum);
    free(s->ll);
    s->pool = NULL;
    s->cum = s->ll = NULL;
    s->npool = s->cap = 0;
    free(s->seqc);
    s->seqc = NULL;
}

/* One card to an opponent with room: probability proportional to weight x room among those
 * allowed to hold it (any with room if none is). */
static int pick_holder(const EstSampler *s, const EstKnown *k, const int room[NPLAYERS], int bit, Rng *rng)
{
    const int b = est_bin(bit);
    double acc[NPLAYERS], tot = 0;
    int col[NPLAYERS];
    for (int p = 0, j = 0; p < NPLAYERS; p++)
        col[p] = p == k->me ? 0 : j++;
    int last = -1;
    for (int pass = 0; pass < 2 && tot <= 0; pass++) {
        tot = 0;
        for (int p = 0; p < NPLAYERS; p++) {
            double x = 0;
            if (p != k->me && room[p] > 0 && (pass || !((k->forbid[p] >> bit) & 1))) {
                x = (s->percard ? s->wc[bit][col[p]] : s->w[p][b]) * room[p];
                last = p;
            }
            tot += x;
            acc[p] = tot;
        }
    }
    if (tot <= 0)
        return last;
    double r = rng_double(rng) * tot;
    for (int p = 0; p < NPLAYERS; p++)
        if (r < acc[p])
            return p;
    return last;
}

/* k cards drawn uniformly from `from` (k <= its size). */
static Cards draw_cards(Cards from, int k, Rng *rng)
{
    int bits[64], n = 0;
    for (Cards x = from; x; x &= x - 1)
        bits[n++] = __builtin_ctzll(x);
    Cards out = 0;
    for (int i = 0; i < k && i < n; i++) {
        int j = i + (int)rng_below(rng, (uint32_t)(n - i));
        int t = bits[i];
        bits[i] = bits[j];
        bits[j] = t;
        out |= 1ULL << bits[i];
    }
    return out;
}

/* Deals `deal` into hand[] by the sampler's weights and order (uniform: flat weights, and the
 * cards beyond the two special ones drawn at once). */
static void deal_cards(const EstSampler *s, const EstKnown *k, Cards deal, int room[NPLAYERS], int order, Rng *rng,
                       Cards hand[NPLAYERS])
{
    static const int SPECIAL[2] = {JOKER_BIT, S2_BIT};
    for (int i = 0; i < 2; i++) { /* the cards some players cannot hold go first */
        if (!((deal >> SPECIAL[i]) & 1))
            continue;
        int p = pick_holder(s, k, room, SPECIAL[i], rng);
        hand[p] |= 1ULL << SPECIAL[i];
        room[p]--;
        deal &= ~(1ULL << SPECIAL[i]);
    }
    if (s->kind == EST_UNIFORM) {
        for (int p = 0; p < NPLAYERS; p++) {
            if (p == k->me || room[p] <= 0)
                continue;
            Cards add = draw_cards(deal, room[p], rng);
            hand[p] |= add;
            deal &= ~add;
            room[p] = 0;
        }
        return;
    }
    uint8_t rnd[64];
    const uint8_t *seq;
    int n = 0;
    if (order == ORDER_RANDOM) {
        for (Cards x = deal; x; x &= x - 1)
            rnd[n++] = (uint8_t)__builtin_ctzll(x);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)rng_below(rng, (uint32_t)(i + 1));
            uint8_t t = rnd[i];
            rnd[i] = rnd[j];
            rnd[j] = t;
        }
        seq = rnd;
    } else {
        pthread_once(&g_order_once, orders_init);
        seq = g_order[order];
        n = 53;
    }
    /* the four opponents' weights by bin, contiguous, in single precision */
    int opp[4], nopp = 0;
    for (int p = 0; p < NPLAYERS && nopp < 4; p++)
        if (p != k->me)
            opp[nopp++] = p;
    float w4[EST_BINS][4], rm[4];
    for (int b = 0; b < EST_BINS; b++)
        for (int j = 0; j < 4; j++)
            w4[b][j] = j < nopp ? (float)s->w[opp[j]][b] : 0;
    for (int j = 0; j < 4; j++)
        rm[j] = j < nopp ? (float)room[opp[j]] : 0;
    for (int i = 0; i < n; i++) { /* no card left here has a forbidden holder */
        const int bit = seq[i];
        if (!((deal >> bit) & 1))
            continue;
        const float *w = s->percard ? s->wc[bit] : w4[bit >= JOKER_BIT ? 13 : (bit >> 2) - 1];
        const float a0 = w[0] * rm[0], a1 = a0 + w[1] * rm[1], a2 = a1 + w[2] * rm[2], a3 = a2 + w[3] * rm[3];
        const float r = (float)(rng_next(rng) >> 40) * (1.0f / 16777216.0f) * a3;
        int j = r < a0 ? 0 : r < a1 ? 1 : r < a2 ? 2 : 3;
        while (rm[j] <= 0) /* rounding at a boundary: the next one with room */
            j = (j + 1) & 3;
        hand[opp[j]] |= 1ULL << bit;
        rm[j] -= 1;
    }
    for (int j = 0; j < nopp; j++)
        room[opp[j]] = (int)rm[j];
}

/* The hidden cards of the opponents in the oracle's strength order (weakest first). */
static int undetermined_sorted(Cards deal, int strong_first, uint8_t *out)
{
    int n = 0;
    for (Cards x = deal; x; x &= x - 1)
        out[n++] = (uint8_t)__builtin_ctzll(x); /* ascending bits = weakest first (ties: clubs < ... < spades) */
    if (strong_first)
        for (int i = 0; i < n / 2; i++) {
            uint8_t t = out[i];
            out[i] = out[n - 1 - i];
            out[n - 1 - i] = t;
        }
    return n;
}

/* Paper 003 §3.2: the cards placed correctly. Returns them, per holder in placed[]. */
static void oracle_place(const EstSampler *s, const EstKnown *k, Cards placed[NPLAYERS])
{
    memset(placed, 0, NPLAYERS * sizeof *placed);
    const int m = cards_count(k->deal);
    const int d = (int)floor(m * s->p + 1e-9);
    const int strong = s->oracle == ORACLE_ALL_S || s->oracle == ORACLE_EACH_S;
    if (d <= 0)
        return;
    uint8_t seq[64];
    if (s->oracle == ORACLE_ALL_W || s->oracle == ORACLE_ALL_S) {
        int n = undetermined_sorted(k->deal, strong, seq);
        for (int i = 0; i < d && i < n; i++)
            for (int p = 0; p < NPLAYERS; p++)
                if (p != k->me && ((s->truth[p] >> seq[i]) & 1))
                    placed[p] |= 1ULL << seq[i];
        return;
    }
    /* each-w / each-s: quotas by the largest remainder (Hamilton) over the undetermined cards each
     * opponent truly holds; ties go to the lower player number */
    int u[NPLAYERS], q[NPLAYERS], given = 0;
    double frac[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++) {
        u[p] = p == k->me ? 0 : cards_count(s->truth[p] & k->deal);
        double exact = m ? (double)d * u[p] / m : 0;
        q[p] = (int)floor(exact + 1e-9);
        frac[p] = exact - q[p];
        given += q[p];
    }
    while (given < d) {
        int best = -1;
        for (int p = 0; p < NPLAYERS; p++)
            if (p != k->me && q[p] < u[p] && (best < 0 || frac[p] > frac[best] + 1e-12))
                best = p;
        if (best < 0)
            break;
        q[best]++;
        frac[best] = -1;
        given++;
    }
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == k->me || q[p] <= 0)
            continue;
        int n = undetermined_sorted(s->truth[p] & k->deal, strong, seq);
        for (int i = 0; i < q[p] && i < n; i++)
            placed[p] |= 1ULL << seq[i];
    }
}

/* A uniform world in which my poor partner, when I am rich, kept no card as strong as the
 * n-th strongest card I was shown (the server took its n strongest, and they are among those
 * cards): its dealt cards drawn first from the weaker ones, the rest as est_sample deals them. */
static void sample_bounded(const EstSampler *base, const EstKnown *k, const InfoSet *v, Rng *rng,
                           Cards hand[NPLAYERS])
{
    const int me = k->me, n = v->cls[me] == 0 ? 2 : v->cls[me] == 1 ? 1 : 0;
    const int q = n ? partner_of(v->cls, me) : -1;
    if (q < 0 || k->room[q] <= 0 || cards_count(v->start_hand) < n) {
        est_sample(base, k, rng, hand);
        return;
    }
    const Cards below = (1ULL << cards_lowest_bit(cards_strongest(v->start_hand, n))) - 1;
    EstKnown k2 = *k;
    const Cards allowed = k->deal & below & ~k->forbid[q];
    const Cards got = draw_cards(allowed, k->room[q], rng); /* all of them when too few: a world the weight rules out */
    k2.fixed[q] |= got;
    k2.deal &= ~got;
    k2.room[q] -= cards_count(got);
    est_sample(base, &k2, rng, hand);
}

/* est-fresh=M: M proposals from the weight table (est-proposal=uniform: uniform worlds; net: the learned estimator), one
 * picked in proportion to exp(beta ll). */
static void sample_fresh(const EstSampler *s, const EstKnown *k, Rng *rng, Cards hand[NPLAYERS])
{
    Cards prop[EST_MAX_FRESH][NPLAYERS];
    double ll[EST_MAX_FRESH], mx = -INFINITY;
    EstSampler base = *s;
    base.kind = s->uprop ? EST_UNIFORM : s->nprop ? EST_NET : EST_WEIGHTS;
    base.percard = s->nprop;
    base.order = ORDER_RANDOM;
    base.fresh = 0;
    const int bounded = s->uprop && s->exch && s->v->cls[k->me] >= 0;
    const int m = s->fresh < EST_MAX_FRESH ? s->fresh : EST_MAX_FRESH;
    for (int i = 0; i < m; i++) {
        prop[i][k->me] = hand[k->me];
        if (bounded)
            sample_bounded(&base, k, s->v, rng, prop[i]);
        else
            est_sample(&base, k, rng, prop[i]);
        ll[i] = cand_loglik(s->v, prop[i], s->beta, s->pw, s->rw, s->dkmask, s->dkstart, s->exch, s->time ? s->timing : NULL);
        mx = ll[i] > mx ? ll[i] : mx;
    }
    double w[EST_MAX_FRESH], tot = 0;
    for (int i = 0; i < m; i++)
        tot += w[i] = mx > -INFINITY ? exp(ll[i] - mx) : 1; /* none possible: any of them */
    double r = rng_double(rng) * tot;
    int at = 0;
    while (at < m - 1 && r >= w[at])
        r -= w[at++];
    for (int p = 0; p < NPLAYERS; p++)
        if (p != k->me)
            hand[p] = prop[at][p];
}

void est_sample(const EstSampler *s, const EstKnown *k, Rng *rng, Cards hand[NPLAYERS])
{
    if (s->kind == EST_POLICY && s->fresh > 0 && s->v) {
        sample_fresh(s, k, rng, hand);
        return;
    }
    if ((s->kind == EST_POLICY || s->kind == EST_NET) && s->npool > 0) { /* a candidate, in proportion to its weight */
        double r = rng_double(rng) * s->cum[s->npool - 1];
        int lo = 0, hi = s->npool - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (r < s->cum[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        for (int p = 0; p < NPLAYERS; p++)
            if (p != k->me)
                hand[p] = s->pool[lo][p];
        return;
    }
    int room[NPLAYERS];
    Cards deal = k->deal;
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == k->me)
            continue;
        hand[p] = k->fixed[p];
        room[p] = k->room[p];
    }
    room[k->me] = 0;
    int order = s->order;
    if (s->kind == EST_ORACLE && s->truth) {
        Cards placed[NPLAYERS];
        oracle_place(s, k, placed);
        for (int p = 0; p < NPLAYERS; p++) {
            if (p == k->me)
                continue;
            hand[p] |= placed[p];
            room[p] -= cards_count(placed[p]);
            deal &= ~placed[p];
        }
        order = ORDER_RANDOM; /* paper 003: the rest in random order */
    }
    deal_cards(s, k, deal, room, order, rng, hand);
}

void est_accuracy(const Cards world[NPLAYERS], const Cards truth[NPLAYERS], int me, long *right, long *total)
{
    for (int p = 0; p < NPLAYERS; p++) {
        if (p == me)
            continue;
        *right += cards_count(world[p] & truth[p]);
        *total += cards_count(truth[p]);
    }
}

/* ---------------------------------------------------------------- options */

int est_options(PlayerSpec *s, const char *kind_key, const char *model_key, int def_kind, EstOptions *o, char *err,
                size_t errsz)
{
    memset(o, 0, sizeof *o);
    o->kind = def_kind;
    o->order = ORDER_RANDOM;
    const char *k = kind_key ? spec_get_str(s, kind_key, est_kind_name(def_kind)) : s->kind;
    if ((o->kind = est_kind_parse(k)) < 0) {
        snprintf(err, errsz, "est=%s: valid are uniform, weights, oracle, policy, net", k);
        return -1;
    }
    const char *ord = spec_get_str(s, "order", NULL), *meth = spec_get_str(s, "method", NULL);
    if (ord && (o->order = est_order_parse(ord)) < 0) {
        snprintf(err, errsz, "order=%s: valid are suit-a, suit-d, rank-a, rank-d, random", ord);
        return -1;
    }
    if (ord && o->kind != EST_WEIGHTS) {
        snprintf(err, errsz, "order= is for est=weights (the others deal in random order or uniformly)");
        return -1;
    }
    if ((meth || spec_get_str(s, "p", NULL)) && o->kind != EST_ORACLE) {
        snprintf(err, errsz, "method= and p= are for est=oracle");
        return -1;
    }
    if (meth && (o->oracle = est_oracle_parse(meth)) < 0) {
        snprintf(err, errsz, "method=%s: valid are all-w, all-s, each-w, each-s", meth);
        return -1;
    }
    if (o->kind == EST_ORACLE && !meth) {
        snprintf(err, errsz, "est=oracle needs method=all-w|all-s|each-w|each-s (and p=P)");
        return -1;
    }
    if (spec_get_double(s, "p", 0, 1, 0, &o->p, err, errsz))
        return -1;
    long kk;
    char kkey[32], bkey[32], wkey[32], mkey[32], pkey[32], fkey[32], ekey[32];
    char xkey[32];
    snprintf(xkey, sizeof xkey, "%s", kind_key ? "est-proposal" : "proposal");
    const char *prop = spec_get_str(s, xkey, NULL);
    if (prop && (o->kind != EST_POLICY || (strcmp(prop, "weights") && strcmp(prop, "net") && strcmp(prop, "uniform")))) {
        snprintf(err, errsz,
                 "%s=%s: est=policy takes %s=weights (the weight table), net (the learned estimator) or uniform", xkey,
                 prop, xkey);
        return -1;
    }
    o->uprop = prop && !strcmp(prop, "uniform");
    if (prop && !strcmp(prop, "net") && !(o->net = estnet_builtin(err, errsz)))
        return -1;
    char qkey[32];
    snprintf(qkey, sizeof qkey, "%s", kind_key ? "est-seq" : "seq");
    if (spec_get_str(s, qkey, NULL) && o->kind != EST_NET) {
        snprintf(err, errsz, "%s= is for est=net", qkey);
        return -1;
    }
    long useseq = 0;
    if (spec_get_int(s, qkey, 0, 1, 0, &useseq, err, errsz))
        return -1;
    char tkey[32];
    snprintf(tkey, sizeof tkey, "%s", kind_key ? "est-temp" : "temp");
    if (spec_get_str(s, tkey, NULL) && o->kind != EST_NET) {
        snprintf(err, errsz, "%s= is for est=net", tkey);
        return -1;
    }
    if (spec_get_double(s, tkey, 0.05, 20, 1, &o->temp, err, errsz))
        return -1;
    snprintf(fkey, sizeof fkey, "%s", kind_key ? "est-fresh" : "fresh");
    snprintf(ekey, sizeof ekey, "%s", kind_key ? "est-exch" : "exch");
    snprintf(pkey, sizeof pkey, "%s", kind_key ? "est-point" : "point");
    snprintf(mkey, sizeof mkey, "%s", kind_key ? "est-mcmc" : "mcmc");
    snprintf(kkey, sizeof kkey, "%s", kind_key ? "est-k" : "k");
    snprintf(bkey, sizeof bkey, "%s", kind_key ? "est-beta" : "beta");
    snprintf(wkey, sizeof wkey, "%s", kind_key ? "est-weights" : "weights");
    if (spec_get_str(s, pkey, NULL) && o->kind != EST_POLICY && o->kind != EST_NET) {
        snprintf(err, errsz, "%s= is for est=policy and est=net", pkey);
        return -1;
    }
    if ((spec_get_str(s, kkey, NULL) || spec_get_str(s, bkey, NULL) || spec_get_str(s, wkey, NULL) ||
         spec_get_str(s, mkey, NULL) || spec_get_str(s, fkey, NULL) || spec_get_str(s, ekey, NULL)) &&
        o->kind != EST_POLICY) {
        snprintf(err, errsz, "%s=, %s=, %s=, %s=, %s= and %s= are for est=policy", kkey, bkey, wkey, mkey, fkey, ekey);
        return -1;
    }
    if (spec_get_int(s, kkey, 1, EST_MAX_POOL, 64, &kk, err, errsz) ||
        spec_get_double(s, bkey, 0, 10, 0.5, &o->beta, err, errsz))
        return -1;
    o->k = (int)kk;
    if (spec_get_int(s, mkey, 0, 100000, 0, &kk, err, errsz))
        return -1;
    o->mcmc = (int)kk;
    if (spec_get_int(s, pkey, 0, 1, 0, &kk, err, errsz))
        return -1;
    o->point = (int)kk;
    if (spec_get_int(s, fkey, 0, EST_MAX_FRESH, 0, &kk, err, errsz))
        return -1;
    o->fresh = (int)kk;
    if (spec_get_int(s, ekey, 0, 4, 0, &kk, err, errsz))
        return -1;
    o->exch = (int)kk;
    /* the opponents' times: learnt from the games already over, by the walk over recorded
     * games (dhm estimate) or by the player itself (mc) */
    char tmkey[32];
    snprintf(tmkey, sizeof tmkey, "%s", kind_key ? "est-time" : "time");
    if (spec_get_str(s, tmkey, NULL) && o->kind != EST_POLICY) {
        snprintf(err, errsz, "%s= is for est=policy", tmkey);
        return -1;
    }
    if (spec_get_int(s, tmkey, 0, 1, 0, &kk, err, errsz))
        return -1;
    o->time = (int)kk;
    if (o->time && o->mcmc) {
        snprintf(err, errsz, "%s= does not go with %s=", tmkey, mkey);
        return -1;
    }
    if (o->fresh > 0 && (o->point || o->mcmc)) {
        snprintf(err, errsz, "%s= draws every world afresh: it does not go with %s= or %s=", fkey, pkey, mkey);
        return -1;
    }
    if (o->kind == EST_POLICY) {
        const char *wf = spec_get_str(s, wkey, NULL);
        const int builtin_rich = wf && !strcmp(wf, "rich");
        const int rich = builtin_rich ? 1 : wf ? rich_file_kind(wf, err, errsz) : 0;
        if (rich < 0)
            return -1;
        if (builtin_rich) {
            if (!(o->rw = rich_builtin(err, errsz)))
                return -1;
        } else if (rich) {
            o->ownr = malloc(sizeof *o->ownr);
            if (!o->ownr || rich_load(wf, o->ownr, err, errsz)) {
                if (!o->ownr)
                    snprintf(err, errsz, "out of memory");
                free(o->ownr);
                o->ownr = NULL;
                return -1;
            }
            o->rw = o->ownr;
        } else if (wf) {
            o->ownw = malloc(sizeof *o->ownw);
            char e[400];
            if (!o->ownw || policy_load(wf, o->ownw, e, sizeof e)) {
                if (!o->ownw)
                    snprintf(err, errsz, "out of memory");
                else
                    snprintf(err, errsz, "%s: %s=%s: %s", s->kind, wkey, wf, e);
                free(o->ownw);
                o->ownw = NULL;
                return -1;
            }
            o->pw = o->ownw;
        } else if (!(o->pw = policy_builtin(err, errsz))) {
            return -1;
        }
    }
    const char *file = spec_get_str(s, model_key, NULL);
    if (file && o->kind == EST_UNIFORM) {
        snprintf(err, errsz, "%s= is for est=weights, oracle, policy or net", model_key);
        return -1;
    }
    if (o->kind == EST_NET && useseq) {
        char e[400];
        if (estseq_option(file, model_key, &o->seq, &o->ownseq, e, sizeof e)) {
            snprintf(err, errsz, "%s: %s", s->kind, e);
            est_options_free(o);
            return -1;
        }
        return 0;
    }
    if (o->kind == EST_NET) {
        char e[400];
        if (estnet_option(file, model_key, &o->net, &o->ownnet, e, sizeof e)) {
            snprintf(err, errsz, "%s: %s", s->kind, e);
            est_options_free(o);
            return -1;
        }
        return 0;
    }
    if (o->kind == EST_UNIFORM)
        return 0;
    if (file) {
        o->own = malloc(sizeof *o->own);
        char e[400];
        if (!o->own || est_model_load(file, o->own, e, sizeof e)) {
            if (!o->own)
                snprintf(err, errsz, "out of memory");
            else
                snprintf(err, errsz, "%s: %s=%s: %s", s->kind, model_key, file, e);
            est_options_free(o);
            return -1;
        }
        o->model = o->own;
    } else if (!(o->model = est_builtin(err, errsz))) {
        return -1;
    }
    return 0;
}

static const char *exch_name(int mode)
{
    static const char *const NAMES[5] = {"", " exch=1", " exch=2", " exch=3", " exch=4"};
    return mode >= 0 && mode < 5 ? NAMES[mode] : "";
}

int est_options_parse(const char *text, EstOptions *o, char *err, size_t errsz)
{
    PlayerSpec s;
    memset(o, 0, sizeof *o);
    if (player_spec_parse(text, &s, err, errsz) || est_options(&s, NULL, "model", EST_UNIFORM, o, err, errsz))
        return -1;
    if (spec_check_unused(&s, "order, method, p, model, k, beta, weights, mcmc, point, fresh, exch, time, proposal, seq, temp", err, errsz)) {
        est_options_free(o);
        return -1;
    }
    return 0;
}

void est_options_free(EstOptions *o)
{
    free(o->own);
    free(o->ownw);
    free(o->ownr);
    free(o->ownnet);
    o->ownnet = NULL;
    o->net = NULL;
    free(o->ownseq);
    o->ownseq = NULL;
    o->seq = NULL;
    o->own = NULL;
    o->ownw = NULL;
    o->ownr = NULL;
    o->model = NULL;
    o->pw = NULL;
    o->rw = NULL;
}

void est_sampler_init(EstSampler *s, const EstOptions *o)
{
    memset(s, 0, sizeof *s);
    s->kind = o->kind;
    s->order = o->order;
    s->oracle = o->oracle;
    s->p = o->p;
    for (int p = 0; p < NPLAYERS; p++)
        for (int b = 0; b < EST_BINS; b++)
            s->w[p][b] = 1;
}

void est_options_describe(const EstOptions *o, char *buf, size_t size)
{
    if (o->kind == EST_ORACLE)
        snprintf(buf, size, "oracle method=%s p=%g", est_oracle_name(o->oracle), o->p);
    else if (o->kind == EST_POLICY)
        if (o->fresh > 0)
            snprintf(buf, size, "policy fresh=%d beta=%g%s%s%s%s", o->fresh, o->beta, o->rw ? " rich" : "",
                     o->net ? " proposal=net" : o->uprop ? " proposal=uniform" : "", exch_name(o->exch),
                     o->time ? " time=1" : "");
        else
            snprintf(buf, size, "policy k=%d beta=%g mcmc=%d%s%s%s%s%s", o->k, o->beta, o->mcmc, o->point ? " point=1" : "",
                     o->rw ? " rich" : "", o->net ? " proposal=net" : o->uprop ? " proposal=uniform" : "",
                     exch_name(o->exch), o->time ? " time=1" : "");
    else if (o->kind == EST_WEIGHTS)
        snprintf(buf, size, "weights order=%s", est_order_name(o->order));
    else if (o->kind == EST_NET)
        if (o->temp > 0 && o->temp != 1)
            snprintf(buf, size, "net%s temp=%g%s", o->seq ? " seq=1" : "", o->temp, o->point ? " point=1" : "");
        else
            snprintf(buf, size, "net%s%s", o->seq ? " seq=1" : "", o->point ? " point=1" : "");
    else
        snprintf(buf, size, "uniform");
}

int est_sample_hands(const InfoSet *v, const int count[NPLAYERS], Rng *rng, Cards hand[NPLAYERS])
{
    /* Every hand is written whatever happens; -1 says the counts could not all be met. */
    for (int p = 0; p < NPLAYERS; p++)
        hand[p] = p == v->me ? v->hand : 0;
    EstKnown k;
    if (est_known(v, count, &k))
        return -1;
    EstOptions o;
    memset(&o, 0, sizeof o);
    EstSampler s;
    est_sampler_init(&s, &o);
    est_sample(&s, &k, rng, hand);
    return 0;
}
