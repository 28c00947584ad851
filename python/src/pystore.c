/* pystore.c — a tournament's results store read from Python (Store), and dhm's rating
 * methods on rows given from Python (rate). The store is opened read-only and every row is
 * checked by record/store.c as for `dhm rate --db`; the ratings come out of the same emitter
 * as `dhm rate --csv` (report/ratings.c), so the two cannot disagree. */
#include "pydhm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rating/eval.h"
#include "record/store.h"
#include "report/ratings.h"

/* ---------------------------------------------------------------- Store */

typedef struct StoreObject {
    PyObject_HEAD
    Store *st;
    RunInfo run;
    int n;
    char **names, **specs;
} StoreObject;

static PyObject *Store_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    return type->tp_alloc(type, 0);
}

static void store_object_close(StoreObject *self)
{
    if (!self->st)
        return;
    store_free_run(&self->run);
    store_free_names(self->n, self->names, self->specs);
    store_close(self->st);
    self->st = NULL;
}

static void Store_dealloc(StoreObject *self)
{
    store_object_close(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Store_init(StoreObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"path", NULL};
    PyObject *bytes;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, PyUnicode_FSConverter, &bytes))
        return -1;
    store_object_close(self);
    char err[512];
    int rc = 0;
    if (store_open(&self->st, PyBytes_AS_STRING(bytes), 0, err, sizeof err))
        rc = -1;
    else if (store_load_run(self->st, &self->run, &self->n, &self->names, &self->specs, err, sizeof err)) {
        store_close(self->st);
        self->st = NULL;
        rc = -1;
    }
    Py_DECREF(bytes);
    if (rc)
        PyErr_Format(PyExc_ValueError, "%s", err);
    return rc;
}

static int is_open(StoreObject *self)
{
    if (!self->st)
        PyErr_SetString(PyExc_ValueError, "the store is closed");
    return self->st != NULL;
}

static PyObject *Store_run(StoreObject *self, PyObject *unused)
{
    (void)unused;
    if (!is_open(self))
        return NULL;
    const RunInfo *r = &self->run;
    return Py_BuildValue("{s:s,s:K,s:l,s:i,s:i,s:i,s:s,s:O,s:O,s:i,s:s,s:s,s:s,s:i}", "command", r->command, "seed",
                         (unsigned long long)r->seed, "sets", r->sets, "games", r->games, "seat_change", r->seat_change,
                         "class_reset", r->class_reset, "pairing", r->pairing, "duplicate",
                         r->duplicate ? Py_True : Py_False, "records", r->records ? Py_True : Py_False,
                         "move_timeout_ms", r->move_timeout_ms, "version", r->version, "started", r->started,
                         "finished", r->finished, "players", self->n);
}

static PyObject *Store_players(StoreObject *self, PyObject *unused)
{
    (void)unused;
    if (!is_open(self))
        return NULL;
    PyObject *l = PyList_New(self->n);
    for (int i = 0; l && i < self->n; i++)
        PyList_SET_ITEM(l, i, Py_BuildValue("{s:i,s:s,s:s}", "id", i, "name", self->names[i], "spec", self->specs[i]));
    return l;
}

typedef struct RowsCtx {
    StoreObject *self;
    PyObject *rows;
    int games;          /* one row per player per game instead of per set */
    int include_broken;
    long order;         /* rating order of the sets kept */
} RowsCtx;

static int append(PyObject *rows, PyObject *row)
{
    int rc = row ? PyList_Append(rows, row) : -1;
    Py_XDECREF(row);
    return rc;
}

static int rows_of_set(void *ctx, const StoredSet *x)
{
    RowsCtx *c = ctx;
    if (!c->include_broken && !set_status_ok(x->status))
        return 0;
    const long order = c->order++;
    char **names = c->self->names;
    for (int p = 0; p < NPLAYERS; p++) {
        if (c->games)
            continue;
        if (append(c->rows, Py_BuildValue("{s:l,s:l,s:s,s:i,s:s,s:l,s:i,s:d,s:i,s:l,s:s}", "set", x->idx, "order", order,
                                          "player", names[x->player[p]], "player_number", p, "status", x->status,
                                          "points", x->total[p], "games", x->games,
                                          "mean", x->games ? (double)x->total[p] / x->games : NAN, "forfeit",
                                          x->forfeit[p], "timeouts", x->timeouts[p], "started", x->started)))
            return -1;
    }
    for (int g = 0; c->games && g < x->games; g++) {
        int cls[NPLAYERS];
        unpack_classes(x->classes[g], cls);
        for (int p = 0; p < NPLAYERS; p++)
            if (append(c->rows, Py_BuildValue("{s:l,s:i,s:s,s:i,s:i,s:i,s:s}", "set", x->idx, "game", g, "player",
                                              names[x->player[p]], "player_number", p, "rank", cls[p], "points",
                                              game_points(cls[p]), "status", x->status)))
                return -1;
    }
    return 0;
}

static PyObject *store_rows(StoreObject *self, PyObject *args, PyObject *kw, int games)
{
    static char *kwlist[] = {"include_broken", NULL};
    int broken = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &broken))
        return NULL;
    if (!is_open(self))
        return NULL;
    RowsCtx c = {self, PyList_New(0), games, broken, 0};
    if (!c.rows)
        return NULL;
    char err[512] = "";
    if (store_each_set(self->st, 0, rows_of_set, &c, err, sizeof err)) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s", *err ? err : "the store could not be read");
        Py_DECREF(c.rows);
        return NULL;
    }
    return c.rows;
}

static PyObject *Store_sets(StoreObject *self, PyObject *args, PyObject *kw) { return store_rows(self, args, kw, 0); }
static PyObject *Store_games(StoreObject *self, PyObject *args, PyObject *kw) { return store_rows(self, args, kw, 1); }

static PyObject *num_or_none(double v) { return isnan(v) ? Py_NewRef(Py_None) : PyFloat_FromDouble(v); }

static PyObject *Store_error_rates(StoreObject *self, PyObject *unused)
{
    (void)unused;
    if (!is_open(self))
        return NULL;
    StoredErrRate *r = NULL;
    int n = 0;
    char err[512];
    if (store_error_rates(self->st, &r, &n, err, sizeof err))
        return PyErr_Format(PyExc_ValueError, "%s", err);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i,
                        Py_BuildValue("{s:s,s:s,s:i,s:K,s:l,s:l,s:l,s:N,s:N,s:N,s:N,s:N,s:s}", "player", r[i].player,
                                      "evaluator", r[i].evaluator, "worlds", r[i].worlds, "seed",
                                      (unsigned long long)r[i].seed, "games", r[i].games, "judged", r[i].judged,
                                      "skipped", r[i].skipped, "error_rate", num_or_none(r[i].rate), "ci_low",
                                      num_or_none(r[i].lo), "ci_high", num_or_none(r[i].hi), "mean_rank",
                                      num_or_none(r[i].mean_rank), "mean_points", num_or_none(r[i].mean_points),
                                      "made", r[i].made));
    free(r);
    return l;
}

static PyObject *Store_close(StoreObject *self, PyObject *unused)
{
    (void)unused;
    store_object_close(self);
    Py_RETURN_NONE;
}

static PyMethodDef Store_methods[] = {
    {"run", (PyCFunction)Store_run, METH_NOARGS, "run() -> dict: how the run was made"},
    {"players", (PyCFunction)Store_players, METH_NOARGS, "players() -> [{id, name, spec}] in pool order"},
    {"sets", (PyCFunction)(void (*)(void))Store_sets, METH_VARARGS | METH_KEYWORDS,
     "sets(include_broken=False) -> one row per player per set (order: dhm rate's set order)"},
    {"games", (PyCFunction)(void (*)(void))Store_games, METH_VARARGS | METH_KEYWORDS,
     "games(include_broken=False) -> one row per player per game (rank 0 = daifugo)"},
    {"error_rates", (PyCFunction)Store_error_rates, METH_NOARGS, "error_rates() -> rows saved by dhm errorrate --save"},
    {"close", (PyCFunction)Store_close, METH_NOARGS, "close()"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject StoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dhm._dhm.Store",
    .tp_basicsize = sizeof(StoreObject),
    .tp_dealloc = (destructor)Store_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Store(path): a dhm tournament's results store, read-only",
    .tp_methods = Store_methods,
    .tp_init = (initproc)Store_init,
    .tp_new = Store_new,
};

/* ---------------------------------------------------------------- rate */

static int name_ids(Results *res, PyObject *names, int *ids, int max)
{
    PyObject *seq = PySequence_Fast(names, "players: a sequence of names");
    if (!seq)
        return -1;
    int n = (int)PySequence_Fast_GET_SIZE(seq), rc = n >= 2 && n <= max ? 0 : -1;
    if (rc)
        PyErr_Format(PyExc_ValueError, "a result has 2 to %d players, not %d", max, n);
    for (int i = 0; !rc && i < n; i++) {
        const char *s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        if (!s || (ids[i] = results_player(res, s)) < 0)
            rc = -1;
        for (int j = 0; !rc && j < i; j++)
            if (ids[j] == ids[i]) {
                PyErr_Format(PyExc_ValueError, "player %s appears twice in one result", s);
                rc = -1;
            }
    }
    Py_DECREF(seq);
    if (rc && !PyErr_Occurred())
        PyErr_NoMemory();
    return rc ? -1 : n;
}

static int doubles(PyObject *o, double *v, int n, const char *what)
{
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq)
        return -1;
    int rc = PySequence_Fast_GET_SIZE(seq) == n ? 0 : -1;
    if (rc)
        PyErr_Format(PyExc_ValueError, "%s: %d numbers expected", what, n);
    for (int i = 0; !rc && i < n; i++) {
        v[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (v[i] == -1 && PyErr_Occurred())
            rc = -1;
        else if (!isfinite(v[i])) {
            PyErr_Format(PyExc_ValueError, "%s: not a finite number", what);
            rc = -1;
        }
    }
    Py_DECREF(seq);
    return rc;
}

/* sets: [(order, names[5], points[5])]; games: [(names, ranks, p or None)] */
static int load_rows(Results *res, PyObject *sets, PyObject *games)
{
    if (sets != Py_None) {
        PyObject *it = PyObject_GetIter(sets);
        PyObject *row;
        while (it && (row = PyIter_Next(it))) {
            double order, pts[SET_PLAYERS];
            PyObject *names, *points;
            int ids[SET_PLAYERS];
            int bad = !PyArg_ParseTuple(row, "dOO", &order, &names, &points) ||
                      name_ids(res, names, ids, SET_PLAYERS) != SET_PLAYERS || doubles(points, pts, SET_PLAYERS, "points") ||
                      results_add_set(res, order, ids, pts);
            Py_DECREF(row);
            if (bad) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a set has five distinct players");
                Py_DECREF(it);
                return -1;
            }
        }
        Py_XDECREF(it);
        if (PyErr_Occurred())
            return -1;
    }
    if (games != Py_None) {
        PyObject *it = PyObject_GetIter(games);
        PyObject *row;
        while (it && (row = PyIter_Next(it))) {
            PyObject *names, *ranks, *p;
            int ids[GAME_MAX_SEATS], n = -1;
            double rk[GAME_MAX_SEATS], pv[GAME_MAX_SEATS];
            int bad = !PyArg_ParseTuple(row, "OOO", &names, &ranks, &p) ||
                      (n = name_ids(res, names, ids, GAME_MAX_SEATS)) < 0 || doubles(ranks, rk, n, "ranks") ||
                      (p != Py_None && doubles(p, pv, n, "p")) ||
                      results_add_game(res, n, ids, rk, p != Py_None ? pv : NULL);
            Py_DECREF(row);
            if (bad) {
                if (!PyErr_Occurred())
                    PyErr_NoMemory();
                Py_DECREF(it);
                return -1;
            }
        }
        Py_XDECREF(it);
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

static int param(PyObject *params, const char *key, double lo, double hi, double *out)
{
    PyObject *v = params != Py_None ? PyDict_GetItemString(params, key) : NULL;
    if (!v)
        return 0;
    double x = PyFloat_AsDouble(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (!(x >= lo && x <= hi)) {
        char msg[160]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "%s=%g: from %g to %g", key, x, lo, hi);
        PyErr_SetString(PyExc_ValueError, msg);
        return -1;
    }
    *out = x;
    return 0;
}

static int rating_params(PyObject *params, const Results *res, RatingParams *p)
{
    rating_params_default(p);
    double seq = 0, natlog = 0, boot = p->bootstrap, seed = (double)p->seed, mk = p->melo_k, me = p->melo_epochs;
    if (param(params, "sequential", 0, 1, &seq) || param(params, "init", -1e9, 1e9, &p->init) ||
        param(params, "k", 0, 1e6, &p->elo_k) || param(params, "f", 1e-9, 1e9, &p->elo_f) ||
        param(params, "rd", 1e-9, 1e6, &p->glicko_rd) || param(params, "c", 0, 1e6, &p->glicko_c) ||
        param(params, "sigma", 1e-9, 10, &p->g2_sigma) || param(params, "tau", 0, 100, &p->g2_tau) ||
        param(params, "ts_sigma", 1e-9, 1e9, &p->ts.sigma0) || param(params, "beta", 1e-9, 1e9, &p->ts.beta) ||
        param(params, "ts_tau", 0, 1e9, &p->ts.tau) || param(params, "draw_prob", 0, 0.999, &p->ts.draw_prob) ||
        param(params, "game_k", 0, 1e6, &p->game_k) || param(params, "natural_log", 0, 1, &natlog) ||
        param(params, "prior", 0, 1e6, &p->prior) || param(params, "bootstrap", 0, 100000, &boot) ||
        param(params, "confidence", 0.01, 0.9999, &p->confidence) || param(params, "seed", 0, 1.8e19, &seed) ||
        param(params, "melo_k", 1, 32, &mk) || param(params, "melo_lr_r", 0, 1e6, &p->melo_lr_r) ||
        param(params, "melo_lr_c", 0, 1e6, &p->melo_lr_c) || param(params, "melo_epochs", 1, 100000, &me))
        return -1;
    p->sequential = seq != 0;
    p->natural_log = natlog != 0;
    p->bootstrap = (int)boot;
    p->seed = (uint64_t)seed;
    p->melo_k = (int)mk;
    p->melo_epochs = (int)me;
    p->g2_rd = p->glicko_rd;
    p->ts.mu0 = p->anchor_value = p->init;
    PyObject *anchor = params != Py_None ? PyDict_GetItemString(params, "anchor") : NULL;
    if (anchor) {
        const char *name;
        if (!PyArg_ParseTuple(anchor, "sd", &name, &p->anchor_value))
            return -1;
        if ((p->anchor = results_find(res, name)) < 0) {
            PyErr_Format(PyExc_ValueError, "anchor: no player named '%s' in the results", name);
            return -1;
        }
    }
    return 0;
}

static int method_ids(PyObject *methods, const Results *res, int *ids)
{
    const char *list = PyUnicode_AsUTF8(methods);
    if (!list)
        return -1;
    char buf[256], why[256];
    snprintf(buf, sizeof buf, "%s", list);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int all = !strcmp(t, "all"), m = all ? 0 : method_parse(t);
        if (m < 0) {
            PyErr_Format(PyExc_ValueError, "unknown method '%s' (valid: %s, all)", t, method_names());
            return -1;
        }
        for (int k = all ? 0 : m; k <= (all ? M_COUNT - 1 : m); k++) {
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= ids[j] == k;
            if (dup || (all && !method_applies((MethodId)k, res, why, sizeof why)))
                continue;
            if (!method_applies((MethodId)k, res, why, sizeof why)) {
                PyErr_Format(PyExc_ValueError, "%s: %s", method_name((MethodId)k), why);
                return -1;
            }
            ids[n++] = k;
        }
    }
    if (!n)
        PyErr_Format(PyExc_ValueError, "no method that applies to these results (valid: %s)", method_names());
    return n ? n : -1;
}

/* rate(sets, games, methods, params) -> the CSV text of `dhm rate --csv` for these results */
PyObject *py_rate(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"sets", "games", "methods", "params", NULL};
    PyObject *sets, *games, *methods, *params = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOU|O", kwlist, &sets, &games, &methods, &params))
        return NULL;
    if (params != Py_None && !PyDict_Check(params))
        return PyErr_Format(PyExc_TypeError, "params: a dict");
    Results res;
    results_init(&res);
    RatingParams prm;
    int ids[M_COUNT], nm = -1;
    MethodResult *mr = NULL;
    H2H h;
    int have_h = 0;
    PyObject *out = NULL;
    char *text = NULL;
    size_t len = 0;
    if (load_rows(&res, sets, games))
        goto done;
    if (res.nplayers == 0) {
        PyErr_SetString(PyExc_ValueError, "no results to rate");
        goto done;
    }
    results_sort_sets(&res);
    if (rating_params(params, &res, &prm) || (nm = method_ids(methods, &res, ids)) < 0)
        goto done;
    mr = calloc((size_t)nm, sizeof *mr);
    if (!mr || h2h_build(&res, &h)) {
        PyErr_NoMemory();
        goto done;
    }
    have_h = 1;
    int rc = 0;
    char err[512];
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < nm && !rc; i++)
        rc = method_run((MethodId)ids[i], &prm, &res, &mr[i], NULL, NULL, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc) {
        PyErr_Format(PyExc_ValueError, "%s", err);
        goto done;
    }
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        PyErr_NoMemory();
        goto done;
    }
    RatingReport rep = {&res, &h, mr, nm, 0, 0, 0, 0, 0, 0};
    report_ratings(f, &rep, REPORT_CSV);
    fclose(f);
    out = PyUnicode_FromStringAndSize(text, (Py_ssize_t)len);
done:
    free(text);
    for (int i = 0; mr && i < nm; i++)
        method_result_free(&mr[i]);
    free(mr);
    if (have_h)
        h2h_free(&h);
    results_free(&res);
    return out;
}
