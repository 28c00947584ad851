/* viewfmt.c — the shared pieces of the game printers (see viewfmt.h). */
#include "report/viewfmt.h"

#include <stdio.h>
#include <string.h>

/* Built without printf: a view prints some 150 cards a game. */
static void card_tok(int bit, CardTok *t)
{
    static const char *const RANK[16] = {"?", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "?", "?"};
    static const char SUIT[4][4] = {"\u2663", "\u2666", "\u2665", "\u2660"}; /* 3 bytes each in UTF-8 */
    t->as[0] = 0;
    t->as_cols = 0;
    if (bit == JOKER_BIT) {
        memcpy(t->s, "JK", 3);
        t->cols = 2;
        t->len = 2;
        t->joker = 1;
        t->red = 0;
        return;
    }
    const char *r = RANK[bit >> 2];
    const size_t k = strlen(r);
    memcpy(t->s, r, k);
    memcpy(t->s + k, SUIT[bit & 3], 3);
    t->s[k + 3] = 0;
    t->cols = (int)k + 1;
    t->len = k + 3;
    t->joker = 0;
    t->red = (bit & 3) == SUIT_D || (bit & 3) == SUIT_H;
}

int viewfmt_cards(Cards c, CardTok *out)
{
    int n = 0;
    for (Cards x = c & CARDS_ALL; x; x &= x - 1)
        card_tok(cards_lowest_bit(x), &out[n++]);
    return n;
}

int viewfmt_move(Move m, CardTok *out)
{
    if (move_is_pass(m))
        return 0;
    if (m.type == MOVE_JOKER) {
        card_tok(JOKER_BIT, &out[0]);
        return 1;
    }
    int n = 0;
    const int stand = m.jk >= 1 && m.jk <= JOKER_BIT ? m.jk - 1 : -1;
    for (Cards x = move_cells(m); x && n < VIEWFMT_MOVE_MAX - 1; x &= x - 1) {
        const int b = cards_lowest_bit(x);
        if (b == stand) {
            card_tok(JOKER_BIT, &out[n]);
            const int col = b >> 2;
            if (col >= COL_MIN && col <= COL_MAX) {
                CardTok as;
                card_tok(b, &as);
                memcpy(out[n].as, as.s, sizeof as.s);
                out[n].as_cols = as.cols;
                out[n].red = as.red;
            } else { /* the slots below the 3 and above the 2: the kifu's ranks u and o ("s-u34(u)") */
                out[n].as[0] = RANK_CHARS[col & 15];
                out[n].as[1] = 0;
                out[n].as_cols = 1;
                out[n].red = (b & 3) == SUIT_D || (b & 3) == SUIT_H;
            }
            n++;
        } else {
            card_tok(b, &out[n++]);
        }
    }
    if (m.jk == JK_ROW4 && n < VIEWFMT_MOVE_MAX)
        card_tok(JOKER_BIT, &out[n++]);
    return n;
}

static void toks_text(const CardTok *t, int n, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k < size; i++) {
        int w = snprintf(buf + k, size - k, "%s%s%s%s%s", i ? " " : "", t[i].s, *t[i].as ? "(" : "", t[i].as,
                         *t[i].as ? ")" : "");
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

void viewfmt_move_text(Move m, char *buf, size_t size)
{
    CardTok t[VIEWFMT_MOVE_MAX];
    int n = viewfmt_move(m, t);
    if (!n)
        snprintf(buf, size, "pass");
    else
        toks_text(t, n, buf, size);
}

void viewfmt_cards_text(Cards c, char *buf, size_t size)
{
    CardTok t[53];
    toks_text(t, viewfmt_cards(c, t), buf, size);
}

void viewfmt_choice_text(const ReviewChoice *c, int exchange, char *buf, size_t size)
{
    if (exchange)
        viewfmt_cards_text(c->gift, buf, size);
    else
        viewfmt_move_text(c->move, buf, size);
}

void viewfmt_choice_kifu(const ReviewChoice *c, int exchange, char *buf, size_t size)
{
    if (exchange)
        cards_format(c->gift, buf, size);
    else
        move_format(c->move, buf, size);
}

void viewfmt_suits(unsigned suits, char *buf, size_t size)
{
    static const char *const SYM[4] = {"\u2663", "\u2666", "\u2665", "\u2660"};
    size_t k = 0;
    buf[0] = 0;
    for (int s = 0; s < 4 && k < size; s++)
        if ((suits >> s) & 1) {
            int w = snprintf(buf + k, size - k, "%s", SYM[s]);
            if (w < 0)
                break;
            k += (size_t)w;
        }
}

const char *viewfmt_ordinal(int place)
{
    static const char *const O[NPLAYERS] = {"1st", "2nd", "3rd", "4th", "5th"};
    return place >= 0 && place < NPLAYERS ? O[place] : "?";
}

void viewfmt_notes(const ViewPlay *p, char *buf, size_t size)
{
    size_t k = 0;
    char part[64];
    buf[0] = 0;
    if (!p->eight && p->place < 0 && !(p->ev & (EV_REVOLUTION | EV_LOCK | EV_CLEAR | EV_STALEMATE)))
        return; /* most plays */
#define NOTE(...)                                                                                                  \
    do {                                                                                                           \
        snprintf(part, sizeof part, __VA_ARGS__);                                                                  \
        int w_ = snprintf(buf + k, k < size ? size - k : 0, "%s%s", k ? ", " : "", part);                          \
        if (w_ > 0 && k + (size_t)w_ < size)                                                                       \
            k += (size_t)w_;                                                                                       \
    } while (0)
    if (p->eight)
        NOTE("8-cut");
    if (p->ev & EV_REVOLUTION)
        NOTE("%s", p->rev ? "revolution undone" : "revolution");
    if (p->ev & EV_LOCK) {
        char su[16];
        viewfmt_suits(p->move.suits, su, sizeof su);
        NOTE("lock %s", su);
    }
    if (p->place >= 0)
        NOTE("out %s (%s)", viewfmt_ordinal(p->place), gameview_class_name(p->place));
    if ((p->ev & EV_CLEAR) && !p->eight && !(p->ev & EV_OVER))
        NOTE("cleared");
    if (p->ev & EV_STALEMATE)
        NOTE("stalemate: %d passes in a row", STALEMATE_PASSES);
#undef NOTE
}

const ReviewDecision *viewfmt_decision(DecisionCursor *c, int ply, int giver)
{
    if (!c->r)
        return NULL;
    for (int i = c->at; i < c->r->n; i++) {
        const ReviewDecision *d = &c->r->d[i];
        if (ply < 0 ? (d->exchange && d->player == giver) : (!d->exchange && d->ply == ply)) {
            c->at = ply < 0 ? c->at : i + 1;
            return d;
        }
        if (!d->exchange && d->ply > ply && ply >= 0)
            break;
    }
    return NULL;
}
