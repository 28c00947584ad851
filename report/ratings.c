/* ratings.c — rating tables, CSV sections and JSON (see ratings.h). */
#include "report/ratings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/emit.h"

/* ---- labels ---- */

static const char *unit_of(const Results *res) { return res->nsets > 0 ? "sets" : "games"; }

void report_unc_label(const MethodResult *m, const Results *res, char *buf, size_t n)
{
    const MethodInfo *mi = method_info(m->id);
    if (!mi->unc)
        snprintf(buf, n, "%s", "");
    else if (m->id == M_BT)
        snprintf(buf, n, m->robust ? "standard error, cluster-robust (sandwich estimator; clusters = whole %s, whose "
                                     "pairs are not independent)"
                                   : "standard error from the Fisher information (each %s is one pair)",
                 unit_of(res));
    else if (m->id == M_PL)
        snprintf(buf, n, "standard deviation of %d bootstrap replicates resampling whole %s", m->nboot, unit_of(res));
    else
        snprintf(buf, n, "%s", mi->unc_what);
}

void report_interval_label(const MethodResult *m, const Results *res, char *buf, size_t n)
{
    int any = 0;
    for (int i = 0; i < m->n && !any; i++)
        any = !isnan(m->lo[i]);
    if (!any)
        snprintf(buf, n, "%s", "");
    else
        snprintf(buf, n, "%g%% bootstrap percentile interval (%d replicates resampling whole %s)",
                 100 * m->p.confidence, m->nboot, unit_of(res));
}

static const char *bound_name(int b)
{
    static const char *const N[] = {"data", "unbounded-above", "unbounded-below"};
    return N[b >= 0 && b <= 2 ? b : 0];
}
static char bound_mark(int b) { return b == BOUND_ABOVE ? '^' : b == BOUND_BELOW ? 'v' : ' '; }

/* ---- ordering players by a method's rating (NaN last, then by index) ---- */

typedef struct Ranked {
    double r;
    int i;
} Ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (isnan(x->r) != isnan(y->r))
        return isnan(x->r) ? 1 : -1;
    if (x->r != y->r && !isnan(x->r))
        return x->r < y->r ? 1 : -1;
    return x->i - y->i;
}

static int *order_by(const MethodResult *m, int n)
{
    Ranked *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    int *ord = malloc((size_t)(n > 0 ? n : 1) * sizeof *ord);
    if (!tmp || !ord) {
        free(tmp);
        free(ord);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        tmp[i] = (Ranked){m->rating[i], i};
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_ranked);
    for (int i = 0; i < n; i++)
        ord[i] = tmp[i].i;
    free(tmp);
    return ord;
}

/* ---- the evaluation shared by every format ---- */

typedef struct Eval {
    double mse[M_COUNT];
    long mse_pairs;
    TransErr *te;
    int nte, nc;
    int (*cyc)[3];
    long ntriples, over60, ncyc;
    const MethodResult *losm;
} Eval;

static void eval_run(const RatingReport *r, Eval *e)
{
    memset(e, 0, sizeof *e);
    for (int m = 0; r->mse && m < r->nm; m++)
        e->mse[m] = eval_mse(r->h, &r->mr[m], &e->mse_pairs);
    if (r->trans && r->top > 0) {
        e->te = malloc((size_t)r->top * sizeof *e->te);
        e->cyc = malloc((size_t)r->top * sizeof *e->cyc);
    }
    if (r->trans) {
        e->nte = eval_transitivity(r->h, e->te, e->te ? r->top : 0, &e->ntriples, &e->over60);
        e->nc = eval_cycles(r->h, e->cyc, e->cyc ? r->top : 0, &e->ncyc);
    }
    for (int m = 0; r->los && m < r->nm && !e->losm; m++)
        if (r->mr[m].id == M_BT || r->mr[m].id == M_PL)
            e->losm = &r->mr[m];
}

static void eval_free(Eval *e)
{
    free(e->te);
    free(e->cyc);
}

static void los_label(const MethodResult *m, char *buf, size_t n)
{
    if (m->id == M_BT)
        snprintf(buf, n, "normal approximation with the %s covariance", m->robust ? "cluster-robust" : "Fisher");
    else
        snprintf(buf, n, "share of %d bootstrap replicates resampling whole sets or games", m->nboot);
}

/* ---- CSV ---- */

/* One table: the ratings, with the other tables asked for stacked under them (emit.h). */
static void csv_report(FILE *out, const RatingReport *r, const Eval *e)
{
    const Results *res = r->res;
    const int n = res->nplayers;
    char unc[256], ci[256];
    CsvParts parts;
    csv_parts_begin(&parts, out);
    FILE *f = csv_part(&parts, "ratings");
    fprintf(f, "method,rank,player,rating,uncertainty,uncertainty_kind,ci_low,ci_high,ci_kind,bound,%s,"
               "h2h_win_pct\n",
            unit_of(res));
    for (int m = 0; m < r->nm; m++) {
        const MethodResult *mr = &r->mr[m];
        int *ord = order_by(mr, n);
        if (!ord)
            break;
        report_unc_label(mr, res, unc, sizeof unc);
        report_interval_label(mr, res, ci, sizeof ci);
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            if (isnan(mr->rating[i]))
                continue;
            fprintf(f, "%s,%d,", method_name(mr->id), k + 1);
            csv_str(f, res->names[i]);
            fprintf(f, ",%.4f,", mr->rating[i]);
            csv_num(f, mr->unc[i]);
            fputc(',', f);
            csv_str(f, isnan(mr->unc[i]) ? "" : unc);
            fputc(',', f);
            csv_num(f, mr->lo[i]);
            fputc(',', f);
            csv_num(f, mr->hi[i]);
            fputc(',', f);
            csv_str(f, isnan(mr->lo[i]) ? "" : ci);
            fprintf(f, ",%s,%ld,", bound_name(mr->bound[i]), r->h->sets[i]);
            csv_num(f, 100 * h2h_total_rate(r->h, i));
            fputc('\n', f);
        }
        free(ord);
    }
    if (r->mse) {
        f = csv_part(&parts, "mse");
        fprintf(f, "method,mse,pairs\n");
        for (int m = 0; m < r->nm; m++) {
            fprintf(f, "%s,", method_name(r->mr[m].id));
            csv_num(f, e->mse[m]);
            fprintf(f, ",%ld\n", e->mse_pairs);
        }
    }
    if (r->cross) {
        f = csv_part(&parts, "crosstable");
        fprintf(f, "player_a,player_b,wins,losses,draws\n");
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                size_t ab = (size_t)a * n + b;
                if (a == b || r->h->games[ab] == 0)
                    continue;
                csv_str(f, res->names[a]);
                fputc(',', f);
                csv_str(f, res->names[b]);
                fprintf(f, ",%.0f,%.0f,%.0f\n", r->h->wins[ab], r->h->games[ab] - r->h->wins[ab] - r->h->draws[ab],
                        r->h->draws[ab]);
            }
    }
    if (r->trans) {
        f = csv_part(&parts, "transitivity");
        fprintf(f, "player_a,player_b,player_c,predicted,observed\n");
        for (int k = 0; k < e->nte; k++) {
            csv_str(f, res->names[e->te[k].a]);
            fputc(',', f);
            csv_str(f, res->names[e->te[k].b]);
            fputc(',', f);
            csv_str(f, res->names[e->te[k].c]);
            fprintf(f, ",%.4f,%.4f\n", e->te[k].pred, e->te[k].obs);
        }
        f = csv_part(&parts, "cycles");
        fprintf(f, "player_a,player_b,player_c\n");
        for (int k = 0; k < e->nc; k++)
            for (int j = 0; j < 3; j++) {
                csv_str(f, res->names[e->cyc[k][j]]);
                fputc(j < 2 ? ',' : '\n', f);
            }
    }
    if (e->losm) {
        f = csv_part(&parts, "los");
        fprintf(f, "method,player_a,player_b,los\n");
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                double l = a == b ? NAN : method_los(e->losm, a, b);
                if (isnan(l))
                    continue;
                fprintf(f, "%s,", method_name(e->losm->id));
                csv_str(f, res->names[a]);
                fputc(',', f);
                csv_str(f, res->names[b]);
                fprintf(f, ",%.4f\n", l);
            }
    }
    csv_parts_end(&parts);
}

/* ---- JSON ---- */

static void json_report(FILE *f, const RatingReport *r, const Eval *e)
{
    const Results *res = r->res;
    const int n = res->nplayers;
    int *ord = order_by(&r->mr[0], n);
    if (!ord)
        return;
    char unc[256], ci[256];
    long games = res->ngames ? res->ngames : res->games_in_sets;
    fprintf(f, "{\"sets\": %ld, \"games\": ", res->nsets);
    json_num(f, games ? (double)games : NAN);
    fprintf(f, ", \"players\": %d, \"left_out_sets\": %ld,\n\"methods\": [", n, r->left_out);
    for (int m = 0; m < r->nm; m++) {
        const MethodResult *mr = &r->mr[m];
        const MethodInfo *mi = method_info(mr->id);
        report_unc_label(mr, res, unc, sizeof unc);
        report_interval_label(mr, res, ci, sizeof ci);
        fprintf(f, "%s\n  {\"name\": \"%s\", \"what\": ", m ? "," : "", mi->name);
        json_str(f, mi->what);
        if (mi->setwise)
            fprintf(f, ", \"order\": \"%s\"", mr->p.sequential ? "sequential" : "averaged");
        fprintf(f, ", \"uncertainty\": ");
        if (*unc)
            json_str(f, unc);
        else
            fprintf(f, "null");
        fprintf(f, ", \"interval\": ");
        if (*ci)
            json_str(f, ci);
        else
            fprintf(f, "null");
        fprintf(f, ", \"unbounded_players\": %d}", mr->unbounded);
    }
    fprintf(f, "\n],\n\"ratings\": [");
    for (int k = 0; k < n; k++) {
        int i = ord[k];
        fprintf(f, "%s\n  {\"player\": ", k ? "," : "");
        json_str(f, res->names[i]);
        fprintf(f, ", \"%s\": %ld, \"h2h_win_pct\": ", unit_of(res), r->h->sets[i]);
        json_num(f, 100 * h2h_total_rate(r->h, i));
        for (int m = 0; m < r->nm; m++) {
            const MethodResult *mr = &r->mr[m];
            fprintf(f, ", \"%s\": {\"rating\": ", method_name(mr->id));
            json_num(f, mr->rating[i]);
            fprintf(f, ", \"uncertainty\": ");
            json_num(f, mr->unc[i]);
            if (!isnan(mr->lo[i])) {
                fprintf(f, ", \"ci\": [");
                json_num(f, mr->lo[i]);
                fprintf(f, ", ");
                json_num(f, mr->hi[i]);
                fprintf(f, "]");
            }
            fprintf(f, ", \"bound\": \"%s\"}", bound_name(mr->bound[i]));
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n]");
    if (r->mse) {
        fprintf(f, ",\n\"mse\": {");
        for (int m = 0; m < r->nm; m++) {
            fprintf(f, "%s\"%s\": ", m ? ", " : "", method_name(r->mr[m].id));
            json_num(f, e->mse[m]);
        }
        fprintf(f, "}, \"mse_pairs\": %ld", e->mse_pairs);
    }
    if (r->cross) {
        fprintf(f, ",\n\"crosstable\": [");
        int first = 1;
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                size_t ab = (size_t)a * n + b;
                if (a == b || r->h->games[ab] == 0)
                    continue;
                fprintf(f, "%s\n  {\"a\": ", first ? "" : ",");
                json_str(f, res->names[a]);
                fprintf(f, ", \"b\": ");
                json_str(f, res->names[b]);
                fprintf(f, ", \"wins\": %.0f, \"losses\": %.0f, \"draws\": %.0f}", r->h->wins[ab],
                        r->h->games[ab] - r->h->wins[ab] - r->h->draws[ab], r->h->draws[ab]);
                first = 0;
            }
        fprintf(f, "\n]");
    }
    if (r->trans) {
        fprintf(f, ",\n\"transitivity\": {\"triples\": %ld, \"off_by_60_points_or_more\": %ld, \"largest\": [",
                e->ntriples, e->over60);
        for (int k = 0; k < e->nte; k++) {
            fprintf(f, "%s{\"a\": ", k ? ", " : "");
            json_str(f, res->names[e->te[k].a]);
            fprintf(f, ", \"b\": ");
            json_str(f, res->names[e->te[k].b]);
            fprintf(f, ", \"c\": ");
            json_str(f, res->names[e->te[k].c]);
            fprintf(f, ", \"predicted\": %.4f, \"observed\": %.4f}", e->te[k].pred, e->te[k].obs);
        }
        fprintf(f, "]},\n\"cycles\": {\"count\": %ld, \"list\": [", e->ncyc);
        for (int k = 0; k < e->nc; k++) {
            fprintf(f, "%s[", k ? ", " : "");
            for (int j = 0; j < 3; j++) {
                fprintf(f, "%s", j ? ", " : "");
                json_str(f, res->names[e->cyc[k][j]]);
            }
            fprintf(f, "]");
        }
        fprintf(f, "]}");
    }
    if (e->losm) {
        char ll[128];
        los_label(e->losm, ll, sizeof ll);
        fprintf(f, ",\n\"los\": {\"method\": \"%s\", \"how\": ", method_name(e->losm->id));
        json_str(f, ll);
        fprintf(f, ", \"players\": [");
        for (int k = 0; k < n; k++) {
            fprintf(f, "%s", k ? ", " : "");
            json_str(f, res->names[ord[k]]);
        }
        fprintf(f, "], \"matrix\": [");
        for (int a = 0; a < n; a++) {
            fprintf(f, "%s[", a ? ", " : "");
            for (int b = 0; b < n; b++) {
                fprintf(f, "%s", b ? ", " : "");
                json_num(f, a == b ? NAN : method_los(e->losm, ord[a], ord[b]));
            }
            fprintf(f, "]");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n}\n");
    free(ord);
}

/* ---- the table for people ---- */

/* One method's cell in the multi-method table: "1534 ±45", "1534 [1490,1581]" or "1534". */
static void cell(char *buf, size_t n, const MethodResult *m, int i)
{
    if (isnan(m->rating[i]))
        snprintf(buf, n, "-");
    else if (!isnan(m->lo[i]))
        snprintf(buf, n, "%.0f [%.0f,%.0f]%c", m->rating[i], m->lo[i], m->hi[i], bound_mark(m->bound[i]));
    else if (!isnan(m->unc[i]))
        snprintf(buf, n, "%.0f ±%.0f%c", m->rating[i], m->unc[i], bound_mark(m->bound[i]));
    else
        snprintf(buf, n, "%.0f%c", m->rating[i], bound_mark(m->bound[i]));
}

static void table_report(FILE *f, const RatingReport *r, const Eval *e)
{
    const Results *res = r->res;
    const int n = res->nplayers;
    int *ord = order_by(&r->mr[0], n);
    if (!ord)
        return;
    const char *unit = unit_of(res);
    if (res->nsets)
        fprintf(f, "%ld sets", res->nsets);
    long games = res->ngames ? res->ngames : res->games_in_sets;
    if (games)
        fprintf(f, res->nsets ? " (%ld games in all)" : "%ld games", games); /* never "N sets of <total> games" */
    fprintf(f, ", %d players", n);
    if (r->left_out)
        fprintf(f, "; %ld sets left out because they were not played cleanly (--include-broken rates them)",
                r->left_out);
    fprintf(f, "\n");
    for (int m = 0; m < r->nm; m++) {
        const MethodInfo *mi = method_info(r->mr[m].id);
        fprintf(f, "  %-9s %s%s\n", mi->name, mi->what,
                mi->setwise ? (r->mr[m].p.sequential ? "; pairs applied in turn" : "; pairs averaged") : "");
    }
    int w = 6;
    for (int i = 0; i < n; i++)
        if ((int)strlen(res->names[i]) > w)
            w = (int)strlen(res->names[i]);
    if (w > 24)
        w = 24;
    char buf[64], unc[256], ci[256];
    if (r->nm == 1) {
        const MethodResult *m = &r->mr[0];
        const MethodInfo *mi = method_info(m->id);
        report_interval_label(m, res, ci, sizeof ci);
        fprintf(f, "%4s  %-*s %9s", "#", w, "player", "rating");
        if (mi->unc)
            fprintf(f, " %8s", mi->unc);
        if (*ci)
            fprintf(f, "  %-17s", "  interval");
        fprintf(f, " %7s %8s\n", unit, "h2h win%");
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            if (isnan(m->rating[i]))
                continue;
            fprintf(f, "%4d  %-*.*s", k + 1, w, w, res->names[i]);
            col_num(f, m->rating[i], 8, 1);
            fputc(bound_mark(m->bound[i]), f);
            if (mi->unc)
                col_num(f, m->unc[i], 8, 1);
            if (*ci) {
                snprintf(buf, sizeof buf, "[%.1f, %.1f]", m->lo[i], m->hi[i]);
                fprintf(f, "  %-17s", isnan(m->lo[i]) ? "-" : buf);
            }
            fprintf(f, " %7ld", r->h->sets[i]);
            col_num(f, 100 * h2h_total_rate(r->h, i), 8, 1);
            fprintf(f, "\n");
        }
    } else {
        int cw[M_COUNT];
        for (int m = 0; m < r->nm; m++) {
            const MethodResult *mr = &r->mr[m];
            cw[m] = (int)strlen(method_name(mr->id));
            for (int i = 0; i < n; i++) {
                cell(buf, sizeof buf, mr, i);
                int l = (int)strlen(buf) - (strstr(buf, "±") ? 1 : 0); /* ± is two bytes, one column */
                cw[m] = l > cw[m] ? l : cw[m];
            }
        }
        fprintf(f, "%4s  %-*s %7s %8s", "#", w, "player", unit, "h2h win%");
        for (int m = 0; m < r->nm; m++)
            fprintf(f, "  %*s", cw[m], method_name(r->mr[m].id));
        fprintf(f, "\n");
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            fprintf(f, "%4d  %-*.*s %7ld", k + 1, w, w, res->names[i], r->h->sets[i]);
            col_num(f, 100 * h2h_total_rate(r->h, i), 8, 1);
            for (int m = 0; m < r->nm; m++) {
                cell(buf, sizeof buf, &r->mr[m], i);
                int pad = cw[m] - ((int)strlen(buf) - (strstr(buf, "±") ? 1 : 0));
                fprintf(f, "  %*s%s", pad > 0 ? pad : 0, "", buf);
            }
            fprintf(f, "\n");
        }
    }
    /* what the numbers are */
    int legend = 0, unbounded = 0;
    for (int m = 0; m < r->nm; m++) {
        const MethodResult *mr = &r->mr[m];
        report_unc_label(mr, res, unc, sizeof unc);
        report_interval_label(mr, res, ci, sizeof ci);
        unbounded += mr->unbounded;
        if (!*unc && !*ci)
            continue;
        if (!legend++)
            fprintf(f, "what the uncertainties are:\n");
        fprintf(f, "  %-9s", method_name(mr->id));
        if (*ci)
            fprintf(f, " [lo,hi] = %s", ci);
        if (*unc && (r->nm == 1 || !*ci)) /* the multi-method table shows the interval when there is one */
            fprintf(f, "%s %s = %s", *ci ? ";" : "", r->nm == 1 ? method_info(mr->id)->unc : "±", unc);
        fprintf(f, "\n");
    }
    if (unbounded)
        fprintf(f, "^ = no upper bound: nobody outside this player's group ever beat it; v = no lower bound: it never "
                   "beat anyone outside its group. Such a rating comes from the prior or the update rule, not from "
                   "the results; its interval is not a measurement\n");
    if (r->mse) {
        fprintf(f, "\nmean squared error of predicted vs observed head-to-head win rates (%ld pairs):\n", e->mse_pairs);
        for (int m = 0; m < r->nm; m++) {
            fprintf(f, "  %-9s", method_name(r->mr[m].id));
            col_num(f, e->mse[m], 8, 4);
            fprintf(f, "\n");
        }
    }
    if (r->cross) {
        fprintf(f, "\ncross table: wins-losses(-draws) of the row player against the column player, each meeting "
                   "counted once (by total points of a set, or rank in a game)\n%-*s",
                w, "");
        for (int q = 0; q < n; q++)
            fprintf(f, " %9.9s", res->names[ord[q]]);
        fprintf(f, "\n");
        for (int a0 = 0; a0 < n; a0++) {
            int a = ord[a0];
            fprintf(f, "%-*.*s", w, w, res->names[a]);
            for (int q = 0; q < n; q++) {
                int b = ord[q];
                size_t ab = (size_t)a * n + b;
                char c[32];
                if (a == b || r->h->games[ab] == 0)
                    snprintf(c, sizeof c, "-");
                else if (r->h->draws[ab] > 0)
                    snprintf(c, sizeof c, "%.0f-%.0f-%.0f", r->h->wins[ab],
                             r->h->games[ab] - r->h->wins[ab] - r->h->draws[ab], r->h->draws[ab]);
                else
                    snprintf(c, sizeof c, "%.0f-%.0f", r->h->wins[ab], r->h->games[ab] - r->h->wins[ab]);
                fprintf(f, " %9s", c);
            }
            fprintf(f, "\n");
        }
    }
    if (r->trans) {
        fprintf(f, "\ntransitivity (eq. 2): %ld triples; W(A,C) predicted from W(A,B) and W(B,C) is off by 60 points "
                   "or more in %ld\n",
                e->ntriples, e->over60);
        if (e->nte)
            fprintf(f, "  %-*s %-*s %-*s %9s %9s\n", w, "A", w, "B", w, "C", "predicted", "observed");
        for (int k = 0; k < e->nte; k++)
            fprintf(f, "  %-*.*s %-*.*s %-*.*s %8.1f%% %8.1f%%\n", w, w, res->names[e->te[k].a], w, w,
                    res->names[e->te[k].b], w, w, res->names[e->te[k].c], 100 * e->te[k].pred, 100 * e->te[k].obs);
        fprintf(f, "three-way cycles (A beats B beats C beats A by head-to-head majority): %ld\n", e->ncyc);
        for (int k = 0; k < e->nc; k++)
            fprintf(f, "  %s > %s (%.0f%%) > %s (%.0f%%) > %s (%.0f%%)\n", res->names[e->cyc[k][0]],
                    res->names[e->cyc[k][1]], 100 * h2h_rate(r->h, e->cyc[k][0], e->cyc[k][1]),
                    res->names[e->cyc[k][2]], 100 * h2h_rate(r->h, e->cyc[k][1], e->cyc[k][2]),
                    res->names[e->cyc[k][0]], 100 * h2h_rate(r->h, e->cyc[k][2], e->cyc[k][0]));
    }
    if (r->los && !e->losm)
        fprintf(f, "\n(--los needs method bt or pl)\n");
    if (e->losm) {
        char ll[128];
        los_label(e->losm, ll, sizeof ll);
        fprintf(f, "\nlikelihood of superiority (%s; %s): row player stronger than column player, %%\n%-*s",
                method_name(e->losm->id), ll, w, "");
        for (int q = 0; q < n; q++)
            fprintf(f, " %6.6s", res->names[ord[q]]);
        fprintf(f, "\n");
        for (int a = 0; a < n; a++) {
            fprintf(f, "%-*.*s", w, w, res->names[ord[a]]);
            for (int q = 0; q < n; q++) {
                double l = a == q ? NAN : method_los(e->losm, ord[a], ord[q]);
                if (isnan(l))
                    fprintf(f, " %6s", "-");
                else
                    fprintf(f, " %6.1f", 100 * l);
            }
            fprintf(f, "\n");
        }
    }
    free(ord);
}

void report_ratings(FILE *f, const RatingReport *r, int format)
{
    if (r->nm < 1)
        return;
    Eval e;
    eval_run(r, &e);
    if (format == REPORT_CSV)
        csv_report(f, r, &e);
    else if (format == REPORT_JSON)
        json_report(f, r, &e);
    else
        table_report(f, r, &e);
    eval_free(&e);
}

void report_history_header(FILE *f) { fprintf(f, "method,step,player,rating,uncertainty\n"); }

void report_history_rows(FILE *f, const Results *res, MethodId m, long step, const int *players, int np,
                         const MethodResult *cur)
{
    for (int i = 0; i < np; i++) {
        int pl = players[i];
        fprintf(f, "%s,%ld,", method_name(m), step + 1);
        csv_str(f, res->names[pl]);
        fprintf(f, ",%.4f,", cur->rating[pl]);
        csv_num(f, cur->unc[pl]);
        fputc('\n', f);
    }
}
