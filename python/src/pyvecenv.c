/* pyvecenv.c — VecEnv: n games stepped in one call into preallocated numpy arrays, with
 * learners (whose decisions the arrays hold and the caller makes) and built-in opponents
 * acting in C inside step (envcore.h's players), the games shared out over threads.
 *
 * Each game is independent: its own DhmEnv, its own opponent Players (seeded from the game's
 * seed as `dhm play` seeds its players), its own RNG streams, its own rows of the arrays. So
 * threads only decide which core plays which game, never what happens in it: results do not
 * depend on the thread count. The object owns every array, env, Player and the thread pool,
 * and frees them in its dealloc. One step at a time: a second caller gets a RuntimeError. */
#include "pydhm.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "game/workers.h"
#include "players/players.h"

enum { BLOCK = 8 }; /* games a thread takes at a time */

typedef struct VecEnvObject {
    PyObject_HEAD
    int n;
    int nlearn;                 /* learners: their decisions are the caller's */
    int learner[NPLAYERS];      /* their player numbers, ascending */
    int col[NPLAYERS];          /* player -> reward column (-1: an opponent) */
    PyObject *spec[NPLAYERS];   /* the opponents' specs (str), NULL for learners */
    DhmEnv *envs;
    Player **pl;                /* n * NPLAYERS, NULL for learners */
    uint64_t seed;
    uint64_t *seeds;            /* explicit per-game seeds, or NULL (derived from seed) */
    int started, busy, closed;
    WorkerPool *pool;
    /* the job in progress (step or reset): its number, and the claims on its games */
    const int64_t *act;
    int reseed;
    long job;
    _Atomic uint64_t claim;     /* job << 32 | the next game not claimed */
    atomic_int finished;        /* games of the job done */
    PyArrayObject *obs, *mask, *legal, *nlegal, *actor, *actor_index, *reward, *done, *game_over, *result;
} VecEnvObject;

static PyObject *VecEnv_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    return type->tp_alloc(type, 0);
}

static void free_players(VecEnvObject *self)
{
    if (!self->pl)
        return;
    for (long k = 0; k < (long)self->n * NPLAYERS; k++)
        player_destroy(self->pl[k]);
    memset(self->pl, 0, (size_t)self->n * NPLAYERS * sizeof *self->pl);
}

/* Frees everything the object owns (the thread pool joined); arrays the caller still holds stay
 * valid (numpy owns them). */
static void vec_free(VecEnvObject *self)
{
    workers_pool_free(self->pool);
    self->pool = NULL;
    free_players(self);
    PyMem_Free(self->pl);
    PyMem_Free(self->envs);
    PyMem_Free(self->seeds);
    self->pl = NULL;
    self->envs = NULL;
    self->seeds = NULL;
    for (int p = 0; p < NPLAYERS; p++)
        Py_CLEAR(self->spec[p]);
    PyArrayObject **arrays[] = {&self->obs,    &self->mask,   &self->legal,     &self->nlegal, &self->actor,
                                &self->actor_index, &self->reward, &self->done, &self->game_over, &self->result};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        Py_CLEAR(*arrays[i]);
}

static void VecEnv_dealloc(VecEnvObject *self)
{
    vec_free(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *VecEnv_close(VecEnvObject *self, PyObject *unused)
{
    (void)unused;
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "VecEnv: close() while a step or reset of it runs in another thread");
    vec_free(self);
    self->closed = 1;
    Py_RETURN_NONE;
}

static PyObject *Vec_closed(VecEnvObject *s, void *c)
{
    (void)c;
    return PyBool_FromLong(s->closed);
}

static PyObject *VecEnv_getattro(PyObject *self, PyObject *name)
{
    return closable_getattro(self, name, ((VecEnvObject *)self)->closed, "VecEnv");
}

/* An array the user may read but not write (the environment writes through its pointer). */
static PyArrayObject *readonly_zeros(int nd, npy_intp *dims, int type)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_ZEROS(nd, dims, type, 0);
    if (a)
        PyArray_CLEARFLAGS(a, NPY_ARRAY_WRITEABLE);
    return a;
}

/* opponents: None, a spec for every seat that is not a learner, a list of specs (one per
 * opponent seat in player order), or a dict {player: spec}; learners: None or a list of
 * player numbers. Fills self->spec, learner, nlearn, col. */
static int parse_seats(VecEnvObject *self, PyObject *learners, PyObject *opponents)
{
    int is_learner[NPLAYERS] = {0, 0, 0, 0, 0}, given = learners && learners != Py_None;
    if (given) {
        PyObject *seq = PySequence_Fast(learners, "learners: a list of player numbers 0..4");
        if (!seq)
            return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            int p = agent_of(PySequence_Fast_GET_ITEM(seq, i));
            if (p < 0 || is_learner[p]) {
                if (p >= 0)
                    PyErr_Format(PyExc_ValueError, "learners: player %d given twice", p);
                Py_DECREF(seq);
                return -1;
            }
            is_learner[p] = 1;
        }
        Py_DECREF(seq);
    }
    if (!opponents || opponents == Py_None) {
        if (!given)
            for (int p = 0; p < NPLAYERS; p++)
                is_learner[p] = 1;
    } else if (PyDict_Check(opponents)) {
        PyObject *key, *val;
        Py_ssize_t pos = 0;
        while (PyDict_Next(opponents, &pos, &key, &val)) {
            int p = agent_of(key);
            if (p < 0)
                return -1;
            if (!PyUnicode_Check(val)) {
                PyErr_Format(PyExc_TypeError, "opponents: a player spec is a str such as 'policy', not %R", val);
                return -1;
            }
            self->spec[p] = Py_NewRef(val);
        }
        for (int p = 0; p < NPLAYERS; p++)
            if (!given && !self->spec[p])
                is_learner[p] = 1;
    } else {
        if (!given)
            is_learner[0] = 1;
        int nopp = 0;
        for (int p = 0; p < NPLAYERS; p++)
            nopp += !is_learner[p];
        if (PyUnicode_Check(opponents)) {
            for (int p = 0; p < NPLAYERS; p++)
                if (!is_learner[p])
                    self->spec[p] = Py_NewRef(opponents);
        } else {
            PyObject *seq = PySequence_Fast(opponents, "opponents: a spec, a list of specs or a dict {player: spec}");
            if (!seq)
                return -1;
            if (PySequence_Fast_GET_SIZE(seq) != nopp) {
                PyErr_Format(PyExc_ValueError, "opponents: %d specs for the %d seats that are not learners, got %zd",
                             nopp, nopp, PySequence_Fast_GET_SIZE(seq));
                Py_DECREF(seq);
                return -1;
            }
            int i = 0;
            for (int p = 0; p < NPLAYERS; p++) {
                if (is_learner[p])
                    continue;
                PyObject *s = PySequence_Fast_GET_ITEM(seq, i++);
                if (!PyUnicode_Check(s)) {
                    PyErr_Format(PyExc_TypeError, "opponents: a player spec is a str such as 'policy', not %R", s);
                    Py_DECREF(seq);
                    return -1;
                }
                self->spec[p] = Py_NewRef(s);
            }
            Py_DECREF(seq);
        }
    }
    self->nlearn = 0;
    for (int p = 0; p < NPLAYERS; p++) {
        if (is_learner[p] && self->spec[p]) {
            PyErr_Format(PyExc_ValueError, "player %d is both a learner and an opponent", p);
            return -1;
        }
        if (!is_learner[p] && !self->spec[p]) {
            PyErr_Format(PyExc_ValueError, "player %d is neither a learner nor given an opponent", p);
            return -1;
        }
        self->col[p] = is_learner[p] ? self->nlearn : -1;
        if (is_learner[p])
            self->learner[self->nlearn++] = p;
    }
    if (!self->nlearn) {
        PyErr_SetString(PyExc_ValueError, "learners: at least one seat must be a learner (dhm.evaluate plays built-in "
                                          "players against each other)");
        return -1;
    }
    return 0;
}

static uint64_t vec_seed(uint64_t seed, int i) { return rng_derive(seed, 0x76656e76, (uint64_t)i); }

static uint64_t game_seed(const VecEnvObject *self, int i)
{
    return self->seeds ? self->seeds[i] : vec_seed(self->seed, i);
}

/* seed: an int (game i's seed derived from it and i) or a sequence of n ints (game i's seed
 * exactly, as Env(seed) and dhm play --seed take it). */
static int parse_seed(VecEnvObject *self, PyObject *seed)
{
    if (PyLong_Check(seed)) {
        unsigned long long s = PyLong_AsUnsignedLongLong(seed);
        if (PyErr_Occurred())
            return -1;
        self->seed = s;
        PyMem_Free(self->seeds);
        self->seeds = NULL;
        return 0;
    }
    PyObject *seq = PySequence_Fast(seed, "seed: an int, or one int per game");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != self->n) {
        PyErr_Format(PyExc_ValueError, "seed: one seed per game (%d), got %zd", self->n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    uint64_t *s = PyMem_Malloc((size_t)self->n * sizeof *s);
    if (!s) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < self->n; i++) {
        s[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            PyMem_Free(s);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    PyMem_Free(self->seeds);
    self->seeds = s;
    return 0;
}

/* The opponents of every game, made anew from the games' seeds (player p of game i gets
 * player_seed(game seed, p), as dhm play gives it). -1 with a Python error. */
static int make_players(VecEnvObject *self)
{
    free_players(self);
    char err[512] = "";
    int bad = -1;
    const char *spec[NPLAYERS] = {NULL, NULL, NULL, NULL, NULL};
    for (int p = 0; p < NPLAYERS; p++)
        if (self->spec[p] && !(spec[p] = PyUnicode_AsUTF8(self->spec[p])))
            return -1;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < self->n && bad < 0; i++) {
        Player **pl = self->pl + (size_t)i * NPLAYERS;
        for (int p = 0; p < NPLAYERS && bad < 0; p++)
            if (spec[p]) {
                if (player_create(spec[p], player_seed(game_seed(self, i), p), &pl[p], err, sizeof err))
                    bad = p;
                else if (pl[p]->reads_hidden)
                    bad = p + NPLAYERS;
            }
        memcpy(self->envs[i].pl, pl, sizeof self->envs[i].pl);
    }
    Py_END_ALLOW_THREADS
    if (bad >= NPLAYERS) {
        PyErr_Format(PyExc_ValueError, "opponents: %U reads the other players' hidden cards (an experiments-only option "
                                       "of dhm play): not available in an environment", self->spec[bad - NPLAYERS]);
        return -1;
    }
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "opponents: player %d: %s", bad, err);
        return -1;
    }
    return 0;
}

static int VecEnv_init(VecEnvObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"n",           "seed",     "mode",      "games",   "seat_change", "class_reset",
                             "observations", "masks",   "learners",  "opponents", "threads",   "mask_dtype", NULL};
    int n, games = 100, seat_change = 3, class_reset = -1, want_obs = 1, want_mask = 1, single, reset, threads = 0;
    PyObject *seed = NULL, *learners = NULL, *opponents = NULL;
    const char *mode = "game", *mask_dtype = "bool";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|O$siiippOOis", kwlist, &n, &seed, &mode, &games, &seat_change,
                                     &class_reset, &want_obs, &want_mask, &learners, &opponents, &threads, &mask_dtype))
        return -1;
    if (self->closed) {
        closed_error("VecEnv");
        return -1;
    }
    if (self->envs) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: already initialised");
        return -1;
    }
    if (n < 1 || n > 1 << 20) {
        PyErr_SetString(PyExc_ValueError, "VecEnv: n from 1 to 1048576");
        return -1;
    }
    if (threads < 0 || threads > 256) {
        PyErr_SetString(PyExc_ValueError, "VecEnv: threads from 1 to 256 (0: one per CPU this process may use)");
        return -1;
    }
    if (threads == 0) { /* one per CPU we may run on, and no more than there are blocks of games */
        cpu_set_t set;
        threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
        if (threads > (n + BLOCK - 1) / BLOCK)
            threads = (n + BLOCK - 1) / BLOCK;
        if (threads > 256)
            threads = 256;
    }
    int mask_type = !strcmp(mask_dtype, "bool") ? NPY_BOOL : !strcmp(mask_dtype, "int8") ? NPY_INT8 : -1;
    if (mask_type < 0) {
        PyErr_Format(PyExc_ValueError, "mask_dtype=%s: valid are 'bool' and 'int8'", mask_dtype);
        return -1;
    }
    if (parse_schedule(mode, games, seat_change, class_reset, &single, &reset) || parse_seats(self, learners, opponents))
        return -1;
    self->n = n;
    if (seed && parse_seed(self, seed))
        return -1;
    self->envs = PyMem_Calloc((size_t)n, sizeof *self->envs);
    self->pl = PyMem_Calloc((size_t)n * NPLAYERS, sizeof *self->pl);
    if (!self->envs || !self->pl) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n; i++)
        env_init(&self->envs[i], single, games, seat_change, reset, game_seed(self, i));
    if (make_players(self))
        return -1;
    npy_intp d_obs[2] = {n, OBS_SIZE}, d_mask[2] = {n, NUM_ACTIONS}, d_legal[2] = {n, LEGAL_MAX}, d1[1] = {n},
             d_rew[2] = {n, self->nlearn}, d_res[2] = {n, NPLAYERS};
    if ((want_obs && !(self->obs = readonly_zeros(2, d_obs, NPY_INT8))) ||
        (want_mask && !(self->mask = readonly_zeros(2, d_mask, mask_type))) ||
        !(self->legal = readonly_zeros(2, d_legal, NPY_INT16)) || !(self->nlegal = readonly_zeros(1, d1, NPY_INT32)) ||
        !(self->actor = readonly_zeros(1, d1, NPY_INT8)) || !(self->actor_index = readonly_zeros(1, d1, NPY_INT8)) ||
        !(self->reward = readonly_zeros(2, d_rew, NPY_FLOAT32)) || !(self->done = readonly_zeros(1, d1, NPY_BOOL)) ||
        !(self->game_over = readonly_zeros(1, d1, NPY_BOOL)) || !(self->result = readonly_zeros(2, d_res, NPY_INT8)))
        return -1;
    memset(PyArray_DATA(self->result), 0xff, (size_t)n * NPLAYERS);
    if (threads > 1 && !(self->pool = workers_pool_new(threads))) {
        PyErr_Format(PyExc_RuntimeError, "VecEnv: cannot start %d threads", threads);
        return -1;
    }
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
    ((int8_t *)PyArray_DATA(self->actor_index))[i] = (int8_t)self->col[e->m.actor];
    if (self->mask) {
        npy_bool *m = (npy_bool *)PyArray_GETPTR2(self->mask, i, 0);
        for (int k = 0; k < n; k++)
            m[e->legal[k]] = 1;
    }
    if (self->obs)
        env_observe(e, e->m.actor, (int8_t *)PyArray_GETPTR2(self->obs, i, 0));
}

/* Clears env i's decision from its rows (the mask, and the legal list, whose tail past
 * num_legal is always 0). */
static void vec_clear_mask(VecEnvObject *self, int i)
{
    const DhmEnv *e = &self->envs[i];
    memset(PyArray_GETPTR2(self->legal, i, 0), 0, (size_t)e->nlegal * sizeof(int16_t));
    if (!self->mask)
        return;
    npy_bool *m = (npy_bool *)PyArray_GETPTR2(self->mask, i, 0);
    for (int k = 0; k < e->nlegal; k++)
        m[e->legal[k]] = 0;
}

/* The games of job `job`, BLOCK at a time, to whichever thread asks first; -1 when none is
 * left, or when the job is over (a helper that woke late). */
static int next_block(VecEnvObject *self, long job)
{
    uint64_t cur = atomic_load(&self->claim);
    for (;;) {
        const int b = (int)(cur & 0xffffffffu);
        if ((cur >> 32) != ((uint64_t)job & 0xffffffffu) || b >= self->n)
            return -1;
        if (atomic_compare_exchange_weak(&self->claim, &cur, cur + BLOCK))
            return b;
    }
}

/* A block done; the caller (k = 0), out of blocks, waits for the helpers' claimed ones. */
static void block_done(VecEnvObject *self, int b)
{
    atomic_fetch_add(&self->finished, b + BLOCK <= self->n ? BLOCK : self->n - b);
}

static void wait_job(VecEnvObject *self, int k)
{
    while (k == 0 && atomic_load(&self->finished) < self->n)
        sched_yield();
}

static void reset_job(void *arg, int k, long job)
{
    VecEnvObject *self = arg;
    char err[64];
    for (int b; (b = next_block(self, job)) >= 0; block_done(self, b))
        for (int i = b; i < b + BLOCK && i < self->n; i++) {
            vec_clear_mask(self, i);
            env_reset(&self->envs[i], self->reseed, game_seed(self, i), NULL, err, sizeof err);
            vec_write(self, i);
        }
    wait_job(self, k);
}

static void step_job(void *arg, int k, long job)
{
    VecEnvObject *self = arg;
    float *rew = (float *)PyArray_DATA(self->reward);
    npy_bool *done = (npy_bool *)PyArray_DATA(self->done), *gover = (npy_bool *)PyArray_DATA(self->game_over);
    int8_t *res = (int8_t *)PyArray_DATA(self->result);
    char err[64];
    for (int b; (b = next_block(self, job)) >= 0; block_done(self, b))
        for (int i = b; i < b + BLOCK && i < self->n; i++) {
            DhmEnv *e = &self->envs[i];
            float r[NPLAYERS] = {0, 0, 0, 0, 0};
            vec_clear_mask(self, i);
            int rc = env_step(e, (int)self->act[i], r);
            for (int l = 0; l < self->nlearn; l++)
                rew[(size_t)i * self->nlearn + l] = r[self->learner[l]];
            done[i] = (rc & STEP_EPISODE_OVER) != 0;
            gover[i] = (rc & STEP_GAME_OVER) != 0;
            for (int p = 0; p < NPLAYERS; p++)
                res[(size_t)i * NPLAYERS + p] = (int8_t)(gover[i] ? e->last_result[p] : -1);
            if (done[i])
                env_reset(e, 0, 0, NULL, err, sizeof err);
            vec_write(self, i);
        }
    wait_job(self, k);
}

/* Runs a job over every game, the GIL released: it returns when every game is done. */
static void run_job(VecEnvObject *self, WorkerJobFn fn)
{
    const long job = ++self->job;
    atomic_store(&self->finished, 0);
    atomic_store(&self->claim, ((uint64_t)job & 0xffffffffu) << 32);
    Py_BEGIN_ALLOW_THREADS
    workers_pool_run(self->pool, fn, self, job);
    Py_END_ALLOW_THREADS
}

static int enter(VecEnvObject *self)
{
    if (self->closed) {
        closed_error("VecEnv");
        return -1;
    }
    if (!self->envs) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: not initialised");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: a step or reset of this VecEnv is already running in another "
                                            "thread (one at a time)");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static PyObject *VecEnv_reset(VecEnvObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed", NULL};
    PyObject *seed = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &seed))
        return NULL;
    if (enter(self))
        return NULL;
    PyObject *out = NULL;
    if (seed != Py_None && parse_seed(self, seed))
        goto done;
    self->reseed = seed != Py_None || !self->started;
    if (seed != Py_None && make_players(self)) /* a new seed: the opponents start over too */
        goto done;
    run_job(self, reset_job);
    self->started = 1;
    memset(PyArray_DATA(self->reward), 0, (size_t)self->n * (size_t)self->nlearn * sizeof(float));
    memset(PyArray_DATA(self->done), 0, (size_t)self->n);
    memset(PyArray_DATA(self->game_over), 0, (size_t)self->n);
    memset(PyArray_DATA(self->result), 0xff, (size_t)self->n * NPLAYERS);
    out = Py_NewRef(Py_None);
done:
    self->busy = 0;
    return out;
}

static PyObject *VecEnv_step(VecEnvObject *self, PyObject *actions)
{
    if (self->closed)
        return closed_error("VecEnv");
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
    if (enter(self)) {
        Py_DECREF(a);
        return NULL;
    }
    const int64_t *act = (const int64_t *)PyArray_DATA(a);
    for (int i = 0; i < self->n; i++) /* every action checked before any game moves */
        if (act[i] < 0 || act[i] >= NUM_ACTIONS || !env_is_legal(&self->envs[i], (int)act[i])) {
            char where[32];
            snprintf(where, sizeof where, "game %d: ", i);
            illegal_error(&self->envs[i], (long long)act[i], where);
            self->busy = 0;
            Py_DECREF(a);
            return NULL;
        }
    self->act = act;
    run_job(self, step_job);
    self->act = NULL;
    self->busy = 0;
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
static PyObject *Vec_actor_index(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->actor_index); }
static PyObject *Vec_reward(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->reward); }
static PyObject *Vec_done(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->done); }
static PyObject *Vec_gover(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->game_over); }
static PyObject *Vec_result(VecEnvObject *s, void *c) { (void)c; return array_or_none(s->result); }
static PyObject *Vec_n(VecEnvObject *s, void *c) { (void)c; return PyLong_FromLong(s->n); }
static PyObject *Vec_threads(VecEnvObject *s, void *c) { (void)c; return PyLong_FromLong(workers_pool_size(s->pool)); }

static PyObject *Vec_learners(VecEnvObject *s, void *c)
{
    (void)c;
    PyObject *l = PyList_New(s->nlearn);
    for (int i = 0; l && i < s->nlearn; i++)
        PyList_SET_ITEM(l, i, PyLong_FromLong(s->learner[i]));
    return l;
}

static PyObject *Vec_opponents(VecEnvObject *s, void *c)
{
    (void)c;
    PyObject *d = PyDict_New();
    for (int p = 0; d && p < NPLAYERS; p++) {
        if (!s->spec[p])
            continue;
        PyObject *k = PyLong_FromLong(p);
        if (!k || PyDict_SetItem(d, k, s->spec[p])) {
            Py_XDECREF(k);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(k);
    }
    return d;
}

static PyObject *Vec_seeds(VecEnvObject *s, void *c)
{
    (void)c;
    PyObject *l = PyList_New(s->n);
    for (int i = 0; l && i < s->n; i++)
        PyList_SET_ITEM(l, i, PyLong_FromUnsignedLongLong(game_seed(s, i)));
    return l;
}

static PyMethodDef VecEnv_methods[] = {
    {"close", (PyCFunction)VecEnv_close, METH_NOARGS,
     "close(): joins the threads and frees the games, players and arrays; every later use but close() raises\n"
     "ValueError (a second close does nothing; arrays taken before stay valid)"},
    {"reset", (PyCFunction)(void (*)(void))VecEnv_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None): starts every game (game i's seed is derived from seed and i, or seed[i] for a list);\n"
     "a new seed makes the opponents anew as well"},
    {"step", (PyCFunction)VecEnv_step, METH_O,
     "step(actions): one action per game for the learner to act (int array of length n); the opponents then act\n"
     "in C until a learner must decide; the arrays are updated in place. A game whose episode ends starts its\n"
     "next episode at once (done[i] is set)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef VecEnv_getset[] = {
    {"closed", (getter)Vec_closed, NULL, "True once close() was called", NULL},
    {"observation", (getter)Vec_obs, NULL, "int8[n, OBS_SIZE]: the acting learner's observation (None if disabled)",
     NULL},
    {"action_mask", (getter)Vec_mask, NULL, "bool (or int8) [n, NUM_ACTIONS]: 1 for legal actions (None if disabled)",
     NULL},
    {"legal", (getter)Vec_legal, NULL, "int16[n, LEGAL_MAX]: legal actions, the first num_legal[i] of row i (then 0)", NULL},
    {"num_legal", (getter)Vec_nlegal, NULL, "int32[n]: number of legal actions", NULL},
    {"actor", (getter)Vec_actor, NULL, "int8[n]: the learner (player number 0..4) to act in each game", NULL},
    {"actor_index", (getter)Vec_actor_index, NULL, "int8[n]: the acting learner's column in reward (learners order)",
     NULL},
    {"reward", (getter)Vec_reward, NULL,
     "float32[n, len(learners)]: each learner's reward from the last step (points - 3 at each game's end)", NULL},
    {"done", (getter)Vec_done, NULL, "bool[n]: the episode ended at the last step (the next one has begun)", NULL},
    {"game_over", (getter)Vec_gover, NULL, "bool[n]: a game ended at the last step", NULL},
    {"result", (getter)Vec_result, NULL,
     "int8[n, 5]: classes (0 = daifugo) of the game that ended at the last step, by player; -1 where none did", NULL},
    {"n", (getter)Vec_n, NULL, "number of games", NULL},
    {"threads", (getter)Vec_threads, NULL, "threads stepping the games (the caller's included)", NULL},
    {"learners", (getter)Vec_learners, NULL, "the learners' player numbers (reward's columns)", NULL},
    {"opponents", (getter)Vec_opponents, NULL, "{player: spec} of the built-in opponents", NULL},
    {"seeds", (getter)Vec_seeds, NULL, "each game's seed (its first episode is Env(seed) / dhm play --seed)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject VecEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dhm._dhm.VecEnv",
    .tp_basicsize = sizeof(VecEnvObject),
    .tp_dealloc = (destructor)VecEnv_dealloc,
    .tp_getattro = VecEnv_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "VecEnv(n, seed=0, *, mode='game', games=100, seat_change=3, class_reset=None, observations=True, "
              "masks=True, learners=None, opponents=None, threads=0, mask_dtype='bool')",
    .tp_methods = VecEnv_methods,
    .tp_getset = VecEnv_getset,
    .tp_init = (initproc)VecEnv_init,
    .tp_new = VecEnv_new,
};
