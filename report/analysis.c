/* analysis.c — printing the analyses of game records (analysis.h). */
#include "report/analysis.h"

#include <math.h>

#include "report/emit.h"

static double se_of(double sum, double sq, long n)
{
    if (n < 2)
        return NAN;
    double m = sum / n, var = (sq - n * m * m) / (n - 1);
    return var > 0 ? sqrt(var / n) : 0;
}

void report_hand_summary(FILE *f, const HandSummary *s, char *const *names, int fmt)
{
    const double coin = 0.25, brier = s->pairs > 0 ? s->brier / s->pairs : NAN;
    if (fmt == REPORT_JSON) {
        fprintf(f, "{\"playouts\":%d,\"playout\":", s->info.playouts);
        json_str(f, s->info.method);
        fprintf(f, ",\"seed\":%llu,\"sets\":%ld,\"games\":%ld,\"sets_missing\":%ld,\"players\":[",
                (unsigned long long)s->info.seed, s->sets, s->games, s->sets_missing);
        for (int i = 0, first = 1; i < s->nplayers; i++) {
            if (!s->games_of[i])
                continue;
            fprintf(f, "%s{\"name\":", first ? "" : ",");
            first = 0;
            json_str(f, names[i]);
            fprintf(f, ",\"games\":%ld,\"mean_p\":", s->games_of[i]);
            json_num(f, s->p_sum[i] / s->games_of[i]);
            fprintf(f, ",\"se\":");
            json_num(f, se_of(s->p_sum[i], s->p_sq[i], s->games_of[i]));
            fprintf(f, "}");
        }
        fprintf(f, "],\"by_class\":[");
        for (int c = 0; c < NPLAYERS; c++) {
            fprintf(f, "%s", c ? "," : "");
            json_num(f, s->class_n[c] ? s->class_p[c] / s->class_n[c] : NAN);
        }
        fprintf(f, "],\"calibration\":[");
        for (int b = 0; b < HAND_BINS; b++) {
            fprintf(f, "%s{\"from\":%.1f,\"to\":%.1f,\"pairs\":%ld,\"mean_p\":", b ? "," : "", (double)b / HAND_BINS,
                    (double)(b + 1) / HAND_BINS, s->bin_n[b]);
            json_num(f, s->bin_n[b] ? s->bin_p[b] / s->bin_n[b] : NAN);
            fprintf(f, ",\"observed\":");
            json_num(f, s->bin_n[b] ? s->bin_won[b] / s->bin_n[b] : NAN);
            fprintf(f, "}");
        }
        fprintf(f, "],\"brier\":");
        json_num(f, brier);
        fprintf(f, ",\"brier_coin\":0.25,\"se_kind\":\"standard error over games\"}\n");
        return;
    }
    if (fmt == REPORT_CSV) {
        fprintf(f, "section,name,n,value,se\n");
        for (int i = 0; i < s->nplayers; i++) {
            if (!s->games_of[i])
                continue;
            fprintf(f, "player_mean_p,");
            csv_str(f, names[i]);
            fprintf(f, ",%ld,", s->games_of[i]);
            csv_num(f, s->p_sum[i] / s->games_of[i]);
            fputc(',', f);
            csv_num(f, se_of(s->p_sum[i], s->p_sq[i], s->games_of[i]));
            fputc('\n', f);
        }
        for (int c = 0; c < NPLAYERS; c++) {
            fprintf(f, "class_mean_p,\"%d\",%ld,", c + 1, s->class_n[c]);
            csv_num(f, s->class_n[c] ? s->class_p[c] / s->class_n[c] : NAN);
            fprintf(f, ",\n");
        }
        for (int b = 0; b < HAND_BINS; b++) {
            double n = (double)s->bin_n[b], o = n ? s->bin_won[b] / n : NAN;
            fprintf(f, "calibration_p,\"%.1f-%.1f\",%ld,", (double)b / HAND_BINS, (double)(b + 1) / HAND_BINS, s->bin_n[b]);
            csv_num(f, n ? s->bin_p[b] / n : NAN);
            fprintf(f, ",\ncalibration_observed,\"%.1f-%.1f\",%ld,", (double)b / HAND_BINS, (double)(b + 1) / HAND_BINS,
                    s->bin_n[b]);
            csv_num(f, o);
            fputc(',', f);
            csv_num(f, n > 1 ? sqrt(o * (1 - o) / n) : NAN);
            fputc('\n', f);
        }
        fprintf(f, "brier,\"p_ij\",%.0f,", s->pairs);
        csv_num(f, brier);
        fprintf(f, ",\nbrier,\"coin\",%.0f,0.2500,\n", s->pairs);
        return;
    }
    fprintf(f, "initial-hand win rates: %ld games of %ld sets (%d playouts each, %s, seed %llu)", s->games, s->sets,
            s->info.playouts, s->info.method, (unsigned long long)s->info.seed);
    if (s->sets_missing)
        fprintf(f, "; %ld sets have none yet", s->sets_missing);
    fprintf(f, "\n\nmean p of each player over its games and opponents (the hands are those after the exchange,\n"
               "so players who often reach the top classes hold better ones: 0.5 only on average)\n");
    fprintf(f, "  %-24s %8s %8s %8s\n", "player", "games", "mean p", "se");
    for (int i = 0; i < s->nplayers; i++) {
        if (!s->games_of[i])
            continue;
        fprintf(f, "  %-24s %8ld", names[i], s->games_of[i]);
        col_num(f, s->p_sum[i] / s->games_of[i], 8, 4);
        col_num(f, se_of(s->p_sum[i], s->p_sq[i], s->games_of[i]), 8, 4);
        fputc('\n', f);
    }
    fprintf(f, "\nmean p by the class reached\n ");
    for (int c = 0; c < NPLAYERS; c++) {
        fprintf(f, "  %d:", c + 1);
        col_num(f, s->class_n[c] ? s->class_p[c] / s->class_n[c] : NAN, 6, 4);
    }
    fprintf(f, "\n\nforecast of each pair's real order by p_ij (ordered pairs)\n");
    fprintf(f, "  %-9s %9s %8s %9s %8s\n", "p_ij", "pairs", "mean p", "observed", "se");
    for (int b = 0; b < HAND_BINS; b++) {
        double n = (double)s->bin_n[b], o = n ? s->bin_won[b] / n : NAN;
        fprintf(f, "  %.1f-%.1f   %9ld", (double)b / HAND_BINS, (double)(b + 1) / HAND_BINS, s->bin_n[b]);
        col_num(f, n ? s->bin_p[b] / n : NAN, 8, 3);
        col_num(f, o, 9, 3);
        col_num(f, n > 1 ? sqrt(o * (1 - o) / n) : NAN, 8, 3);
        fputc('\n', f);
    }
    fprintf(f, "  Brier score %.4f (a coin: %.4f; lower is better)\n", brier, coin);
    fprintf(f, "se: standard error over games (mean p); binomial standard error (observed)\n");
}


void report_est_accuracy(FILE *f, const EstAccRow *rows, int n, long worlds, uint64_t seed, int fmt)
{
    if (fmt == REPORT_CSV)
        fprintf(f, "sampler,games,decisions,worlds,accuracy,accuracy_se,accuracy_dealt,exact,ns_per_world,us_prepare\n");
    else if (fmt == REPORT_JSON)
        fprintf(f, "{\"worlds_per_decision\":%ld,\"seed\":%llu,\"se_kind\":\"standard error over games\",\"samplers\":[",
                worlds, (unsigned long long)seed);
    else
        fprintf(f, "%-30s %6s %9s %9s %8s %7s %8s %7s %9s %9s\n", "sampler", "games", "decisions", "worlds", "accuracy",
                "se", "dealt", "exact", "ns/world", "us/prep");
    for (int i = 0; i < n; i++) {
        const EstAccResult *r = &rows[i].r;
        const char *desc = rows[i].desc;
        double acc = r->total ? (double)r->right / r->total : NAN,
               dealt = r->total_dealt ? (double)r->right_dealt / r->total_dealt : NAN,
               exact = r->worlds ? (double)r->exact / r->worlds : NAN;
        double gm = r->games ? r->game_sum / r->games : NAN;
        double se = r->games > 1 ? sqrt(fmax(0, (r->game_sq - r->games * gm * gm) / (r->games - 1)) / r->games) : NAN;
        if (fmt == REPORT_CSV) {
            csv_str(f, desc);
            fprintf(f, ",%ld,%ld,%ld,%.5f,%.5f,%.5f,%.5f,%.1f,%.2f\n", r->games, r->decisions, r->worlds, acc, se, dealt,
                    exact, r->ns_per_world, r->us_prepare);
        } else if (fmt == REPORT_JSON) {
            fprintf(f, "%s{\"sampler\":", i ? "," : "");
            json_str(f, desc);
            fprintf(f, ",\"games\":%ld,\"decisions\":%ld,\"worlds\":%ld,\"accuracy\":", r->games, r->decisions, r->worlds);
            json_num(f, acc);
            fprintf(f, ",\"accuracy_se\":");
            json_num(f, se);
            fprintf(f, ",\"accuracy_dealt\":");
            json_num(f, dealt);
            fprintf(f, ",\"exact\":");
            json_num(f, exact);
            fprintf(f, ",\"ns_per_world\":%.1f,\"us_prepare\":%.2f}", r->ns_per_world, r->us_prepare);
        } else {
            fprintf(f, "%-30s %6ld %9ld %9ld %8.4f %7.4f %8.4f %7.4f %9.0f %9.1f\n", desc, r->games, r->decisions, r->worlds,
                    acc, se, dealt, exact, r->ns_per_world, r->us_prepare);
        }
    }
    if (fmt == REPORT_JSON)
        fprintf(f, "]}\n");
    else if (fmt == REPORT_TABLE)
        fprintf(f, "accuracy: share of the opponents' cards (known ones included) with the right holder, over every "
                   "world; se: standard error over games;\ndealt: the same over the cards the sampler guessed; exact: "
                   "worlds entirely right; ns/world: sampling time on one thread; us/prep: preparing a decision (table, "
                   "candidates)\n");
}
