/* cli.h — what every command shares: option value parsing with one-line errors, a progress
 * line with ETA on stderr, and the command entry points. Only cli/ may exit() or print
 * usage; everything below returns errors. */
#ifndef DHM_CLI_H
#define DHM_CLI_H

#include <stdint.h>
#include <signal.h>
#include <stdio.h>

#include "game/match.h"
#include "watch/watch.h"
#include "rating/methods.h"
#include "record/store.h"
#include "report/emit.h"

/* Parse helpers: on bad input they print "dhm CMD: --OPT: reason" and return -1. */
int cli_long(const char *cmd, const char *opt, const char *val, long lo, long hi, long *out);
int cli_u64(const char *cmd, const char *opt, const char *val, uint64_t *out);
int cli_double(const char *cmd, const char *opt, const char *val, double lo, double hi, double *out);
/* --order-by index|start (the order of a store's sets): 0 index, 1 start, -1 bad (reported). */
int cli_order_by(const char *cmd, const char *val);
/* The classes' names, daifugo (0) to daihinmin (4). */
extern const char *const cli_class_names[NPLAYERS];

/* Prints "dhm CMD: message" to stderr; returns 2 (usage error) for `return cli_fail(...)`. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "dhm CMD: message" and returns 1 (runtime error). */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

double cli_now(void); /* monotonic seconds */

/* The records a command reads: --kifu FILE (repeatable, and every argument left after the
 * options) and --db FILE.sqlite (repeatable). cli_sources_add takes one (db: it came from
 * --db), cli_sources_rest the leftover arguments (required: and then there must be some);
 * both print a one-line error and return 2 when there are too many (or none), else 0. */
#define CLI_MAX_KIFU 256
#define CLI_MAX_DB 64
typedef struct CliSources {
    const char *kifu[CLI_MAX_KIFU], *db[CLI_MAX_DB];
    int nkifu, ndb;
} CliSources;
int cli_sources_add(const char *cmd, CliSources *s, int db, const char *path);
int cli_sources_rest(const char *cmd, CliSources *s, int argc, char **argv, int required);

/* getopt_long with our own one-line messages: call cli_getopt instead of getopt_long; on an
 * unknown option or a missing value it prints "dhm CMD: ... (try dhm CMD --help)" and
 * returns '?'. -h is the same as --help (opts must have a "help" entry), and -x is the same as
 * a long option whose code is x, the first letter of its name (e.g. {"out", ..., 'o'}). */
struct option;
int cli_getopt(const char *cmd, int argc, char **argv, const struct option *opts);

/* The match options play, serve and the experiments share: --games, --seed, --seat-change,
 * --class-reset, --deals FILE (a deal suite, record/deals.h: game i plays deal i, cycling). Put
 * CLI_MATCH_OPTS in the getopt_long table; cli_match_opt() takes the getopt result c: 0 when
 * it was one of them and is stored in m, 1 when it is not one of them, 2 when its value is bad
 * (reported). */
enum { CLI_O_GAMES = 0x200, CLI_O_SEED, CLI_O_SEAT_CHANGE, CLI_O_CLASS_RESET, CLI_O_DEALS, CLI_O_INDEPENDENT, CLI_O_CLASS0 };
#define CLI_MATCH_OPTS                                                                                             \
    {"games", required_argument, 0, CLI_O_GAMES}, {"seed", required_argument, 0, CLI_O_SEED},                      \
        {"seat-change", required_argument, 0, CLI_O_SEAT_CHANGE},                                                  \
        {"class-reset", required_argument, 0, CLI_O_CLASS_RESET}, {"deals", required_argument, 0, CLI_O_DEALS},     \
        {"independent", no_argument, 0, CLI_O_INDEPENDENT}
int cli_match_opt(const char *cmd, int c, const char *arg, MatchConfig *m);
/* --class0 C (play and serve: player 0 starts every independent game in class C; CLI_CLASS0_HELP
 * for --help), taken by cli_match_opt(); cli_match_check() after the options: 2 (reported) when
 * --class0 lacks --independent with classes, else 0. */
#define CLI_CLASS0_OPT {"class0", required_argument, 0, CLI_O_CLASS0}
#define CLI_CLASS0_HELP                                                                                            \
    "  --class0 C         with --independent: player 0 starts every game in class C (0-4, or\n"                       \
    "                     daifugo, fugo, heimin, hinmin, daihinmin); two runs with one seed still\n"                   \
    "                     start every game alike: a lever measured, paired, in one class\n"
int cli_match_check(const char *cmd, const MatchConfig *m);

/* --watch and its options (dhm serve, dhm tournament; cli/watch.c): CLI_WATCH_OPTS in the
 * getopt_long table, cli_watch_opt() as cli_match_opt(); CLI_WATCH_HELP for --help. */
enum { CLI_O_WATCH = 0x280, CLI_O_WATCH_DELAY, CLI_O_WATCH_HANDS, CLI_O_WATCH_VIEWERS, CLI_O_WATCH_TIMEOUT,
       CLI_O_WATCH_LINGER };
#define CLI_WATCH_OPTS                                                                                             \
    {"watch", required_argument, 0, CLI_O_WATCH}, {"watch-delay", required_argument, 0, CLI_O_WATCH_DELAY},         \
        {"watch-hands", required_argument, 0, CLI_O_WATCH_HANDS},                                                  \
        {"watch-viewers", required_argument, 0, CLI_O_WATCH_VIEWERS},                                              \
        {"watch-timeout", required_argument, 0, CLI_O_WATCH_TIMEOUT},                                              \
        {"watch-linger", required_argument, 0, CLI_O_WATCH_LINGER}
typedef struct CliWatch {
    WatchConfig cfg;
    int on, linger_ms;
    WatchServer *server; /* after cli_watch_start (NULL without --watch) */
} CliWatch;
extern const char CLI_WATCH_HELP[];
int cli_watch_opt(const char *cmd, int c, const char *arg, CliWatch *w);
/* Starts the live view when --watch was given and prints its address; 0 or an exit status. */
int cli_watch_start(const char *cmd, CliWatch *w);
/* The end: viewers get the last frames, a summary line (unless quiet), the linger, the stop. */
void cli_watch_stop(const char *cmd, CliWatch *w, int quiet);

/* Opens a kifu file for writing and writes its header with the five players' names; on
 * failure prints "dhm CMD: cannot write PATH: reason" and returns NULL. */
FILE *cli_kifu_open(const char *cmd, const char *path, const char *const names[NPLAYERS]);

typedef struct Progress {
    const char *what;
    double start, last;
    long total;
    int tty, enabled, printed;
} Progress;

/* A progress line on stderr: redrawn in place on a terminal (5 times a second), a plain line
 * every 10 s otherwise: "WHAT done/total (pct%)EXTRA, elapsed ..., ETA ...", so extra starts with
 * its own space (" games"). enabled = 0 turns it off (--quiet). */
void progress_init(Progress *p, const char *what, long total, int enabled);
void progress_update(Progress *p, long done, const char *extra);
void progress_done(Progress *p);

/* SIGINT and SIGTERM set *flag to the signal's number instead of ending the process, until
 * cli_catch_stop_end (long runs stop after their work in progress and exit 128 + signal). */
typedef struct CliCatch {
    struct sigaction old_int, old_term;
} CliCatch;
void cli_catch_stop(CliCatch *c, volatile int *flag);
void cli_catch_stop_end(CliCatch *c);

/* The end-of-match table (or JSON) shared by play, serve and connect. */
void cli_print_match(FILE *f, Player *const pl[NPLAYERS], const MatchResult *r, const MatchConfig *cfg, double secs,
                     int json);

/* `dhm rate` options, shared with commands that end in a rating table. */
typedef struct RateOpts {
    const char *methods, *anchor, *history;
    RatingParams prm;
    int mse, cross, trans, los, top, csv, json;
    unsigned given; /* method-specific options given (for the "ignored" warnings) */
    long left_out;  /* sets of a store left out (not clean) */
    FILE *out;      /* where the ratings go (stdout) */
} RateOpts;
void rate_opts_default(RateOpts *o);
/* Loads the sets of a tournament store into res (and its games when with_games, with their
 * pairwise initial-hand win rates when every set has them); sets not played cleanly are left
 * out unless include_broken (*left_out counts them). A store that gives no set at all is an
 * error that says why (rate_db_none). With a sink in res (Results.sink), every set and game
 * goes to it as it is read, sets in rating order. Returns an exit status. */
int rate_load_db(const char *cmd, const char *path, int by_start, int with_games, int include_broken, Results *res,
                 long *left_out);
/* Why a store gives no set to rate, in one line: every stored set left out as broken (counted
 * by status, naming --include-broken), or none stored yet. */
void rate_db_none(struct Store *st, char *why, size_t n);
/* Method ids from a comma-separated list ("all": every method that applies); prints the error
 * and returns -1 on an unknown name or an empty list; else the count. With res NULL the names
 * are only checked. */
int rate_parse_methods(const char *cmd, const char *list, const Results *res, int *ids);
/* Rates loaded results and prints them as the options say. Returns an exit status. */
int rate_results(const char *cmd, Results *res, const RateOpts *o);

/* A tournament store opened with its run and players, closed by cli_store_close. */
typedef struct CliStore {
    struct Store *st;
    RunInfo run;
    int n;
    char **names, **specs;
} CliStore;
/* Opens path (writable or not) and loads its run; prints "dhm CMD: reason" and returns 1
 * on failure. */
int cli_store_open(const char *cmd, const char *path, int writable, CliStore *cs);
void cli_store_close(CliStore *cs);


/* An experiment's store: path (NULL = a temporary file, removed by exp_store_done) and the
 * open store. */
typedef struct ExpStore {
    const char *path;
    char tmp[64];
    struct Store *st;
} ExpStore;
struct Pool;
/* Plays `sets` sets of `games` games among the pool (five drawn at random per set, records
 * stored) into es (left open). Prints "dhm CMD: reason" and returns 1 on failure. */
int exp_tournament(const char *cmd, const struct Pool *pool, long sets, int games, uint64_t seed, int jobs, ExpStore *es,
                   int quiet);
/* Closes the store, and removes it if it was temporary. */
void exp_store_done(ExpStore *es);
/* The experiment's pool: the file --pool names, or the experiment's default pool text.
 * Prints "dhm CMD: reason" and returns 2 when it cannot be read or has fewer than five players. */
int exp_pool(const char *cmd, const char *path, const char *default_text, struct Pool *pool);

int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_connect(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_records(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_errorrate(int argc, char **argv);
int cmd_handstrength(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sprt(int argc, char **argv);
int cmd_view(int argc, char **argv);
/* HandRun.progress for a Progress line ("N sets, G games"). */
void handstrength_progress(void *ctx, long done, long total, long games);
int exp_errorrate(int argc, char **argv); /* dhm experiment errorrate (cli/exp_errorrate.c) */
int exp_morita(int argc, char **argv);    /* dhm experiment morita (cli/exp_morita.c) */
int exp_rating_study(int argc, char **argv); /* dhm experiment rating-study (cli/exp_ratingstudy.c) */

/* What {python} stands for in a pool's exec: lines: $DHM_PYTHON, else the interpreter `make
 * python` builds the Python package for (tools/pick_python.sh; the Makefile passes it in). */
const char *cli_python(void);

#endif
