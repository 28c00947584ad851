/* view.c — the terminal view of a recorded game (view.h): 80 columns, ANSI colours only when
 * the caller asks (dhm view: a terminal, NO_COLOR unset). Suit symbols are one column wide. */
#include "report/view.h"

#include <math.h>
#include <string.h>

#include "report/viewfmt.h"

#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[31m"
#define C_YELLOW "\033[33m"
#define C_MAGENTA "\033[35m"
#define C_CYAN "\033[36m"
#define C_OFF "\033[0m"

static const char *col(const ViewDoc *d, const char *code) { return d->color ? code : ""; }

/* Display columns of the first len bytes of UTF-8 text (every code point one column; escape
 * sequences none). */
static int width_n(const char *s, size_t len)
{
    int w = 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c == 033) {
            while (i < len && s[i] != 'm')
                i++;
            continue;
        }
        w += (c & 0xC0) != 0x80;
    }
    return w;
}

static int width(const char *s) { return width_n(s, strlen(s)); }

/* A line being built (the text view prints a line with one write; printf on every piece is
 * most of the time of a view otherwise): its bytes and its display columns. */
typedef struct Line {
    char s[2048];
    size_t n;
    int w;
} Line;

static void l_put(Line *l, const char *s, size_t len, int cols)
{
    if (l->n + len < sizeof l->s) {
        memcpy(l->s + l->n, s, len);
        l->n += len;
        l->w += cols;
    }
}

static void l_text(Line *l, const char *s) { l_put(l, s, strlen(s), width(s)); }

/* Spaces up to column `to`. */
static void l_pad(Line *l, int to)
{
    static const char SP[] = "                                                                                ";
    if (l->w < to)
        l_put(l, SP, (size_t)(to - l->w < 80 ? to - l->w : 80), to - l->w < 80 ? to - l->w : 80);
}

/* v right-aligned in w columns. */
static void l_int(Line *l, int v, int w)
{
    char b[16];
    int k = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do
        b[15 - k++] = (char)('0' + u % 10);
    while ((u /= 10) && k < 15);
    if (v < 0 && k < 16)
        b[15 - k++] = '-';
    if (k < w)
        l_pad(l, l->w + w - k);
    l_put(l, b + 16 - k, (size_t)k, k);
}

static void l_end(FILE *f, Line *l)
{
    l->s[l->n++] = '\n';
    fwrite(l->s, 1, l->n, f);
    l->n = 0;
    l->w = 0;
}

/* Card tokens, the red suits coloured, space separated. */
static void l_toks(Line *l, const ViewDoc *d, const CardTok *t, int n)
{
    for (int i = 0; i < n; i++) {
        const char *on = t[i].joker ? col(d, C_BOLD) : t[i].red ? col(d, C_RED) : "";
        if (i)
            l_put(l, " ", 1, 1);
        if (*on)
            l_put(l, on, strlen(on), 0);
        l_put(l, t[i].s, t[i].len, t[i].cols);
        if (*t[i].as) {
            l_put(l, "(", 1, 1);
            l_put(l, t[i].as, strlen(t[i].as), t[i].as_cols);
            l_put(l, ")", 1, 1);
        }
        if (*on)
            l_put(l, C_OFF, sizeof C_OFF - 1, 0);
    }
}

static void l_cards(Line *l, const ViewDoc *d, Cards c)
{
    CardTok t[53];
    l_toks(l, d, t, viewfmt_cards(c, t));
}

static void l_move(Line *l, const ViewDoc *d, Move m)
{
    CardTok t[VIEWFMT_MOVE_MAX];
    int n = viewfmt_move(m, t);
    if (n) {
        l_toks(l, d, t, n);
    } else {
        l_text(l, col(d, C_DIM));
        l_put(l, "pass", 4, 4);
        l_text(l, col(d, C_OFF));
    }
}

/* Text (a card set) into a buffer, for the lines not built with Line. */
static void cards_col(const ViewDoc *d, Cards c, char *buf, size_t size)
{
    Line l;
    l.n = 0;
    l.w = 0;
    l_cards(&l, d, c);
    snprintf(buf, size, "%.*s", (int)l.n, l.s);
}

/* s, then spaces up to w columns. */
static void padded(FILE *f, const char *s, int w)
{
    fputs(s, f);
    for (int k = width(s); k < w; k++)
        fputc(' ', f);
}

/* "p3 name" (the name cut at 13 bytes), without printf. */
static void label(const ViewGame *g, int p, char *buf, size_t size)
{
    const size_t k = strnlen(g->names[p], 13);
    if (size < k + 4)
        return;
    buf[0] = 'p';
    buf[1] = (char)('0' + p);
    buf[2] = ' ';
    memcpy(buf + 3, g->names[p], k);
    buf[3 + k] = 0;
}

static const char *mark_colour(const ViewDoc *d, int mark)
{
    return mark == MARK_VERY_BAD ? (d->color ? C_BOLD C_RED : "")
           : mark == MARK_BAD    ? col(d, C_MAGENTA)
           : mark == MARK_DOUBTFUL ? col(d, C_YELLOW)
                                   : "";
}

/* Text wrapped at 80 columns on spaces (its leading spaces kept), printed from column `start` on,
 * each line after the first indented by `indent`. */
static void wrapped(FILE *f, const char *text, int start, int indent)
{
    Line l;
    l.n = 0;
    l.w = start;
    const size_t lead = strspn(text, " ");
    l_put(&l, text, lead, (int)lead);
    int empty = 1; /* nothing but indentation on the line yet */
    for (const char *p = text + lead; *p;) {
        const size_t len = strcspn(p, " ");
        const int ww = width_n(p, len);
        if (!empty && l.w + 1 + ww > 80) {
            l_end(f, &l);
            l_pad(&l, indent);
            empty = 1;
        }
        if (!empty)
            l_put(&l, " ", 1, 1);
        l_put(&l, p, len, ww);
        empty = 0;
        p += len;
        p += strspn(p, " ");
    }
    l_end(f, &l);
}

/* The verdict on one judged decision, on its own line(s) under the play or gift:
 * "?? loss 0.250 very bad: 0.500, best 10♥ J♥ Q♥ 0.750; luck +0.000". */
static void verdict(FILE *f, const ViewDoc *d, const ReviewDecision *x)
{
    char best[96], b[600];
    viewfmt_choice_text(&x->best, x->exchange, best, sizeof best);
    if (x->loss > 0)
        snprintf(b, sizeof b, "        %s%-2s loss %.3f%s%s%s: %.3f, best %s %.3f; luck %+.3f", mark_colour(d, x->mark),
                 review_mark_symbol(x->mark), x->loss, x->mark ? " " : "", review_mark_name(x->mark),
                 x->mark ? col(d, C_OFF) : "", x->chosen.q, best, x->best.q, x->luck);
    else
        snprintf(b, sizeof b, "        %s=  the best: %.3f; luck %+.3f%s", col(d, C_DIM), x->chosen.q, x->luck, col(d, C_OFF));
    wrapped(f, b, 0, 11);
    if (x->sure && x->mark == MARK_VERY_BAD)
        fprintf(f, "           %sa certain win passed up%s\n", mark_colour(d, x->mark), col(d, C_OFF));
    if (d->alternatives) {
        int n = snprintf(b, sizeof b, "           best of %d:", x->nchoices);
        for (int k = 0; k < x->ntop && n > 0 && (size_t)n < sizeof b; k++) {
            char t[96];
            viewfmt_choice_text(&x->top[k], x->exchange, t, sizeof t);
            n += snprintf(b + n, sizeof b - (size_t)n, "%s %s %.3f", k ? " ·" : "", t, x->top[k].q);
        }
        wrapped(f, b, 0, 13);
    }
}

static void rule(FILE *f, const ViewDoc *d, const char *title)
{
    Line l;
    l.n = 0;
    l.w = 0;
    l_text(&l, col(d, C_BOLD));
    l_text(&l, "══ ");
    l_text(&l, title);
    l_put(&l, " ", 1, 1);
    while (l.w < 80)
        l_put(&l, "═", strlen("═"), 1);
    l_text(&l, col(d, C_OFF));
    l_end(f, &l);
}

static void heading(FILE *f, const ViewDoc *d, const char *s)
{
    fputs(col(d, C_BOLD), f);
    fputs(s, f);
    fputs(col(d, C_OFF), f);
    fputc('\n', f);
}

static void hands(FILE *f, const ViewDoc *d, const ViewGame *g, const Cards h[NPLAYERS], int with_class)
{
    const GameRecord *rec = g->view->rec;
    char lb[32];
    Line l;
    l.n = 0;
    l.w = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        label(g, p, lb, sizeof lb);
        l_put(&l, "  ", 2, 2);
        l_text(&l, lb);
        l_pad(&l, 19);
        if (with_class && g->view->exchange) {
            l_text(&l, gameview_class_name(rec->cls[p]));
            l_pad(&l, 29);
        }
        l_cards(&l, d, h[p]);
        l_put(&l, "  (", 3, 3);
        l_int(&l, cards_count(h[p]), 0);
        l_put(&l, ")", 1, 1);
        l_end(f, &l);
    }
}

void view_text_game(FILE *f, const ViewDoc *d, const ViewGame *g)
{
    const GameView *v = g->view;
    const GameRecord *rec = v->rec;
    char b[640], lb[32], lb2[32];
    if (g->set >= 0)
        snprintf(b, sizeof b, "game %d · set %ld of %s · index %ld", rec->number, g->set, d->source, g->index);
    else
        snprintf(b, sizeof b, "game %d · %s · index %ld", rec->number, d->source, g->index);
    rule(f, d, b);
    Line sl;
    sl.n = 0;
    sl.w = 0;
    l_text(&sl, "seats   ");
    for (int s = 0; s < NPLAYERS; s++) {
        l_text(&sl, s ? " → p" : "p");
        l_int(&sl, rec->seat[s], 0);
    }
    l_text(&sl, "   (the order of play; the deal began with p");
    l_int(&sl, rec->dealer, 0);
    l_text(&sl, ")");
    l_end(f, &sl);
    if (!v->exchange)
        fprintf(f, "no exchange: the first game of a class period\n");

    fprintf(f, "\n");
    heading(f, d, v->exchange ? "deal                   class before" : "deal");
    hands(f, d, g, rec->dealt, 1);
    DecisionCursor cur = {g->review, 0};
    if (v->exchange) {
        fprintf(f, "\n");
        heading(f, d, "exchange");
        for (int k = 0; k < v->ngifts; k++) {
            const ViewGift *x = &v->gifts[k];
            snprintf(lb, sizeof lb, "p%d (%s)", x->from, gameview_class_name(rec->cls[x->from]));
            snprintf(lb2, sizeof lb2, "p%d (%s)", x->to, gameview_class_name(rec->cls[x->to]));
            cards_col(d, x->cards, b, sizeof b);
            fputs("  ", f);
            padded(f, lb, 15);
            fputs(" → ", f);
            padded(f, lb2, 15);
            padded(f, b, 8);
            fprintf(f, "  %s%s%s\n", col(d, C_DIM), x->chosen ? "its choice" : "its strongest, by the rules",
                    col(d, C_OFF));
            const ReviewDecision *x2 = x->chosen ? viewfmt_decision(&cur, -1, x->from) : NULL;
            if (x2)
                verdict(f, d, x2);
        }
        fprintf(f, "\n");
        heading(f, d, "hands after the exchange");
        hands(f, d, g, rec->original, 0);
    }

    char labels[NPLAYERS][32];
    for (int p = 0; p < NPLAYERS; p++)
        label(g, p, labels[p], sizeof labels[p]);
    for (int t = 0; t < v->ntricks; t++) {
        const ViewTrick *tr = &v->tricks[t];
        const ViewPlay *p0 = &v->plays[tr->first];
        Line h;
    h.n = 0;
    h.w = 0;
        l_put(&h, "\n", 1, 0);
        l_text(&h, col(d, C_BOLD));
        l_text(&h, "trick ");
        l_int(&h, t + 1, 0);
        l_text(&h, " · ");
        l_text(&h, labels[tr->leader]);
        l_text(&h, t == 0 ? " leads (holds the 3♦)" : " leads");
        l_text(&h, p0->rev ? " · revolution in effect" : "");
        l_text(&h, col(d, C_OFF));
        l_end(f, &h);
        if (t == 0)
            fprintf(f, "%s   ply  player           move                left  notes%s\n", col(d, C_DIM), col(d, C_OFF));
        for (int i = tr->first; i < tr->first + tr->n; i++) {
            const ViewPlay *p = &v->plays[i];
            char notes[200];
            Line l;
    l.n = 0;
    l.w = 0;
            l_put(&l, "  ", 2, 2);
            l_int(&l, p->ply, 4);
            l_put(&l, "  ", 2, 2);
            l_text(&l, labels[p->player]);
            l_pad(&l, 25);
            l_move(&l, d, p->move);
            l_pad(&l, 44);
            l_int(&l, p->left, 4);
            viewfmt_notes(p, notes, sizeof notes);
            if (*notes) { /* the notes start at column 50, and continue there */
                char nb[300];
                snprintf(nb, sizeof nb, "%s%s%s", col(d, C_CYAN), notes, col(d, C_OFF));
                l_put(&l, "  ", 2, 2);
                fwrite(l.s, 1, l.n, f);
                wrapped(f, nb, 50, 50);
            } else {
                l_end(f, &l);
            }
            const ReviewDecision *x = viewfmt_decision(&cur, p->ply, -1);
            if (x)
                verdict(f, d, x);
        }
    }

    fprintf(f, "\n");
    heading(f, d, "result");
    for (int c = 0; c < NPLAYERS; c++) {
        const int p = v->order[c];
        Line l;
    l.n = 0;
    l.w = 0;
        l_put(&l, "  ", 2, 2);
        l_int(&l, c + 1, 0);
        l_put(&l, ". ", 2, 2);
        l_text(&l, labels[p]);
        l_pad(&l, 22);
        l_text(&l, gameview_class_name(c));
        l_pad(&l, 33);
        l_int(&l, v->points[p], 0);
        l_text(&l, v->points[p] == 1 ? " point" : " points");
        l_end(f, &l);
    }
    if (rec->stalemate)
        fprintf(f, "  (ended by %d passes in a row: the places of those still holding cards were drawn)\n",
                STALEMATE_PASSES);
    if (g->review && g->summary) {
        const char *nm[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            nm[p] = g->names[p];
        fprintf(f, "\n");
        view_text_summary(f, d, g->summary, 1, nm);
    }
    fprintf(f, "\n");
}

void view_text_summary(FILE *f, const ViewDoc *d, const ReviewSummary s[NPLAYERS], int ngames,
                       const char *const *names)
{
    const ReviewConfig *rc = d->rc;
    char h[200];
    snprintf(h, sizeof h, "analysis%s: evaluator %s, %d paired worlds a decision, seed %llu", ngames > 1 ? " of the games" : "",
             rc ? rc->evaluator : "?", rc ? rc->worlds : 0, rc ? (unsigned long long)rc->seed : 0ULL);
    heading(f, d, h);
    fprintf(f, "  %-16s %6s %8s  %-17s %3s %3s %3s %7s %6s\n", "player", "judged", "err rate", "interval", "?!", "?", "??",
            "luck", "result");
    for (int p = 0; p < NPLAYERS; p++) {
        const ReviewSummary *x = &s[p];
        if (!x->games)
            continue;
        char lb[32], iv[40] = "-", rate[16] = "-";
        snprintf(lb, sizeof lb, "p%d %.13s", p, names[p]);
        if (!isnan(x->lo))
            snprintf(iv, sizeof iv, "[%.4f, %.4f]", x->lo, x->hi);
        if (!isnan(x->rate))
            snprintf(rate, sizeof rate, "%.4f", x->rate);
        fprintf(f, "  %-16s %6ld %8s  %-17s %3ld %3ld %3ld %+7.3f %6.3f\n", lb, x->judged, rate, iv,
                x->marks[MARK_DOUBTFUL], x->marks[MARK_BAD], x->marks[MARK_VERY_BAD], x->luck / (double)x->games,
                x->result / (double)x->games);
    }
    double average = NAN;
    for (int p = NPLAYERS - 1; p >= 0; p--)
        if (s[p].games)
            average = s[p].average / (double)s[p].games;
    char legend[1024];
    snprintf(legend, sizeof legend,
             "  error rate: the mean loss of a judged decision; interval: %g%% bootstrap percentile over %s (%d "
             "replicates). Marks at a loss of %.2f (?! doubtful), %.2f (? bad), %.2f (?? very bad) or a certain win "
             "passed up. Luck: the change in the player's value over what it did not choose. Result: the reward%s "
             "(the average is %.3f); result - average = luck - loss. In the evaluator's reward units (by default "
             "(4 - class) / 4: 0.25 = one class = one point).",
             100 * d->confidence, ngames > 1 ? "games" : "the game's decisions", d->bootstrap,
             rc ? rc->mark_at[0] : REVIEW_DOUBTFUL, rc ? rc->mark_at[1] : REVIEW_BAD,
             rc ? rc->mark_at[2] : REVIEW_VERY_BAD, ngames > 1 ? "; luck and result per game" : "", average);
    fputs(col(d, C_DIM), f);
    wrapped(f, legend, 0, 2);
    fputs(col(d, C_OFF), f);
}
