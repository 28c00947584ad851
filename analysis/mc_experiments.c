/* mc_experiments.c — paper 001's experiments (see mc_experiments.h). */
#include "analysis/mc_experiments.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/runner.h"
#include "analysis/stats.h"
#include "players/players.h"

const char *const EXP_BANDITS[EXP_NBANDIT] = {"ucb-root", "ucb1-tuned", "thompson", "ucb-v", "kl-ucb", "ucb2"};
const char *const EXP_DESA_VARIANTS[EXP_NDESA] = {"sim", "last", "both"};

void exp_config_default(ExpConfig *c)
{
    memset(c, 0, sizeof *c);
    match_config_default(&c->match);
    c->matches = 6;
    c->match.games = 100;
    c->match.seed = 1;
    c->sims = 100;
    c->mc_opts = "";
    c->jobs = 2;
}

/* Does the spec set option `key`? (":key=" after the name.) */
static int spec_has(const char *spec, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = strchr(spec, ':'); p; p = strchr(p + 1, ':'))
        if (!strncmp(p + 1, key, kl) && p[1 + kl] == '=')
            return 1;
    return 0;
}

int exp_spec(char *out, size_t n, const char *spec, const ExpConfig *c)
{
    int mc = !strncmp(spec, "mc", 2) && (spec[2] == 0 || spec[2] == ':');
    int len = snprintf(out, n, "%s", spec);
    if (mc && !spec_has(spec, "sims") && !spec_has(spec, "ms"))
        len += snprintf(out + len, len < (int)n ? n - (size_t)len : 0, ":sims=%ld", c->sims);
    if (mc && c->mc_opts && *c->mc_opts)
        len += snprintf(out + len, len < (int)n ? n - (size_t)len : 0, ":%s", c->mc_opts);
    return len < (int)n ? 0 : -1;
}

/* A job with the five specs (as exp_spec makes them) and the seed of cell `cell`, match m. */
static int make_job(MatchJob *j, const ExpConfig *c, const char *const spec[NPLAYERS], int cell, int m, char *err,
                    size_t errsz)
{
    memset(j, 0, sizeof *j);
    for (int p = 0; p < NPLAYERS; p++)
        if (exp_spec(j->spec[p], sizeof j->spec[p], spec[p], c))
            return snprintf(err, errsz, "player spec too long: %s", spec[p]), -1;
    j->cfg = c->match;
    j->cfg.seed = rng_derive(c->match.seed, 0x6578 + (uint64_t)cell, (uint64_t)m);
    return 0;
}

/* Checks every spec once (a clear error before any match starts). */
static int check_specs(MatchJob *jobs, int n, char *err, size_t errsz)
{
    for (int p = 0; p < NPLAYERS && n > 0; p++) {
        Player *pl;
        if (player_create(jobs[0].spec[p], 1, &pl, err, errsz))
            return -1;
        player_destroy(pl);
    }
    return 0;
}

static int run(const ExpConfig *c, MatchJob *jobs, int n, char *err, size_t errsz)
{
    if (check_specs(jobs, n, err, errsz))
        return -1;
    if (run_matches(jobs, n, c->jobs, c->progress, c->progress_ctx)) {
        for (int i = 0; i < n; i++)
            if (jobs[i].failed)
                return snprintf(err, errsz, "%s", jobs[i].err), -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- bandits */

int exp_bandits(const ExpConfig *c, BanditsResult *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    int n = EXP_NBANDIT * c->matches;
    MatchJob *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs)
        return snprintf(err, errsz, "out of memory"), -1;
    int idx[EXP_NBANDIT][NPLAYERS]; /* combination -> the bandit index of each player */
    for (int j = 0; j < EXP_NBANDIT; j++) {
        int left_out = EXP_NBANDIT - 1 - j, k = 0;
        char spec[NPLAYERS][64];
        const char *sp[NPLAYERS];
        for (int b = 0; b < EXP_NBANDIT; b++)
            if (b != left_out) {
                idx[j][k] = b;
                snprintf(spec[k], sizeof spec[k], "mc:bandit=%s", EXP_BANDITS[b]);
                sp[k] = spec[k];
                k++;
            }
        for (int m = 0; m < c->matches; m++)
            if (make_job(&jobs[j * c->matches + m], c, sp, j, m, err, errsz))
                return free(jobs), -1;
    }
    if (run(c, jobs, n, err, errsz))
        return free(jobs), -1;
    for (int j = 0; j < EXP_NBANDIT; j++) {
        for (int m = 0; m < c->matches; m++) {
            const MatchResult *r = &jobs[j * c->matches + m].res;
            int win[NPLAYERS];
            if (match_winners(r, win) > 1)
                out->shared[j]++;
            for (int p = 0; p < NPLAYERS; p++) {
                int b = idx[j][p];
                out->first[j][b] += win[p];
                out->points[j][b] += (double)r->points[p] / c->matches;
            }
        }
        out->points[j][EXP_NBANDIT - 1 - j] = -1;
    }
    free(jobs);
    return 0;
}

/* ---------------------------------------------------------------- choice */

/* 0 if `spec` (as played; `given` as the user wrote it) makes a choice-bandit player, else -1
 * with the reason. */
static int check_choice(const char *spec, const char *given, char *err, size_t errsz)
{
    Player *pl;
    if (player_create(spec, 1, &pl, err, errsz))
        return -1;
    long use[MC_CHOICE_ARMS];
    int is_choice = mc_choice_usage(pl, use) == 0;
    player_destroy(pl);
    if (!is_choice)
        return snprintf(err, errsz, "'%s' is not a choice-bandit player (mc:bandit=choice)", given), -1;
    return 0;
}

typedef struct ChoiceCtx {
    const int *checkpoints;
    int ncheck;
    double (*rate)[MC_CHOICE_ARMS]; /* [checkpoint][arm] of this match */
} ChoiceCtx;

static void choice_on_game(MatchJob *job, const GameRecord *rec, const MatchResult *sofar,
                           Player *const pl[NPLAYERS])
{
    (void)rec;
    ChoiceCtx *c = job->ctx;
    for (int k = 0; k < c->ncheck; k++)
        if (c->checkpoints[k] == sofar->games) {
            long use[MC_CHOICE_ARMS];
            if (mc_choice_usage(pl[0], use) == 0)
                for (int a = 0; a < MC_CHOICE_ARMS; a++)
                    c->rate[k][a] = (double)use[a] / sofar->games;
        }
}

int exp_choice(const ExpConfig *c, const char *choice, const char *const *opp, int nopp, const int *checkpoints,
               int ncheck, ChoiceResult *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (nopp < 1 || nopp > EXP_MAX_OPP || ncheck < 1 || ncheck > EXP_MAX_CHECK)
        return snprintf(err, errsz, "1..%d opponents and 1..%d checkpoints", EXP_MAX_OPP, EXP_MAX_CHECK), -1;
    for (int k = 0; k < ncheck; k++)
        if (checkpoints[k] < 1 || checkpoints[k] > c->match.games || (k && checkpoints[k] <= checkpoints[k - 1]))
            return snprintf(err, errsz, "checkpoints must ascend within 1..%d games", c->match.games), -1;
    int n = nopp * c->matches;
    MatchJob *jobs = calloc((size_t)n, sizeof *jobs);
    ChoiceCtx *ctx = calloc((size_t)n, sizeof *ctx);
    double(*rate)[EXP_MAX_CHECK][MC_CHOICE_ARMS] = calloc((size_t)n, sizeof *rate);
    int rc = -1;
    if (!jobs || !ctx || !rate) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    for (int o = 0; o < nopp; o++) {
        const char *sp[NPLAYERS] = {choice, opp[o], opp[o], opp[o], opp[o]};
        for (int m = 0; m < c->matches; m++) {
            int i = o * c->matches + m;
            if (make_job(&jobs[i], c, sp, o, m, err, errsz))
                goto done;
            ctx[i] = (ChoiceCtx){checkpoints, ncheck, rate[i]};
            jobs[i].on_game = choice_on_game;
            jobs[i].ctx = &ctx[i];
        }
    }
    if (check_choice(jobs[0].spec[0], choice, err, errsz) || run(c, jobs, n, err, errsz))
        goto done;
    for (int o = 0; o < nopp; o++) {
        for (int m = 0; m < c->matches; m++) {
            int i = o * c->matches + m;
            const MatchResult *r = &jobs[i].res;
            int win[NPLAYERS];
            match_winners(r, win);
            out->choice_first[o] += win[0];
            out->choice_ppg[o] += (double)r->points[0] / r->games / c->matches;
            for (int p = 1; p < NPLAYERS; p++)
                out->opp_ppg[o] += (double)r->points[p] / r->games / c->matches / 4;
            for (int k = 0; k < ncheck; k++)
                for (int a = 0; a < MC_CHOICE_ARMS; a++) {
                    out->usage[o][k][a] += rate[i][k][a] / c->matches;
                    out->usage_sd[o][k][a] += rate[i][k][a] * rate[i][k][a];
                }
        }
        for (int k = 0; k < ncheck; k++)
            for (int a = 0; a < MC_CHOICE_ARMS; a++) {
                double mean = out->usage[o][k][a], var = out->usage_sd[o][k][a] / c->matches - mean * mean;
                out->usage_sd[o][k][a] = c->matches > 1 && var > 0 ? sqrt(var * c->matches / (c->matches - 1)) : 0;
            }
    }
    rc = 0;
done:
    free(jobs);
    free(ctx);
    free(rate);
    return rc;
}

/* ---------------------------------------------------------------- ninja */

typedef struct NinjaCtx {
    const int *checkpoints;
    int ncheck;
    long (*points)[NPLAYERS];        /* [checkpoint][seat] */
    double (*usage)[MC_CHOICE_ARMS]; /* [checkpoint][arm] */
} NinjaCtx;

static void ninja_on_game(MatchJob *job, const GameRecord *rec, const MatchResult *sofar, Player *const pl[NPLAYERS])
{
    (void)rec;
    NinjaCtx *c = job->ctx;
    for (int k = 0; k < c->ncheck; k++)
        if (c->checkpoints[k] == sofar->games) {
            long use[MC_CHOICE_ARMS];
            for (int p = 0; p < NPLAYERS; p++)
                c->points[k][p] = sofar->points[p];
            if (mc_choice_usage(pl[0], use) == 0)
                for (int a = 0; a < MC_CHOICE_ARMS; a++)
                    c->usage[k][a] = (double)use[a] / sofar->games;
        }
}

int exp_ninja(const ExpConfig *c, const char *ninja, const char *base, const char *const *others, int nothers,
              const int *checkpoints, int ncheck, NinjaRow *out, char *err, size_t errsz)
{
    memset(out, 0, (size_t)ncheck * sizeof *out);
    if (nothers < 3 || nothers > EXP_MAX_OTHERS || ncheck < 1 || ncheck > EXP_MAX_CHECK || c->matches < 1)
        return snprintf(err, errsz, "3..%d others, 1..%d checkpoints and a match", EXP_MAX_OTHERS, EXP_MAX_CHECK), -1;
    for (int k = 0; k < ncheck; k++)
        if (checkpoints[k] < 1 || checkpoints[k] > c->match.games || (k && checkpoints[k] <= checkpoints[k - 1]))
            return snprintf(err, errsz, "checkpoints must ascend within 1..%d games", c->match.games), -1;
    const int n = c->matches;
    MatchJob *jobs = calloc((size_t)n, sizeof *jobs);
    NinjaCtx *ctx = calloc((size_t)n, sizeof *ctx);
    long(*pts)[EXP_MAX_CHECK][NPLAYERS] = calloc((size_t)n, sizeof *pts);
    double(*use)[EXP_MAX_CHECK][MC_CHOICE_ARMS] = calloc((size_t)n, sizeof *use);
    int rc = -1;
    if (!jobs || !ctx || !pts || !use) {
        snprintf(err, errsz, "out of memory");
        goto done;
    }
    for (int m = 0; m < n; m++) {
        /* three distinct others for match m, drawn from (seed, m) whatever the threads */
        Rng rng = rng_seed(rng_derive(c->match.seed, 0x6e696e6a /* "ninj" */, (uint64_t)m));
        int idx[EXP_MAX_OTHERS];
        for (int i = 0; i < nothers; i++)
            idx[i] = i;
        for (int i = 0; i < 3; i++) {
            int j = i + (int)rng_below(&rng, (uint32_t)(nothers - i)), t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        const char *sp[NPLAYERS] = {ninja, base, others[idx[0]], others[idx[1]], others[idx[2]]};
        if (make_job(&jobs[m], c, sp, 0x500, m, err, errsz))
            goto done;
        ctx[m] = (NinjaCtx){checkpoints, ncheck, pts[m], use[m]};
        jobs[m].on_game = ninja_on_game;
        jobs[m].ctx = &ctx[m];
    }
    if (check_choice(jobs[0].spec[0], ninja, err, errsz))
        goto done;
    {
        Player *pl;
        for (int i = 0; i < nothers; i++) { /* every other, not only those drawn, is a valid spec */
            char spec[160];
            if (exp_spec(spec, sizeof spec, others[i], c)) {
                snprintf(err, errsz, "player spec too long: %s", others[i]);
                goto done;
            }
            if (player_create(spec, 1, &pl, err, errsz))
                goto done;
            player_destroy(pl);
        }
    }
    if (run(c, jobs, n, err, errsz))
        goto done;
    for (int k = 0; k < ncheck; k++) {
        NinjaRow *row = &out[k];
        double s = 0, s2 = 0;
        row->games = checkpoints[k];
        row->matches = n;
        for (int m = 0; m < n; m++) {
            const long *p = pts[m][k];
            long top = p[0];
            for (int q = 1; q < NPLAYERS; q++)
                top = p[q] > top ? p[q] : top;
            row->wins += p[0] > p[1];
            row->ties += p[0] == p[1];
            row->ninja_first += p[0] == top;
            row->base_first += p[1] == top;
            row->ninja_points += (double)p[0] / n;
            row->base_points += (double)p[1] / n;
            double d = (double)(p[0] - p[1]);
            s += d;
            s2 += d * d;
            for (int a = 0; a < MC_CHOICE_ARMS; a++)
                row->usage[a] += use[m][k][a] / n;
        }
        double mean = s / n, var = n > 1 ? (s2 - n * mean * mean) / (n - 1) : NAN;
        row->diff_se = n > 1 ? sqrt(var > 0 ? var / n : 0) : NAN;
        row->t_p = n > 1 ? (row->diff_se > 0 ? student_t_p2(mean / row->diff_se, n - 1) : (mean == 0 ? 1 : 0)) : NAN;
        row->sign_p = sign_test(row->wins, n - row->ties);
    }
    rc = 0;
done:
    free(jobs);
    free(ctx);
    free(pts);
    free(use);
    return rc;
}

/* ---------------------------------------------------------------- desa */

double sign_test(int k, int n)
{
    if (n <= 0)
        return 1;
    if (k > n - k)
        k = n - k;
    /* P(X <= k) doubled, in logs to stay exact for large n */
    double sum = 0, l0 = lgamma(n + 1.0) - n * log(2.0);
    for (int i = 0; i <= k; i++)
        sum += exp(l0 - lgamma(i + 1.0) - lgamma(n - i + 1.0));
    double p = 2 * sum; /* exceeds 1 when k = n/2 */
    return p > 1 ? 1 : p;
}

int exp_desa(const ExpConfig *c, const char *base, const char *const others[3], const int matches[EXP_NDESA],
             DesaRow out[EXP_NDESA], char *err, size_t errsz)
{
    memset(out, 0, EXP_NDESA * sizeof *out);
    int n = 0;
    for (int v = 0; v < EXP_NDESA; v++)
        n += matches[v];
    MatchJob *jobs = calloc((size_t)(n ? n : 1), sizeof *jobs);
    if (!jobs)
        return snprintf(err, errsz, "out of memory"), -1;
    char desa[EXP_NDESA][160];
    for (int v = 0, i = 0; v < EXP_NDESA; v++) {
        if ((size_t)snprintf(desa[v], sizeof desa[v], "%s:desa=%s", base, EXP_DESA_VARIANTS[v]) >= sizeof desa[v])
            return free(jobs), snprintf(err, errsz, "player spec too long: %s", base), -1;
        const char *sp[NPLAYERS] = {desa[v], base, others[0], others[1], others[2]};
        for (int m = 0; m < matches[v]; m++, i++)
            if (make_job(&jobs[i], c, sp, v, m, err, errsz))
                return free(jobs), -1;
    }
    if (n && run(c, jobs, n, err, errsz))
        return free(jobs), -1;
    for (int v = 0, i = 0; v < EXP_NDESA; v++) {
        DesaRow *row = &out[v];
        row->matches = matches[v];
        for (int m = 0; m < matches[v]; m++, i++) {
            const MatchResult *r = &jobs[i].res;
            int win[NPLAYERS];
            match_winners(r, win);
            row->wins += r->points[0] > r->points[1];
            row->ties += r->points[0] == r->points[1];
            row->desa_first += win[0];
            row->base_first += win[1];
            row->desa_points += (double)r->points[0] / matches[v];
            row->base_points += (double)r->points[1] / matches[v];
        }
        row->p_value = sign_test(row->wins, row->matches - row->ties);
    }
    free(jobs);
    return 0;
}

/* ---------------------------------------------------------------- estimation (paper 003) */

typedef struct AccSlot {
    long right, total;
} AccSlot;

/* After the last game of a match: the evaluated player's (seat 0) world accuracy. */
static void read_accuracy(MatchJob *job, const GameRecord *rec, const MatchResult *sofar, Player *const pl[NPLAYERS])
{
    (void)rec;
    if (sofar->games != job->cfg.games)
        return;
    AccSlot *a = job->ctx;
    mc_est_accuracy(pl[0], &a->right, &a->total);
}

/* Runs rows x matches jobs whose evaluated specs are given, and fills the rows. */
static int est_rows(const ExpConfig *c, const char *base, char (*eval)[160], int rows, int cell0, EstRow *out,
                    char *err, size_t errsz)
{
    char snowl[160], rnd[160];
    if ((size_t)snprintf(snowl, sizeof snowl, "%s:est=weights:order=suit-a", base) >= sizeof snowl ||
        (size_t)snprintf(rnd, sizeof rnd, "%s:est=uniform", base) >= sizeof rnd)
        return snprintf(err, errsz, "player spec too long: %s", base), -1;
    const int n = rows * c->matches;
    MatchJob *jobs = calloc((size_t)(n ? n : 1), sizeof *jobs);
    AccSlot *acc = calloc((size_t)(n ? n : 1), sizeof *acc);
    if (!jobs || !acc)
        return free(jobs), free(acc), snprintf(err, errsz, "out of memory"), -1;
    for (int r = 0, i = 0; r < rows; r++) {
        const char *sp[NPLAYERS] = {eval[r], snowl, snowl, snowl, rnd};
        for (int m = 0; m < c->matches; m++, i++) {
            if (make_job(&jobs[i], c, sp, cell0 + r, m, err, errsz))
                return free(jobs), free(acc), -1;
            jobs[i].on_game = read_accuracy;
            jobs[i].ctx = &acc[i];
        }
    }
    if (n && run(c, jobs, n, err, errsz))
        return free(jobs), free(acc), -1;
    for (int r = 0, i = 0; r < rows; r++) {
        EstRow *row = &out[r];
        double s = 0, s2 = 0;
        long right = 0, total = 0, games = 0, cls[NPLAYERS] = {0};
        for (int m = 0; m < c->matches; m++, i++) {
            const MatchResult *res = &jobs[i].res;
            s += (double)res->points[0];
            s2 += (double)res->points[0] * (double)res->points[0];
            right += acc[i].right;
            total += acc[i].total;
            games += res->games;
            for (int k = 0; k < NPLAYERS; k++)
                cls[k] += res->class_count[0][k];
        }
        row->matches = c->matches;
        row->mean = c->matches ? s / c->matches : NAN;
        row->sd = c->matches > 1 ? sqrt(fmax(0, (s2 - c->matches * row->mean * row->mean) / (c->matches - 1))) : NAN;
        row->accuracy = total ? (double)right / (double)total : NAN;
        for (int k = 0; k < NPLAYERS; k++)
            row->cls[k] = games ? (double)cls[k] / (double)games : NAN;
        row->p_value = row->p_one = NAN;
    }
    free(jobs);
    free(acc);
    return 0;
}

int exp_dealing_order(const ExpConfig *c, const char *base, EstRow out[5], char *err, size_t errsz)
{
    static const char *const order[5] = {"suit-a", "suit-d", "rank-a", "rank-d", "random"};
    static const char *const label[5] = {"Suit-A", "Suit-D", "Rank-A", "Rank-D", "Random"};
    char eval[5][160];
    memset(out, 0, 5 * sizeof *out);
    for (int r = 0; r < 5; r++) {
        if ((size_t)snprintf(eval[r], sizeof eval[r], "%s:est=weights:order=%s:acc=1", base, order[r]) >= sizeof eval[r])
            return snprintf(err, errsz, "player spec too long: %s", base), -1;
        snprintf(out[r].label, sizeof out[r].label, "%s", label[r]);
    }
    if (est_rows(c, base, eval, 5, 0x300, out, err, errsz))
        return -1;
    for (int r = 0; r < 4; r++) {
        out[r].p_value = welch_p(out[r].mean, out[r].sd, out[r].matches, out[4].mean, out[4].sd, out[4].matches);
        out[r].p_one = welch_p1(out[4].mean, out[4].sd, out[4].matches, out[r].mean, out[r].sd, out[r].matches);
    }
    return 0;
}

int exp_oracle(const ExpConfig *c, const char *base, int step_pct, EstRow *out, int *n, char *err, size_t errsz)
{
    static const char *const method[4] = {"all-w", "all-s", "each-w", "each-s"};
    static const char *const label[4] = {"All-W", "All-S", "Each-W", "Each-S"};
    if (step_pct < 1 || step_pct > 100 || 100 % step_pct)
        return snprintf(err, errsz, "the step must divide 100"), -1;
    const int inner = 100 / step_pct - 1, rows = 2 + 4 * inner;
    char (*eval)[160] = calloc((size_t)rows, sizeof *eval);
    if (!eval)
        return snprintf(err, errsz, "out of memory"), -1;
    memset(out, 0, (size_t)rows * sizeof *out);
    int r = 0;
    for (int e = 0; e <= 1; e++, r++) { /* p = 0 and p = 1: all methods agree */
        snprintf(eval[r], sizeof eval[r], "%s:est=oracle:method=all-w:p=%d:acc=1", base, e);
        snprintf(out[r].label, sizeof out[r].label, "any");
        out[r].p = e;
    }
    for (int mi = 0; mi < 4; mi++)
        for (int k = 1; k <= inner; k++, r++) {
            double p = k * step_pct / 100.0;
            if ((size_t)snprintf(eval[r], sizeof eval[r], "%s:est=oracle:method=%s:p=%g:acc=1", base, method[mi], p) >=
                sizeof eval[r])
                return free(eval), snprintf(err, errsz, "player spec too long: %s", base), -1;
            snprintf(out[r].label, sizeof out[r].label, "%s", label[mi]);
            out[r].p = p;
        }
    int rc = est_rows(c, base, eval, rows, 0x400, out, err, errsz);
    free(eval);
    if (rc)
        return -1;
    for (int i = 1; i < rows; i++) {
        out[i].p_value = welch_p(out[i].mean, out[i].sd, out[i].matches, out[0].mean, out[0].sd, out[0].matches);
        out[i].p_one = welch_p1(out[i].mean, out[i].sd, out[i].matches, out[0].mean, out[0].sd, out[0].matches);
    }
    *n = rows;
    return 0;
}
