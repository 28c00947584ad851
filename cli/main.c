/* main.c — `dhm COMMAND [options]`: dispatches to one file per command. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arena/mpi.h"
#include "cli/cli.h"

#ifndef DHM_VERSION
#define DHM_VERSION "unknown"
#endif

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} COMMANDS[] = {
    {"play", cmd_play, "play a match among built-in players in-process"},
    {"replay", cmd_replay, "check kifu game records against the rules engine"},
    {"rate", cmd_rate, "ratings from results: Elo, Glicko, Glicko-2, TrueSkill, set-wise, BT/PL, mElo"},
    {"serve", cmd_serve, "a UECda game server (protocol 20070) for remote clients and built-in players"},
    {"connect", cmd_connect, "run a built-in player as a UECda client of any server"},
    {"tournament", cmd_tournament, "many sets among a pool of players, in parallel, into SQLite, resumable"},
    {"records", cmd_records, "the sets of a tournament database; export stored games as kifu"},
    {"experiment", cmd_experiment, "the papers' experiments (virtual-game, ...)"},
    {"train", cmd_train, "fit the policy's weights to recorded games (dhm train policy)"},
    {"errorrate", cmd_errorrate, "the error rate of recorded players against an evaluator (paper 004)"},
    {"sprt", cmd_sprt, "does player A beat player B by a margin? a sequential test on paired games"},
    {"report", cmd_report, "one self-contained HTML page about a tournament run"},
    {"view", cmd_view, "recorded games move by move (terminal, HTML, JSON), with the evaluator's verdicts"},
    {"estimate", cmd_estimate, "how well world samplers guess the hidden cards of recorded games (paper 003)"},
    {"handstrength", cmd_handstrength, "initial-hand win rates of stored games, for rate --method morita (paper 002)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: dhm COMMAND [options]   (dhm COMMAND --help, or dhm help COMMAND, for details)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(f, "  %-11s %s\n", COMMANDS[i].name, COMMANDS[i].help);
    fprintf(f, "\ndhm %s — Computer Daihinmin (UECda rules) research platform\n", DHM_VERSION);
}

/* Whatever a command printed must have reached stdout: a full disk or a closed pipe is an
 * error (exit 1), never a silent success with truncated output. */
static int finish(const char *cmd, int rc)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "dhm %s: error writing standard output: %s\n", cmd, errno ? strerror(errno) : "I/O error");
        return rc ? rc : 1;
    }
    return rc;
}

static int run(int argc, char **argv);

/* With MPI (build/dhm-mpi), ranks other than 0 only ever play the sets rank 0 hands them. */
int main(int argc, char **argv)
{
    if (mpi_init(&argc, &argv) != 0)
        return mpi_worker_main();
    int rc = run(argc, argv);
    mpi_finish();
    return rc;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) { /* dhm help CMD [SUB] = dhm CMD [SUB] --help */
            char *args[4] = {argv[2], argc > 3 ? argv[3] : "--help", "--help", NULL};
            for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
                if (!strcmp(argv[2], COMMANDS[i].name))
                    return finish(COMMANDS[i].name, COMMANDS[i].fn(argc > 3 ? 3 : 2, args));
            fprintf(stderr, "dhm: unknown command '%s' (try dhm --help)\n", argv[2]);
            return 2;
        }
        usage(stdout);
        return finish("help", 0);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("dhm %s\n", DHM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name))
            return finish(COMMANDS[i].name, COMMANDS[i].fn(argc - 1, argv + 1));
    fprintf(stderr, "dhm: unknown command '%s' (try dhm --help)\n", argv[1]);
    return 2;
}
