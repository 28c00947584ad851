/* view_json.c — recorded games and their analysis as JSON (view.h). Cards and moves in kifu
 * notation (../shared/data/README.md: "c3 d8 jo", "h-678(7)", "p"), players by number (0..4)
 * with their names once per game, plies 0-based as in the record (dhm errorrate's "ply"). */
#include "report/view.h"

#include <math.h>

#include "report/emit.h"
#include "report/viewfmt.h"

static void cards_js(FILE *f, Cards c)
{
    char b[256];
    cards_format(c, b, sizeof b);
    json_str(f, b);
}

static void move_js(FILE *f, Move m)
{
    char b[MOVE_MAX_TEXT];
    move_format(m, b, sizeof b);
    json_str(f, b);
}

static void hands_js(FILE *f, const Cards h[NPLAYERS])
{
    fputc('[', f);
    for (int p = 0; p < NPLAYERS; p++) {
        fprintf(f, "%s", p ? ", " : "");
        cards_js(f, h[p]);
    }
    fputc(']', f);
}

static void choice_js(FILE *f, const ReviewChoice *c, int exchange)
{
    char b[256];
    viewfmt_choice_kifu(c, exchange, b, sizeof b);
    fprintf(f, "{\"%s\": ", exchange ? "cards" : "move");
    json_str(f, b);
    fprintf(f, ", \"q\": ");
    json_num(f, c->q);
    fputc('}', f);
}

static void decision_js(FILE *f, const ReviewDecision *x)
{
    fprintf(f, "{\"ply\": %d, \"player\": %d, \"gift\": %s, \"choices\": %d, \"chosen\": ", x->ply, x->player,
            x->exchange ? "true" : "false", x->nchoices);
    choice_js(f, &x->chosen, x->exchange);
    fprintf(f, ", \"best\": ");
    choice_js(f, &x->best, x->exchange);
    fprintf(f, ", \"loss\": ");
    json_num(f, x->loss);
    fprintf(f, ", \"mark\": ");
    json_str(f, x->mark ? review_mark_name(x->mark) : "");
    fprintf(f, ", \"certain_win\": %s, \"luck\": ", x->sure ? "true" : "false");
    json_num(f, x->luck);
    fprintf(f, ", \"top\": [");
    for (int k = 0; k < x->ntop; k++) {
        fprintf(f, "%s", k ? ", " : "");
        choice_js(f, &x->top[k], x->exchange);
    }
    fprintf(f, "]}");
}

static void summary_js(FILE *f, const ReviewSummary *s, int p, const char *name)
{
    fprintf(f, "{\"player\": %d, \"name\": ", p);
    json_str(f, name);
    fprintf(f, ", \"games\": %ld, \"judged\": %ld, \"skipped\": %ld, \"loss\": ", s->games, s->judged, s->skipped);
    json_num(f, s->loss);
    fprintf(f, ", \"error_rate\": ");
    json_num(f, s->rate);
    fprintf(f, ", \"ci\": [");
    json_num(f, s->lo);
    fprintf(f, ", ");
    json_num(f, s->hi);
    fprintf(f, "], \"ci_over\": \"%s\", \"marks\": {\"doubtful\": %ld, \"bad\": %ld, \"very_bad\": %ld}, \"luck\": ",
            s->over_games ? "games" : "decisions", s->marks[MARK_DOUBTFUL], s->marks[MARK_BAD], s->marks[MARK_VERY_BAD]);
    json_num(f, s->luck);
    fprintf(f, ", \"result\": ");
    json_num(f, s->result);
    fprintf(f, ", \"average\": ");
    json_num(f, s->average);
    fputc('}', f);
}

static void summaries_js(FILE *f, const ReviewSummary *s, const char *const *names)
{
    fputc('[', f);
    int first = 1;
    for (int p = 0; p < NPLAYERS; p++) {
        if (!s[p].games)
            continue;
        fprintf(f, "%s\n    ", first ? "" : ",");
        summary_js(f, &s[p], p, names[p]);
        first = 0;
    }
    fputc(']', f);
}

void view_json_begin(FILE *f, const ViewDoc *d)
{
    fprintf(f, "{\"source\": ");
    json_str(f, d->source);
    if (d->rc) {
        fprintf(f, ", \"analysis\": {\"evaluator\": ");
        json_str(f, d->rc->evaluator);
        fprintf(f, ", \"worlds\": %d, \"seed\": %llu, \"marks_at\": {\"doubtful\": ", d->rc->worlds,
                (unsigned long long)d->rc->seed);
        json_num(f, d->rc->mark_at[0]);
        fprintf(f, ", \"bad\": ");
        json_num(f, d->rc->mark_at[1]);
        fprintf(f, ", \"very_bad\": ");
        json_num(f, d->rc->mark_at[2]);
        fprintf(f, "}, \"units\": \"the evaluator's reward per game (default (4 - class) / 4: 0.25 = one class)\", "
                   "\"interval\": \"%g%% bootstrap percentile, %d replicates\"}",
                100 * d->confidence, d->bootstrap);
    }
    fprintf(f, ",\n\"games\": [");
}

void view_json_game(FILE *f, const ViewDoc *d, const ViewGame *g, int first)
{
    (void)d;
    const GameView *v = g->view;
    const GameRecord *rec = v->rec;
    fprintf(f, "%s\n {\"index\": %ld, ", first ? "" : ",", g->index);
    if (g->set >= 0)
        fprintf(f, "\"set\": %ld, ", g->set);
    fprintf(f, "\"number\": %d, \"players\": [", rec->number);
    for (int p = 0; p < NPLAYERS; p++) {
        fprintf(f, "%s", p ? ", " : "");
        json_str(f, g->names[p]);
    }
    fprintf(f, "], \"seats\": [");
    for (int s = 0; s < NPLAYERS; s++)
        fprintf(f, "%s%d", s ? ", " : "", rec->seat[s]);
    fprintf(f, "], \"dealer\": %d, \"classes_before\": ", rec->dealer);
    if (v->exchange) {
        fputc('[', f);
        for (int p = 0; p < NPLAYERS; p++)
            fprintf(f, "%s%d", p ? ", " : "", rec->cls[p]);
        fputc(']', f);
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ",\n  \"dealt\": ");
    hands_js(f, rec->dealt);
    fprintf(f, ",\n  \"exchange\": [");
    DecisionCursor cur = {g->review, 0};
    for (int k = 0; k < v->ngifts; k++) {
        const ViewGift *x = &v->gifts[k];
        fprintf(f, "%s{\"from\": %d, \"to\": %d, \"cards\": ", k ? ", " : "", x->from, x->to);
        cards_js(f, x->cards);
        fprintf(f, ", \"chosen\": %s", x->chosen ? "true" : "false");
        const ReviewDecision *r = x->chosen ? viewfmt_decision(&cur, -1, x->from) : NULL;
        if (r) {
            fprintf(f, ", \"analysis\": ");
            decision_js(f, r);
        }
        fputc('}', f);
    }
    fprintf(f, "],\n  \"hands\": ");
    hands_js(f, rec->original);
    fprintf(f, ", \"first\": %d,\n  \"tricks\": [", rec->first);
    for (int t = 0; t < v->ntricks; t++) {
        const ViewTrick *tr = &v->tricks[t];
        fprintf(f, "%s\n   {\"leader\": %d, \"cleared\": %s, \"plays\": [", t ? "," : "", tr->leader,
                tr->cleared ? "true" : "false");
        for (int i = tr->first; i < tr->first + tr->n; i++) {
            const ViewPlay *p = &v->plays[i];
            fprintf(f, "%s\n    {\"ply\": %d, \"player\": %d, \"move\": ", i > tr->first ? "," : "", p->ply, p->player);
            move_js(f, p->move);
            fprintf(f, ", \"cards\": ");
            cards_js(f, move_cards(p->move));
            fprintf(f, ", \"table\": ");
            move_js(f, p->table);
            fprintf(f, ", \"revolution\": %s, \"lock\": %s, \"left\": %d, \"events\": [", p->rev ? "true" : "false",
                    p->lock ? "true" : "false", p->left);
            static const struct {
                int ev;
                const char *name;
            } EV[] = {{EV_REVOLUTION, "revolution"}, {EV_LOCK, "lock"}, {EV_CLEAR, "clear"}, {EV_FINISH, "out"},
                      {EV_STALEMATE, "stalemate"}, {EV_OVER, "over"}};
            int k = 0;
            if (p->eight)
                fprintf(f, "%s\"8-cut\"", k++ ? ", " : "");
            for (size_t e = 0; e < sizeof EV / sizeof EV[0]; e++)
                if (p->ev & EV[e].ev)
                    fprintf(f, "%s\"%s\"", k++ ? ", " : "", EV[e].name);
            fprintf(f, "]");
            if (p->place >= 0)
                fprintf(f, ", \"place\": %d", p->place);
            const ReviewDecision *r = viewfmt_decision(&cur, p->ply, -1);
            if (r) {
                fprintf(f, ", \"analysis\": ");
                decision_js(f, r);
            }
            fputc('}', f);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "],\n  \"result\": [");
    for (int p = 0; p < NPLAYERS; p++)
        fprintf(f, "%s{\"player\": %d, \"class\": %d, \"points\": %d}", p ? ", " : "", p, rec->result[p], v->points[p]);
    fprintf(f, "], \"stalemate\": %s", rec->stalemate ? "true" : "false");
    if (g->review && g->summary) {
        fprintf(f, ",\n  \"summary\": ");
        summaries_js(f, g->summary, g->names);
    }
    fputc('}', f);
}

void view_json_end(FILE *f, const ViewDoc *d, const ReviewSummary *s, int ngames, const char *const *names)
{
    (void)d;
    fprintf(f, "\n]");
    if (s) {
        fprintf(f, ",\n\"summary\": {\"games\": %d, \"players\": ", ngames);
        summaries_js(f, s, names);
        fputc('}', f);
    }
    fprintf(f, "}\n");
}
