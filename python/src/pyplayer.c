/* pyplayer.c — dhm's built-in players acting in an Env (Player), and a Python agent playing
 * as a UECda client (client_run): the agent sees the same observation as in the Env, built
 * from the InfoSet the client keeps (net/client.c), and the binding does the rules. */
#include "pydhm.h"

#include <string.h>

#include "net/client.h"
#include "players/players.h"

/* ---------------------------------------------------------------- Player */

typedef struct PlayerObject {
    PyObject_HEAD
    Player *pl;
    PyObject *spec;
    PyObject *env;  /* the Env of the game this player last acted in (a reference), or NULL */
    long serial;    /* that game's serial */
    int me;         /* the player number it acted for */
} PlayerObject;

static PyObject *Player_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    return type->tp_alloc(type, 0);
}

static void Player_dealloc(PlayerObject *self)
{
    if (self->pl)
        player_destroy(self->pl);
    Py_XDECREF(self->spec);
    Py_XDECREF(self->env);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Player_init(PlayerObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"spec", "seed", NULL};
    PyObject *spec;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "U|K", kwlist, &spec, &seed))
        return -1;
    if (self->pl) {
        PyErr_SetString(PyExc_RuntimeError, "Player: already initialised");
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(spec);
    if (!s)
        return -1;
    char err[512];
    if (player_create(s, seed, &self->pl, err, sizeof err)) {
        PyErr_Format(PyExc_ValueError, "%s", err);
        return -1;
    }
    if (self->pl->reads_hidden) {
        player_destroy(self->pl);
        self->pl = NULL;
        PyErr_Format(PyExc_ValueError, "%s reads the other players' hidden cards (an experiments-only option of "
                                       "dhm play): not available to act in an environment",
                     s);
        return -1;
    }
    self->spec = Py_NewRef(spec);
    self->serial = -1;
    return 0;
}

/* Game start and end hooks as game_play calls them, for the games this player acts in. */
static void follow_game(PlayerObject *self, EnvObject *env, int p)
{
    DhmEnv *e = env->e;
    Player *pl = self->pl;
    if ((PyObject *)env == self->env && self->serial == e->serial)
        return;
    if ((PyObject *)env == self->env && pl->game_end && e->last_serial == self->serial) {
        const InfoSet *v = &e->start_view[self->me];
        pl->game_end(pl, v, e->last_result);
    }
    Py_XDECREF(self->env);
    self->env = Py_NewRef((PyObject *)env);
    self->serial = e->serial;
    self->me = p;
    if (pl->game_start)
        pl->game_start(pl, &e->start_view[p]);
}

static PyObject *Player_act(PlayerObject *self, PyObject *arg)
{
    if (!self->pl)
        return PyErr_Format(PyExc_RuntimeError, "Player: not initialised");
    if (!PyObject_TypeCheck(arg, &EnvType))
        return PyErr_Format(PyExc_TypeError, "act(env): env is a dhm Env, not %R", arg);
    EnvObject *env = (EnvObject *)arg;
    DhmEnv *e = env->e;
    if (!e)
        return closed_error("Env");
    if (e->episode < 0 || env->over || env->selected < 0 || e->m.phase == GAME_OVER)
        return PyErr_Format(PyExc_RuntimeError, "act: no decision to make (reset the environment)");
    const int p = e->m.actor;
    if ((PyObject *)env == self->env && self->serial == e->serial && self->me != p)
        return PyErr_Format(PyExc_ValueError,
                            "this Player acted for player_%d in this game and is now asked to act for player_%d: use one "
                            "Player per seat",
                            self->me, p);
    follow_game(self, env, p);
    Player *pl = self->pl;
    const InfoSet *v = env_view(e, p);
    int a;
    if (e->m.phase == GAME_EXCHANGE) {
        const int n = e->m.give_n;
        Cards give;
        Py_BEGIN_ALLOW_THREADS
        give = pl->exchange(pl, v, n);
        Py_END_ALLOW_THREADS
        a = action_of_give(give);
        if (a < 0 || !env_is_legal(e, a)) /* what the server does with an invalid choice */
            a = action_of_give(cards_strongest(v->hand, n));
    } else {
        Move m;
        Py_BEGIN_ALLOW_THREADS
        m = pl->play(pl, v);
        Py_END_ALLOW_THREADS
        a = action_of_move(m);
        if (a < 0 || !env_is_legal(e, a)) {
            if (!env_is_legal(e, ACT_PASS))
                return PyErr_Format(PyExc_RuntimeError, "%U chose an illegal move while leading", self->spec);
            a = ACT_PASS; /* what the server does with an illegal move */
        }
    }
    return PyLong_FromLong(a);
}

static PyObject *Player_get_spec(PlayerObject *self, void *c)
{
    (void)c;
    return Py_NewRef(self->spec ? self->spec : Py_None);
}

static PyObject *Player_get_kind(PlayerObject *self, void *c)
{
    (void)c;
    if (!self->pl)
        Py_RETURN_NONE;
    return PyUnicode_FromString(self->pl->kind);
}

static PyMethodDef Player_methods[] = {
    {"act", (PyCFunction)Player_act, METH_O,
     "act(env) -> action: the player's choice for the agent to act in env, from that agent's information set"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Player_getset[] = {
    {"spec", (getter)Player_get_spec, NULL, "the player spec", NULL},
    {"kind", (getter)Player_get_kind, NULL, "random, simple, policy or mc", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PlayerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dhm._dhm.Player",
    .tp_basicsize = sizeof(PlayerObject),
    .tp_dealloc = (destructor)Player_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Player(spec, seed=1): a built-in dhm player (random, simple, policy, mc:sims=1000, ...)",
    .tp_methods = Player_methods,
    .tp_getset = Player_getset,
    .tp_init = (initproc)Player_init,
    .tp_new = Player_new,
};

/* ---------------------------------------------------------------- a Python agent as a UECda client */

typedef struct AgentCtx {
    PyObject *agent;
    int stop;       /* an exception is pending: the client ends */
    PyObject *exc_type, *exc, *exc_tb; /* that exception */
    long decisions;
} AgentCtx;

static void agent_fail(AgentCtx *a)
{
    a->stop = 1;
    if (!a->exc_type)
        PyErr_Fetch(&a->exc_type, &a->exc, &a->exc_tb);
    else
        PyErr_Clear();
}

/* Asks the agent; returns the action or -1 (and stops the client). */
static int agent_decide(AgentCtx *a, const InfoSet *v, int give_n, const uint16_t *legal, int nlegal)
{
    if (a->stop)
        return -1;
    PyGILState_STATE gs = PyGILState_Ensure();
    Cards pb[NPLAYERS];
    obs_played_by(v, pb);
    int act = -1;
    int8_t *ob;
    npy_bool *mask;
    PyObject *obs = obs_dict_new(&ob, &mask, legal, nlegal);
    if (obs)
        obs_encode(v, give_n, pb, ob);
    PyObject *r = obs ? PyObject_CallMethod(a->agent, "act", "O", obs) : NULL;
    if (r) {
        long x = PyLong_AsLong(r);
        if (!(x == -1 && PyErr_Occurred())) {
            for (int i = 0; i < nlegal && act < 0; i++)
                if (legal[i] == x)
                    act = (int)x;
            if (act < 0) {
                char text[64] = "?";
                if (x >= 0 && x < NUM_ACTIONS)
                    action_format((int)x, text, sizeof text);
                PyErr_Format(PyExc_ValueError, "the agent's act() returned %ld (%s), which is not in the action_mask", x,
                             text);
            }
        }
    }
    if (act < 0)
        agent_fail(a);
    a->decisions++;
    Py_XDECREF(obs);
    Py_XDECREF(r);
    PyGILState_Release(gs);
    return act;
}

static Move agent_play(Player *self, const InfoSet *v)
{
    Move mv[MOVEGEN_MAX];
    uint16_t legal[MOVEGEN_MAX];
    const int n = movegen(v->hand, v->table, v->rev, v->lock, mv);
    for (int i = 0; i < n; i++)
        legal[i] = (uint16_t)action_of_generated(mv[i]);
    int act = agent_decide(self->impl, v, 0, legal, n);
    return act < 0 ? move_pass() : action_move(act);
}

static Cards agent_exchange(Player *self, const InfoSet *v, int n)
{
    uint16_t legal[128];
    int k = 0;
    for (Cards x = v->hand; x; x &= x - 1) {
        const Cards c = x & -x;
        if (n == 1 && k < 128)
            legal[k++] = (uint16_t)action_of_give(c);
        else
            for (Cards y = x & (x - 1); y && k < 128; y &= y - 1)
                legal[k++] = (uint16_t)action_of_give(c | (y & -y));
    }
    int act = agent_decide(self->impl, v, n, legal, k);
    return act < 0 ? 0 : action_give(act);
}

static void agent_game_end(Player *self, const InfoSet *v, const int cls[NPLAYERS])
{
    AgentCtx *a = self->impl;
    if (a->stop)
        return;
    PyGILState_STATE gs = PyGILState_Ensure();
    if (PyObject_HasAttrString(a->agent, "game_end")) {
        PyObject *r = PyObject_CallMethod(a->agent, "game_end", "(i[iiiii]d)", v->me, cls[0], cls[1], cls[2], cls[3],
                                          cls[4], (double)(game_points(cls[v->me]) - 3));
        if (!r)
            agent_fail(a);
        Py_XDECREF(r);
    }
    PyGILState_Release(gs);
}

/* client_run(agent, host, port, name, seed=1, timeout_ms=0, log=True) -> dict */
PyObject *py_client_run(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"agent", "host", "port", "name", "seed", "timeout_ms", "log", NULL};
    PyObject *agent;
    const char *host, *name;
    int port, timeout = 0, log = 1;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Osis|Kip", kwlist, &agent, &host, &port, &name, &seed, &timeout,
                                     &log))
        return NULL;
    if (!PyObject_HasAttrString(agent, "act"))
        return PyErr_Format(PyExc_TypeError, "the agent %R has no act(observation) method", agent);
    AgentCtx ctx = {agent, 0, NULL, NULL, NULL, 0};
    Player pl;
    memset(&pl, 0, sizeof pl);
    pl.kind = "python";
    snprintf(pl.name, sizeof pl.name, "%s", name);
    pl.impl = &ctx;
    pl.play = agent_play;
    pl.exchange = agent_exchange;
    pl.game_end = agent_game_end;
    ClientConfig cfg = {host, port, name, "python", seed, timeout, log ? stderr : NULL, &pl, &ctx.stop};
    ClientResult res;
    char err[512];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = client_run(&cfg, &res, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (ctx.exc_type) {
        PyErr_Restore(ctx.exc_type, ctx.exc, ctx.exc_tb);
        return NULL;
    }
    if (rc)
        return PyErr_Format(PyExc_ConnectionError, "%s", err);
    PyObject *pts = PyList_New(NPLAYERS);
    for (int p = 0; pts && p < NPLAYERS; p++)
        PyList_SET_ITEM(pts, p, PyLong_FromLong(res.points[p]));
    return Py_BuildValue("{s:i,s:i,s:N,s:l}", "me", res.me, "games", res.games, "points", pts, "decisions",
                         ctx.decisions);
}
