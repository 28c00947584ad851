/* pydhm.h — what the C files of the _dhm extension module share (CPython + numpy).
 *
 * module.c: the module, action and card helpers, kifu records; pyenv.c: Env and VecEnv;
 * pyplayer.c: Player (built-in players from Python) and the UECda client for Python agents;
 * pystore.c: the results store and rating. Every object owns what it allocates and frees it
 * in its dealloc; the GIL is released around long C work (a Monte Carlo decision, a vector
 * step, a UECda match) and taken again before any Python object is touched.
 */
#ifndef DHM_PYDHM_H
#define DHM_PYDHM_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL dhm_ARRAY_API
#ifndef DHM_PY_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "envcore.h"
#include "obs.h"

/* The Env object (its C state is what Player.act reads). */
typedef struct EnvObject {
    PyObject_HEAD
    DhmEnv *e;
    /* the agents' state (from live to the end: what clone() copies) */
    int live;                 /* bit p: agent p is still in `agents` */
    int selected;             /* agent_selection, -1 when no agent is left */
    int over;                 /* the episode ended: every live agent terminated */
    float reward[NPLAYERS];   /* rewards of the last step */
    float cum[NPLAYERS];      /* accumulated since each agent last acted */
    int ended;                /* bit p: a game ended since agent p last acted (infos) */
    int last_over;            /* the last step ended a game (playout gives its classes) */
    int mask_type;            /* NPY_BOOL or NPY_INT8: the action_mask's dtype */
} EnvObject;

extern PyTypeObject EnvType, VecEnvType, PlayerType, StoreType;
extern PyObject *AGENT_NAMES[NPLAYERS]; /* "player_0" .. "player_4" (interned at import) */

/* Parses an agent given as "player_k" or k; -1 with a Python error set. */
int agent_of(PyObject *o);
/* A card set from a string of tokens ("c3 ha jo"), a sequence of tokens or of card indices
 * 0..52, or an int bit set; -1 with a Python error set. */
int cards_from_py(PyObject *o, Cards *out);
/* A card set as a list of tokens ("c3", ..., "jo"). */
PyObject *cards_to_py(Cards c);
/* A new observation dict {"observation": int8[OBS_SIZE], "action_mask": bool[NUM_ACTIONS]}:
 * the mask set for the given legal actions (none: all False), the observation left for the
 * caller to write through *obs (env_observe or obs_encode). */
PyObject *obs_dict_new(int8_t **obs, npy_bool **mask, const uint16_t *legal, int nlegal);
/* The same with the mask's dtype given (NPY_BOOL or NPY_INT8, both one byte of 0/1). */
PyObject *obs_dict_new_typed(int8_t **obs, npy_bool **mask, const uint16_t *legal, int nlegal, int mask_type);

/* A game record as a dict (hidden cards included): seats, classes, hands, plays, result. */
PyObject *game_record_to_py(const GameRecord *r);

/* mode ("game" or "match"), games, seat_change, class_reset (-1: the mode's default) checked;
 * single and reset set. -1 with a Python error. */
int parse_schedule(const char *mode, int games, int seat_change, int class_reset, int *single, int *reset);
/* The ValueError for an action that is not legal in e now (where: a prefix such as "game 3: "). */
PyObject *illegal_error(DhmEnv *e, long long action, const char *where);

/* After close() an Env or VecEnv has freed its native memory: every use but close() raises the
 * ValueError closed_error gives (as a closed file does). closable_getattro is their tp_getattro:
 * once closed, only close, closed and dunder names resolve; methods bound before the close
 * check for themselves. */
PyObject *closed_error(const char *what);
PyObject *closable_getattro(PyObject *self, PyObject *name, int closed, const char *what);

PyObject *py_play_match(PyObject *self, PyObject *args, PyObject *kw);
PyObject *py_tournament(PyObject *self, PyObject *args, PyObject *kw);
PyObject *py_client_run(PyObject *self, PyObject *args, PyObject *kw);
PyObject *py_rate(PyObject *self, PyObject *args, PyObject *kw);
PyObject *py_player_seed(PyObject *self, PyObject *args);

#endif
