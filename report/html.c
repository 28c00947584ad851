/* html.c — the HTML report (html.h). */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/ratings.h"
#include "report/svg.h"
#include "report/view.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

static const char CSS[] =
    "body{font:14px/1.4 sans-serif;margin:24px;color:#222;max-width:1100px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    "th{background:#f4f4f4}td.l,th.l{text-align:left}.note{color:#555;font-size:12px}"
    "svg.chart{display:block;margin:8px 0}svg .ct{font:bold 13px sans-serif}svg .lb,svg .tk{font:11px sans-serif}"
    "svg .al{font:12px sans-serif}svg .nd{font:12px sans-serif;fill:#888}svg .hn{font:10px sans-serif}"
    "svg .gr{stroke:#e4e4e4}svg .ax{stroke:#444}svg .pt{fill:#1f77b4}svg .ci{fill:#9ecae1}svg .br{fill:#6baed6}"
    "svg .ln{fill:none;stroke-width:1.5}svg .hc{stroke:#fff;stroke-width:0.5}"
    "@media print{body{margin:0}h2{page-break-before:auto}}";

const char *report_html_css(void) { return CSS; }

static void num(FILE *f, double v, int prec)
{
    if (isfinite(v))
        fprintf(f, "<td>%.*f</td>", prec, v);
    else
        fprintf(f, "<td>&mdash;</td>");
}

static void cell(FILE *f, const char *s)
{
    fprintf(f, "<td class=\"l\">");
    html_esc(f, s);
    fprintf(f, "</td>");
}

static void kv(FILE *f, const char *k, const char *v)
{
    fprintf(f, "<tr><th class=\"l\">");
    html_esc(f, k);
    fprintf(f, "</th>");
    cell(f, v);
    fprintf(f, "</tr>\n");
}

static void note(FILE *f, const char *s)
{
    fprintf(f, "<p class=\"note\">");
    html_esc(f, s);
    fprintf(f, "</p>\n");
}

/* Player indices sorted by a method's rating, best first (NaN last). */
static const double *g_sort_key;
static int by_key(const void *a, const void *b)
{
    double x = g_sort_key[*(const int *)a], y = g_sort_key[*(const int *)b];
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);
    return (x < y) - (x > y);
}

static void order_by(const double *key, int n, int *idx)
{
    for (int i = 0; i < n; i++)
        idx[i] = i;
    g_sort_key = key;
    qsort(idx, (size_t)n, sizeof *idx, by_key);
}

static void section_run(FILE *f, const HtmlReport *r)
{
    char b[4096];
    fprintf(f, "<h2 id=\"run\">The run</h2>\n<table>\n");
    kv(f, "store", r->path);
    kv(f, "command", r->run->command);
    snprintf(b, sizeof b, "%llu", (unsigned long long)r->run->seed);
    kv(f, "seed", b);
    kv(f, "dhm version", r->run->version);
    kv(f, "started", r->run->started);
    kv(f, "finished", *r->run->finished ? r->run->finished : "(not finished: the run was stopped or is still going)");
    snprintf(b, sizeof b, "%ld scheduled; %ld stored played cleanly (ok), %ld not (forfeits, timeouts, client exits)%s",
             r->run->sets, r->sets_ok, r->sets_bad,
             r->sets_bad ? (r->include_broken ? ": rated here too (--include-broken)" : ": left out of the ratings") : "");
    kv(f, "sets", b);
    snprintf(b, sizeof b, "%d per set; %ld in the rated sets", r->run->games, r->res->games_in_sets);
    kv(f, "games", b);
    snprintf(b, sizeof b, "%s%s; seats reshuffled every %d games; classes reset every %d", r->run->pairing,
             r->run->duplicate ? ", duplicate (each deal sequence five times, players rotated)" : "",
             r->run->seat_change, r->run->class_reset);
    kv(f, "schedule", b);
    fprintf(f, "</table>\n<table><tr><th class=\"l\">player</th><th class=\"l\">spec</th><th>sets</th></tr>\n");
    for (int i = 0; i < r->res->nplayers; i++) {
        fprintf(f, "<tr>");
        cell(f, r->res->names[i]);
        cell(f, r->specs ? r->specs[i] : "");
        fprintf(f, "<td>%ld</td></tr>\n", r->h->sets[i]);
    }
    fprintf(f, "</table>\n");
}

static void section_broken(FILE *f, const HtmlReport *r)
{
    if (r->nbroken <= 0)
        return;
    fprintf(f, "<h2 id=\"broken\">Sets not played cleanly</h2>\n");
    note(f, r->include_broken ? "Rated here too (--include-broken)."
                              : "Left out of the ratings (--include-broken rates them too).");
    fprintf(f, "<table><tr><th>set</th><th class=\"l\">status</th><th class=\"l\">note</th></tr>\n");
    for (long i = 0; i < r->nbroken; i++) {
        fprintf(f, "<tr><td>%ld</td>", r->broken[i].idx);
        cell(f, r->broken[i].status);
        cell(f, r->broken[i].note);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    if (r->nbroken < r->sets_bad) {
        char b[4200];
        snprintf(b, sizeof b, "The first %ld of %ld; dhm records sets --db %s lists them all.", r->nbroken, r->sets_bad,
                 r->path);
        note(f, b);
    }
}

static void section_ratings(FILE *f, const HtmlReport *r, int *order)
{
    const int n = r->res->nplayers;
    fprintf(f, "<h2 id=\"ratings\">Ratings</h2>\n");
    const char **labels = malloc((size_t)n * sizeof *labels);
    double *v = malloc((size_t)n * sizeof *v), *lo = malloc((size_t)n * sizeof *lo), *hi = malloc((size_t)n * sizeof *hi);
    if (!labels || !v || !lo || !hi)
        goto done;
    for (int m = 0; m < r->nm; m++) {
        const MethodResult *mr = &r->mr[m];
        const char *name = method_name(mr->id);
        char iv[256], un[256], title[400], id[64];
        report_interval_label(mr, r->res, iv, sizeof iv);
        report_unc_label(mr, r->res, un, sizeof un);
        int idx[4096], k = n < 4096 ? n : 4096;
        order_by(mr->rating, k, idx);
        const int use_iv = *iv != 0, use_unc = !use_iv && *un != 0;
        for (int i = 0; i < k; i++) {
            int p = idx[i];
            labels[i] = r->res->names[p];
            v[i] = mr->rating[p];
            lo[i] = use_iv ? mr->lo[p] : use_unc ? mr->rating[p] - mr->unc[p] : NAN;
            hi[i] = use_iv ? mr->hi[p] : use_unc ? mr->rating[p] + mr->unc[p] : NAN;
        }
        if (m == 0)
            memcpy(order, idx, (size_t)k * sizeof *idx);
        snprintf(title, sizeof title, "%s: %s", name, method_info(mr->id)->what);
        snprintf(id, sizeof id, "rating-%s", name);
        chart_intervals(f, id, title, "rating", k, labels, v, lo, hi);
        char what[600];
        snprintf(what, sizeof what, "bars: %s", use_iv ? iv : use_unc ? "" : "none (this method gives no uncertainty)");
        if (use_unc)
            snprintf(what, sizeof what, "bars: rating ± the uncertainty, which is %s", un);
        note(f, what);
        /* a column for each figure the method gives: its interval, else its uncertainty, else neither */
        fprintf(f, "<table><tr><th>#</th><th class=\"l\">player</th><th>rating</th>%s<th>%s</th>"
                   "<th class=\"l\">bounded</th></tr>\n",
                use_iv ? "<th>lo</th><th>hi</th>" : use_unc ? "<th>uncertainty</th>" : "",
                method_uses_games(mr->id) || !r->res->nsets ? "games" : "sets");
        for (int i = 0; i < k; i++) {
            int p = idx[i];
            fprintf(f, "<tr><td>%d</td>", i + 1);
            cell(f, r->res->names[p]);
            num(f, mr->rating[p], 1);
            if (use_iv) {
                num(f, mr->lo[p], 1);
                num(f, mr->hi[p], 1);
            } else if (use_unc) {
                num(f, mr->unc[p], 1);
            }
            fprintf(f, "<td>%ld</td>", mr->count ? mr->count[p] : 0L);
            cell(f, !mr->bound || mr->bound[p] == BOUND_DATA ? "by the results"
                    : mr->bound[p] == BOUND_ABOVE        ? "no upper bound (nobody outside its group beat it)"
                                                         : "no lower bound (it beat nobody outside its group)");
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
done:
    free(labels);
    free(v);
    free(lo);
    free(hi);
}

static void section_trajectories(FILE *f, const HtmlReport *r)
{
    if (!r->traj_method || r->traj_n <= 0)
        return;
    const int n = r->res->nplayers;
    char title[128];
    snprintf(title, sizeof title, "%s ratings after each set", r->traj_method);
    fprintf(f, "<h2 id=\"trajectories\">Rating trajectories</h2>\n");
    chart_lines(f, "trajectories", title, "sets rated", "rating", n, (const char *const *)r->res->names, r->traj_n,
                r->traj_x, r->traj_y);
    /* the numbers: ten points along the run */
    fprintf(f, "<table><tr><th class=\"l\">player</th>");
    int pick[10], np = r->traj_n < 10 ? r->traj_n : 10;
    for (int k = 0; k < np; k++) {
        pick[k] = np == 1 ? 0 : (int)((long)k * (r->traj_n - 1) / (np - 1));
        fprintf(f, "<th>after %.0f</th>", r->traj_x[pick[k]]);
    }
    fprintf(f, "</tr>\n");
    for (int p = 0; p < n; p++) {
        fprintf(f, "<tr>");
        cell(f, r->res->names[p]);
        for (int k = 0; k < np; k++)
            num(f, r->traj_y[(size_t)p * r->traj_n + pick[k]], 0);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

static void section_cross(FILE *f, const HtmlReport *r, const int *order)
{
    const int n = r->res->nplayers;
    const H2H *h = r->h;
    double *rate = malloc((size_t)n * n * sizeof *rate), *cnt = malloc((size_t)n * n * sizeof *cnt);
    const char **labels = malloc((size_t)n * sizeof *labels);
    fprintf(f, "<h2 id=\"crosstable\">Head to head</h2>\n");
    if (!rate || !cnt || !labels)
        goto done;
    for (int i = 0; i < n; i++) {
        labels[i] = r->res->names[order[i]];
        for (int j = 0; j < n; j++) {
            int a = order[i], b = order[j];
            rate[(size_t)i * n + j] = a == b ? NAN : h2h_rate(h, a, b);
            cnt[(size_t)i * n + j] = h->games[(size_t)a * n + b];
        }
    }
    chart_heatmap(f, "crosstable", "win rate of the row player over the column player (numbers: meetings)", n, labels,
                  rate, cnt);
    note(f, "A meeting is a set both played (by total points; a tie counts half), or a game when the results have "
            "no sets. Red: the row player won more often; blue: less often; grey: never met.");
    if (n <= 40) {
        fprintf(f, "<table><tr><th class=\"l\">row over column</th>");
        for (int j = 0; j < n; j++) {
            fprintf(f, "<th>");
            html_esc(f, labels[j]);
            fprintf(f, "</th>");
        }
        fprintf(f, "</tr>\n");
        for (int i = 0; i < n; i++) {
            fprintf(f, "<tr>");
            cell(f, labels[i]);
            for (int j = 0; j < n; j++) {
                int a = order[i], b = order[j];
                if (a == b || h->games[(size_t)a * n + b] == 0)
                    fprintf(f, "<td></td>");
                else
                    fprintf(f, "<td>%.0f-%.0f</td>", h->wins[(size_t)a * n + b],
                            h->games[(size_t)a * n + b] - h->wins[(size_t)a * n + b] - h->draws[(size_t)a * n + b]);
            }
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
done:
    free(rate);
    free(cnt);
    free(labels);
}

static void section_classes(FILE *f, const HtmlReport *r, const int *order)
{
    if (!r->cls)
        return;
    static const char *const PARTS[5] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};
    const int n = r->res->nplayers;
    double *share = malloc((size_t)n * 5 * sizeof *share);
    const char **labels = malloc((size_t)n * sizeof *labels);
    fprintf(f, "<h2 id=\"classes\">Classes reached</h2>\n");
    if (share && labels) {
        for (int i = 0; i < n; i++) {
            int p = order[i];
            long tot = 0;
            for (int k = 0; k < 5; k++)
                tot += r->cls[(size_t)p * 5 + k];
            labels[i] = r->res->names[p];
            for (int k = 0; k < 5; k++)
                share[(size_t)i * 5 + k] = tot ? (double)r->cls[(size_t)p * 5 + k] / (double)tot : NAN;
        }
        chart_stacked(f, "classes", "share of each player's games in each class", n, labels, 5, PARTS, share);
        fprintf(f, "<table><tr><th class=\"l\">player</th><th>games</th>");
        for (int k = 0; k < 5; k++)
            fprintf(f, "<th>%s</th>", PARTS[k]);
        fprintf(f, "<th>points per game</th></tr>\n");
        for (int i = 0; i < n; i++) {
            int p = order[i];
            long tot = 0, pts = 0;
            for (int k = 0; k < 5; k++) {
                tot += r->cls[(size_t)p * 5 + k];
                pts += (5 - k) * r->cls[(size_t)p * 5 + k];
            }
            fprintf(f, "<tr>");
            cell(f, labels[i]);
            fprintf(f, "<td>%ld</td>", tot);
            for (int k = 0; k < 5; k++)
                num(f, share[(size_t)i * 5 + k], 3);
            num(f, tot ? (double)pts / (double)tot : NAN, 3);
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    free(share);
    free(labels);
}

static void section_eval(FILE *f, const HtmlReport *r)
{
    fprintf(f, "<h2 id=\"prediction\">How well each method predicts the head-to-head results</h2>\n");
    const char *labels[32];
    double mse[32];
    long pairs[32];
    int k = r->nm < 32 ? r->nm : 32;
    for (int m = 0; m < k; m++) {
        labels[m] = method_name(r->mr[m].id);
        mse[m] = eval_mse(r->h, &r->mr[m], &pairs[m]);
    }
    chart_bars(f, "mse", "mean squared error of the predicted head-to-head win rates (lower is better)", "MSE", k, labels,
               mse);
    note(f, "Over the pairs of players that met: (predicted win rate - observed win rate)^2, averaged (paper 000). "
            "The ratings are made from the same results, so this measures fit, not out-of-sample prediction.");
    fprintf(f, "<table><tr><th class=\"l\">method</th><th>MSE</th><th>pairs</th></tr>\n");
    for (int m = 0; m < k; m++) {
        fprintf(f, "<tr>");
        cell(f, labels[m]);
        num(f, mse[m], 5);
        fprintf(f, "<td>%ld</td></tr>\n", pairs[m]);
    }
    fprintf(f, "</table>\n");
    TransErr te[10];
    long triples = 0, over60 = 0, cycles_total = 0;
    int nte = eval_transitivity(r->h, te, 10, &triples, &over60);
    int cyc[20][3];
    int nc = eval_cycles(r->h, cyc, 20, &cycles_total);
    fprintf(f, "<h2 id=\"transitivity\">Transitivity</h2>\n");
    char b[256];
    snprintf(b, sizeof b,
             "%ld triples of players where all three pairs met; in %ld the observed W(a,c) is 60 points or more away "
             "from the rate transitivity predicts from W(a,b) and W(b,c) (paper 000 eq. 2). Three-way cycles by "
             "head-to-head majority: %ld.",
             triples, over60, cycles_total);
    note(f, b);
    if (nte) {
        fprintf(f, "<table><tr><th class=\"l\">a</th><th class=\"l\">b</th><th class=\"l\">c</th><th>predicted "
                   "W(a,c)</th><th>observed</th><th>error</th></tr>\n");
        for (int i = 0; i < nte; i++) {
            fprintf(f, "<tr>");
            cell(f, r->res->names[te[i].a]);
            cell(f, r->res->names[te[i].b]);
            cell(f, r->res->names[te[i].c]);
            num(f, te[i].pred, 3);
            num(f, te[i].obs, 3);
            num(f, te[i].obs - te[i].pred, 3);
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    if (nc) {
        fprintf(f, "<table><tr><th class=\"l\">cycle (each beats the next more often than not)</th></tr>\n");
        for (int i = 0; i < nc; i++) {
            fprintf(f, "<tr><td class=\"l\">");
            html_esc(f, r->res->names[cyc[i][0]]);
            fprintf(f, " &gt; ");
            html_esc(f, r->res->names[cyc[i][1]]);
            fprintf(f, " &gt; ");
            html_esc(f, r->res->names[cyc[i][2]]);
            fprintf(f, " &gt; ");
            html_esc(f, r->res->names[cyc[i][0]]);
            fprintf(f, "</td></tr>\n");
        }
        fprintf(f, "</table>\n");
    }
}

static void section_hand(FILE *f, const HtmlReport *r)
{
    const HandSummary *s = r->hand;
    if (!s || s->sets == 0)
        return;
    const int n = r->res->nplayers < s->nplayers ? r->res->nplayers : s->nplayers;
    fprintf(f, "<h2 id=\"handstrength\">Initial-hand win rates</h2>\n");
    char b[512];
    snprintf(b, sizeof b,
             "dhm handstrength: %ld games of %ld sets, %d playouts each (%s, seed %llu), hands after the exchange%s. "
             "Bars: mean p ± 2 standard errors over the player's games.",
             s->games, s->sets, s->info.playouts, s->info.method, (unsigned long long)s->info.seed,
             s->sets_missing ? "; some sets have none yet" : "");
    note(f, b);
    const char **labels = malloc((size_t)(n > 0 ? n : 1) * sizeof *labels);
    double *v = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof *v);
    long *games = malloc((size_t)(n > 0 ? n : 1) * sizeof *games);
    if (labels && v && games) {
        int k = 0;
        for (int p = 0; p < n; p++) {
            long g = s->games_of[p];
            if (!g)
                continue;
            double m = s->p_sum[p] / g, var = g > 1 ? (s->p_sq[p] - g * m * m) / (g - 1) : NAN;
            double se = var > 0 ? sqrt(var / g) : 0;
            labels[k] = r->res->names[p];
            games[k] = g;
            v[k] = m;
            v[n + k] = m - 2 * se;
            v[2 * n + k] = m + 2 * se;
            k++;
        }
        chart_intervals(f, "hand-mean-p", "each player's mean initial-hand win rate p", "mean p", k, labels, v, v + n,
                        v + 2 * n);
        fprintf(f, "<table><tr><th class=\"l\">player</th><th>games</th><th>mean p</th><th>-2 se</th><th>+2 se</th></tr>\n");
        for (int i = 0; i < k; i++) {
            fprintf(f, "<tr>");
            cell(f, labels[i]);
            fprintf(f, "<td>%ld</td>", games[i]);
            num(f, v[i], 4);
            num(f, v[n + i], 4);
            num(f, v[2 * n + i], 4);
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    free(labels);
    free(v);
    free(games);
    double x[HAND_BINS], y[2 * HAND_BINS];
    const char *names[2] = {"observed share", "p itself (perfect calibration)"};
    for (int b2 = 0; b2 < HAND_BINS; b2++) {
        double cntb = (double)s->bin_n[b2];
        x[b2] = cntb ? s->bin_p[b2] / cntb : NAN;
        y[b2] = cntb ? s->bin_won[b2] / cntb : NAN;
        y[HAND_BINS + b2] = x[b2];
    }
    chart_lines(f, "hand-calibration", "how often i finished above j, against p_ij", "mean p_ij in the bin",
                "share i above j", 2, names, HAND_BINS, x, y);
    snprintf(b, sizeof b, "Brier score of p_ij for the pairs' real order: %.4f (a coin: 0.2500).",
             s->pairs > 0 ? s->brier / s->pairs : NAN);
    note(f, b);
    fprintf(f, "<table><tr><th>p_ij bin</th><th>pairs</th><th>mean p</th><th>observed</th><th>binomial se</th></tr>\n");
    for (int b2 = 0; b2 < HAND_BINS; b2++) {
        double cntb = (double)s->bin_n[b2], o = cntb ? s->bin_won[b2] / cntb : NAN;
        fprintf(f, "<tr><td>%.1f-%.1f</td><td>%ld</td>", (double)b2 / HAND_BINS, (double)(b2 + 1) / HAND_BINS, s->bin_n[b2]);
        num(f, x[b2], 3);
        num(f, o, 3);
        num(f, cntb > 1 ? sqrt(o * (1 - o) / cntb) : NAN, 3);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

static void section_errors(FILE *f, const HtmlReport *r)
{
    if (r->nerr <= 0)
        return;
    fprintf(f, "<h2 id=\"errorrate\">Error rates</h2>\n");
    const char **labels = malloc((size_t)r->nerr * sizeof *labels);
    double *v = malloc((size_t)r->nerr * 3 * sizeof *v);
    char (*lab)[256] = malloc((size_t)r->nerr * sizeof *lab);
    if (labels && v && lab) {
        for (int i = 0; i < r->nerr; i++) {
            const StoredErrRate *e = &r->err[i];
            snprintf(lab[i], sizeof lab[i], "%.60s (%.120s, %d worlds)", e->player, e->evaluator, e->worlds);
            labels[i] = lab[i];
            v[i] = e->rate;
            v[r->nerr + i] = e->lo;
            v[2 * r->nerr + i] = e->hi;
        }
        chart_intervals(f, "errorrate", "error rate: mean value lost per decision (reward units; 0.25 = one class)",
                        "error rate", r->nerr, labels, v, v + r->nerr, v + 2 * r->nerr);
        note(f, "dhm errorrate --save: every decision with at least two choices judged from the player's information "
                "set; bars: 95% bootstrap percentile interval over games.");
        fprintf(f, "<table><tr><th class=\"l\">player</th><th class=\"l\">evaluator</th><th>worlds</th><th>games</th>"
                   "<th>judged</th><th>skipped</th><th>error rate</th><th>lo</th><th>hi</th><th>mean rank</th>"
                   "<th>points</th><th class=\"l\">made</th></tr>\n");
        for (int i = 0; i < r->nerr; i++) {
            const StoredErrRate *e = &r->err[i];
            fprintf(f, "<tr>");
            cell(f, e->player);
            cell(f, e->evaluator);
            fprintf(f, "<td>%d</td><td>%ld</td><td>%ld</td><td>%ld</td>", e->worlds, e->games, e->judged, e->skipped);
            num(f, e->rate, 4);
            num(f, e->lo, 4);
            num(f, e->hi, 4);
            num(f, e->mean_rank, 3);
            num(f, e->mean_points, 3);
            cell(f, e->made);
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    free(labels);
    free(v);
    free(lab);
}

int report_html(FILE *f, const HtmlReport *r)
{
    const int n = r->res->nplayers;
    int *order = calloc((size_t)(n > 0 ? n : 1), sizeof *order);
    if (!order)
        return -1;
    for (int i = 0; i < n; i++)
        order[i] = i;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>dhm report: ");
    html_esc(f, r->path);
    const int games = r->worst && r->worst->analysed > 0;
    fprintf(f, "</title><style>%s%s</style></head><body>\n<h1>dhm report: ", CSS, games ? view_html_css() : "");
    html_esc(f, r->path);
    fprintf(f, "</h1>\n<p class=\"note\"><a href=\"#run\">run</a>%s%s%s%s%s</p>\n",
            r->nbroken ? " · <a href=\"#broken\">sets not played cleanly</a>" : "",
            r->no_ratings ? ""
                          : " · <a href=\"#ratings\">ratings</a> · <a href=\"#trajectories\">trajectories</a> · <a "
                            "href=\"#crosstable\">head to head</a> · <a href=\"#classes\">classes</a> · <a "
                            "href=\"#prediction\">prediction</a> · <a href=\"#transitivity\">transitivity</a>",
            r->hand && r->hand->sets ? " · <a href=\"#handstrength\">initial hands</a>" : "",
            r->nerr ? " · <a href=\"#errorrate\">error rates</a>" : "", games ? " · <a href=\"#games\">games</a>" : "");
    section_run(f, r);
    if (r->no_ratings) {
        fprintf(f, "<p><b>No ratings</b>: ");
        html_esc(f, r->no_ratings);
        fprintf(f, ".</p>\n");
    }
    section_broken(f, r);
    if (!r->no_ratings) {
        section_ratings(f, r, order);
        section_trajectories(f, r);
        section_cross(f, r, order);
        section_classes(f, r, order);
        section_eval(f, r);
    }
    section_hand(f, r);
    section_errors(f, r);
    if (games)
        view_html_worst(f, r->path, r->worst, (const char *const *)r->res->names);
    fprintf(f, "<p class=\"note\">Made by dhm %s. Every uncertainty is labelled with its kind; a rating marked "
               "unbounded comes from the prior or the update rule, not from the results.</p>\n</body></html>\n",
            DHM_VERSION);
    free(order);
    return ferror(f) ? -1 : 0;
}
