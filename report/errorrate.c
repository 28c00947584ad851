/* errorrate.c — error-rate tables, CSV and JSON (see errorrate.h). */
#include "report/errorrate.h"

#include <math.h>

#include "report/emit.h"

#include <string.h>

static void mark_text(const ErrMark *m, char *hand, size_t hn, char *table, size_t tn, char *chosen, size_t cn,
                      char *best, size_t bn)
{
    cards_format(m->hand, hand, hn);
    if (m->exchange) {
        snprintf(table, tn, "(gift)");
        cards_format(m->gchosen, chosen, cn);
        cards_format(m->gbest, best, bn);
    } else {
        int k = move_format(m->table, table, tn);
        if (k > 0 && (size_t)k < tn)
            snprintf(table + k, tn - (size_t)k, "%s%s", m->lock ? " lock" : "", m->rev ? " rev" : "");
        move_format(m->chosen, chosen, cn);
        move_format(m->best, best, bn);
    }
}

void report_errorrate(FILE *f, const ErrResult *r, const ErrConfig *c, int format)
{
    char hand[200], table[32], chosen[64], best[64];
    if (format == REPORT_CSV) { /* the error rates, the marks stacked under them (emit.h) */
        CsvParts parts;
        csv_parts_begin(&parts, f);
        f = csv_part(&parts, "error_rates");
        fprintf(f, "player,games,judged,skipped,error_rate,ci_low,ci_high,error_rate_points,mean_rank,"
                   "mean_points\n");
        for (int i = 0; i < r->n; i++) {
            const ErrPlayer *p = &r->p[i];
            csv_str(f, p->name);
            fprintf(f, ",%ld,%ld,%ld,", p->games, p->judged, p->skipped);
            csv_num(f, p->rate);
            fputc(',', f);
            csv_num(f, p->lo);
            fputc(',', f);
            csv_num(f, p->hi);
            fputc(',', f);
            csv_num(f, 4 * p->rate);
            fprintf(f, ",%.4f,%.4f\n", p->mean_rank, p->mean_points);
        }
        if (r->nmarks) {
            f = csv_part(&parts, "marks");
            fprintf(f, "game,number,ply,player,hand,table,chosen,best,loss\n");
            for (int i = 0; i < r->nmarks; i++) {
                const ErrMark *m = &r->marks[i];
                mark_text(m, hand, sizeof hand, table, sizeof table, chosen, sizeof chosen, best, sizeof best);
                fprintf(f, "%ld,%d,%d,", m->game, m->number, m->ply);
                csv_str(f, m->player);
                fputc(',', f);
                csv_str(f, hand);
                fputc(',', f);
                csv_str(f, table);
                fputc(',', f);
                csv_str(f, chosen);
                fputc(',', f);
                csv_str(f, best);
                fprintf(f, ",%.4f\n", m->loss);
            }
        }
        csv_parts_end(&parts);
        return;
    }
    if (format == REPORT_JSON) {
        fprintf(f, "{\"games\": %ld, \"judged\": %ld, \"skipped\": %ld, \"worlds\": %d, \"evaluator\": ", r->games,
                r->judged, r->skipped, r->worlds);
        json_str(f, c->evaluator);
        fprintf(f, ", \"seed\": %llu, \"reward_scale\": \"[0,1] per game: (4 - class) / 4; x4 = points\", "
                   "\"interval\": \"%g%% bootstrap percentile over games, %d replicates\",\n\"players\": [",
                (unsigned long long)c->seed, 100 * c->confidence, c->bootstrap);
        for (int i = 0; i < r->n; i++) {
            const ErrPlayer *p = &r->p[i];
            fprintf(f, "%s\n  {\"player\": ", i ? "," : "");
            json_str(f, p->name);
            fprintf(f, ", \"games\": %ld, \"judged\": %ld, \"skipped\": %ld, \"error_rate\": ", p->games, p->judged,
                    p->skipped);
            json_num(f, p->rate);
            fprintf(f, ", \"ci\": [");
            json_num(f, p->lo);
            fprintf(f, ", ");
            json_num(f, p->hi);
            fprintf(f, "], \"error_rate_points\": ");
            json_num(f, 4 * p->rate);
            fprintf(f, ", \"mean_rank\": ");
            json_num(f, p->mean_rank);
            fprintf(f, ", \"mean_points\": ");
            json_num(f, p->mean_points);
            fprintf(f, "}");
        }
        fprintf(f, "\n], \"marks\": [");
        for (int i = 0; i < r->nmarks; i++) {
            const ErrMark *m = &r->marks[i];
            mark_text(m, hand, sizeof hand, table, sizeof table, chosen, sizeof chosen, best, sizeof best);
            fprintf(f, "%s\n  {\"game\": %ld, \"number\": %d, \"ply\": %d, \"player\": ", i ? "," : "", m->game,
                    m->number, m->ply);
            json_str(f, m->player);
            fprintf(f, ", \"hand\": ");
            json_str(f, hand);
            fprintf(f, ", \"table\": ");
            json_str(f, table);
            fprintf(f, ", \"chosen\": ");
            json_str(f, chosen);
            fprintf(f, ", \"best\": ");
            json_str(f, best);
            fprintf(f, ", \"loss\": %.4f}", m->loss);
        }
        fprintf(f, "\n]}\n");
        return;
    }
    fprintf(f, "error rate (paper 004 eq. 7) of %ld games: %ld decisions judged, %ld with one choice skipped\n",
            r->games, r->judged, r->skipped);
    fprintf(f, "evaluator %s, %d paired worlds per decision, seed %llu\n", c->evaluator, r->worlds,
            (unsigned long long)c->seed);
    fprintf(f, "loss = max Q - Q(chosen), Q in reward units: (4 - class) / 4 per game, so 0.25 = one class; "
               "x4 = points\n");
    int w = 8;
    for (int i = 0; i < r->n; i++)
        w = (int)strlen(r->p[i].name) > w ? (int)strlen(r->p[i].name) : w;
    w = w > 28 ? 28 : w;
    fprintf(f, "%-*s %6s %8s %7s %10s  %-19s %9s %9s %9s\n", w, "player", "games", "judged", "skipped", "error rate",
            "interval", "in points", "mean rank", "mean pts");
    for (int i = 0; i < r->n; i++) {
        const ErrPlayer *p = &r->p[i];
        char iv[40] = "-";
        if (!isnan(p->lo))
            snprintf(iv, sizeof iv, "[%.4f, %.4f]", p->lo, p->hi);
        fprintf(f, "%-*.*s %6ld %8ld %7ld %10.4f  %-19s %9.4f %9.3f %9.3f\n", w, w, p->name, p->games, p->judged,
                p->skipped, p->rate, iv, 4 * p->rate, p->mean_rank, p->mean_points);
    }
    fprintf(f, "interval: %g%% bootstrap percentile over games (%d replicates)\n", 100 * c->confidence, c->bootstrap);
    if (r->nmarks)
        fprintf(f, "(in the list: the table's meld, with lock and rev when in effect; p = an empty table; a gift "
                   "has no table)\n");
    if (r->nmarks) {
        fprintf(f, "\nthe %d costliest decisions:\n%6s %5s %-10s %-36s %-14s %-12s %-12s %7s\n", r->nmarks, "game",
                "ply", "player", "hand", "table", "chosen", "best", "loss");
        for (int i = 0; i < r->nmarks; i++) {
            const ErrMark *m = &r->marks[i];
            mark_text(m, hand, sizeof hand, table, sizeof table, chosen, sizeof chosen, best, sizeof best);
            char ply[16];
            snprintf(ply, sizeof ply, m->ply < 0 ? "gift" : "%d", m->ply);
            fprintf(f, "%6ld %5s %-10.10s %-36.36s %-14s %-12s %-12s %7.4f\n", m->game, ply, m->player, hand, table,
                    chosen, best, m->loss);
        }
    }
}
