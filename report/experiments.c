/* experiments.c — printing the papers' experiments (experiments.h). */
#include "report/experiments.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "players/bandit.h"
#include "report/emit.h"

void report_exp_describe(FILE *o, const ExpHeader *h)
{
    const ExpConfig *c = h->cfg;
    fprintf(o, "%d games per match, seats reshuffled every %d, classes reset every %d; sims=%ld%s%s; seed %llu; %.1f s\n",
            c->match.games, c->match.seat_change, c->match.class_reset, c->sims, c->mc_opts && *c->mc_opts ? " " : "",
            c->mc_opts ? c->mc_opts : "", (unsigned long long)c->match.seed, h->secs);
}

/* ---- bandits ---- */

/* A bandit x combination table of v[combination][bandit] ("-" where left out), with a last
 * column of the total or the mean over the five combinations a bandit played in. */
static void combo_table(FILE *o, const BanditsResult *r, const double v[EXP_NBANDIT][EXP_NBANDIT], int prec, int mean)
{
    fprintf(o, "%-12s", "bandit");
    for (int j = 0; j < EXP_NBANDIT; j++)
        fprintf(o, " %6s%d", "No.", j + 1);
    fprintf(o, " %7s\n", mean ? "mean" : "total");
    for (int b = 0; b < EXP_NBANDIT; b++) {
        double sum = 0;
        fprintf(o, "%-12s", EXP_BANDITS[b]);
        for (int j = 0; j < EXP_NBANDIT; j++) {
            if (r->points[j][b] < 0) {
                fprintf(o, " %7s", "-");
                continue;
            }
            fprintf(o, " %7.*f", prec, v[j][b]);
            sum += v[j][b];
        }
        fprintf(o, " %7.*f\n", prec, mean ? sum / (EXP_NBANDIT - 1) : sum);
    }
}

void report_bandits(FILE *o, const BanditsResult *r, const ExpHeader *h, int csv)
{
    const ExpConfig *c = h->cfg;
    if (csv) {
        fprintf(o, "combination,bandit,matches,games,first,mean_points,mean_points_per_game\n");
        for (int j = 0; j < EXP_NBANDIT; j++)
            for (int b = 0; b < EXP_NBANDIT; b++)
                if (r->points[j][b] >= 0)
                    fprintf(o, "%d,%s,%d,%d,%d,%.3f,%.5f\n", j + 1, EXP_BANDITS[b], c->matches, c->match.games,
                            r->first[j][b], r->points[j][b], r->points[j][b] / c->match.games);
        return;
    }
    fprintf(o, "root bandits (paper 001 Table 1): 6 combinations x %d match%s\n", c->matches, c->matches == 1 ? "" : "es");
    report_exp_describe(o, h);
    double first[EXP_NBANDIT][EXP_NBANDIT];
    for (int j = 0; j < EXP_NBANDIT; j++)
        for (int b = 0; b < EXP_NBANDIT; b++)
            first[j][b] = r->first[j][b];
    fprintf(o, "\nmatches won (first place)\n");
    combo_table(o, r, first, 0, 0);
    fprintf(o, "%-12s", "shared");
    for (int j = 0; j < EXP_NBANDIT; j++)
        fprintf(o, " %7d", r->shared[j]);
    fprintf(o, "\n\nmean points per match (Fig. 2; the average is %d)\n", 3 * c->match.games);
    combo_table(o, r, r->points, 1, 1);
}

/* ---- choice ---- */

void report_choice(FILE *o, const ChoiceResult *r, const char *spec, const char *const *opp, int nopp, const int *check,
                   int ncheck, const ExpHeader *h, int csv)
{
    const ExpConfig *c = h->cfg;
    if (csv) {
        fprintf(o, "opponent,games,bandit,usage_rate,usage_sd,matches,choice_points_per_game,opponent_points_per_game\n");
        for (int k = 0; k < nopp; k++)
            for (int q = 0; q < ncheck; q++)
                for (int b = 0; b < MC_CHOICE_ARMS; b++)
                    fprintf(o, "%s,%d,%s,%.5f,%.5f,%d,%.5f,%.5f\n", opp[k], check[q], bandit_name(MC_CHOICE_KINDS[b]),
                            r->usage[k][q][b], r->usage_sd[k][q][b], c->matches, r->choice_ppg[k], r->opp_ppg[k]);
        return;
    }
    fprintf(o, "choice bandit (paper 001 Figs. 3-5): %s against four copies of each opponent, %d match%s each\n", spec,
            c->matches, c->matches == 1 ? "" : "es");
    report_exp_describe(o, h);
    for (int k = 0; k < nopp; k++) {
        fprintf(o, "\nvs 4 x %s: choice %.3f points/game, opponents %.3f; choice won %d of %d matches\n%-8s", opp[k],
                r->choice_ppg[k], r->opp_ppg[k], r->choice_first[k], c->matches, "games");
        for (int b = 0; b < MC_CHOICE_ARMS; b++)
            fprintf(o, " %11s", bandit_name(MC_CHOICE_KINDS[b]));
        fprintf(o, "\n");
        for (int q = 0; q < ncheck; q++) {
            fprintf(o, "%-8d", check[q]);
            for (int b = 0; b < MC_CHOICE_ARMS; b++)
                fprintf(o, " %11.3f", r->usage[k][q][b]);
            fprintf(o, "\n");
        }
    }
}

/* ---- desa ---- */

void report_desa(FILE *o, const DesaRow r[EXP_NDESA], const char *base, const char *others, const ExpHeader *h, int csv)
{
    if (csv) {
        fprintf(o, "variant,matches,games,wins_vs_base,ties,desa_first,base_first,desa_points,base_points,sign_p\n");
        for (int v = 0; v < EXP_NDESA; v++)
            fprintf(o, "%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.6g\n", EXP_DESA_VARIANTS[v], r[v].matches, h->cfg->match.games,
                    r[v].wins, r[v].ties, r[v].desa_first, r[v].base_first, r[v].desa_points, r[v].base_points,
                    r[v].p_value);
        return;
    }
    fprintf(o, "DESA (paper 001 Tables 4-5): base %s; others %s\n", base, others);
    report_exp_describe(o, h);
    fprintf(o, "\n%-8s %7s %16s %5s %16s %16s %8s\n", "variant", "matches", "beat base (rate)", "ties", "DESA first",
            "base first", "sign p");
    for (int v = 0; v < EXP_NDESA; v++) {
        double m = r[v].matches ? r[v].matches : 1;
        fprintf(o, "%-8s %7d %8d (%.3f) %5d %8d (%.3f) %8d (%.3f) %8.3f\n", EXP_DESA_VARIANTS[v], r[v].matches,
                r[v].wins, r[v].wins / m, r[v].ties, r[v].desa_first, r[v].desa_first / m, r[v].base_first,
                r[v].base_first / m, r[v].p_value);
    }
    fprintf(o, "\nmean points per match (Table 5)\n%-8s %10s %10s\n", "variant", "DESA", "base");
    for (int v = 0; v < EXP_NDESA; v++)
        fprintf(o, "%-8s %10.1f %10.1f\n", EXP_DESA_VARIANTS[v], r[v].desa_points, r[v].base_points);
}

/* ---- ninja (paper 001 §6.4) ---- */

/* Paper 001 Tables 2-3 (115 matches; Ninja and Blauwereggen with three of eleven champions). */
static const struct {
    int games, wins, ninja_first, base_first;
    double ninja_points, base_points;
} NINJA_PAPER[] = {{3000, 62, 58, 45, 9995.41, 9981.53},      {5000, 58, 56, 53, 16656.80, 16628.23},
                   {8000, 58, 55, 52, 26628.70, 26622.74},    {10000, 58, 57, 53, 33288.23, 33242.10},
                   {13000, 59, 53, 50, 43256.21, 43196.63},   {15000, 59, 52, 52, 49880.27, 49846.17}};
#define NINJA_PAPER_MATCHES 115

void report_ninja(FILE *o, const NinjaRow *rows, int n, const char *ninja, const char *base, const char *others,
                  const ExpHeader *h, int csv)
{
    if (csv) {
        fprintf(o, "games,matches,wins_vs_base,ties,ninja_first,base_first,ninja_points,base_points,diff_se,sign_p_two_sided,"
                   "paired_t_p_two_sided");
        for (int a = 0; a < MC_CHOICE_ARMS; a++)
            fprintf(o, ",usage_%s", bandit_name(MC_CHOICE_KINDS[a]));
        fprintf(o, "\n");
        for (int k = 0; k < n; k++) {
            const NinjaRow *r = &rows[k];
            fprintf(o, "%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.6g,%.6g", r->games, r->matches, r->wins, r->ties, r->ninja_first,
                    r->base_first, r->ninja_points, r->base_points, r->diff_se, r->sign_p, r->t_p);
            for (int a = 0; a < MC_CHOICE_ARMS; a++)
                fprintf(o, ",%.5f", r->usage[a]);
            fprintf(o, "\n");
        }
        return;
    }
    fprintf(o, "Ninja vs its base (paper 001 §6.4, Tables 2-3): Ninja %s, base %s, %d matches;\nthe other three seats drawn "
               "at random for each match from %s\n",
            ninja, base, h->cfg->matches, others);
    report_exp_describe(o, h);
    fprintf(o, "\nTable 2: matches (rate)\n%7s %18s %5s %18s %18s %8s   %s\n", "games", "Ninja beat base", "ties",
            "Ninja first", "base first", "sign p", "paper (115 matches): beat base, Ninja first, base first");
    for (int k = 0; k < n; k++) {
        const NinjaRow *r = &rows[k];
        double m = r->matches;
        fprintf(o, "%7d %9d (%.3f) %5d %9d (%.3f) %9d (%.3f) %8.3f", r->games, r->wins, r->wins / m, r->ties,
                r->ninja_first, r->ninja_first / m, r->base_first, r->base_first / m, r->sign_p);
        for (size_t q = 0; q < sizeof NINJA_PAPER / sizeof NINJA_PAPER[0]; q++)
            if (NINJA_PAPER[q].games == r->games)
                fprintf(o, "   %d (%.3f), %d (%.3f), %d (%.3f); sign p %.2f", NINJA_PAPER[q].wins,
                        NINJA_PAPER[q].wins / (double)NINJA_PAPER_MATCHES, NINJA_PAPER[q].ninja_first,
                        NINJA_PAPER[q].ninja_first / (double)NINJA_PAPER_MATCHES, NINJA_PAPER[q].base_first,
                        NINJA_PAPER[q].base_first / (double)NINJA_PAPER_MATCHES,
                        sign_test(NINJA_PAPER[q].wins, NINJA_PAPER_MATCHES));
        fprintf(o, "\n");
    }
    fprintf(o, "\nTable 3: mean points per match\n%7s %12s %12s %18s %10s   %s\n", "games", "Ninja", "base",
            "Ninja - base +- se", "paired p", "paper: Ninja, base");
    for (int k = 0; k < n; k++) {
        const NinjaRow *r = &rows[k];
        fprintf(o, "%7d %12.2f %12.2f %9.2f +- %6.2f %10.3f", r->games, r->ninja_points, r->base_points,
                r->ninja_points - r->base_points, r->diff_se, r->t_p);
        for (size_t q = 0; q < sizeof NINJA_PAPER / sizeof NINJA_PAPER[0]; q++)
            if (NINJA_PAPER[q].games == r->games)
                fprintf(o, "   %.2f, %.2f", NINJA_PAPER[q].ninja_points, NINJA_PAPER[q].base_points);
        fprintf(o, "\n");
    }
    fprintf(o, "\nFig. 6: Ninja's use of its inner bandits (games that used each / games so far, mean over matches)\n%7s",
            "games");
    for (int a = 0; a < MC_CHOICE_ARMS; a++)
        fprintf(o, " %11s", bandit_name(MC_CHOICE_KINDS[a]));
    fprintf(o, "\n");
    for (int k = 0; k < n; k++) {
        fprintf(o, "%7d", rows[k].games);
        for (int a = 0; a < MC_CHOICE_ARMS; a++)
            fprintf(o, " %11.3f", rows[k].usage[a]);
        fprintf(o, "\n");
    }
    fprintf(o, "(sign p: two-sided exact sign test of the matches Ninja beat its base against those it lost, ties left\n"
               "out — the paper names no test, this is the one its counts call for, applied to its figures too;\n"
               "paired p: two-sided paired t-test of Ninja's points minus the base's over matches; se over matches)\n");
}

/* ---- paper 003 ---- */

void report_est_rows(FILE *o, const EstRow *rows, int n, int oracle, const char *base, const ExpHeader *h, int csv)
{
    const int games = h->cfg->match.games;
    const double per1000 = 1000.0 / games;
    if (csv) {
        fprintf(o, "%s,p,matches,games,points_mean,points_sd,per_1000_games,accuracy,daihinmin,hinmin,heimin,fugo,daifugo,"
                   "welch_p_two_sided,welch_p_one_sided\n",
                oracle ? "method" : "order");
        for (int i = 0; i < n; i++) {
            const EstRow *r = &rows[i];
            fprintf(o, "%s,%g,%d,%d,%.3f,%.3f,%.2f,%.5f,%.5f,%.5f,%.5f,%.5f,%.5f,%.6g,%.6g\n", r->label, r->p, r->matches,
                    games, r->mean, r->sd, r->mean * per1000, r->accuracy, r->cls[4], r->cls[3], r->cls[2], r->cls[1],
                    r->cls[0], r->p_value, r->p_one);
        }
        return;
    }
    fprintf(o, "%s (paper 003 %s): base %s, %d matches a row\n", oracle ? "oracle estimation" : "dealing orders",
            oracle ? "Tables 2-3" : "Table 1", base, h->cfg->matches);
    report_exp_describe(o, h);
    fprintf(o, "\n%-8s %5s %22s %14s %9s %9s %9s %8s %8s %8s %8s %8s\n", oracle ? "method" : "order", oracle ? "p" : "",
            "points/match mean+-SD", "per 1000 games", "accuracy", "p 1-sided", "p 2-sided", "daihin.", "hinmin", "heimin",
            "fugo", "daifugo");
    for (int i = 0; i < n; i++) {
        const EstRow *r = &rows[i];
        char p1[16], p2[16], pp[16] = "";
        if (isnan(r->p_value)) {
            snprintf(p1, sizeof p1, "(ref)");
            snprintf(p2, sizeof p2, "(ref)");
        } else {
            snprintf(p1, sizeof p1, "%.4f", r->p_one);
            snprintf(p2, sizeof p2, "%.4f", r->p_value);
        }
        if (oracle)
            snprintf(pp, sizeof pp, "%.2f", r->p);
        fprintf(o, "%-8s %5s %13.1f +- %5.1f %14.1f %9.4f %9s %9s %7.2f%% %7.2f%% %7.2f%% %7.2f%% %7.2f%%\n", r->label, pp,
                r->mean, r->sd, r->mean * per1000, r->accuracy, p1, p2, 100 * r->cls[4], 100 * r->cls[3],
                100 * r->cls[2], 100 * r->cls[1], 100 * r->cls[0]);
    }
    fprintf(o, "(SD across matches; p: Welch's t-test against the %s row, one-sided for %s (paper 003's convention:\n"
               "it reports one-sided p) and two-sided; accuracy: share of the opponents' cards with the right holder in\n"
               "the worlds the evaluated player sampled)\n",
            oracle ? "p = 0" : "Random", oracle ? "\"the row scores more\"" : "\"Random scores more\"");
}

/* ---- the virtual game ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    double f = pos - i;
    return i + 1 < n ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[n - 1];
}

VgRow report_vg_row(int natural, int dist, int method, double *fin, int n)
{
    static const double paper_plain[VG_NDIST] = {1701, 1607, 1501};
    qsort(fin, (size_t)n, sizeof *fin, cmp_double);
    VgRow r = {natural, dist, method, quantile(fin, n, 0.5), quantile(fin, n, 0.25), quantile(fin, n, 0.75), 0, 0};
    /* the paper reports about 1701/1607/1501 for plain Elo and about 1700 for the corrected
     * method (with and without noise); more than VG_REPRODUCED points off is said */
    r.paper = method == VG_PLAIN ? paper_plain[dist] : 1700;
    r.reproduced = fabs(r.median - r.paper) <= VG_REPRODUCED;
    return r;
}

void report_vg_hist(FILE *f, const VgRow *row, const double *sorted, int n)
{
    int s = 0;
    while (s < n) {
        double lo = 5.0 * floor(sorted[s] / 5.0);
        int cnt = 0;
        while (s < n && sorted[s] < lo + 5.0)
            s++, cnt++;
        fprintf(f, "%s,%s,%s,%.0f,%.0f,%d\n", row->natural ? "e" : "10", vg_dist_name(row->dist),
                vg_method_name(row->method), lo, lo + 5, cnt);
    }
}

void report_vg(FILE *o, const VgConfig *cfg, const VgRow *rows, int nrows, int json)
{
    if (json) {
        fprintf(o, "{\"sets\": %d, \"games\": %d, \"k\": %g, \"noise\": %g, \"seed\": %llu, \"results\": [", cfg->sets,
                cfg->games, cfg->k, cfg->noise, (unsigned long long)cfg->seed);
        for (int i = 0; i < nrows; i++) {
            const VgRow *r = &rows[i];
            fprintf(o, "%s\n  {\"log\": \"%s\", \"p\": \"%s\", \"method\": \"%s\", \"median\": %.2f, \"q1\": %.2f, "
                       "\"q3\": %.2f, \"paper\": %.0f, \"reproduced\": %s}",
                    i ? "," : "", r->natural ? "e" : "10", vg_dist_name(r->dist), vg_method_name(r->method), r->median,
                    r->q1, r->q3, r->paper, r->reproduced ? "true" : "false");
        }
        fprintf(o, "\n]}\n");
        return;
    }
    int not_reproduced = 0, blocks = 0;
    for (int i = 0; i < nrows; i++) {
        const VgRow *r = &rows[i];
        if (i == 0 || r->natural != rows[i - 1].natural)
            fprintf(o, "%svirtual game (paper 002 §4): true 1700 vs 1300, %d sets x %d games, K = %g, noise %g\n"
                       "log in f(p): %s\n%-8s %-16s %8s %8s %8s   %-11s %s\n",
                    blocks++ ? "\n" : "", cfg->sets, cfg->games, cfg->k, cfg->noise,
                    r->natural ? "ln — the closest to the paper's figures" : "log10 — the paper's formula (3) as printed",
                    "p", "method", "median", "Q1", "Q3", "paper", "median - paper");
        fprintf(o, "%-8s %-16s %8.1f %8.1f %8.1f   about %-5.0f %+6.1f%s\n", vg_dist_name(r->dist),
                vg_method_name(r->method), r->median, r->q1, r->q3, r->paper, r->median - r->paper,
                r->reproduced ? "" : "  not reproduced");
        not_reproduced += !r->reproduced;
    }
    if (not_reproduced)
        fprintf(o, "\n%d rows are more than %.0f points from the paper's figure (\"not reproduced\"; docs/rating.md "
                   "discusses why)\n",
                not_reproduced, VG_REPRODUCED);
}

/* ---- the error-rate study (paper 004 §5) ---- */

/* "16", "11.3", "never (> 500)" */
static const char *nequiv_str(char *buf, size_t n, double v, long judge)
{
    if (isinf(v))
        snprintf(buf, n, "never (> %ld)", judge);
    else if (v == floor(v))
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.1f", v);
    return buf;
}

static void errstudy_seed_text(FILE *o, const ErrStudyReport *r, const ErrStudySeed *s)
{
    char nb[32];
    fprintf(o, "\n== seed %llu: %ld sets judged, %ld held-out sets (%ld to %ld held-out games a player)\n",
            (unsigned long long)s->seed, s->judged_sets, s->strength_sets, s->heldout_min, s->heldout_max);
    fprintf(o, "%-10s %9s %7s %10s %9s %9s\n", "player", "R_p", "judged", "error rate", "mean rank", "mean pts");
    for (int i = 0; i < s->np; i++)
        fprintf(o, "%-10.10s %9.1f %7ld %10.4f %9.3f %9.3f\n", s->names[i], s->ep[i].strength, s->ep[i].n,
                errstudy_measure(&s->ep[i], ES_ERROR, 0, s->ep[i].n), errstudy_measure(&s->ep[i], ES_RANK, 0, s->ep[i].n),
                errstudy_measure(&s->ep[i], ES_POINTS, 0, s->ep[i].n));
    for (int i = 0; i < s->nunrated; i++)
        fprintf(o, "%-10.10s %9s   (no held-out games: unrated, left out of the tables)\n", s->unrated[i], "-");
    fprintf(o, "f (least squares over the judged games): R = %.1f x error rate + %.1f;  R = %.1f x mean rank + %.1f\n",
            s->fit.slope[ES_ERROR], s->fit.intercept[ES_ERROR], s->fit.slope[ES_RANK], s->fit.intercept[ES_RANK]);
    fprintf(o, "%8s %7s | %-27s | %-27s | %s\n", "", "", "error rate (as Table 6)", "mean rank (as Table 7)",
            "mean points");
    fprintf(o, "%8s %7s | %16s %10s | %16s %10s | %16s\n", "n games", "chunks", "r +- se", "R^2", "r +- se", "R^2",
            "r +- se");
    for (int k = 0; k < s->nrows; k++) {
        const EsRow *w = &s->rows[k];
        fprintf(o, "%8d %7ld | %8.3f +- %5.3f %10.3f | %8.3f +- %5.3f %10.3f | %8.3f +- %5.3f\n", w->n, w->chunks,
                w->r[ES_ERROR], w->se[ES_ERROR], w->r2[ES_ERROR], w->r[ES_RANK], w->se[ES_RANK], w->r2[ES_RANK],
                w->r[ES_POINTS], w->se[ES_POINTS]);
    }
    fprintf(o, "n-equivalence: the error rate's |r| reaches the mean rank's |r| at %ld games (%.3f) at n = %s\n",
            r->judge, s->target, nequiv_str(nb, sizeof nb, s->nequiv, r->judge));
}

void report_errstudy(FILE *o, const ErrStudyReport *r, int csv)
{
    static const char *const KEY[ES_MEASURES] = {"error_rate", "mean_rank", "mean_points"};
    char nb[32], lb[32], hb[32];
    const JudgeMargin *m = r->margin;
    if (csv) { /* one table: the per-seed players and correlations, the summary over seeds, the
                * n-equivalence, the strongest player and the margin, stacked (emit.h) */
        CsvParts parts;
        csv_parts_begin(&parts, o);
        FILE *t = csv_part(&parts, "players");
        fprintf(t, "seed,player,strength_bt_heldout,games_judged,error_rate,mean_rank,mean_points\n");
        for (int k = 0; k < r->nseeds; k++) {
            const ErrStudySeed *s = &r->s[k];
            for (int i = 0; i < s->np; i++) {
                fprintf(t, "%llu,", (unsigned long long)s->seed);
                csv_str(t, s->names[i]);
                fprintf(t, ",%.2f,%ld,%.5f,%.4f,%.4f\n", s->ep[i].strength, s->ep[i].n,
                        errstudy_measure(&s->ep[i], ES_ERROR, 0, s->ep[i].n),
                        errstudy_measure(&s->ep[i], ES_RANK, 0, s->ep[i].n),
                        errstudy_measure(&s->ep[i], ES_POINTS, 0, s->ep[i].n));
            }
        }
        t = csv_part(&parts, "correlations");
        fprintf(t, "seed,n,measure,chunks,r,se,r2\n");
        for (int k = 0; k < r->nseeds; k++)
            for (int j = 0; j < r->s[k].nrows; j++)
                for (int q = 0; q < ES_MEASURES; q++) {
                    const EsRow *w = &r->s[k].rows[j];
                    fprintf(t, "%llu,%d,%s,%ld,%.5f,%.5f,%.5f\n", (unsigned long long)r->s[k].seed, w->n, KEY[q],
                            w->chunks, w->r[q], w->se[q], w->r2[q]);
                }
        t = csv_part(&parts, "summary");
        fprintf(t, "n,measure,seeds,mean_r,ci95_low,ci95_high\n");
        for (int j = 0; j < r->nrows; j++)
            for (int q = 0; q < ES_MEASURES; q++)
                fprintf(t, "%d,%s,%d,%.5f,%.5f,%.5f\n", r->sum[j].n, KEY[q], r->sum[j].seeds, r->sum[j].mean[q],
                        r->sum[j].mean[q] - r->sum[j].half[q], r->sum[j].mean[q] + r->sum[j].half[q]);
        t = csv_part(&parts, "n_equivalence");
        fprintf(t, "seed,rank_abs_r_at_judged,n_equivalence\n");
        for (int k = 0; k < r->nseeds; k++)
            fprintf(t, "%llu,%.5f,%.3f\n", (unsigned long long)r->s[k].seed, r->s[k].target, r->s[k].nequiv);
        t = csv_part(&parts, "strongest");
        fprintf(t, "seed,player\n%llu,", (unsigned long long)r->s[0].seed);
        csv_str(t, r->strongest);
        fprintf(t, "\n");
        if (m) {
            t = csv_part(&parts, "margin");
            fprintf(t, "evaluator,worlds,opponent,matches,games,points_per_game,se,opponents_points_per_game,"
                       "p_one_sided\n");
            csv_str(t, r->evaluator);
            fprintf(t, ",%ld,", r->worlds);
            csv_str(t, r->margin_opp);
            fprintf(t, ",%d,%ld,%.4f,%.4f,%.4f,%.6g\n", m->matches, m->games, m->ppg, m->se, m->opp_ppg, m->p_one);
        }
        csv_parts_end(&parts);
        return;
    }
    fprintf(o, "error rate against long-run strength (paper 004 §5 on Daihinmin): %d seed%s (%llu", r->nseeds,
            r->nseeds == 1 ? "" : "s", (unsigned long long)r->s[0].seed);
    if (r->nseeds > 1)
        fprintf(o, " to %llu", (unsigned long long)r->s[r->nseeds - 1].seed);
    fprintf(o, "), %s of %d players\n", r->pool_name, r->pool_n);
    fprintf(o, "per seed: one tournament of sets of %ld games; the first %ld games of every player judged by %s with "
               "%ld paired worlds a decision;\nR_p = Bradley-Terry rating (Elo scale) over the later, never-judged sets "
               "(about %ld games a player)\n",
            r->set_games, r->judge, r->evaluator, r->worlds, r->gpp);
    char rp[32] = "unrated";
    if (!isnan(r->margin_opp_rp))
        snprintf(rp, sizeof rp, "%.0f", r->margin_opp_rp);
    if (m)
        fprintf(o, "evaluator's margin: playing as it judges against four copies of %s (R_p %s at the first seed; "
                   "the strongest judged player is %s), %d matches of %ld games:\n  %.3f points per game +- %.3f (se "
                   "over matches; par 3.000), the copies %.3f; one-sided t-test of > par: p = %.2g%s\n",
                r->margin_opp, rp, r->strongest, m->matches, m->games, m->ppg, m->se, m->opp_ppg, m->p_one,
                m->p_one < 0.05 ? "" : "  (NOT clearly stronger: the judge may misjudge the best players)");
    else
        fprintf(o, "evaluator's margin: not measured (--margin-matches 0)\n");
    for (int k = 0; k < r->nseeds; k++)
        errstudy_seed_text(o, r, &r->s[k]);
    if (r->nseeds < 2)
        return;
    fprintf(o, "\n== over the %d seeds: mean r, with a 95%% Student-t interval over seeds\n", r->nseeds);
    fprintf(o, "%8s | %-24s | %-24s | %-24s\n", "n games", "error rate", "mean rank", "mean points");
    for (int j = 0; j < r->nrows; j++) {
        fprintf(o, "%8d", r->sum[j].n);
        for (int q = 0; q < ES_MEASURES; q++)
            fprintf(o, " | %7.3f [%6.3f, %6.3f]", r->sum[j].mean[q], r->sum[j].mean[q] - r->sum[j].half[q],
                    r->sum[j].mean[q] + r->sum[j].half[q]);
        fprintf(o, "\n");
    }
    fprintf(o, "n-equivalence (error-rate games matching the mean rank of %ld games) by seed:", r->judge);
    for (int k = 0; k < r->nseeds; k++)
        fprintf(o, " %s", nequiv_str(nb, sizeof nb, r->s[k].nequiv, r->judge));
    fprintf(o, "\n  median %s, range [%s, %s]: the range covers the true median with probability %.1f%% "
               "(distribution-free)\n",
            nequiv_str(nb, sizeof nb, r->neq_median, r->judge), nequiv_str(lb, sizeof lb, r->neq_lo, r->judge),
            nequiv_str(hb, sizeof hb, r->neq_hi, r->judge), 100 * r->neq_cover);
}

/* ---- the hand-corrected Elo study (paper 002 §5) ---- */

void report_morita_header(FILE *o, const MoritaHeader *h, int csv)
{
    if (csv)
        return; /* the CSV holds the tables only */
    fprintf(o, "paper 002 section 5 on dhm's pool: %d players, %ld sets of %ld games (five drawn at random a set), seed "
               "%llu\n",
            h->players, h->sets, h->set_games, (unsigned long long)h->seed);
    fprintf(o, "initial-hand win rates: %ld playouts a game (%s), after the exchange; they forecast the pairs' real order "
               "with Brier %.4f (a coin: 0.2500)\n",
            h->playouts, h->playout, h->brier);
    fprintf(o, "time: games %.0f s, hands %.0f s (%.2f ms CPU a game)\n\n", h->secs_games, h->secs_hands,
            h->ms_cpu_per_game);
}

void report_heldout(FILE *o, const HeldoutRow *rows, int n, long test, long train, double hold, int csv)
{
    if (csv)
        fprintf(o, "predictor,test_games,logloss,logloss_se,brier,brier_se\n");
    else
        fprintf(o, "\nprediction of the last %ld games (%.0f%%) from ratings of the first %ld: per pair of players in a "
                   "game,\nmean over test games (se: standard error over test games; lower is better)\n"
                   "  %-22s %10s %8s %10s %8s\n",
                test, 100 * hold, train, "predictor", "log-loss", "se", "Brier", "se");
    for (int r = 0; r < n; r++) {
        if (csv)
            fprintf(o, "%s,%ld,%.5f,%.5f,%.5f,%.5f\n", rows[r].key, rows[r].games, rows[r].logloss, rows[r].logloss_se,
                    rows[r].brier, rows[r].brier_se);
        else
            fprintf(o, "  %-22s %10.4f %8.4f %10.4f %8.4f\n", rows[r].name, rows[r].logloss, rows[r].logloss_se,
                    rows[r].brier, rows[r].brier_se);
    }
    if (!csv)
        fprintf(o, "(log-loss in nats; a coin scores ln 2 = 0.6931 and Brier 0.25)\n");
}

/* ---- the rating study (paper 000) ---- */

void report_rating_study(FILE *o, int players, long sets, long set_games, uint64_t seed, const char *const *methods,
                         const double *mse_avg, const double *mse_seq, int n, long pairs, int csv)
{
    if (csv) {
        fprintf(o, "method,mse_averaged,mse_sequential,pairs\n");
        for (int k = 0; k < n; k++)
            fprintf(o, "%s,%.6f,%.6f,%ld\n", methods[k], mse_avg[k], mse_seq[k], pairs);
        return;
    }
    fprintf(o, "rating study (paper 000 on dhm's pool): %d players, %ld sets of %ld games, seed %llu\n\n", players, sets,
            set_games, (unsigned long long)seed);
    fprintf(o, "mean squared error of the predicted head-to-head win rates over the %ld pairs that met (paper 000 Table "
               "3)\n%-8s %10s %11s\n",
            pairs, "method", "averaged", "sequential");
    for (int k = 0; k < n; k++)
        fprintf(o, "%-8s %10.5f %11.5f\n", methods[k], mse_avg[k], mse_seq[k]);
    fprintf(o, "(the ratings are made from the same sets, so this measures fit; the paper found STS 0.0092, SG2 0.0108, "
               "SG 0.0222, SE 0.0409 on its programs)\n\n");
}
