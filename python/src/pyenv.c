/* pyenv.c — Env: one game (or match) with PettingZoo's AEC conventions over envcore.h; its
 * clones and sampled worlds for search (pyvecenv.c has VecEnv). */
#include "pydhm.h"

#include "players/estimate.h"
#include "players/estnet.h"
#include "players/policy.h"

#include <stddef.h>
#include <string.h>

/* ---------------------------------------------------------------- Env */

static PyObject *Env_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    EnvObject *self = (EnvObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->e = PyMem_Malloc(sizeof *self->e);
    if (!self->e) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    env_init(self->e, 1, 1, 3, 1, 0);
    self->selected = -1;
    return (PyObject *)self;
}

static void Env_dealloc(EnvObject *self)
{
    PyMem_Free(self->e);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *closed_error(const char *what)
{
    return PyErr_Format(PyExc_ValueError, "this %s is closed: close() freed its games; make a new %s", what, what);
}

PyObject *closable_getattro(PyObject *self, PyObject *name, int closed, const char *what)
{
    if (closed && PyUnicode_Check(name)) {
        const char *s = PyUnicode_AsUTF8(name);
        if (!s)
            return NULL;
        const size_t n = strlen(s);
        if (strcmp(s, "close") && strcmp(s, "closed") && !(n > 4 && !strncmp(s, "__", 2) && !strcmp(s + n - 2, "__")))
            return closed_error(what);
    }
    return PyObject_GenericGetAttr(self, name);
}

static PyObject *Env_getattro(PyObject *self, PyObject *name)
{
    return closable_getattro(self, name, !((EnvObject *)self)->e, "Env");
}

/* For the methods (one bound before close() would reach the freed game). */
#define OPEN_OR_RAISE(self)                                                                                            \
    do {                                                                                                               \
        if (!(self)->e)                                                                                                \
            return closed_error("Env");                                                                                \
    } while (0)

static PyObject *Env_close(EnvObject *self, PyObject *unused)
{
    (void)unused;
    PyMem_Free(self->e);
    self->e = NULL;
    Py_RETURN_NONE;
}

static PyObject *Env_get_closed(EnvObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(!self->e);
}

/* mode, games, seat_change, class_reset: shared by Env and VecEnv. */
int parse_schedule(const char *mode, int games, int seat_change, int class_reset, int *single, int *reset)
{
    if (!strcmp(mode, "game"))
        *single = 1;
    else if (!strcmp(mode, "match"))
        *single = 0;
    else {
        PyErr_Format(PyExc_ValueError, "mode=%s: valid are 'game' (an episode is one game) and 'match'", mode);
        return -1;
    }
    if (games < 1 || seat_change < 0 || class_reset < -1) {
        PyErr_SetString(PyExc_ValueError, "games >= 1, seat_change >= 0 (0: never), class_reset >= 0 (0: never)");
        return -1;
    }
    *reset = class_reset >= 0 ? class_reset : *single ? 1 : 100;
    return 0;
}

static int Env_init(EnvObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", "mode", "games", "seat_change", "class_reset", "mask_dtype", NULL};
    unsigned long long seed = 0;
    const char *mode = "game", *mask_dtype = "bool";
    int games = 100, seat_change = 3, class_reset = -1, single, reset;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|K$siiis", kwlist, &seed, &mode, &games, &seat_change, &class_reset,
                                     &mask_dtype))
        return -1;
    if (!self->e) {
        closed_error("Env");
        return -1;
    }
    if (parse_schedule(mode, games, seat_change, class_reset, &single, &reset))
        return -1;
    self->mask_type = !strcmp(mask_dtype, "bool") ? NPY_BOOL : !strcmp(mask_dtype, "int8") ? NPY_INT8 : -1;
    if (self->mask_type < 0) {
        PyErr_Format(PyExc_ValueError, "mask_dtype=%s: valid are 'bool' and 'int8'", mask_dtype);
        return -1;
    }
    env_init(self->e, single, games, seat_change, reset, seed);
    self->selected = -1;
    self->live = 0;
    return 0;
}

static int running(EnvObject *self)
{
    if (self->e->episode < 0) {
        PyErr_SetString(PyExc_RuntimeError, "call reset() first");
        return 0;
    }
    return 1;
}

static PyObject *ints5(const int *v)
{
    return Py_BuildValue("[iiiii]", v[0], v[1], v[2], v[3], v[4]);
}

/* infos[agent]: whether a game ended since the agent last acted, and then its classes. */
static PyObject *info_of(EnvObject *self, int p)
{
    const DhmEnv *e = self->e;
    const int ended = (self->ended >> p) & 1;
    PyObject *cls = ended ? ints5(e->last_result) : Py_NewRef(Py_None);
    if (!cls)
        return NULL;
    return Py_BuildValue("{s:O,s:N,s:i,s:i}", "game_over", ended ? Py_True : Py_False, "classes", cls, "game", e->game,
                         "games_done", e->games_done);
}

static int int_list(PyObject *o, const char *what, int lo, int hi, int out[NPLAYERS])
{
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq)
        return -1;
    int rc = PySequence_Fast_GET_SIZE(seq) == NPLAYERS ? 0 : -1;
    for (int i = 0; !rc && i < NPLAYERS; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((v == -1 && PyErr_Occurred()) || v < lo || v > hi)
            rc = -1;
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    if (rc && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%s: five integers in %d..%d", what, lo, hi);
    return rc;
}

/* options={"deal": five card sets, "seats": [...], "classes": [...]} */
static int deal_option(PyObject *options, EnvDeal *d, int *have)
{
    *have = 0;
    if (!options || options == Py_None)
        return 0;
    if (!PyDict_Check(options)) {
        PyErr_SetString(PyExc_TypeError, "options: a dict with 'deal' (and 'seats', 'classes')");
        return -1;
    }
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(options, &pos, &key, &val))
        if (!PyUnicode_Check(key) || (PyUnicode_CompareWithASCIIString(key, "deal") &&
                                      PyUnicode_CompareWithASCIIString(key, "seats") &&
                                      PyUnicode_CompareWithASCIIString(key, "classes"))) {
            PyErr_Format(PyExc_ValueError, "options: unknown key %R (valid: deal, seats, classes)", key);
            return -1;
        }
    PyObject *deal = PyDict_GetItemString(options, "deal");
    PyObject *seats = PyDict_GetItemString(options, "seats");
    PyObject *cls = PyDict_GetItemString(options, "classes");
    if (!deal) {
        if (seats || cls) {
            PyErr_SetString(PyExc_ValueError, "options: 'seats' and 'classes' go with a 'deal'");
            return -1;
        }
        return 0;
    }
    PyObject *seq = PySequence_Fast(deal, "deal: five card sets");
    if (!seq)
        return -1;
    int rc = PySequence_Fast_GET_SIZE(seq) == NPLAYERS ? 0 : -1;
    if (rc)
        PyErr_SetString(PyExc_ValueError, "deal: five card sets, one per player");
    for (int p = 0; !rc && p < NPLAYERS; p++)
        rc = cards_from_py(PySequence_Fast_GET_ITEM(seq, p), &d->hand[p]);
    Py_DECREF(seq);
    int s[NPLAYERS] = {0, 1, 2, 3, 4}, c[NPLAYERS] = {-1, -1, -1, -1, -1};
    if (rc || (seats && int_list(seats, "seats", 0, NPLAYERS - 1, s)) ||
        (cls && int_list(cls, "classes", -1, NPLAYERS - 1, c)))
        return -1;
    for (int p = 0; p < NPLAYERS; p++) {
        d->seat[p] = (uint8_t)s[p];
        d->cls[p] = (int8_t)c[p];
    }
    *have = 1;
    return 0;
}

static void select_actor(EnvObject *self)
{
    DhmEnv *e = self->e;
    if (e->m.phase != GAME_OVER) {
        self->selected = e->m.actor;
        return;
    }
    self->selected = -1;
    for (int p = 0; p < NPLAYERS; p++)
        if ((self->live >> p) & 1) {
            self->selected = p;
            return;
        }
}

static PyObject *Env_reset(EnvObject *self, PyObject *args, PyObject *kw)
{
    OPEN_OR_RAISE(self);
    static char *kwlist[] = {"seed", "options", NULL};
    PyObject *seed = Py_None, *options = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO", kwlist, &seed, &options))
        return NULL;
    unsigned long long s = 0;
    if (seed != Py_None) {
        s = PyLong_AsUnsignedLongLong(seed);
        if (PyErr_Occurred())
            return NULL;
    }
    EnvDeal d;
    int have;
    if (deal_option(options, &d, &have))
        return NULL;
    char err[256];
    if (env_reset(self->e, seed != Py_None, s, have ? &d : NULL, err, sizeof err))
        return PyErr_Format(PyExc_ValueError, "%s", err);
    self->live = (1 << NPLAYERS) - 1;
    self->over = 0;
    self->ended = 0;
    self->last_over = 0;
    memset(self->reward, 0, sizeof self->reward);
    memset(self->cum, 0, sizeof self->cum);
    select_actor(self);
    Py_RETURN_NONE;
}

PyObject *illegal_error(DhmEnv *e, long long action, const char *where)
{
    if (action < 0 || action >= NUM_ACTIONS)
        return PyErr_Format(PyExc_ValueError, "%saction %lld is out of range (0..%d)", where, action, NUM_ACTIONS - 1);
    const int a = (int)action;
    char text[64] = "?";
    action_format(a, text, sizeof text);
    if (e->m.phase == GAME_EXCHANGE)
        return PyErr_Format(PyExc_ValueError,
                            "%saction %d (%s) is not legal: player_%d must give %d of their own cards (see action_mask)",
                            where, a, text, e->m.actor, e->m.give_n);
    if (a >= ACT_MELDS)
        return PyErr_Format(PyExc_ValueError, "%saction %d (%s) is an exchange action, but player_%d is to play", where,
                            a, text, e->m.actor);
    return PyErr_Format(PyExc_ValueError, "%saction %d (%s) is not legal for player_%d now (see action_mask)", where, a,
                        text, e->m.actor);
}

static PyObject *Env_step(EnvObject *self, PyObject *action)
{
    OPEN_OR_RAISE(self);
    if (!running(self))
        return NULL;
    DhmEnv *e = self->e;
    const int sel = self->selected;
    if (sel < 0)
        return PyErr_Format(PyExc_RuntimeError, "the episode is over and every agent has been stepped: call reset()");
    if (self->over) { /* a terminated agent's last step (PettingZoo's dead step) */
        if (action != Py_None)
            return PyErr_Format(PyExc_ValueError, "player_%d is terminated: step(None), as PettingZoo's AEC API asks",
                                sel);
        self->live &= ~(1 << sel);
        memset(self->reward, 0, sizeof self->reward);
        self->cum[sel] = 0;
        select_actor(self);
        Py_RETURN_NONE;
    }
    if (action == Py_None)
        return PyErr_Format(PyExc_ValueError, "step(None) is for a terminated agent; player_%d must act", sel);
    const char *tn = Py_TYPE(action)->tp_name; /* True (and numpy's bool) is an int to Python, never an action */
    if (PyBool_Check(action) || !strcmp(tn, "numpy.bool_") || !strcmp(tn, "numpy.bool"))
        return PyErr_Format(PyExc_TypeError, "an action is an int (0..%d), not %R", NUM_ACTIONS - 1, action);
    long a = PyLong_AsLong(action);
    if (a == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            return PyErr_Format(PyExc_TypeError, "an action is an int (0..%d), not %R", NUM_ACTIONS - 1, action);
        }
        return NULL;
    }
    float r[NPLAYERS] = {0};
    int rc = a < 0 || a >= NUM_ACTIONS ? ENV_ILLEGAL : env_step(e, (int)a, r);
    if (rc == ENV_ILLEGAL)
        return illegal_error(e, a, "");
    self->cum[sel] = 0;
    self->ended &= ~(1 << sel);
    self->last_over = (rc & STEP_GAME_OVER) != 0;
    if (self->last_over)
        self->ended = (1 << NPLAYERS) - 1;
    for (int p = 0; p < NPLAYERS; p++) {
        self->reward[p] = r[p];
        self->cum[p] += r[p];
    }
    if (rc & STEP_EPISODE_OVER)
        self->over = 1;
    select_actor(self);
    Py_RETURN_NONE;
}

static int agent_arg(EnvObject *self, PyObject *agent)
{
    int p = agent_of(agent);
    if (p >= 0 && !((self->live >> p) & 1)) {
        PyErr_Format(PyExc_ValueError, "player_%d is no longer among the agents", p);
        return -1;
    }
    return p;
}

static PyObject *observe_agent(EnvObject *self, int p)
{
    DhmEnv *e = self->e;
    const int acts = p == self->selected && !self->over;
    int8_t *obs;
    npy_bool *mask;
    PyObject *d = obs_dict_new_typed(&obs, &mask, e->legal, acts ? e->nlegal : 0, self->mask_type);
    if (d)
        env_observe(e, p, obs); /* as VecEnv writes it */
    return d;
}

static PyObject *Env_observe(EnvObject *self, PyObject *agent)
{
    OPEN_OR_RAISE(self);
    if (!running(self))
        return NULL;
    int p = agent_arg(self, agent);
    return p < 0 ? NULL : observe_agent(self, p);
}

/* Tests: the observation with the per-seat cards rebuilt from the public history (as the UECda
 * client does) instead of the environment's running sets. */
static PyObject *Env_observe_from_history(EnvObject *self, PyObject *agent)
{
    OPEN_OR_RAISE(self);
    if (!running(self))
        return NULL;
    int p = agent_arg(self, agent);
    if (p < 0)
        return NULL;
    DhmEnv *e = self->e;
    const InfoSet *v = env_view(e, p);
    Cards pb[NPLAYERS];
    obs_played_by(v, pb);
    const int acts = p == self->selected && !self->over;
    int8_t *obs;
    npy_bool *mask;
    PyObject *d = obs_dict_new(&obs, &mask, e->legal, acts ? e->nlegal : 0);
    if (d)
        obs_encode(v, env_give_n(e, p), pb, obs);
    return d;
}

static PyObject *Env_last(EnvObject *self, PyObject *args, PyObject *kw)
{
    OPEN_OR_RAISE(self);
    static char *kwlist[] = {"observe", NULL};
    int want = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &want))
        return NULL;
    if (!running(self))
        return NULL;
    const int p = self->selected;
    if (p < 0)
        return PyErr_Format(PyExc_RuntimeError, "no agent is left: call reset()");
    PyObject *obs = want ? observe_agent(self, p) : Py_NewRef(Py_None);
    if (!obs)
        return NULL;
    PyObject *info = info_of(self, p);
    if (!info) {
        Py_DECREF(obs);
        return NULL;
    }
    return Py_BuildValue("(NdOON)", obs, (double)self->cum[p], self->over ? Py_True : Py_False, Py_False, info);
}

static PyObject *Env_legal_actions(EnvObject *self, PyObject *unused)
{
    OPEN_OR_RAISE(self);
    (void)unused;
    if (!running(self))
        return NULL;
    DhmEnv *e = self->e;
    const int n = self->over ? 0 : e->nlegal;
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i, PyLong_FromLong(e->legal[i]));
    return l;
}

static PyObject *Env_shuffle_hidden(EnvObject *self, PyObject *seed)
{
    OPEN_OR_RAISE(self);
    if (!running(self))
        return NULL;
    unsigned long long s = PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred())
        return NULL;
    if (self->selected < 0 || self->over)
        return PyErr_Format(PyExc_RuntimeError, "no game in play");
    env_shuffle_hidden(self->e, self->selected, s);
    Py_RETURN_NONE;
}



static PyObject *per_agent(EnvObject *self, int kind)
{
    PyObject *d = PyDict_New();
    for (int p = 0; d && p < NPLAYERS; p++) {
        if (!((self->live >> p) & 1))
            continue;
        PyObject *v = kind == 0   ? PyFloat_FromDouble(self->reward[p])
                      : kind == 1 ? PyFloat_FromDouble(self->cum[p])
                      : kind == 2 ? PyBool_FromLong(self->over)
                      : kind == 3 ? PyBool_FromLong(0)
                                  : info_of(self, p);
        if (!v || PyDict_SetItem(d, AGENT_NAMES[p], v)) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

static PyObject *Env_get_rewards(EnvObject *self, void *c) { (void)c; return per_agent(self, 0); }
static PyObject *Env_get_cum(EnvObject *self, void *c) { (void)c; return per_agent(self, 1); }
static PyObject *Env_get_terms(EnvObject *self, void *c) { (void)c; return per_agent(self, 2); }
static PyObject *Env_get_truncs(EnvObject *self, void *c) { (void)c; return per_agent(self, 3); }
static PyObject *Env_get_infos(EnvObject *self, void *c) { (void)c; return per_agent(self, 4); }

static PyObject *Env_get_agents(EnvObject *self, void *c)
{
    (void)c;
    PyObject *l = PyList_New(0);
    for (int p = 0; l && p < NPLAYERS; p++)
        if (((self->live >> p) & 1) && PyList_Append(l, AGENT_NAMES[p])) {
            Py_DECREF(l);
            return NULL;
        }
    return l;
}

static PyObject *Env_get_possible(EnvObject *self, void *c)
{
    (void)self;
    (void)c;
    PyObject *l = PyList_New(NPLAYERS);
    for (int p = 0; l && p < NPLAYERS; p++)
        PyList_SET_ITEM(l, p, Py_NewRef(AGENT_NAMES[p]));
    return l;
}

static PyObject *Env_get_selection(EnvObject *self, void *c)
{
    (void)c;
    if (self->selected < 0)
        Py_RETURN_NONE;
    return Py_NewRef(AGENT_NAMES[self->selected]);
}

static PyObject *Env_get_actor(EnvObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(self->selected);
}

static PyObject *Env_get_phase(EnvObject *self, void *c)
{
    (void)c;
    const int ph = self->e->episode < 0 ? 0 : self->e->m.phase;
    return PyUnicode_FromString(ph == GAME_EXCHANGE ? "exchange" : ph == GAME_PLAY ? "play" : "over");
}

static PyObject *Env_get_seats(EnvObject *self, void *c)
{
    (void)c;
    const uint8_t *s = self->e->su.seat;
    return Py_BuildValue("[iiiii]", s[0], s[1], s[2], s[3], s[4]);
}

static PyObject *Env_get_classes(EnvObject *self, void *c)
{
    (void)c;
    const int8_t *s = self->e->su.cls;
    return Py_BuildValue("[iiiii]", s[0], s[1], s[2], s[3], s[4]);
}

static PyObject *Env_get_result(EnvObject *self, void *c)
{
    (void)c;
    if (self->e->last_serial < 0)
        Py_RETURN_NONE;
    return ints5(self->e->last_result);
}

static PyObject *Env_get_game(EnvObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(self->e->game);
}

static PyObject *Env_get_games_done(EnvObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(self->e->games_done);
}

static PyObject *Env_game_record(EnvObject *self, PyObject *unused)
{
    OPEN_OR_RAISE(self);
    (void)unused;
    if (!running(self))
        return NULL;
    return game_record_to_py(&self->e->rec);
}

/* ---------------------------------------------------------------- search: clones and worlds */

/* A new Env of self's type holding a copy of self's game (no Python attributes: the Python
 * class copies its own). */
static EnvObject *env_clone(EnvObject *self)
{
    PyTypeObject *t = Py_TYPE(self);
    EnvObject *c = (EnvObject *)t->tp_alloc(t, 0);
    if (!c)
        return NULL;
    c->e = PyMem_Malloc(sizeof *c->e);
    if (!c->e) {
        Py_DECREF(c);
        return (EnvObject *)PyErr_NoMemory();
    }
    env_copy(c->e, self->e);
    /* the agents' state: every field after e */
    memcpy((char *)c + offsetof(EnvObject, live), (char *)self + offsetof(EnvObject, live),
           sizeof *c - offsetof(EnvObject, live));
    return c;
}

static PyObject *Env_clone(EnvObject *self, PyObject *unused)
{
    OPEN_OR_RAISE(self);
    (void)unused;
    if (!running(self))
        return NULL;
    return (PyObject *)env_clone(self);
}

static uint64_t seed_arg(PyObject *seed, int *ok)
{
    *ok = 1;
    if (!seed || seed == Py_None) { /* a fresh draw: from the clock and a counter */
        static uint64_t counter;
        return rng_derive((uint64_t)(game_clock_ms() * 1000), 0x73656564, ++counter);
    }
    uint64_t s = PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred())
        *ok = 0;
    return s;
}

/* sample_world(seed=None, est="uniform") -> Env */
/* What sample_world and holder_probabilities share: the selected agent's information set and its
 * certain knowledge, the sampler's options parsed (what: the method, for messages). 0, or -1
 * with a Python error (o is then freed). */
static int world_setup(EnvObject *self, const char *what, const char *est, EstOptions *o, EstKnown *known, int *me)
{
    if (!running(self))
        return -1;
    DhmEnv *e = self->e;
    if (self->over || self->selected < 0 || e->m.phase != GAME_PLAY) {
        PyErr_Format(PyExc_RuntimeError, "%s: only while a game is in play (not during the exchange, not after the "
                                         "episode)", what);
        return -1;
    }
    char err[512];
    if (est_options_parse(est, o, err, sizeof err)) {
        PyErr_Format(PyExc_ValueError, "%s: est=%s: %s", what, est, err);
        return -1;
    }
    if (o->kind == EST_ORACLE) {
        est_options_free(o);
        PyErr_Format(PyExc_ValueError, "%s: est=oracle reads the true hands (experiments only): valid are uniform, "
                                       "weights, policy, net", what);
        return -1;
    }
    const int p = *me = self->selected;
    int count[NPLAYERS];
    for (int q = 0; q < NPLAYERS; q++)
        count[q] = cards_count(e->m.g.hand[q]);
    if (est_known(env_view(e, p), count, known)) {
        est_options_free(o);
        PyErr_Format(PyExc_RuntimeError, "%s: no world fits player_%d's information set", what, p);
        return -1;
    }
    return 0;
}

static PyObject *Env_sample_world(EnvObject *self, PyObject *args, PyObject *kw)
{
    OPEN_OR_RAISE(self);
    static char *kwlist[] = {"seed", "est", NULL};
    PyObject *seed = Py_None;
    const char *est = "uniform";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Os", kwlist, &seed, &est))
        return NULL;
    int ok, p;
    const uint64_t s = seed_arg(seed, &ok);
    if (!ok)
        return NULL;
    EstOptions o;
    EstKnown known;
    if (world_setup(self, "sample_world", est, &o, &known, &p))
        return NULL;
    const InfoSet *v = env_view(self->e, p);
    EstSampler smp;
    Cards hand[NPLAYERS];
    Rng rng = rng_seed(s);
    est_sampler_init(&smp, &o);
    Py_BEGIN_ALLOW_THREADS
    est_prepare(&smp, &o, v, &known, &rng);
    hand[p] = v->hand;
    est_sample(&smp, &known, &rng, hand);
    Py_END_ALLOW_THREADS
    est_sampler_free(&smp);
    est_options_free(&o);
    EnvObject *c = env_clone(self);
    if (c)
        env_set_world(c->e, hand, p);
    return (PyObject *)c;
}

/* holder_probabilities(est="net") -> float64[53, 5] */
static PyObject *Env_holder_probabilities(EnvObject *self, PyObject *args, PyObject *kw)
{
    OPEN_OR_RAISE(self);
    static char *kwlist[] = {"est", NULL};
    const char *est = "net";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|s", kwlist, &est))
        return NULL;
    EstOptions o;
    EstKnown known;
    int me;
    if (world_setup(self, "holder_probabilities", est, &o, &known, &me))
        return NULL;
    if (o.kind != EST_NET || o.point) {
        est_options_free(&o);
        return PyErr_Format(PyExc_ValueError, "holder_probabilities: est=%s: the chances come from the learned "
                                              "estimator: est=net or net:model=FILE", est);
    }
    const InfoSet *v = env_view(self->e, me);
    EstSampler smp;
    Rng rng = rng_seed(0);
    est_sampler_init(&smp, &o);
    Py_BEGIN_ALLOW_THREADS
    est_prepare(&smp, &o, v, &known, &rng);
    Py_END_ALLOW_THREADS
    npy_intp d[2] = {53, NPLAYERS};
    PyObject *a = PyArray_ZEROS(2, d, NPY_FLOAT64, 0);
    if (a) {
        double *out = PyArray_DATA((PyArrayObject *)a);
        for (int bit = 4; bit <= JOKER_BIT; bit++) {
            const Cards c = 1ULL << bit;
            if (!(c & CARDS_ALL))
                continue;
            double *row = out + (size_t)estnet_card(bit) * NPLAYERS;
            if (v->hand & c)
                row[me] = 1;
            for (int p = 0; p < NPLAYERS; p++)
                if (known.fixed[p] & c)
                    row[p] = 1;
            if (known.deal & c)
                for (int p = 0; p < NPLAYERS; p++)
                    row[p] = smp.prob[bit][p];
        }
    }
    est_sampler_free(&smp);
    est_options_free(&o);
    return a;
}

/* playout(policy="simple", seed=None, eps=0.0) -> classes */
static PyObject *Env_playout(EnvObject *self, PyObject *args, PyObject *kw)
{
    OPEN_OR_RAISE(self);
    static char *kwlist[] = {"policy", "seed", "eps", NULL};
    const char *policy = "simple";
    PyObject *seed = Py_None;
    double eps = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|sOd", kwlist, &policy, &seed, &eps))
        return NULL;
    if (!running(self))
        return NULL;
    const int pol = !strcmp(policy, "simple") ? 0 : !strcmp(policy, "policy") ? 1 : -1;
    if (pol < 0)
        return PyErr_Format(PyExc_ValueError, "playout: policy=%s: valid are 'simple' and 'policy'", policy);
    if (!(eps >= 0 && eps <= (pol ? 100 : 1))) {
        char msg[128]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "playout: eps=%g: %s", eps,
                 pol ? "the policy's temperature, 0 (greedy) to 100" : "a probability, 0 to 1");
        return PyErr_Format(PyExc_ValueError, "%s", msg);
    }
    char err[256];
    const PolicyWeights *w = pol ? policy_builtin(err, sizeof err) : NULL;
    if (pol && !w)
        return PyErr_Format(PyExc_RuntimeError, "playout: %s", err);
    int ok;
    const uint64_t s = seed_arg(seed, &ok);
    if (!ok)
        return NULL;
    int cls[NPLAYERS], rc = 0;
    if (self->last_over) /* the last step ended the game: its classes (in match mode the next game is on) */
        memcpy(cls, self->e->last_result, sizeof cls);
    else {
        Py_BEGIN_ALLOW_THREADS
        rc = env_playout(self->e, pol, eps, s, w, cls);
        Py_END_ALLOW_THREADS
    }
    if (rc)
        return PyErr_Format(PyExc_RuntimeError, "playout: not during the exchange");
    return ints5(cls);
}

/* state() -> int8[5 * OBS_SIZE]: every player's observation, player_0's first */
static PyObject *Env_state(EnvObject *self, PyObject *unused)
{
    OPEN_OR_RAISE(self);
    (void)unused;
    if (!running(self))
        return NULL;
    npy_intp d = NPLAYERS * OBS_SIZE;
    PyObject *a = PyArray_SimpleNew(1, &d, NPY_INT8);
    if (!a)
        return NULL;
    int8_t *o = PyArray_DATA((PyArrayObject *)a);
    for (int p = 0; p < NPLAYERS; p++)
        env_observe(self->e, p, o + p * OBS_SIZE);
    return a;
}

static PyMethodDef Env_methods[] = {
    {"close", (PyCFunction)Env_close, METH_NOARGS,
     "close(): frees the game's memory; every later use but close() raises ValueError (a second close does nothing)"},
    {"reset", (PyCFunction)(void (*)(void))Env_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None, options=None): starts the next episode (seed: from the first episode of that seed);\n"
     "options={'deal': five card sets, 'seats': seat order, 'classes': classes or -1} fixes its first game"},
    {"step", (PyCFunction)Env_step, METH_O, "step(action): the selected agent acts (None once it is terminated)"},
    {"observe", (PyCFunction)Env_observe, METH_O,
     "observe(agent) -> {'observation': int8[OBS_SIZE], 'action_mask': bool[NUM_ACTIONS]}: agent's information set"},
    {"last", (PyCFunction)(void (*)(void))Env_last, METH_VARARGS | METH_KEYWORDS,
     "last(observe=True) -> (observation, reward, termination, truncation, info) of agent_selection"},
    {"legal_actions", (PyCFunction)Env_legal_actions, METH_NOARGS, "legal_actions() -> the selected agent's legal actions"},
    {"game_record", (PyCFunction)Env_game_record, METH_NOARGS,
     "game_record() -> dict: the game in play or just ended, hidden cards included (for logs, not for agents)"},
    {"clone", (PyCFunction)Env_clone, METH_NOARGS,
     "clone() -> Env: a full copy of the game (hidden cards included), for perfect-information search"},
    {"sample_world", (PyCFunction)(void (*)(void))Env_sample_world, METH_VARARGS | METH_KEYWORDS,
     "sample_world(seed=None, est='uniform') -> Env: a copy in which every card agent_selection cannot see is dealt\n"
     "anew by dhm's sampler (est=uniform, weights, policy[:k=64:beta=0.5]), consistent with its information set"},
    {"holder_probabilities", (PyCFunction)(void (*)(void))Env_holder_probabilities, METH_VARARGS | METH_KEYWORDS,
     "holder_probabilities(est='net') -> float64[53, 5]: from agent_selection's view, each card's chance of being in\n"
     "each player's hand (dhm.CARDS order; 1 for its own cards and those known from the exchange and the diamond 3,\n"
     "the learned estimator's chances for the others; a row of zeros for a card already played)"},
    {"playout", (PyCFunction)(void (*)(void))Env_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(policy='simple', seed=None, eps=0.0) -> classes: plays a copy of the game to its end in C\n"
     "(simple: the simple rule, random moves with probability eps; policy: the learned policy at temperature eps);\n"
     "after a step that ended the game, that game's classes"},
    {"state", (PyCFunction)Env_state, METH_NOARGS,
     "state() -> int8[5 * OBS_SIZE]: every player's observation (player_0 first): the global state, hidden cards included"},
    {"_shuffle_hidden", (PyCFunction)Env_shuffle_hidden, METH_O,
     "tests only: deal the cards the selected agent cannot see anew among the others"},
    {"_observe_from_history", (PyCFunction)Env_observe_from_history, METH_O,
     "tests only: observe(agent) with the per-seat cards rebuilt from the history"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Env_getset[] = {
    {"closed", (getter)Env_get_closed, NULL, "True once close() was called", NULL},
    {"agents", (getter)Env_get_agents, NULL, "agents still in the episode", NULL},
    {"possible_agents", (getter)Env_get_possible, NULL, "player_0 .. player_4", NULL},
    {"agent_selection", (getter)Env_get_selection, NULL, "the agent to act (or to be stepped with None)", NULL},
    {"actor", (getter)Env_get_actor, NULL, "agent_selection as a player number (-1: none)", NULL},
    {"rewards", (getter)Env_get_rewards, NULL, "each agent's reward from the last step", NULL},
    {"_cumulative_rewards", (getter)Env_get_cum, NULL, "rewards since each agent last acted", NULL},
    {"terminations", (getter)Env_get_terms, NULL, "True for every agent once the episode is over", NULL},
    {"truncations", (getter)Env_get_truncs, NULL, "always False (the 20-pass rule ends every game)", NULL},
    {"infos", (getter)Env_get_infos, NULL,
     "per agent: game_over (a game ended since it last acted), classes (that game's, else None), game, games_done",
     NULL},
    {"phase", (getter)Env_get_phase, NULL, "'exchange', 'play' or 'over'", NULL},
    {"seats", (getter)Env_get_seats, NULL, "seat order of the game in play: seats[s] = player at seat s", NULL},
    {"classes", (getter)Env_get_classes, NULL, "classes at the start of the game in play (-1: none)", NULL},
    {"result", (getter)Env_get_result, NULL, "classes reached in the last finished game (None before one)", NULL},
    {"game", (getter)Env_get_game, NULL, "index of the game in play in the match schedule", NULL},
    {"games_done", (getter)Env_get_games_done, NULL, "games finished in this episode", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject EnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dhm._dhm.Env",
    .tp_basicsize = sizeof(EnvObject),
    .tp_dealloc = (destructor)Env_dealloc,
    .tp_getattro = Env_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Env(seed=0, *, mode='game', games=100, seat_change=3, class_reset=None): dhm as an AEC environment",
    .tp_methods = Env_methods,
    .tp_getset = Env_getset,
    .tp_init = (initproc)Env_init,
    .tp_new = Env_new,
};
