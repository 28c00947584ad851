/* pyarena.c — matches and tournaments from Python, by the engine of `dhm play` and `dhm
 * tournament` (game/match.c, arena/tournament.c): play_match (built-in players only, every
 * game's classes back as an array) and tournament (a pool's text, into a new store). The GIL
 * is released while they run; a tournament's progress line goes to stderr as the command's. */
#include "pydhm.h"

#include <string.h>

#include "arena/tournament.h"
#include "players/players.h"

typedef struct Classes {
    int8_t *out; /* games x NPLAYERS */
} Classes;

static int keep_classes(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    Classes *c = ctx;
    for (int p = 0; p < NPLAYERS; p++)
        c->out[(size_t)(sofar->games - 1) * NPLAYERS + p] = (int8_t)rec->result[p];
    return 0;
}

/* play_match(specs, games, seed, seat_change=3, class_reset=100) -> int8[games, 5] classes */
PyObject *py_play_match(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"specs", "games", "seed", "seat_change", "class_reset", NULL};
    PyObject *specs;
    int games, seat_change = 3, class_reset = 100;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiK|ii", kwlist, &specs, &games, &seed, &seat_change, &class_reset))
        return NULL;
    if (games < 1 || seat_change < 0 || class_reset < 0)
        return PyErr_Format(PyExc_ValueError, "play_match: games >= 1, seat_change >= 0, class_reset >= 0");
    PyObject *seq = PySequence_Fast(specs, "specs: five player specs");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != NPLAYERS) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "specs: five player specs, one per player number");
    }
    Player *pl[NPLAYERS] = {NULL, NULL, NULL, NULL, NULL};
    char err[512];
    PyObject *out = NULL;
    for (int p = 0; p < NPLAYERS; p++) {
        const char *s = PyUnicode_Check(PySequence_Fast_GET_ITEM(seq, p)) ? PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, p))
                                                                          : NULL;
        if (!s) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "specs: player %d's spec is not a str", p);
            goto done;
        }
        if (player_create(s, player_seed(seed, p), &pl[p], err, sizeof err)) {
            PyErr_Format(PyExc_ValueError, "player %d: %s", p, err);
            goto done;
        }
        if (pl[p]->reads_hidden) {
            PyErr_Format(PyExc_ValueError, "player %d: %s reads the other players' hidden cards (experiments only: "
                                           "dhm play)", p, s);
            goto done;
        }
    }
    npy_intp dims[2] = {games, NPLAYERS};
    out = PyArray_ZEROS(2, dims, NPY_INT8, 0);
    GameRecord *rec = PyMem_Malloc(sizeof *rec);
    if (!out || !rec) {
        PyMem_Free(rec);
        Py_CLEAR(out);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = games;
    cfg.seed = seed;
    cfg.seat_change = seat_change;
    cfg.class_reset = class_reset;
    Classes c = {PyArray_DATA((PyArrayObject *)out)};
    MatchResult res;
    Py_BEGIN_ALLOW_THREADS
    match_run(pl, &cfg, NULL, keep_classes, &c, rec, &res);
    Py_END_ALLOW_THREADS
    PyMem_Free(rec);
done:
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
    Py_DECREF(seq);
    return out;
}

typedef struct Prog {
    int show;
    double t0;
    long total;
} Prog;

static void tour_progress(void *ctx, long done, long total, long games)
{
    Prog *pg = ctx;
    (void)total;
    if (!pg->show)
        return;
    double el = (game_clock_ms() - pg->t0) / 1000;
    double eta = done > 0 && done < pg->total ? el * (double)(pg->total - done) / (double)done : 0;
    fprintf(stderr, "\rdhm.tournament: %ld/%ld sets, %.0f games/s, elapsed %.0fs, ETA %.0fs ", done, pg->total,
            el > 0 ? (double)games / el : 0.0, el, eta);
    fflush(stderr);
}

/* tournament(pool_text, db, sets, games, seed, jobs, pairing, seat_change, class_reset, records,
 *            move_timeout_ms, connect_timeout_ms, python, command, progress) -> None */
PyObject *py_tournament(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"pool_text", "db", "sets", "games", "seed", "jobs", "pairing", "seat_change",
                             "class_reset", "records", "move_timeout_ms", "connect_timeout_ms", "python", "command",
                             "progress", NULL};
    const char *text, *db, *pairing = "random", *python = "python3", *command = "dhm.tournament";
    long sets = 100;
    int games = 10000, jobs = 1, seat_change = 3, class_reset = 100, records = 0, mt = 10000, ct = 10000, progress = 1;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ss|liKisiipiissp", kwlist, &text, &db, &sets, &games, &seed, &jobs,
                                     &pairing, &seat_change, &class_reset, &records, &mt, &ct, &python, &command,
                                     &progress))
        return NULL;
    const int pair = !strcmp(pairing, "random") ? PAIR_RANDOM
                     : !strcmp(pairing, "all")  ? PAIR_ALL
                     : !strcmp(pairing, "fixed") ? PAIR_FIXED
                                                 : -1;
    if (pair < 0)
        return PyErr_Format(PyExc_ValueError, "pairing=%s: valid are random, all, fixed", pairing);
    if (sets < 1 || sets > TOURNAMENT_MAX_SETS || games < 1 || jobs < 1 || jobs > 256 || seat_change < 0 ||
        class_reset < 0 || mt < 0 || ct < 100)
        return PyErr_Format(PyExc_ValueError, "tournament: 1 <= sets <= %ld, games >= 1, 1 <= jobs <= 256, "
                                              "seat_change >= 0, class_reset >= 0, move_timeout_ms >= 0, "
                                              "connect_timeout_ms >= 100",
                            TOURNAMENT_MAX_SETS);
    Pool pool;
    char err[1024];
    if (pool_parse(text, "pool", &pool, err, sizeof err))
        return PyErr_Format(PyExc_ValueError, "%s", err);
    if (pair == PAIR_FIXED && pool.n != 5) {
        pool_free(&pool);
        return PyErr_Format(PyExc_ValueError, "pairing='fixed' needs exactly 5 players; the pool has %d", pool.n);
    }
    char logdir[1024];
    snprintf(logdir, sizeof logdir, "%s.logs", db);
    Prog pg = {progress, game_clock_ms(), sets};
    TournamentConfig tc = {.pool = &pool, .sets = sets, .games = games, .seat_change = seat_change,
                           .class_reset = class_reset, .seed = seed, .jobs = jobs, .pairing = pair,
                           .records = records, .move_timeout_ms = mt, .connect_timeout_ms = ct, .log_dir = logdir,
                           .progress = tour_progress, .progress_ctx = &pg, .python = python};
    RunInfo run;
    memset(&run, 0, sizeof run);
    tournament_run_info(&tc, DHM_VERSION, &run);
    run.pool_text = pool.text;
    snprintf(run.command, sizeof run.command, "%s", command);
    Store *st = NULL;
    int rc, created;
    Py_BEGIN_ALLOW_THREADS
    rc = tournament_store_create(&st, db, &pool, &run, err, sizeof err);
    created = rc == 0;
    if (!rc && (rc = tournament_run(&tc, st, err, sizeof err)) == 0) {
        char now[40];
        store_now(now, sizeof now);
        store_finish_run(st, now);
    }
    if (created)
        store_close(st);
    Py_END_ALLOW_THREADS
    if (progress)
        fprintf(stderr, "\n");
    pool_free(&pool);
    if (rc)
        return PyErr_Format(PyExc_RuntimeError, "%s%s", err,
                            created ? " (the sets finished so far are stored; dhm tournament --resume --db continues)" : "");
    Py_RETURN_NONE;
}
