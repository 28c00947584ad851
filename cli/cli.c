/* cli.c — option parsing helpers, errors, the progress line, the match table, JSON strings. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "players/mc.h"
#include "record/deals.h"
#include "report/emit.h"
#include "record/kifu.h"

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "dhm %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return 2;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return 1;
}

int cli_long(const char *cmd, const char *opt, const char *val, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (!*val || *end || errno || v < lo || v > hi) {
        cli_fail(cmd, "%s: '%s' is not an integer in [%ld, %ld]", opt, val, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_u64(const char *cmd, const char *opt, const char *val, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*val || *val == '-') {
        cli_fail(cmd, "%s: '%s' is not a non-negative integer", opt, val);
        return -1;
    }
    unsigned long long v = strtoull(val, &end, 0);
    if (*end || errno) {
        cli_fail(cmd, "%s: '%s' is not a non-negative integer", opt, val);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

int cli_double(const char *cmd, const char *opt, const char *val, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (!*val || *end || errno || !(v >= lo && v <= hi) || !isfinite(v)) {
        cli_fail(cmd, "%s: '%s' is not a number in [%g, %g]", opt, val, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_order_by(const char *cmd, const char *val)
{
    if (!strcmp(val, "index") || !strcmp(val, "start"))
        return !strcmp(val, "start");
    cli_fail(cmd, "--order-by: '%s' is not index or start", val);
    return -1;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_match_opt(const char *cmd, int c, const char *arg, MatchConfig *m)
{
    long v;
    switch (c) {
    case CLI_O_GAMES:
        if (cli_long(cmd, "--games", arg, 1, 100000000, &v))
            return 2;
        m->games = (int)v;
        return 0;
    case CLI_O_SEED: return cli_u64(cmd, "--seed", arg, &m->seed) ? 2 : 0;
    case CLI_O_SEAT_CHANGE:
        if (cli_long(cmd, "--seat-change", arg, 0, 1000000, &v))
            return 2;
        m->seat_change = (int)v;
        return 0;
    case CLI_O_CLASS_RESET:
        if (cli_long(cmd, "--class-reset", arg, 0, 100000000, &v))
            return 2;
        m->class_reset = (int)v;
        return 0;
    case CLI_O_INDEPENDENT: m->independent = 1; return 0;
    case CLI_O_CLASS0: {
        m->class0 = 0;
        for (int k = 0; k < NPLAYERS; k++)
            if (!strcmp(arg, cli_class_names[k]) || (arg[0] == '0' + k && !arg[1]))
                m->class0 = k + 1;
        if (!m->class0) {
            cli_fail(cmd, "--class0: '%s' is not 0-4 or daifugo, fugo, heimin, hinmin, daihinmin", arg);
            return 2;
        }
        return 0;
    }
    case CLI_O_DEALS: {
        static DealSuite suite; /* lives as long as the command */
        char err[512];
        deals_free(&suite);
        if (deals_load(arg, &suite, err, sizeof err)) {
            cli_fail(cmd, "--deals: %s", err);
            return 2;
        }
        m->deals = (const Cards(*)[NPLAYERS])suite.hand;
        m->ndeals = suite.n;
        m->deal_offset = 0;
        return 0;
    }
    default: return 1;
    }
}

int cli_match_check(const char *cmd, const MatchConfig *m)
{
    if (m->class0 && (!m->independent || m->class_reset == 1))
        return cli_fail(cmd, "--class0 needs --independent with classes (not --class-reset 1)");
    return 0;
}

FILE *cli_kifu_open(const char *cmd, const char *path, const char *const names[NPLAYERS])
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error(cmd, "cannot write %s: %m", path);
        return NULL;
    }
    kifu_write_header(f, names);
    return f;
}

void progress_init(Progress *p, const char *what, long total, int enabled)
{
    p->what = what;
    p->total = total;
    p->start = p->last = cli_now();
    p->tty = isatty(2);
    p->enabled = enabled;
    p->printed = 0;
}

static void fmt_duration(double s, char *buf, size_t n)
{
    if (!(s >= 0) || s > 1e8)
        snprintf(buf, n, "?");
    else if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

void progress_update(Progress *p, long done, const char *extra)
{
    if (!p->enabled)
        return;
    double now = cli_now();
    if (now - p->last < (p->tty ? 0.2 : 10.0) && done < p->total)
        return;
    if (now - p->start < 1.0 && (done < p->total || !p->printed))
        return; /* quick jobs stay quiet */
    p->last = now;
    double el = now - p->start;
    double eta = done > 0 ? el * (double)(p->total - done) / (double)done : -1;
    char e[32], t[32];
    fmt_duration(eta, e, sizeof e);
    fmt_duration(el, t, sizeof t);
    fprintf(stderr, "%s%s %ld/%ld (%.0f%%)%s, elapsed %s, ETA %s%s", p->tty ? "\r" : "", p->what, done, p->total,
            p->total ? 100.0 * (double)done / (double)p->total : 100.0, extra ? extra : "", t, e,
            p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->printed = 1;
}

void progress_done(Progress *p)
{
    if (p->enabled && p->printed && p->tty)
        fputc('\n', stderr);
}

const char *const cli_class_names[NPLAYERS] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};

void cli_print_match(FILE *f, Player *const pl[NPLAYERS], const MatchResult *r, const MatchConfig *cfg, double secs,
                     int json)
{
    if (json) {
        fprintf(f, "{\"games\": %d, \"seed\": %llu, \"seat_change\": %d, \"class_reset\": %d, \"seconds\": %.3f, "
                   "\"stalemates\": %ld, \"players\": [",
                r->games, (unsigned long long)cfg->seed, cfg->seat_change, cfg->class_reset, secs, r->stalemates);
        for (int p = 0; p < NPLAYERS; p++) {
            fprintf(f, "%s\n  {\"player\": %d, \"spec\": ", p ? "," : "", p);
            json_str(f, pl[p]->name);
            fprintf(f, ", \"total\": %ld, \"mean\": %.4f, \"classes\": [", r->points[p],
                    r->games ? (double)r->points[p] / r->games : 0.0);
            for (int c = 0; c < NPLAYERS; c++)
                fprintf(f, "%s%ld", c ? ", " : "", r->class_count[p][c]);
            fprintf(f, "], \"illegal\": %ld, \"bad_exchanges\": %ld", r->illegal[p], r->bad_exchange[p]);
            if (pl[p]->report_json) {
                fprintf(f, ", \"stats\": ");
                pl[p]->report_json(pl[p], f);
            }
            fprintf(f, "}");
        }
        fprintf(f, "\n]}\n");
        return;
    }
    fprintf(f, "%d games, seed %llu, seat change %d, class reset %d, %.2f s\n", r->games,
            (unsigned long long)cfg->seed, cfg->seat_change, cfg->class_reset, secs);
    fprintf(f, "%-3s %-28s %8s %7s", "#", "player", "total", "mean");
    for (int c = 0; c < NPLAYERS; c++)
        fprintf(f, " %9s", cli_class_names[c]);
    fprintf(f, "\n");
    for (int p = 0; p < NPLAYERS; p++) {
        fprintf(f, "%-3d %-28.28s %8ld %7.3f", p, pl[p]->name, r->points[p],
                r->games ? (double)r->points[p] / r->games : 0.0);
        for (int c = 0; c < NPLAYERS; c++)
            fprintf(f, " %9ld", r->class_count[p][c]);
        fprintf(f, "\n");
    }
    for (int p = 0; p < NPLAYERS; p++)
        if (r->illegal[p] || r->bad_exchange[p])
            fprintf(f, "player %d: %ld illegal moves played as passes, %ld invalid exchanges\n", p, r->illegal[p],
                    r->bad_exchange[p]);
    if (r->stalemates)
        fprintf(f, "%ld games ended by the 20-pass stalemate rule\n", r->stalemates);
    for (int p = 0; p < NPLAYERS; p++) {
        long use[MC_CHOICE_ARMS], games = 0;
        if (mc_choice_usage(pl[p], use))
            continue;
        for (int a = 0; a < MC_CHOICE_ARMS; a++)
            games += use[a];
        fprintf(f, "player %d, choice bandit, games per 1000 using:", p);
        for (int a = 0; a < MC_CHOICE_ARMS; a++)
            fprintf(f, " %s %.0f", bandit_name(MC_CHOICE_KINDS[a]), games ? 1000.0 * (double)use[a] / (double)games : 0.0);
        fprintf(f, "\n");
    }
}

int cli_getopt(const char *cmd, int argc, char **argv, const struct option *opts)
{
    opterr = 0;
    char shorts[64] = ":h"; /* -x for each option whose code is its long name's first letter */
    size_t k = 2;
    for (const struct option *o = opts; o->name && k + 3 < sizeof shorts; o++)
        if (o->val == o->name[0] && o->val != 'h') {
            shorts[k++] = (char)o->val;
            if (o->has_arg == required_argument)
                shorts[k++] = ':';
        }
    shorts[k] = 0;
    int c = getopt_long(argc, argv, shorts, opts, NULL);
    if (c == 'h') /* -h is --help everywhere, whatever code the command gave --help */
        for (const struct option *o = opts; o->name; o++)
            if (!strcmp(o->name, "help"))
                return o->val;
    if (c == '?') {
        cli_fail(cmd, "unknown option '%s' (try dhm %s --help)", argv[optind - 1], cmd);
        return '?';
    }
    if (c == ':') {
        cli_fail(cmd, "option '%s' needs a value (try dhm %s --help)", argv[optind - 1], cmd);
        return '?';
    }
    return c;
}

static volatile int *g_catch_flag;
static void on_catch(int sig)
{
    if (g_catch_flag)
        *g_catch_flag = sig;
}

void cli_catch_stop(CliCatch *c, volatile int *flag)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    g_catch_flag = flag;
    sa.sa_handler = on_catch;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &c->old_int);
    sigaction(SIGTERM, &sa, &c->old_term);
}

void cli_catch_stop_end(CliCatch *c)
{
    sigaction(SIGINT, &c->old_int, NULL);
    sigaction(SIGTERM, &c->old_term, NULL);
}

int cli_store_open(const char *cmd, const char *path, int writable, CliStore *cs)
{
    char err[512];
    memset(cs, 0, sizeof *cs);
    if (store_open(&cs->st, path, writable, err, sizeof err))
        return cli_error(cmd, "%s", err);
    if (store_load_run(cs->st, &cs->run, &cs->n, &cs->names, &cs->specs, err, sizeof err)) {
        store_close(cs->st);
        cs->st = NULL;
        return cli_error(cmd, "%s", err);
    }
    return 0;
}

void cli_store_close(CliStore *cs)
{
    store_free_names(cs->n, cs->names, cs->specs);
    store_free_run(&cs->run);
    store_close(cs->st);
    memset(cs, 0, sizeof *cs);
}

int cli_sources_add(const char *cmd, CliSources *s, int db, const char *path)
{
    if (db) {
        if (s->ndb >= CLI_MAX_DB)
            return cli_fail(cmd, "at most %d --db stores", CLI_MAX_DB);
        s->db[s->ndb++] = path;
    } else {
        if (s->nkifu >= CLI_MAX_KIFU)
            return cli_fail(cmd, "at most %d record files", CLI_MAX_KIFU);
        s->kifu[s->nkifu++] = path;
    }
    return 0;
}

int cli_sources_rest(const char *cmd, CliSources *s, int argc, char **argv, int required)
{
    for (; optind < argc; optind++)
        if (cli_sources_add(cmd, s, 0, argv[optind]))
            return 2;
    if (required && !s->nkifu && !s->ndb)
        return cli_fail(cmd, "give --kifu FILE or --db FILE.sqlite (try --help)");
    return 0;
}

const char *cli_python(void)
{
#ifndef DHM_PYTHON
#define DHM_PYTHON "python3"
#endif
    const char *p = getenv("DHM_PYTHON");
    return p && *p ? p : DHM_PYTHON;
}
