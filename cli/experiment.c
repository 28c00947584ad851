/* experiment.c — `dhm experiment NAME`: the experiments of the papers. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/virtual_game.h"
#include "cli/cli.h"

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

static void vg_usage(FILE *f)
{
    fprintf(f, "usage: dhm experiment virtual-game [options]\n"
               "Paper 002 §4: two players with true ratings 1700 and 1300; per game an initial-position\n"
               "win rate p (none: 0.5, gauss: N(0.5, 0.25) redrawn until inside (0,1), binary: 0.1 or\n"
               "0.9); each set rates its games by plain Elo, by the hand-corrected method, and by the\n"
               "corrected method with N(0, noise) error on p. Prints the median and quartiles of the\n"
               "1700 player's final rating, for the correction with ln (which reproduces the paper's\n"
               "figures) and with log10 (its formula as printed).\n\n"
               "  --sets N       sets (1000)\n"
               "  --games N      games per set (1000)\n"
               "  --k K          Elo K (16)\n"
               "  --noise S      standard deviation of the error on p (0.05)\n"
               "  --log e|10|both  which logarithm in f(p) (both)\n"
               "  --seed S       seed (1)\n"
               "  --hist FILE    histograms of the final ratings as CSV (5-point bins)\n"
               "  --json         machine-readable output\n");
}

static int virtual_game(int argc, char **argv)
{
    static const struct option opts[] = {{"sets", required_argument, 0, 's'}, {"games", required_argument, 0, 'g'},
                                         {"k", required_argument, 0, 'k'},    {"noise", required_argument, 0, 'n'},
                                         {"log", required_argument, 0, 'l'},  {"seed", required_argument, 0, 'r'},
                                         {"hist", required_argument, 0, 'o'}, {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    const char *cmd = "experiment virtual-game";
    VgConfig cfg = {1000, 1000, 16, 0.05, 1, 1};
    const char *hist = NULL, *logs = "both";
    int json = 0, c;
    long v;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        switch (c) {
        case 's': if (cli_long(cmd, "--sets", optarg, 1, 10000000, &v)) return 2; cfg.sets = (int)v; break;
        case 'g': if (cli_long(cmd, "--games", optarg, 1, 100000000, &v)) return 2; cfg.games = (int)v; break;
        case 'k': if (cli_double(cmd, "--k", optarg, 0, 1000, &cfg.k)) return 2; break;
        case 'n': if (cli_double(cmd, "--noise", optarg, 0, 1, &cfg.noise)) return 2; break;
        case 'l':
            if (strcmp(optarg, "e") && strcmp(optarg, "10") && strcmp(optarg, "both"))
                return cli_fail(cmd, "--log: '%s' is not e, 10 or both", optarg);
            logs = optarg;
            break;
        case 'r': if (cli_u64(cmd, "--seed", optarg, &cfg.seed)) return 2; break;
        case 'o': hist = optarg; break;
        case 'j': json = 1; break;
        case 'h': vg_usage(stdout); return 0;
        default: return 2;
        }
    }
    if (optind < argc)
        return cli_fail(cmd, "unexpected argument '%s'", argv[optind]);
    FILE *hf = NULL;
    if (hist) {
        if (!(hf = fopen(hist, "w")))
            return cli_error(cmd, "cannot write %s: %m", hist);
        fprintf(hf, "log,dist,method,bin_low,bin_high,count\n");
    }
    static const double paper_plain[VG_NDIST] = {1701, 1607, 1501};
    double *fin[VG_NMETHOD];
    for (int m = 0; m < VG_NMETHOD; m++)
        if (!(fin[m] = malloc((size_t)cfg.sets * sizeof *fin[m])))
            return cli_error(cmd, "out of memory");
    Progress pr;
    int nlog = strcmp(logs, "both") ? 1 : 2;
    progress_init(&pr, "virtual-game:", (long)nlog * VG_NDIST, 1);
    long done = 0;
    if (json)
        printf("{\"sets\": %d, \"games\": %d, \"k\": %g, \"noise\": %g, \"seed\": %llu, \"results\": [", cfg.sets,
               cfg.games, cfg.k, cfg.noise, (unsigned long long)cfg.seed);
    int first = 1;
    for (int li = 0; li < 2; li++) {
        int natural = li == 0;
        if ((natural && !strcmp(logs, "10")) || (!natural && !strcmp(logs, "e")))
            continue;
        cfg.natural_log = natural;
        if (!json)
            printf("%svirtual game (paper 002 §4): true 1700 vs 1300, %d sets x %d games, K = %g, noise %g\n"
                   "log in f(p): %s\n%-8s %-16s %8s %8s %8s   %s\n",
                   li && nlog == 2 ? "\n" : "", cfg.sets, cfg.games, cfg.k, cfg.noise,
                   natural ? "ln — reproduces the paper's figures" : "log10 — the paper's formula (3) as printed",
                   "p", "method", "median", "Q1", "Q3", "paper");
        for (int d = 0; d < VG_NDIST; d++) {
            vg_run(&cfg, d, fin);
            for (int m = 0; m < VG_NMETHOD; m++) {
                qsort(fin[m], (size_t)cfg.sets, sizeof *fin[m], cmp_double);
                double med = quantile(fin[m], cfg.sets, 0.5), q1 = quantile(fin[m], cfg.sets, 0.25),
                       q3 = quantile(fin[m], cfg.sets, 0.75);
                if (json) {
                    printf("%s\n  {\"log\": \"%s\", \"p\": \"%s\", \"method\": \"%s\", \"median\": %.2f, \"q1\": %.2f, "
                           "\"q3\": %.2f}",
                           first ? "" : ",", natural ? "e" : "10", vg_dist_name(d), vg_method_name(m), med, q1, q3);
                    first = 0;
                } else {
                    char paper[32] = "";
                    if (m == VG_PLAIN)
                        snprintf(paper, sizeof paper, "about %.0f", paper_plain[d]);
                    else
                        snprintf(paper, sizeof paper, "about 1700");
                    printf("%-8s %-16s %8.1f %8.1f %8.1f   %s\n", vg_dist_name(d), vg_method_name(m), med, q1, q3, paper);
                }
                if (hf) {
                    int s = 0;
                    while (s < cfg.sets) {
                        double lo = 5.0 * floor(fin[m][s] / 5.0);
                        int cnt = 0;
                        while (s < cfg.sets && fin[m][s] < lo + 5.0)
                            s++, cnt++;
                        fprintf(hf, "%s,%s,%s,%.0f,%.0f,%d\n", natural ? "e" : "10", vg_dist_name(d),
                                vg_method_name(m), lo, lo + 5, cnt);
                    }
                }
            }
            progress_update(&pr, ++done, "");
        }
    }
    progress_done(&pr);
    if (json)
        printf("\n]}\n");
    for (int m = 0; m < VG_NMETHOD; m++)
        free(fin[m]);
    if (hf && fclose(hf))
        return cli_error(cmd, "error writing %s", hist);
    return 0;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} EXPERIMENTS[] = {
    {"virtual-game", virtual_game, "paper 002 §4: plain vs hand-corrected Elo on a virtual game"},
};

int cmd_experiment(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, "usage: dhm experiment NAME [options]   (dhm experiment NAME --help)\n\nexperiments:\n");
        for (size_t i = 0; i < sizeof EXPERIMENTS / sizeof EXPERIMENTS[0]; i++)
            fprintf(f, "  %-14s %s\n", EXPERIMENTS[i].name, EXPERIMENTS[i].help);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof EXPERIMENTS / sizeof EXPERIMENTS[0]; i++)
        if (!strcmp(argv[1], EXPERIMENTS[i].name))
            return EXPERIMENTS[i].fn(argc - 1, argv + 1);
    return cli_fail("experiment", "unknown experiment '%s' (try dhm experiment --help)", argv[1]);
}
