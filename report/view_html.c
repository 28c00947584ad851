/* view_html.c — recorded games as one self-contained HTML page (view.h): inline CSS only (no
 * script, no image, nothing fetched), the cards drawn as small cards, each trick a row, the
 * evaluator's verdicts in a table per game, and the players' summary. Every name is escaped. */
#include "report/view.h"

#include <math.h>
#include <string.h>

#include "report/html.h"
#include "report/svg.h"
#include "report/viewfmt.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

static const char CSS[] =
    ".cd{display:inline-block;min-width:22px;padding:1px 3px;margin:1px;border:1px solid #999;border-radius:3px;"
    "background:#fff;font:13px/1.2 monospace;text-align:center;color:#111}.cd.r{color:#c00}"
    ".cd.jk{background:#fff3b0;font-weight:bold}.cd small{font-size:10px;color:#555;margin-left:1px}"
    ".hand{white-space:normal}.mv{display:inline-block;margin:2px 10px 2px 0;vertical-align:top}"
    ".mv .who{font-size:11px;color:#555;display:block}.mv .ps{color:#999;font:12px monospace}"
    ".ev{font-size:11px;color:#06c;display:block}.mk{font-weight:bold;padding:0 3px;border-radius:3px;white-space:nowrap}"
    ".m1{background:#fff2a8}.m2{background:#ffc58a}.m3{background:#ff8a8a}.best{color:#080;white-space:nowrap}"
    "table.tricks td{vertical-align:top}section.game{margin-bottom:40px}.nw{white-space:nowrap}"
    "@media print{section.game{page-break-before:always}}";

const char *view_html_css(void) { return CSS; }

static void card(FILE *f, const CardTok *t)
{
    const char *as = !strcmp(t->as, "u") ? "below the 3" : !strcmp(t->as, "o") ? "above the 2" : t->as;
    fprintf(f, "<span class=\"cd%s%s\"%s%s%s%s>", t->red ? " r" : "", t->joker ? " jk" : "",
            *t->as ? " title=\"the joker " : "", *t->as && as == t->as ? "as " : "", as, *t->as ? "\"" : "");
    html_esc(f, t->s);
    if (*t->as) {
        fprintf(f, "<small>");
        html_esc(f, t->as);
        fprintf(f, "</small>");
    }
    fprintf(f, "</span>");
}

static void cards_html(FILE *f, Cards c)
{
    CardTok t[53];
    int n = viewfmt_cards(c, t);
    fprintf(f, "<span class=\"hand\">");
    for (int i = 0; i < n; i++)
        card(f, &t[i]);
    fprintf(f, "</span>");
}

static void move_html(FILE *f, Move m)
{
    CardTok t[VIEWFMT_MOVE_MAX];
    int n = viewfmt_move(m, t);
    if (!n)
        fprintf(f, "<span class=\"ps\">pass</span>");
    for (int i = 0; i < n; i++)
        card(f, &t[i]);
}

static void choice_html(FILE *f, const ReviewChoice *c, int exchange)
{
    fprintf(f, "<span class=\"nw\">");
    if (exchange)
        cards_html(f, c->gift);
    else
        move_html(f, c->move);
    fprintf(f, "</span>");
}

static void who(FILE *f, const ViewGame *g, int p)
{
    fprintf(f, "<span class=\"nw\">p%d ", p);
    html_esc(f, g->names[p]);
    fprintf(f, "</span>");
}

static void mark_span(FILE *f, const ReviewDecision *x)
{
    if (!x->mark)
        return;
    fprintf(f, " <span class=\"mk m%d\" title=\"%s, loss %.3f\">%s</span>", x->mark, review_mark_name(x->mark), x->loss,
            review_mark_symbol(x->mark));
}

static void num(FILE *f, double v, int prec)
{
    if (isfinite(v))
        fprintf(f, "<td>%.*f</td>", prec, v);
    else
        fprintf(f, "<td>&mdash;</td>");
}

static void page_head(FILE *f, const char *title)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    html_esc(f, title);
    fprintf(f, "</title><style>%s%s</style></head><body>\n", report_html_css(), CSS);
}

void view_html_begin(FILE *f, const ViewDoc *d, int ngames)
{
    char t[512];
    snprintf(t, sizeof t, "dhm view: %s", d->source);
    page_head(f, t);
    fprintf(f, "<h1>");
    html_esc(f, t);
    fprintf(f, "</h1>\n<p class=\"note\">%d game%s%s", ngames, ngames == 1 ? "" : "s",
            d->rc ? "; every decision with at least two choices judged by the evaluator" : "");
    if (d->rc) {
        fprintf(f, " ");
        html_esc(f, d->rc->evaluator);
        fprintf(f, " from what the player could see, %d paired worlds a decision, seed %llu. Values and losses in "
                   "the evaluator's reward units (by default (4 &minus; class)/4: 0.25 = one class = one point); marks "
                   "at a loss of %.2f (?! doubtful), %.2f (? bad) and %.2f (?? very bad)",
                d->rc->worlds, (unsigned long long)d->rc->seed, d->rc->mark_at[0], d->rc->mark_at[1], d->rc->mark_at[2]);
    }
    fprintf(f, ".</p>\n");
}

static void summary_table(FILE *f, const ViewDoc *d, const ReviewSummary *s, const char *const *names,
                          const ViewGame *g)
{
    fprintf(f, "<table><tr><th class=\"l\">player</th>%s<th>judged</th><th>skipped</th><th>error rate</th><th>lo</th>"
               "<th>hi</th><th>?!</th><th>?</th><th>?\?</th><th>luck</th><th>result</th><th>average</th></tr>\n",
            g ? "<th>class</th><th>points</th>" : "<th>games</th>");
    for (int p = 0; p < NPLAYERS; p++) {
        if (s && !s[p].games && !g)
            continue;
        fprintf(f, "<tr><td class=\"l\">p%d ", p);
        html_esc(f, names[p]);
        fprintf(f, "</td>");
        if (g)
            fprintf(f, "<td class=\"l\">%s</td><td>%d</td>", gameview_class_name(g->view->rec->result[p]),
                    g->view->points[p]);
        else
            fprintf(f, "<td>%ld</td>", s[p].games);
        if (!s || !s[p].games) {
            fprintf(f, "<td colspan=\"10\" class=\"l note\">not judged</td></tr>\n");
            continue;
        }
        const ReviewSummary *x = &s[p];
        fprintf(f, "<td>%ld</td><td>%ld</td>", x->judged, x->skipped);
        num(f, x->rate, 4);
        num(f, x->lo, 4);
        num(f, x->hi, 4);
        fprintf(f, "<td>%ld</td><td>%ld</td><td>%ld</td>", x->marks[MARK_DOUBTFUL], x->marks[MARK_BAD],
                x->marks[MARK_VERY_BAD]);
        num(f, x->luck, 3);
        num(f, x->result, 3);
        num(f, x->average, 3);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    if (s) {
        fprintf(f, "<p class=\"note\">error rate: the mean loss of the judged decisions; lo, hi: its %g%% bootstrap "
                   "percentile interval over %s (%d replicates). Luck: the change in the player's value over the events "
                   "it did not choose (the deal, the exchange, the others' plays); result &minus; average = luck "
                   "&minus; the sum of the losses.%s</p>\n",
                100 * d->confidence, g ? "the game's decisions" : "games", d->bootstrap,
                g ? "" : " Luck, result and average are sums over the games.");
    }
}

static void verdict_row(FILE *f, const ViewDoc *d, const ViewGame *g, const ReviewDecision *x, const ViewPlay *p)
{
    if (x->exchange)
        fprintf(f, "<tr><td>gift</td><td class=\"l\">");
    else
        fprintf(f, "<tr><td>%d</td><td class=\"l\">", x->ply);
    who(f, g, x->player);
    fprintf(f, "</td><td class=\"l\">");
    if (p && !p->lead)
        move_html(f, p->table);
    else if (p)
        fprintf(f, "<span class=\"ps\">(leads)</span>");
    fprintf(f, "</td><td class=\"l\">");
    choice_html(f, &x->chosen, x->exchange);
    fprintf(f, "</td>");
    num(f, x->chosen.q, 3);
    fprintf(f, "<td class=\"l\">");
    if (x->loss > 0)
        choice_html(f, &x->best, x->exchange);
    else
        fprintf(f, "<span class=\"best\">the choice made</span>");
    fprintf(f, "</td>");
    num(f, x->best.q, 3);
    num(f, x->loss, 3);
    fprintf(f, "<td class=\"l\">");
    if (x->mark)
        fprintf(f, "<span class=\"mk m%d\">%s %s</span>%s", x->mark, review_mark_symbol(x->mark),
                review_mark_name(x->mark), x->sure && x->mark == MARK_VERY_BAD ? " passed up a certain win" : "");
    fprintf(f, "</td><td>%d</td>", x->nchoices);
    num(f, x->luck, 3);
    if (d->alternatives) {
        fprintf(f, "<td class=\"l\">");
        for (int k = 0; k < x->ntop; k++) {
            fprintf(f, "%s<span class=\"nw\">", k ? " &middot; " : "");
            choice_html(f, &x->top[k], x->exchange);
            fprintf(f, " %.3f</span>", x->top[k].q);
        }
        fprintf(f, "</td>");
    }
    fprintf(f, "</tr>\n");
}

void view_html_game(FILE *f, const ViewDoc *d, const ViewGame *g)
{
    const GameView *v = g->view;
    const GameRecord *rec = v->rec;
    if (g->set >= 0)
        fprintf(f, "<section class=\"game\" id=\"game-%ld-%d\">\n", g->set, rec->number);
    else
        fprintf(f, "<section class=\"game\" id=\"game-%ld\">\n", g->index);
    fprintf(f, "<h2>Game %d <span class=\"note\">&middot; ", rec->number);
    if (g->set >= 0)
        fprintf(f, "set %ld of ", g->set);
    html_esc(f, d->source);
    fprintf(f, " &middot; index %ld</span></h2>\n<p class=\"note\">Seats, in the order of play: ", g->index);
    for (int s = 0; s < NPLAYERS; s++) {
        fprintf(f, "%s", s ? " &rarr; " : "");
        who(f, g, rec->seat[s]);
    }
    fprintf(f, "; dealt from p%d.%s</p>\n", rec->dealer,
            v->exchange ? "" : " No exchange: the first game of a class period.");
    fprintf(f, "<table><tr><th class=\"l\">player</th>%s<th class=\"l\">dealt</th>%s</tr>\n",
            v->exchange ? "<th class=\"l\">class before</th>" : "",
            v->exchange ? "<th class=\"l\">after the exchange</th>" : "");
    for (int p = 0; p < NPLAYERS; p++) {
        fprintf(f, "<tr><td class=\"l\">");
        who(f, g, p);
        fprintf(f, "</td>");
        if (v->exchange)
            fprintf(f, "<td class=\"l\">%s</td>", gameview_class_name(rec->cls[p]));
        fprintf(f, "<td class=\"l\">");
        cards_html(f, rec->dealt[p]);
        fprintf(f, "</td>");
        if (v->exchange) {
            fprintf(f, "<td class=\"l\">");
            cards_html(f, rec->original[p]);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    DecisionCursor cur = {g->review, 0};
    if (v->exchange) {
        fprintf(f, "<h3>Exchange</h3>\n<table><tr><th class=\"l\">from</th><th class=\"l\">to</th><th class=\"l\">cards"
                   "</th><th class=\"l\">how</th></tr>\n");
        for (int k = 0; k < v->ngifts; k++) {
            const ViewGift *x = &v->gifts[k];
            const ReviewDecision *r = x->chosen ? viewfmt_decision(&cur, -1, x->from) : NULL;
            fprintf(f, "<tr><td class=\"l\">");
            who(f, g, x->from);
            fprintf(f, " (%s)</td><td class=\"l\">", gameview_class_name(rec->cls[x->from]));
            who(f, g, x->to);
            fprintf(f, " (%s)</td><td class=\"l\">", gameview_class_name(rec->cls[x->to]));
            cards_html(f, x->cards);
            if (r)
                mark_span(f, r);
            fprintf(f, "</td><td class=\"l\">%s</td></tr>\n", x->chosen ? "its choice" : "its strongest, by the rules");
        }
        fprintf(f, "</table>\n");
    }
    fprintf(f, "<h3>Play</h3>\n<table class=\"tricks\"><tr><th>trick</th><th class=\"l\">leader</th>"
               "<th class=\"l\">plays in order (ply, player, move; what it did)</th></tr>\n");
    for (int t = 0; t < v->ntricks; t++) {
        const ViewTrick *tr = &v->tricks[t];
        fprintf(f, "<tr><td>%d</td><td class=\"l\">", t + 1);
        who(f, g, tr->leader);
        if (v->plays[tr->first].rev)
            fprintf(f, "<span class=\"ev\">revolution in effect</span>");
        fprintf(f, "</td><td class=\"l\">");
        for (int i = tr->first; i < tr->first + tr->n; i++) {
            const ViewPlay *p = &v->plays[i];
            char notes[200];
            viewfmt_notes(p, notes, sizeof notes);
            fprintf(f, "<span class=\"mv\"><span class=\"who\">%d &middot; ", p->ply);
            who(f, g, p->player);
            fprintf(f, "</span>");
            move_html(f, p->move);
            const ReviewDecision *r = viewfmt_decision(&cur, p->ply, -1);
            if (r)
                mark_span(f, r);
            if (*notes) {
                fprintf(f, "<span class=\"ev\">");
                html_esc(f, notes);
                fprintf(f, "</span>");
            }
            fprintf(f, "</span>");
        }
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    if (rec->stalemate)
        fprintf(f, "<p class=\"note\">Ended by %d passes in a row: the places of those still holding cards were "
                   "drawn.</p>\n",
                STALEMATE_PASSES);
    if (g->review) {
        fprintf(f, "<h3>The evaluator's verdicts</h3>\n<table><tr><th>ply</th><th class=\"l\">player</th><th class=\"l\">table</th><th class=\"l\">chosen</th><th>value</th><th class=\"l\">best"
                   "</th><th>value</th><th>loss</th><th class=\"l\">mark</th><th>choices</th><th>luck</th>%s</tr>\n",
                d->alternatives ? "<th class=\"l\">best choices</th>" : "");
        int k = 0;
        for (int i = 0; i < g->review->n; i++) {
            const ReviewDecision *x = &g->review->d[i];
            const ViewPlay *p = NULL;
            while (!x->exchange && k < v->nplays && v->plays[k].ply < x->ply)
                k++;
            if (!x->exchange && k < v->nplays && v->plays[k].ply == x->ply)
                p = &v->plays[k];
            verdict_row(f, d, g, x, p);
        }
        fprintf(f, "</table>\n");
        if (g->review->n == 0)
            fprintf(f, "<p class=\"note\">No decision with two choices or more by a judged player.</p>\n");
    }
    fprintf(f, "<h3>Result</h3>\n");
    const char *nm[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        nm[p] = g->names[p];
    summary_table(f, d, g->review ? g->summary : NULL, nm, g);
    fprintf(f, "</section>\n");
}

void view_html_end(FILE *f, const ViewDoc *d, const ReviewSummary *s, int ngames, const char *const *names)
{
    if (s && ngames > 1) {
        fprintf(f, "<h2 id=\"summary\">The players over the %d games</h2>\n", ngames);
        summary_table(f, d, s, names, NULL);
    }
    fprintf(f, "<p class=\"note\">Made by dhm %s (dhm view). Plies are numbered from 0, as in the record and in dhm "
               "errorrate.</p>\n</body></html>\n",
            DHM_VERSION);
}

static void td_text(FILE *f, const char *s)
{
    fprintf(f, "<td class=\"l\">");
    html_esc(f, s);
    fprintf(f, "</td>");
}

void view_html_worst(FILE *f, const char *store, const StoredWorst *w, const char *const *player_names)
{
    fprintf(f, "<h2 id=\"games\">Games: each player's costliest decisions</h2>\n<p class=\"note\">From the %ld game%s "
               "analysed with dhm view --analyze --save: each player's costliest decisions, judged from what the player "
               "could see (loss in the evaluator's reward units: 0.25 = one class). A game's link leads to it, move by "
               "move, below.</p>\n",
            w->analysed, w->analysed == 1 ? "" : "s");
    fprintf(f, "<table><tr><th class=\"l\">player</th><th>loss</th><th class=\"l\">mark</th><th class=\"l\">game</th>"
               "<th>ply</th><th class=\"l\">chosen</th><th class=\"l\">best</th></tr>\n");
    for (int i = 0; i < w->npicks; i++) {
        const WorstPick *p = &w->picks[i];
        fprintf(f, "<tr>");
        td_text(f, player_names[p->player]);
        num(f, p->loss, 3);
        fprintf(f, "<td class=\"l\">");
        if (p->mark)
            fprintf(f, "<span class=\"mk m%d\">%s %s</span>%s", p->mark, review_mark_symbol(p->mark),
                    review_mark_name(p->mark), p->sure && p->mark == MARK_VERY_BAD ? " a certain win passed up" : "");
        fprintf(f, "</td><td class=\"l\">");
        if (p->game >= 0)
            fprintf(f, "<a href=\"#game-%ld-%d\">set %ld, game %d</a>", p->set, p->number, p->set, p->number);
        else
            fprintf(f, "set %ld, game %d", p->set, p->number);
        fprintf(f, "</td><td>");
        if (p->exchange)
            fprintf(f, "gift");
        else
            fprintf(f, "%d", p->ply);
        fprintf(f, "</td><td class=\"l\">");
        choice_html(f, &p->chosen, p->exchange);
        fprintf(f, "</td><td class=\"l\">");
        choice_html(f, &p->best, p->exchange);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    if (w->npicks == 0)
        fprintf(f, "<p class=\"note\">No judged decision lost anything.</p>\n");
    for (int g = 0; g < w->ngames; g++) {
        const WorstGame *x = &w->games[g];
        ReviewConfig rc;
        review_config_default(&rc);
        rc.evaluator = x->evaluator;
        rc.worlds = x->worlds;
        rc.seed = x->seed;
        memcpy(rc.mark_at, x->review.mark_at, sizeof rc.mark_at);
        ViewDoc d = {store, 0, 1, &rc, 1000, 0.95};
        const char *names[NPLAYERS];
        for (int p = 0; p < NPLAYERS; p++)
            names[p] = x->names[p];
        ViewGame vg = {&x->view, &x->review, x->summary, names, x->review.index, x->set};
        view_html_game(f, &d, &vg);
    }
}
