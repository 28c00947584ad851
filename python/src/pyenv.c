/* pyenv.c — Env (one game, PettingZoo's AEC conventions) and VecEnv (n games stepped in one
 * call into preallocated numpy arrays) over envcore.h. */
#include "pydhm.h"

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

/* mode, games, seat_change, class_reset: shared by Env and VecEnv. */
static int parse_schedule(const char *mode, int games, int seat_change, int class_reset, int *single, int *reset)
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
    static char *kwlist[] = {"seed", "mode", "games", "seat_change", "class_reset", NULL};
    unsigned long long seed = 0;
    const char *mode = "game";
    int games = 100, seat_change = 3, class_reset = -1, single, reset;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|K$siii", kwlist, &seed, &mode, &games, &seat_change, &class_reset))
        return -1;
    if (parse_schedule(mode, games, seat_change, class_reset, &single, &reset))
        return -1;
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
    memset(self->reward, 0, sizeof self->reward);
    memset(self->cum, 0, sizeof self->cum);
    select_actor(self);
    Py_RETURN_NONE;
}

static PyObject *illegal_error(DhmEnv *e, int a, const char *where)
{
    char text[64] = "?";
    if (a >= 0 && a < NUM_ACTIONS)
        action_format(a, text, sizeof text);
    if (a < 0 || a >= NUM_ACTIONS)
        return PyErr_Format(PyExc_ValueError, "%saction %d is out of range (0..%d)", where, a, NUM_ACTIONS - 1);
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
        return illegal_error(e, (int)a, "");
    self->cum[sel] = 0;
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
    PyObject *d = obs_dict_new(&obs, &mask, e->legal, acts ? e->nlegal : 0);
    if (d)
        env_observe(e, p, obs); /* as VecEnv writes it */
    return d;
}

static PyObject *Env_observe(EnvObject *self, PyObject *agent)
{
    if (!running(self))
        return NULL;
    int p = agent_arg(self, agent);
    return p < 0 ? NULL : observe_agent(self, p);
}

/* Tests: the observation with the per-seat cards rebuilt from the public history (as the UECda
 * client does) instead of the environment's running sets. */
static PyObject *Env_observe_from_history(EnvObject *self, PyObject *agent)
{
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
    return Py_BuildValue("(NdOO{})", obs, (double)self->cum[p], self->over ? Py_True : Py_False, Py_False);
}

static PyObject *Env_legal_actions(EnvObject *self, PyObject *unused)
{
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
                                  : PyDict_New();
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

static PyObject *ints5(const int *v)
{
    return Py_BuildValue("[iiiii]", v[0], v[1], v[2], v[3], v[4]);
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
    (void)unused;
    if (!running(self))
        return NULL;
    return game_record_to_py(&self->e->rec);
}

static PyMethodDef Env_methods[] = {
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
    {"_shuffle_hidden", (PyCFunction)Env_shuffle_hidden, METH_O,
     "tests only: deal the cards the selected agent cannot see anew among the others"},
    {"_observe_from_history", (PyCFunction)Env_observe_from_history, METH_O,
     "tests only: observe(agent) with the per-seat cards rebuilt from the history"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Env_getset[] = {
    {"agents", (getter)Env_get_agents, NULL, "agents still in the episode", NULL},
    {"possible_agents", (getter)Env_get_possible, NULL, "player_0 .. player_4", NULL},
    {"agent_selection", (getter)Env_get_selection, NULL, "the agent to act (or to be stepped with None)", NULL},
    {"actor", (getter)Env_get_actor, NULL, "agent_selection as a player number (-1: none)", NULL},
    {"rewards", (getter)Env_get_rewards, NULL, "each agent's reward from the last step", NULL},
    {"_cumulative_rewards", (getter)Env_get_cum, NULL, "rewards since each agent last acted", NULL},
    {"terminations", (getter)Env_get_terms, NULL, "True for every agent once the episode is over", NULL},
    {"truncations", (getter)Env_get_truncs, NULL, "always False (the 20-pass rule ends every game)", NULL},
    {"infos", (getter)Env_get_infos, NULL, "an empty dict per agent", NULL},
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
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Env(seed=0, *, mode='game', games=100, seat_change=3, class_reset=None): dhm as an AEC environment",
    .tp_methods = Env_methods,
    .tp_getset = Env_getset,
    .tp_init = (initproc)Env_init,
    .tp_new = Env_new,
};

/* ---------------------------------------------------------------- VecEnv */

typedef struct VecEnvObject {
    PyObject_HEAD
    int n;
    DhmEnv *envs;
    uint64_t seed;
    int started;
    PyArrayObject *obs, *mask, *legal, *nlegal, *actor, *reward, *done, *game_over;
} VecEnvObject;

static PyObject *VecEnv_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    return type->tp_alloc(type, 0);
}

static void VecEnv_dealloc(VecEnvObject *self)
{
    PyMem_Free(self->envs);
    Py_XDECREF(self->obs);
    Py_XDECREF(self->mask);
    Py_XDECREF(self->legal);
    Py_XDECREF(self->nlegal);
    Py_XDECREF(self->actor);
    Py_XDECREF(self->reward);
    Py_XDECREF(self->done);
    Py_XDECREF(self->game_over);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* An array the user may read but not write (the environment writes through its pointer). */
static PyArrayObject *readonly_zeros(int nd, npy_intp *dims, int type)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_ZEROS(nd, dims, type, 0);
    if (a)
        PyArray_CLEARFLAGS(a, NPY_ARRAY_WRITEABLE);
    return a;
}

static int VecEnv_init(VecEnvObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"n", "seed", "mode", "games", "seat_change", "class_reset", "observations", "masks", NULL};
    int n, games = 100, seat_change = 3, class_reset = -1, want_obs = 1, want_mask = 1, single, reset;
    unsigned long long seed = 0;
    const char *mode = "game";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|K$siiipp", kwlist, &n, &seed, &mode, &games, &seat_change,
                                     &class_reset, &want_obs, &want_mask))
        return -1;
    if (self->envs) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: already initialised");
        return -1;
    }
    if (n < 1 || n > 1 << 20) {
        PyErr_SetString(PyExc_ValueError, "VecEnv: n from 1 to 1048576");
        return -1;
    }
    if (parse_schedule(mode, games, seat_change, class_reset, &single, &reset))
        return -1;
    self->envs = PyMem_Calloc((size_t)n, sizeof *self->envs);
    if (!self->envs) {
        PyErr_NoMemory();
        return -1;
    }
    self->n = n;
    self->seed = seed;
    for (int i = 0; i < n; i++)
        env_init(&self->envs[i], single, games, seat_change, reset, seed);
    npy_intp d_obs[2] = {n, OBS_SIZE}, d_mask[2] = {n, NUM_ACTIONS}, d_legal[2] = {n, LEGAL_MAX}, d1[1] = {n},
             d_rew[2] = {n, NPLAYERS};
    if ((want_obs && !(self->obs = readonly_zeros(2, d_obs, NPY_INT8))) ||
        (want_mask && !(self->mask = readonly_zeros(2, d_mask, NPY_BOOL))) ||
        !(self->legal = readonly_zeros(2, d_legal, NPY_INT16)) || !(self->nlegal = readonly_zeros(1, d1, NPY_INT32)) ||
        !(self->actor = readonly_zeros(1, d1, NPY_INT8)) || !(self->reward = readonly_zeros(2, d_rew, NPY_FLOAT32)) ||
        !(self->done = readonly_zeros(1, d1, NPY_BOOL)) || !(self->game_over = readonly_zeros(1, d1, NPY_BOOL)))
        return -1;
    return 0;
}

/* Writes env i's decision into the arrays (its mask row must be clear). */
static void vec_write(VecEnvObject *self, int i)
{
    DhmEnv *e = &self->envs[i];
    const int n = e->nlegal;
    int16_t *lg = (int16_t *)PyArray_GETPTR2(self->legal, i, 0);
    for (int k = 0; k < n; k++)
        lg[k] = (int16_t)e->legal[k];
    ((int32_t *)PyArray_DATA(self->nlegal))[i] = n;
    ((int8_t *)PyArray_DATA(self->actor))[i] = (int8_t)e->m.actor;
    if (self->mask) {
        npy_bool *m = (npy_bool *)PyArray_GETPTR2(self->mask, i, 0);
        for (int k = 0; k < n; k++)
            m[e->legal[k]] = 1;
    }
    if (self->obs)
        env_observe(e, e->m.actor, (int8_t *)PyArray_GETPTR2(self->obs, i, 0));
}

static void vec_clear_mask(VecEnvObject *self, int i)
{
    if (!self->mask)
        return;
    const DhmEnv *e = &self->envs[i];
    npy_bool *m = (npy_bool *)PyArray_GETPTR2(self->mask, i, 0);
    for (int k = 0; k < e->nlegal; k++)
        m[e->legal[k]] = 0;
}

static uint64_t vec_seed(uint64_t seed, int i) { return rng_derive(seed, 0x76656e76, (uint64_t)i); }

static PyObject *VecEnv_reset(VecEnvObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", NULL};
    PyObject *seed = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &seed))
        return NULL;
    if (seed != Py_None) {
        self->seed = PyLong_AsUnsignedLongLong(seed);
        if (PyErr_Occurred())
            return NULL;
    }
    const int reseed = seed != Py_None || !self->started;
    char err[64];
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < self->n; i++) {
        vec_clear_mask(self, i);
        env_reset(&self->envs[i], reseed, vec_seed(self->seed, i), NULL, err, sizeof err);
        vec_write(self, i);
    }
    Py_END_ALLOW_THREADS
    self->started = 1;
    memset(PyArray_DATA(self->reward), 0, (size_t)self->n * NPLAYERS * sizeof(float));
    memset(PyArray_DATA(self->done), 0, (size_t)self->n);
    memset(PyArray_DATA(self->game_over), 0, (size_t)self->n);
    Py_RETURN_NONE;
}

static PyObject *VecEnv_step(VecEnvObject *self, PyObject *actions)
{
    if (!self->started)
        return PyErr_Format(PyExc_RuntimeError, "call reset() first");
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(actions, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (!a)
        return NULL;
    if (PyArray_DIM(a, 0) != self->n) {
        Py_DECREF(a);
        return PyErr_Format(PyExc_ValueError, "step: %d actions expected (one per game), got %zd", self->n,
                            (Py_ssize_t)PyArray_DIM(a, 0));
    }
    const int64_t *act = (const int64_t *)PyArray_DATA(a);
    for (int i = 0; i < self->n; i++) /* every action checked before any game moves */
        if (act[i] < 0 || act[i] >= NUM_ACTIONS || !env_is_legal(&self->envs[i], (int)act[i])) {
            char where[32];
            snprintf(where, sizeof where, "game %d: ", i);
            illegal_error(&self->envs[i], act[i] < 0 || act[i] >= NUM_ACTIONS ? -1 : (int)act[i], where);
            Py_DECREF(a);
            return NULL;
        }
    float *rew = (float *)PyArray_DATA(self->reward);
    npy_bool *done = (npy_bool *)PyArray_DATA(self->done), *gover = (npy_bool *)PyArray_DATA(self->game_over);
    char err[64];
    Py_BEGIN_ALLOW_THREADS
    memset(rew, 0, (size_t)self->n * NPLAYERS * sizeof *rew);
    for (int i = 0; i < self->n; i++) {
        DhmEnv *e = &self->envs[i];
        vec_clear_mask(self, i);
        int rc = env_step(e, (int)act[i], rew + (size_t)i * NPLAYERS);
        done[i] = (rc & STEP_EPISODE_OVER) != 0;
        gover[i] = (rc & STEP_GAME_OVER) != 0;
        if (done[i])
            env_reset(e, 0, 0, NULL, err, sizeof err);
        vec_write(self, i);
    }
    Py_END_ALLOW_THREADS
    Py_DECREF(a);
    Py_RETURN_NONE;
}

static PyObject *array_or_none(PyArrayObject *a)
{
    if (!a)
        Py_RETURN_NONE;
    return Py_NewRef((PyObject *)a);
}

static PyObject *Vec_obs(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->obs); }
static PyObject *Vec_mask(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->mask); }
static PyObject *Vec_legal(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->legal); }
static PyObject *Vec_nlegal(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->nlegal); }
static PyObject *Vec_actor(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->actor); }
static PyObject *Vec_reward(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->reward); }
static PyObject *Vec_done(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->done); }
static PyObject *Vec_gover(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->game_over); }
static PyObject *Vec_n(VecEnvObject *s, void *c) { (void)c; return PyLong_FromLong(s->n); }

static PyMethodDef VecEnv_methods[] = {
    {"reset", (PyCFunction)(void (*)(void))VecEnv_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None): starts every game (game i's seed is derived from seed and i)"},
    {"step", (PyCFunction)VecEnv_step, METH_O,
     "step(actions): one action per game (int array of length n); the arrays are updated in place.\n"
     "A game whose episode ends starts its next episode at once (done[i] is set)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef VecEnv_getset[] = {
    {"observation", (getter)Vec_obs, NULL, "int8[n, OBS_SIZE]: the acting player's observation (None if disabled)", NULL},
    {"action_mask", (getter)Vec_mask, NULL, "bool[n, NUM_ACTIONS]: True for legal actions (None if disabled)", NULL},
    {"legal", (getter)Vec_legal, NULL, "int16[n, LEGAL_MAX]: legal actions, the first num_legal[i] of row i", NULL},
    {"num_legal", (getter)Vec_nlegal, NULL, "int32[n]: number of legal actions", NULL},
    {"actor", (getter)Vec_actor, NULL, "int8[n]: the player (0..4) to act in each game", NULL},
    {"reward", (getter)Vec_reward, NULL, "float32[n, 5]: each player's reward from the last step", NULL},
    {"done", (getter)Vec_done, NULL, "bool[n]: the episode ended at the last step (the next one has begun)", NULL},
    {"game_over", (getter)Vec_gover, NULL, "bool[n]: a game ended at the last step", NULL},
    {"n", (getter)Vec_n, NULL, "number of games", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject VecEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dhm._dhm.VecEnv",
    .tp_basicsize = sizeof(VecEnvObject),
    .tp_dealloc = (destructor)VecEnv_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "VecEnv(n, seed=0, *, mode='game', games=100, seat_change=3, class_reset=None, observations=True, "
              "masks=True)",
    .tp_methods = VecEnv_methods,
    .tp_getset = VecEnv_getset,
    .tp_init = (initproc)VecEnv_init,
    .tp_new = VecEnv_new,
};
