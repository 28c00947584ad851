/* rate.c — `dhm rate FILE...`: ratings from results files with every method of rating/,
 * the paper-000 evaluation (MSE, cross table, transitivity, cycles), trajectories, and
 * table / CSV / JSON output. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "rating/eval.h"
#include "record/store.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dhm rate [options] FILE.csv...\n"
            "       dhm rate [options] --db FILE.sqlite\n"
            "Rates players from results: CSV with the header set,order,player,points (one row per\n"
            "player per set) and/or game,player,rank[,p] (one row per player per game), or the\n"
            "results store of dhm tournament.\n\n"
            "  --db FILE          a dhm tournament database: its sets in set-index order\n"
            "  --order-by O       with --db: index (the order sets were scheduled; default) or start\n"
            "                     (wall-clock start). elo-game/morita also read each stored game\n"
            "  --method LIST      comma-separated: %s (default sts)\n"
            "  --order avg|seq    set-wise: average the four results (default) or apply them in turn\n"
            "  --init R           initial rating (1500)\n"
            "  --k K --f F        SE: Elo K (10) and scale F (400)\n"
            "  --rd RD --c C      SG: initial RD (350), RD growth per idle set (0)\n"
            "  --sigma S --tau T  SG2: volatility (0.06) and system constant (1.0)\n"
            "  --ts-sigma S --beta B --ts-tau T --draw-prob P\n"
            "                     STS: initial sigma (500), beta (400), dynamics (5), draw prob (0)\n"
            "  --game-k K         elo-game / morita: K (16)\n"
            "  --natural-log      morita: ln instead of log10 in the hand correction\n"
            "  --prior P          bt / pl: virtual draws per pair that met (1; 0 = pure MLE)\n"
            "  --bootstrap N      bt / pl: bootstrap replicates for intervals (200; 0 = none)\n"
            "  --confidence C     interval level (0.95)\n"
            "  --anchor NAME=R    bt / pl: pin NAME at R instead of the pool mean at --init\n"
            "  --melo-k K --melo-lr-r A --melo-lr-c B --melo-epochs E   mElo (1, 16, 1, 1)\n"
            "  --seed S           seed for the bootstrap and mElo (1)\n"
            "  --mse              predicted vs observed head-to-head win rates, per method\n"
            "  --crosstable       each pair's head-to-head wins-losses(-draws)\n"
            "  --transitivity     eq. 2 check over all triples and three-way cycles\n"
            "  --los              likelihood-of-superiority matrix (bt / pl)\n"
            "  --top N            rows in the transitivity and cycle lists (10)\n"
            "  --history FILE     every player's rating after every set (or game), as CSV\n"
            "  --csv | --json     machine-readable output instead of the tables\n",
            method_names());
}

typedef struct HistCtx {
    FILE *f;
    const Results *res;
} HistCtx;

static void on_step(void *ctx, MethodId m, long step, const int *players, int np, const MethodResult *cur)
{
    HistCtx *h = ctx;
    for (int i = 0; i < np; i++) {
        int pl = players[i];
        fprintf(h->f, "%s,%ld,", method_name(m), step + 1);
        fprintf(h->f, "\"%s\",%.4f,", h->res->names[pl], cur->rating[pl]);
        if (isnan(cur->unc[pl]))
            fprintf(h->f, "\n");
        else
            fprintf(h->f, "%.4f\n", cur->unc[pl]);
    }
}

static void print_num(FILE *f, double v, int w, int prec)
{
    if (isnan(v))
        fprintf(f, " %*s", w, "-");
    else
        fprintf(f, " %*.*f", w, prec, v);
}

static void json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fprintf(f, "null");
    else
        fprintf(f, "%.6g", v);
}

static const MethodResult *g_sort_by;
static int cmp_players(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    double rx = g_sort_by->rating[x], ry = g_sort_by->rating[y];
    if (isnan(rx) != isnan(ry))
        return isnan(rx) ? 1 : -1;
    if (rx != ry)
        return rx < ry ? 1 : -1;
    return x - y;
}

static void csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}


static void print_ratings(FILE *f, const Results *res, const H2H *h, const MethodResult *mr, int nm, const RateOpts *o)
{
    const int n = res->nplayers;
    int *ord = malloc((size_t)n * sizeof *ord);
    if (!ord)
        return;
    for (int i = 0; i < n; i++)
        ord[i] = i;
    g_sort_by = &mr[0];
    qsort(ord, (size_t)n, sizeof *ord, cmp_players);
    const char *unit = res->nsets > 0 ? "sets" : "games";
    int nmse = o->mse ? nm : 0;
    double mse[M_COUNT];
    long mse_pairs[M_COUNT];
    for (int m = 0; m < nmse; m++)
        mse[m] = eval_mse(h, &mr[m], &mse_pairs[m]);
    int top = o->top;
    TransErr *te = o->trans && top > 0 ? malloc((size_t)top * sizeof *te) : NULL;
    int (*cyc)[3] = o->trans && top > 0 ? malloc((size_t)top * sizeof *cyc) : NULL;
    long ntriples = 0, over60 = 0, ncyc = 0;
    int nte = 0, nc = 0;
    if (o->trans) {
        nte = eval_transitivity(h, te, te ? top : 0, &ntriples, &over60);
        nc = eval_cycles(h, cyc, cyc ? top : 0, &ncyc);
    }
    const MethodResult *losm = NULL;
    for (int m = 0; m < nm && o->los; m++)
        if ((mr[m].id == M_BT || mr[m].id == M_PL) && !losm)
            losm = &mr[m];

    if (o->csv) {
        fprintf(f, "method,rank,player,rating,uncertainty,ci_low,ci_high,%s,h2h_win_pct\n", unit);
        for (int m = 0; m < nm; m++) {
            int *o2 = malloc((size_t)n * sizeof *o2);
            if (!o2)
                break;
            for (int i = 0; i < n; i++)
                o2[i] = i;
            g_sort_by = &mr[m];
            qsort(o2, (size_t)n, sizeof *o2, cmp_players);
            for (int r = 0; r < n; r++) {
                int i = o2[r];
                if (isnan(mr[m].rating[i]))
                    continue;
                fprintf(f, "%s,%d,", method_name(mr[m].id), r + 1);
                csv_field(f, res->names[i]);
                fprintf(f, ",%.4f,", mr[m].rating[i]);
                if (!isnan(mr[m].unc[i]))
                    fprintf(f, "%.4f", mr[m].unc[i]);
                fputc(',', f);
                if (!isnan(mr[m].lo[i]))
                    fprintf(f, "%.4f,%.4f", mr[m].lo[i], mr[m].hi[i]);
                else
                    fputc(',', f);
                fprintf(f, ",%ld,%.2f\n", h->sets[i], 100 * h2h_total_rate(h, i));
            }
            free(o2);
        }
        free(ord);
        free(te);
        free(cyc);
        return;
    }
    if (o->json) {
        fprintf(f, "{\"sets\": %ld, \"games\": %ld, \"players\": %d, \"order\": \"%s\", \"methods\": [", res->nsets,
                res->ngames, n, o->prm.sequential ? "seq" : "avg");
        for (int m = 0; m < nm; m++)
            fprintf(f, "%s\"%s\"", m ? ", " : "", method_name(mr[m].id));
        fprintf(f, "],\n\"ratings\": [");
        for (int r = 0; r < n; r++) {
            int i = ord[r];
            fprintf(f, "%s\n  {\"player\": ", r ? "," : "");
            json_str(f, res->names[i]);
            fprintf(f, ", \"%s\": %ld, \"h2h_win_pct\": ", unit, h->sets[i]);
            json_num(f, 100 * h2h_total_rate(h, i));
            for (int m = 0; m < nm; m++) {
                fprintf(f, ", \"%s\": {\"rating\": ", method_name(mr[m].id));
                json_num(f, mr[m].rating[i]);
                fprintf(f, ", \"uncertainty\": ");
                json_num(f, mr[m].unc[i]);
                if (!isnan(mr[m].lo[i])) {
                    fprintf(f, ", \"ci\": [");
                    json_num(f, mr[m].lo[i]);
                    fprintf(f, ", ");
                    json_num(f, mr[m].hi[i]);
                    fprintf(f, "]");
                }
                fprintf(f, "}");
            }
            fprintf(f, "}");
        }
        fprintf(f, "\n]");
        if (nmse) {
            fprintf(f, ",\n\"mse\": {");
            for (int m = 0; m < nmse; m++) {
                fprintf(f, "%s\"%s\": ", m ? ", " : "", method_name(mr[m].id));
                json_num(f, mse[m]);
            }
            fprintf(f, "}, \"mse_pairs\": %ld", nmse ? mse_pairs[0] : 0L);
        }
        if (o->cross) {
            fprintf(f, ",\n\"crosstable\": [");
            int first = 1;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) {
                    size_t ab = (size_t)a * n + b;
                    if (a == b || h->games[ab] == 0)
                        continue;
                    fprintf(f, "%s\n  {\"a\": ", first ? "" : ",");
                    json_str(f, res->names[a]);
                    fprintf(f, ", \"b\": ");
                    json_str(f, res->names[b]);
                    fprintf(f, ", \"wins\": %.0f, \"losses\": %.0f, \"draws\": %.0f}", h->wins[ab],
                            h->games[ab] - h->wins[ab] - h->draws[ab], h->draws[ab]);
                    first = 0;
                }
            fprintf(f, "\n]");
        }
        if (o->trans) {
            fprintf(f, ",\n\"transitivity\": {\"triples\": %ld, \"off_by_more_than_60_points\": %ld, \"largest\": [",
                    ntriples, over60);
            for (int k = 0; k < nte; k++) {
                fprintf(f, "%s{\"a\": ", k ? ", " : "");
                json_str(f, res->names[te[k].a]);
                fprintf(f, ", \"b\": ");
                json_str(f, res->names[te[k].b]);
                fprintf(f, ", \"c\": ");
                json_str(f, res->names[te[k].c]);
                fprintf(f, ", \"predicted\": %.4f, \"observed\": %.4f}", te[k].pred, te[k].obs);
            }
            fprintf(f, "]},\n\"cycles\": {\"count\": %ld, \"list\": [", ncyc);
            for (int k = 0; k < nc; k++) {
                fprintf(f, "%s[", k ? ", " : "");
                for (int j = 0; j < 3; j++) {
                    fprintf(f, "%s", j ? ", " : "");
                    json_str(f, res->names[cyc[k][j]]);
                }
                fprintf(f, "]");
            }
            fprintf(f, "]}");
        }
        if (losm) {
            fprintf(f, ",\n\"los\": {\"method\": \"%s\", \"players\": [", method_name(losm->id));
            for (int r = 0; r < n; r++) {
                fprintf(f, "%s", r ? ", " : "");
                json_str(f, res->names[ord[r]]);
            }
            fprintf(f, "], \"matrix\": [");
            for (int r = 0; r < n; r++) {
                fprintf(f, "%s[", r ? ", " : "");
                for (int q = 0; q < n; q++) {
                    fprintf(f, "%s", q ? ", " : "");
                    json_num(f, r == q ? NAN : method_los(losm, ord[r], ord[q]));
                }
                fprintf(f, "]");
            }
            fprintf(f, "]}");
        }
        fprintf(f, "\n}\n");
        free(ord);
        free(te);
        free(cyc);
        return;
    }

    /* tables for people */
    if (res->nsets)
        fprintf(f, "%ld sets, ", res->nsets);
    if (res->ngames)
        fprintf(f, "%ld games, ", res->ngames);
    fprintf(f, "%d players; ", n);
    for (int m = 0; m < nm; m++)
        fprintf(f, "%s%s", m ? ", " : "methods ", method_name(mr[m].id));
    fprintf(f, " (set-wise %s)\n", o->prm.sequential ? "sequential" : "averaged");
    int w = 6;
    for (int i = 0; i < n; i++)
        if ((int)strlen(res->names[i]) > w)
            w = (int)strlen(res->names[i]);
    if (w > 24)
        w = 24;
    if (nm == 1) {
        const MethodResult *r = &mr[0];
        int ci = !isnan(r->lo[ord[0]]);
        fprintf(f, "%4s  %-*s %9s %8s%s %7s %8s\n", "#", w, "player", "rating", "+/-", ci ? "      interval     " : "",
                unit, "h2h win%");
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            if (isnan(r->rating[i]))
                continue;
            fprintf(f, "%4d  %-*.*s", k + 1, w, w, res->names[i]);
            print_num(f, r->rating[i], 9, 1);
            print_num(f, r->unc[i], 8, 1);
            if (ci) {
                fprintf(f, "  [");
                print_num(f, r->lo[i], 7, 1);
                print_num(f, r->hi[i], 7, 1);
                fprintf(f, " ]");
            }
            fprintf(f, " %7ld", h->sets[i]);
            print_num(f, 100 * h2h_total_rate(h, i), 8, 1);
            fprintf(f, "\n");
        }
    } else {
        fprintf(f, "%4s  %-*s %7s %8s", "#", w, "player", unit, "h2h win%");
        for (int m = 0; m < nm; m++)
            fprintf(f, " %8s", method_name(mr[m].id));
        fprintf(f, "\n");
        for (int k = 0; k < n; k++) {
            int i = ord[k];
            fprintf(f, "%4d  %-*.*s %7ld", k + 1, w, w, res->names[i], h->sets[i]);
            print_num(f, 100 * h2h_total_rate(h, i), 8, 1);
            for (int m = 0; m < nm; m++)
                print_num(f, mr[m].rating[i], 8, 0);
            fprintf(f, "\n");
        }
    }
    if (nmse) {
        fprintf(f, "\nmean squared error of predicted vs observed head-to-head win rates (%ld pairs):\n",
                mse_pairs[0]);
        for (int m = 0; m < nmse; m++) {
            fprintf(f, "  %-9s", method_name(mr[m].id));
            print_num(f, mse[m], 8, 4);
            fprintf(f, "\n");
        }
    }
    if (o->cross) {
        fprintf(f, "\ncross table: wins-losses(-draws) of the row player against the column player\n%-*s", w, "");
        for (int q = 0; q < n; q++)
            fprintf(f, " %9.9s", res->names[ord[q]]);
        fprintf(f, "\n");
        for (int r = 0; r < n; r++) {
            int a = ord[r];
            fprintf(f, "%-*.*s", w, w, res->names[a]);
            for (int q = 0; q < n; q++) {
                int b = ord[q];
                size_t ab = (size_t)a * n + b;
                char cell[32];
                if (a == b || h->games[ab] == 0)
                    snprintf(cell, sizeof cell, "-");
                else if (h->draws[ab] > 0)
                    snprintf(cell, sizeof cell, "%.0f-%.0f-%.0f", h->wins[ab], h->games[ab] - h->wins[ab] - h->draws[ab],
                             h->draws[ab]);
                else
                    snprintf(cell, sizeof cell, "%.0f-%.0f", h->wins[ab], h->games[ab] - h->wins[ab]);
                fprintf(f, " %9s", cell);
            }
            fprintf(f, "\n");
        }
    }
    if (o->trans) {
        fprintf(f, "\ntransitivity (eq. 2): %ld triples, %ld predicted W(A,C) off by more than 60 points\n", ntriples,
                over60);
        if (nte)
            fprintf(f, "  %-*s %-*s %-*s %9s %9s\n", w, "A", w, "B", w, "C", "predicted", "observed");
        for (int k = 0; k < nte; k++)
            fprintf(f, "  %-*.*s %-*.*s %-*.*s %8.1f%% %8.1f%%\n", w, w, res->names[te[k].a], w, w, res->names[te[k].b],
                    w, w, res->names[te[k].c], 100 * te[k].pred, 100 * te[k].obs);
        fprintf(f, "three-way cycles (A beats B beats C beats A by head-to-head majority): %ld\n", ncyc);
        for (int k = 0; k < nc; k++)
            fprintf(f, "  %s > %s (%.0f%%) > %s (%.0f%%) > %s (%.0f%%)\n", res->names[cyc[k][0]], res->names[cyc[k][1]],
                    100 * h2h_rate(h, cyc[k][0], cyc[k][1]), res->names[cyc[k][2]],
                    100 * h2h_rate(h, cyc[k][1], cyc[k][2]), res->names[cyc[k][0]],
                    100 * h2h_rate(h, cyc[k][2], cyc[k][0]));
    }
    if (o->los && !losm)
        fprintf(f, "\n(--los needs method bt or pl)\n");
    if (losm) {
        fprintf(f, "\nlikelihood of superiority (%s): row player stronger than column player, %%\n%-*s",
                method_name(losm->id), w, "");
        for (int q = 0; q < n; q++)
            fprintf(f, " %6.6s", res->names[ord[q]]);
        fprintf(f, "\n");
        for (int r = 0; r < n; r++) {
            fprintf(f, "%-*.*s", w, w, res->names[ord[r]]);
            for (int q = 0; q < n; q++) {
                double l = r == q ? NAN : method_los(losm, ord[r], ord[q]);
                if (isnan(l))
                    fprintf(f, " %6s", "-");
                else
                    fprintf(f, " %6.1f", 100 * l);
            }
            fprintf(f, "\n");
        }
    }
    free(ord);
    free(te);
    free(cyc);
}

typedef struct DbLoad {
    Results *res;
    int with_games;
    long seq;
} DbLoad;

static int db_set(void *ctx, long idx, const char *started, const int player[NPLAYERS], const long total[NPLAYERS],
                  const uint8_t *classes, int games)
{
    (void)idx;
    (void)started;
    DbLoad *d = ctx;
    double pts[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        pts[p] = (double)total[p];
    if (results_add_set(d->res, (double)d->seq++, player, pts))
        return -1;
    for (int g = 0; d->with_games && g < games; g++) {
        int cls[NPLAYERS];
        double rank[NPLAYERS];
        unpack_classes(classes[g], cls);
        for (int p = 0; p < NPLAYERS; p++)
            rank[p] = cls[p];
        if (results_add_game(d->res, NPLAYERS, player, rank, NULL))
            return -1;
    }
    return 0;
}

/* The sets (and, when a game-wise method asks for them, the games) of a tournament store. */
static int load_db(const char *cmd, const char *path, int by_start, int with_games, Results *res)
{
    char err[512];
    CliStore cs;
    if (cli_store_open(cmd, path, 0, &cs))
        return 1;
    int rc = 0;
    int base = res->nplayers;
    for (int i = 0; i < cs.n && !rc; i++) /* player ids are the pool order */
        if (results_player(res, cs.names[i]) != base + i)
            rc = cli_error(cmd, "%s: player %s also appears in another input", path, cs.names[i]);
    DbLoad d = {res, with_games, 0};
    if (!rc && base)
        rc = cli_error(cmd, "--db cannot be combined with other results files");
    if (!rc && store_each_set(cs.st, by_start, db_set, &d, err, sizeof err))
        rc = cli_error(cmd, "%s", err);
    cli_store_close(&cs);
    return rc;
}

void rate_opts_default(RateOpts *o)
{
    memset(o, 0, sizeof *o);
    rating_params_default(&o->prm);
    o->methods = "sts";
    o->top = 10;
}

/* Parses the method list into ids; "all" = every method the data supports. */
static int parse_methods(const char *cmd, const char *list, const Results *res, int *ids)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        if (!strcmp(t, "all")) {
            for (int m = 0; m < M_COUNT; m++) {
                int ok = method_uses_games((MethodId)m) ? res->ngames > 0
                         : (m == M_BT || m == M_PL)    ? (res->nsets > 0 || res->ngames > 0)
                                                       : res->nsets > 0;
                int dup = 0;
                for (int i = 0; i < n; i++)
                    dup |= ids[i] == m;
                if (ok && !dup)
                    ids[n++] = m;
            }
            continue;
        }
        int m = method_parse(t);
        if (m < 0) {
            cli_fail(cmd, "unknown method '%s' (valid: %s)", t, method_names());
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= ids[i] == m;
        if (!dup)
            ids[n++] = m;
    }
    if (n == 0) {
        cli_fail(cmd, "--method lists no method (valid: %s)", method_names());
        return -1;
    }
    return n;
}

int rate_results(const char *cmd, Results *res, const RateOpts *o)
{
    RatingParams prm = o->prm;
    results_sort_sets(res);
    if (res->nplayers == 0)
        return cli_error(cmd, "no results to rate");
    if (o->anchor) {
        const char *eq = strchr(o->anchor, '=');
        char name[128];
        if (!eq || eq == o->anchor || (size_t)(eq - o->anchor) >= sizeof name)
            return cli_fail(cmd, "--anchor: expected NAME=RATING, got '%s'", o->anchor);
        memcpy(name, o->anchor, (size_t)(eq - o->anchor));
        name[eq - o->anchor] = 0;
        if (cli_double(cmd, "--anchor", eq + 1, -1e9, 1e9, &prm.anchor_value))
            return 2;
        prm.anchor = results_find(res, name);
        if (prm.anchor < 0)
            return cli_fail(cmd, "--anchor: no player named '%s' in the results", name);
    }
    int ids[M_COUNT];
    int nm = parse_methods(cmd, o->methods, res, ids);
    if (nm < 0)
        return 2;
    HistCtx hc = {NULL, res};
    if (o->history) {
        hc.f = fopen(o->history, "w");
        if (!hc.f)
            return cli_error(cmd, "cannot write %s: %m", o->history);
        fprintf(hc.f, "method,step,player,rating,uncertainty\n");
    }
    MethodResult *mr = calloc((size_t)nm, sizeof *mr);
    H2H h;
    int rc = 0;
    char err[512];
    if (!mr || h2h_build(res, &h)) {
        free(mr);
        if (hc.f)
            fclose(hc.f);
        return cli_error(cmd, "out of memory");
    }
    for (int i = 0; i < nm && !rc; i++)
        if (method_run((MethodId)ids[i], &prm, res, &mr[i], hc.f ? on_step : NULL, &hc, err, sizeof err))
            rc = cli_error(cmd, "%s: %s", method_name((MethodId)ids[i]), err);
    if (hc.f && fclose(hc.f) && !rc)
        rc = cli_error(cmd, "error writing %s", o->history);
    if (!rc)
        print_ratings(stdout, res, &h, mr, nm, o);
    for (int i = 0; i < nm; i++)
        method_result_free(&mr[i]);
    free(mr);
    h2h_free(&h);
    return rc;
}

int cmd_rate(int argc, char **argv)
{
    enum { O_METHOD = 1000, O_ORDER, O_INIT, O_K, O_F, O_RD, O_C, O_SIGMA, O_TAU, O_TSSIGMA, O_BETA, O_TSTAU, O_DRAW,
           O_GAMEK, O_NATLOG, O_PRIOR, O_BOOT, O_CONF, O_ANCHOR, O_MK, O_MLR, O_MLC, O_MEP, O_SEED, O_MSE, O_CROSS,
           O_TRANS, O_LOS, O_TOP, O_HIST, O_CSV, O_JSON, O_HELP, O_DB, O_ORDERBY };
    static const struct option opts[] = {
        {"method", required_argument, 0, O_METHOD}, {"order", required_argument, 0, O_ORDER},
        {"init", required_argument, 0, O_INIT},     {"k", required_argument, 0, O_K},
        {"f", required_argument, 0, O_F},           {"rd", required_argument, 0, O_RD},
        {"c", required_argument, 0, O_C},           {"sigma", required_argument, 0, O_SIGMA},
        {"tau", required_argument, 0, O_TAU},       {"ts-sigma", required_argument, 0, O_TSSIGMA},
        {"beta", required_argument, 0, O_BETA},     {"ts-tau", required_argument, 0, O_TSTAU},
        {"draw-prob", required_argument, 0, O_DRAW}, {"game-k", required_argument, 0, O_GAMEK},
        {"natural-log", no_argument, 0, O_NATLOG},  {"prior", required_argument, 0, O_PRIOR},
        {"bootstrap", required_argument, 0, O_BOOT}, {"confidence", required_argument, 0, O_CONF},
        {"anchor", required_argument, 0, O_ANCHOR}, {"melo-k", required_argument, 0, O_MK},
        {"melo-lr-r", required_argument, 0, O_MLR}, {"melo-lr-c", required_argument, 0, O_MLC},
        {"melo-epochs", required_argument, 0, O_MEP}, {"seed", required_argument, 0, O_SEED},
        {"mse", no_argument, 0, O_MSE},             {"crosstable", no_argument, 0, O_CROSS},
        {"transitivity", no_argument, 0, O_TRANS},  {"los", no_argument, 0, O_LOS},
        {"top", required_argument, 0, O_TOP},       {"history", required_argument, 0, O_HIST},
        {"csv", no_argument, 0, O_CSV},             {"json", no_argument, 0, O_JSON},
        {"db", required_argument, 0, O_DB},         {"order-by", required_argument, 0, O_ORDERBY},
        {"help", no_argument, 0, O_HELP},           {0, 0, 0, 0}};
    const char *cmd = "rate";
    const char *dbpath = NULL;
    int by_start = 0;
    RateOpts o;
    rate_opts_default(&o);
    RatingParams prm = o.prm;
    const char *methods_arg = o.methods, *anchor = NULL, *history = NULL;
    int want_mse = 0, want_cross = 0, want_trans = 0, want_los = 0, csv = 0, json = 0, c;
    long top = 10, lv;
    double d;
    optind = 1;
    while ((c = cli_getopt("rate", argc, argv, opts)) != -1) {
        switch (c) {
        case O_METHOD: methods_arg = optarg; break;
        case O_ORDER:
            if (strcmp(optarg, "avg") && strcmp(optarg, "seq"))
                return cli_fail(cmd, "--order: '%s' is not avg or seq", optarg);
            prm.sequential = !strcmp(optarg, "seq");
            break;
        case O_INIT: if (cli_double(cmd, "--init", optarg, -1e9, 1e9, &prm.init)) return 2; prm.ts.mu0 = prm.init; prm.anchor_value = prm.init; break;
        case O_K: if (cli_double(cmd, "--k", optarg, 0, 1e6, &prm.elo_k)) return 2; break;
        case O_F: if (cli_double(cmd, "--f", optarg, 1e-6, 1e9, &prm.elo_f)) return 2; break;
        case O_RD: if (cli_double(cmd, "--rd", optarg, 1e-6, 1e6, &d)) return 2; prm.glicko_rd = prm.g2_rd = d; break;
        case O_C: if (cli_double(cmd, "--c", optarg, 0, 1e6, &prm.glicko_c)) return 2; break;
        case O_SIGMA: if (cli_double(cmd, "--sigma", optarg, 1e-9, 10, &prm.g2_sigma)) return 2; break;
        case O_TAU: if (cli_double(cmd, "--tau", optarg, 1e-6, 100, &prm.g2_tau)) return 2; break;
        case O_TSSIGMA: if (cli_double(cmd, "--ts-sigma", optarg, 1e-6, 1e9, &prm.ts.sigma0)) return 2; break;
        case O_BETA: if (cli_double(cmd, "--beta", optarg, 1e-6, 1e9, &prm.ts.beta)) return 2; break;
        case O_TSTAU: if (cli_double(cmd, "--ts-tau", optarg, 0, 1e9, &prm.ts.tau)) return 2; break;
        case O_DRAW: if (cli_double(cmd, "--draw-prob", optarg, 0, 0.999, &prm.ts.draw_prob)) return 2; break;
        case O_GAMEK: if (cli_double(cmd, "--game-k", optarg, 0, 1e6, &prm.game_k)) return 2; break;
        case O_NATLOG: prm.natural_log = 1; break;
        case O_PRIOR: if (cli_double(cmd, "--prior", optarg, 0, 1e6, &prm.prior)) return 2; break;
        case O_BOOT: if (cli_long(cmd, "--bootstrap", optarg, 0, 100000, &lv)) return 2; prm.bootstrap = (int)lv; break;
        case O_CONF: if (cli_double(cmd, "--confidence", optarg, 0.01, 0.9999, &prm.confidence)) return 2; break;
        case O_ANCHOR: anchor = optarg; break;
        case O_MK: if (cli_long(cmd, "--melo-k", optarg, 1, 32, &lv)) return 2; prm.melo_k = (int)lv; break;
        case O_MLR: if (cli_double(cmd, "--melo-lr-r", optarg, 0, 1e6, &prm.melo_lr_r)) return 2; break;
        case O_MLC: if (cli_double(cmd, "--melo-lr-c", optarg, 0, 1e6, &prm.melo_lr_c)) return 2; break;
        case O_MEP: if (cli_long(cmd, "--melo-epochs", optarg, 1, 100000, &lv)) return 2; prm.melo_epochs = (int)lv; break;
        case O_SEED: if (cli_u64(cmd, "--seed", optarg, &prm.seed)) return 2; break;
        case O_MSE: want_mse = 1; break;
        case O_CROSS: want_cross = 1; break;
        case O_TRANS: want_trans = 1; break;
        case O_LOS: want_los = 1; break;
        case O_TOP: if (cli_long(cmd, "--top", optarg, 0, 100000, &top)) return 2; break;
        case O_HIST: history = optarg; break;
        case O_CSV: csv = 1; break;
        case O_JSON: json = 1; break;
        case O_DB: dbpath = optarg; break;
        case O_ORDERBY:
            if (strcmp(optarg, "index") && strcmp(optarg, "start"))
                return cli_fail(cmd, "--order-by: '%s' is not index or start", optarg);
            by_start = !strcmp(optarg, "start");
            break;
        case O_HELP: usage(stdout); return 0;
        default: return 2;
        }
    }
    if (csv && json)
        return cli_fail(cmd, "--csv and --json exclude each other");
    if (optind >= argc && !dbpath)
        return cli_fail(cmd, "no results file given (try --help)");
    if (optind < argc && dbpath)
        return cli_fail(cmd, "give either results files or --db, not both");
    o.prm = prm;
    o.methods = methods_arg;
    o.anchor = anchor;
    o.history = history;
    o.mse = want_mse;
    o.cross = want_cross;
    o.trans = want_trans;
    o.los = want_los;
    o.top = (int)top;
    o.csv = csv;
    o.json = json;
    Results res;
    results_init(&res);
    char err[512];
    if (dbpath) {
        int games = strstr(methods_arg, "elo-game") || strstr(methods_arg, "morita");
        int rc = load_db(cmd, dbpath, by_start, games, &res);
        if (rc) {
            results_free(&res);
            return rc;
        }
    }
    for (int i = optind; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            results_free(&res);
            return cli_error(cmd, "cannot open %s: %m", argv[i]);
        }
        int rc = results_load_csv(&res, f, argv[i], err, sizeof err);
        fclose(f);
        if (rc) {
            results_free(&res);
            return cli_error(cmd, "%s", err);
        }
    }
    int rc = rate_results(cmd, &res, &o);
    results_free(&res);
    return rc;
}
