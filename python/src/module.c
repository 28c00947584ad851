/* module.c — the _dhm extension module: constants, the action and card helpers, kifu
 * records, and the module's type and function tables (see pydhm.h). */
#define DHM_PY_MAIN
#include "pydhm.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "players/players.h"
#include "record/replay.h"

PyObject *AGENT_NAMES[NPLAYERS];

int agent_of(PyObject *o)
{
    if (PyLong_Check(o)) {
        long p = PyLong_AsLong(o);
        if (p >= 0 && p < NPLAYERS)
            return (int)p;
    } else if (PyUnicode_Check(o)) {
        for (int p = 0; p < NPLAYERS; p++)
            if (PyUnicode_Compare(o, AGENT_NAMES[p]) == 0)
                return p;
    }
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "unknown agent %R (agents are player_0 .. player_4, or 0 .. 4)", o);
    return -1;
}

static int card_from_item(PyObject *it, Cards *c)
{
    if (PyLong_Check(it)) {
        long k = PyLong_AsLong(it);
        if (k < 0 || k >= NCARDS) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "card index %ld: valid are 0..52", k);
            return -1;
        }
        *c = 1ULL << card_bit_of((int)k);
        return 0;
    }
    if (PyUnicode_Check(it)) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(it, &len);
        int b = s ? card_parse_token(s, (size_t)len) : -1;
        if (b < 0) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "bad card %R (c3 .. s2 and jo: suit c d h s, rank 3..9 t j q k a 2)", it);
            return -1;
        }
        *c = 1ULL << b;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "a card is a token such as 'c3' or an index 0..52, not %R", it);
    return -1;
}

int cards_from_py(PyObject *o, Cards *out)
{
    *out = 0;
    if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s)
            return -1;
        if (cards_parse(s, out)) {
            PyErr_Format(PyExc_ValueError, "bad card list %R (tokens such as 'c3 ha jo', each once)", o);
            return -1;
        }
        return 0;
    }
    PyObject *seq = PySequence_Fast(o, "cards: a string of tokens or a sequence of cards");
    if (!seq)
        return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && !rc; i++) {
        Cards c = 0;
        rc = card_from_item(PySequence_Fast_GET_ITEM(seq, i), &c);
        if (!rc && (*out & c)) {
            PyErr_Format(PyExc_ValueError, "card %R given twice", PySequence_Fast_GET_ITEM(seq, i));
            rc = -1;
        }
        *out |= c;
    }
    Py_DECREF(seq);
    return rc;
}

PyObject *cards_to_py(Cards c)
{
    PyObject *l = PyList_New(cards_count(c));
    if (!l)
        return NULL;
    Py_ssize_t i = 0;
    for (Cards x = c; x; x &= x - 1) {
        int b = cards_lowest_bit(x);
        char tok[3] = {b == JOKER_BIT ? 'j' : SUIT_CHARS[b & 3], b == JOKER_BIT ? 'o' : RANK_CHARS[b >> 2], 0};
        PyObject *s = PyUnicode_FromString(tok);
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i++, s);
    }
    return l;
}

PyObject *obs_dict_new(int8_t **obs_out, npy_bool **mask_out, const uint16_t *legal, int nlegal)
{
    return obs_dict_new_typed(obs_out, mask_out, legal, nlegal, NPY_BOOL);
}

PyObject *obs_dict_new_typed(int8_t **obs_out, npy_bool **mask_out, const uint16_t *legal, int nlegal, int mask_type)
{
    npy_intp od = OBS_SIZE, md = NUM_ACTIONS;
    PyObject *obs = PyArray_SimpleNew(1, &od, NPY_INT8);
    PyObject *mask = PyArray_ZEROS(1, &md, mask_type, 0);
    PyObject *d = PyDict_New();
    if (!obs || !mask || !d || PyDict_SetItemString(d, "observation", obs) ||
        PyDict_SetItemString(d, "action_mask", mask)) {
        Py_XDECREF(obs);
        Py_XDECREF(mask);
        Py_XDECREF(d);
        return NULL;
    }
    *obs_out = (int8_t *)PyArray_DATA((PyArrayObject *)obs);
    npy_bool *m = *mask_out = (npy_bool *)PyArray_DATA((PyArrayObject *)mask);
    for (int i = 0; i < nlegal; i++)
        m[legal[i]] = 1;
    Py_DECREF(obs);
    Py_DECREF(mask);
    return d;
}

/* ---------------------------------------------------------------- actions */

static int action_arg(PyObject *o, int *a)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= NUM_ACTIONS) {
        PyErr_Format(PyExc_ValueError, "action %ld: valid are 0..%d", v, NUM_ACTIONS - 1);
        return -1;
    }
    *a = (int)v;
    return 0;
}

static const char *action_kind(int a)
{
    static const char *const KINDS[] = {"pass", "single", "group", "sequence", "joker"};
    if (a >= ACT_MELDS)
        return "give";
    Move m = action_move(a);
    return KINDS[m.type <= MOVE_JOKER ? m.type : 0];
}

/* action_info(a) -> (text, kind, cards, size, rank_low, rank_high, joker) */
static PyObject *py_action_info(PyObject *self, PyObject *arg)
{
    (void)self;
    int a;
    if (action_arg(arg, &a))
        return NULL;
    char text[MOVE_MAX_TEXT + 16];
    action_format(a, text, sizeof text);
    if (a >= ACT_MELDS) {
        Cards c = action_give(a);
        PyObject *cards = cards_to_py(c);
        return cards ? Py_BuildValue("(ssNiiiO)", text, "give", cards, cards_count(c), -1, -1,
                                     (c & CARDS_JOKER) ? Py_True : Py_False)
                     : NULL;
    }
    Move m = action_move(a);
    PyObject *cards = cards_to_py(move_cards(m));
    int lo = m.type == MOVE_PASS || m.type == MOVE_JOKER ? -1 : m.low, hi = lo < 0 ? -1 : move_high(m);
    return cards ? Py_BuildValue("(ssNiiiO)", text, action_kind(a), cards, (int)m.n, lo, hi,
                                 move_uses_joker(m) ? Py_True : Py_False)
                 : NULL;
}

static PyObject *py_action_of_text(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s)
        return NULL;
    int a;
    if (action_parse(s, &a))
        return PyErr_Format(PyExc_ValueError,
                            "%R is not a meld or an exchange in kifu notation ('p', 'd-3', 'chs-3', 'h-678(7)', 'jk', "
                            "'give c3 ha')",
                            arg);
    return PyLong_FromLong(a);
}

static PyObject *py_action_of_cards(PyObject *self, PyObject *arg)
{
    (void)self;
    Cards c;
    if (cards_from_py(arg, &c))
        return NULL;
    int a = action_of_give(c);
    if (a < 0)
        return PyErr_Format(PyExc_ValueError, "an exchange gives one or two cards, not %d", cards_count(c));
    return PyLong_FromLong(a);
}

/* ---------------------------------------------------------------- kifu records */

static PyObject *hands_to_py(const Cards h[NPLAYERS])
{
    PyObject *l = PyList_New(NPLAYERS);
    for (int p = 0; l && p < NPLAYERS; p++) {
        PyObject *c = cards_to_py(h[p]);
        if (!c) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, p, c);
    }
    return l;
}

static PyObject *ints_to_py(const int *v, int n)
{
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++)
        PyList_SET_ITEM(l, i, PyLong_FromLong(v[i]));
    return l;
}


PyObject *game_record_to_py(const GameRecord *r)
{
    int seat[NPLAYERS], cls[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++) {
        seat[p] = r->seat[p];
        cls[p] = r->cls[p];
    }
    PyObject *plays = PyList_New(r->nplays);
    for (int i = 0; plays && i < r->nplays; i++) {
        char t[MOVE_MAX_TEXT];
        move_format(r->plays[i].move, t, sizeof t);
        PyList_SET_ITEM(plays, i,
                        Py_BuildValue("(iis)", (int)r->plays[i].player, action_of_move(r->plays[i].move), t));
    }
    if (!plays)
        return NULL;
    return Py_BuildValue("{s:i,s:N,s:N,s:i,s:N,s:N,s:N,s:i,s:N,s:N,s:O}", "game", r->number, "seats",
                         ints_to_py(seat, NPLAYERS), "classes", ints_to_py(cls, NPLAYERS), "dealer", r->dealer, "dealt",
                         hands_to_py(r->dealt), "changed", hands_to_py(r->changed), "original",
                         hands_to_py(r->original), "first", r->first, "plays", plays, "result",
                         ints_to_py(r->result, NPLAYERS), "stalemate", r->stalemate ? Py_True : Py_False);
}

/* read_kifu(path) -> [game dict]: every game of a kifu file, checked by the replay. */
static PyObject *py_read_kifu(PyObject *self, PyObject *arg)
{
    (void)self;
    PyObject *bytes;
    if (!PyUnicode_FSConverter(arg, &bytes))
        return NULL;
    const char *path = PyBytes_AS_STRING(bytes);
    FILE *f = fopen(path, "r");
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* as open() does */
        fclose(f);
        f = NULL;
        errno = EISDIR;
    }
    if (!f) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg);
        Py_DECREF(bytes);
        return NULL;
    }
    KifuReader r;
    kifu_reader_init(&r, f, path);
    KifuGame *kg = PyMem_Malloc(sizeof *kg);
    GameRecord *rec = PyMem_Malloc(sizeof *rec);
    PyObject *out = PyList_New(0);
    char err[512];
    int rc = kg && rec && out ? 1 : -2;
    while (rc == 1 && (rc = kifu_next(&r, kg, err, sizeof err)) == 1) {
        if (kifu_to_record(kg, path, rec, err, sizeof err)) {
            rc = -1;
            break;
        }
        PyObject *g = game_record_to_py(rec);
        if (!g || PyList_Append(out, g)) {
            Py_XDECREF(g);
            rc = -2;
            break;
        }
        Py_DECREF(g);
    }
    kifu_reader_free(&r);
    fclose(f);
    PyMem_Free(kg);
    PyMem_Free(rec);
    Py_DECREF(bytes);
    if (rc < 0) {
        if (rc == -1)
            PyErr_SetString(PyExc_ValueError, err);
        else if (!PyErr_Occurred())
            PyErr_NoMemory();
        Py_XDECREF(out);
        return NULL;
    }
    return out;
}

PyObject *py_player_seed(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long seed;
    int p;
    if (!PyArg_ParseTuple(args, "Ki", &seed, &p))
        return NULL;
    return PyLong_FromUnsignedLongLong(player_seed(seed, p));
}

static PyMethodDef METHODS[] = {
    {"action_info", py_action_info, METH_O,
     "action_info(a) -> (text, kind, cards, size, low, high, joker): what action a is (columns 1 = 3 .. 13 = 2)"},
    {"action_of_text", py_action_of_text, METH_O, "action_of_text(s) -> int: 'p', 'd-3', 'chs-3', 'give c3 ha', ..."},
    {"action_of_cards", py_action_of_cards, METH_O, "action_of_cards(cards) -> int: the exchange giving these cards"},
    {"read_kifu", py_read_kifu, METH_O, "read_kifu(path) -> list of games (dicts), each checked by dhm's replay"},
    {"player_seed", py_player_seed, METH_VARARGS, "player_seed(match_seed, p): the seed dhm play gives player p"},
    {"client_run", (PyCFunction)(void (*)(void))py_client_run, METH_VARARGS | METH_KEYWORDS,
     "client_run(agent, host, port, name, seed=1, timeout_ms=0, log=True) -> dict: a Python agent as a UECda client"},
    {"play_match", (PyCFunction)(void (*)(void))py_play_match, METH_VARARGS | METH_KEYWORDS,
     "play_match(specs, games, seed, seat_change=3, class_reset=100) -> int8[games, 5]: a match of built-in\n"
     "players as dhm play --players ... --seed plays it; every game's classes"},
    {"tournament", (PyCFunction)(void (*)(void))py_tournament, METH_VARARGS | METH_KEYWORDS,
     "tournament(pool_text, db, sets, games, seed, jobs, pairing, ...): dhm tournament's engine into a new store"},
    {"rate", (PyCFunction)(void (*)(void))py_rate, METH_VARARGS | METH_KEYWORDS,
     "rate(sets, games, methods, params) -> list of rows: dhm's rating methods"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_dhm", "dhm's C core (see the dhm package)", -1, METHODS,
                                    NULL, NULL, NULL, NULL};

static int add_int(PyObject *m, const char *name, long v) { return PyModule_AddIntConstant(m, name, v); }

PyMODINIT_FUNC PyInit__dhm(void);
PyMODINIT_FUNC PyInit__dhm(void)
{
    import_array();
    if (actions_init()) {
        PyErr_SetString(PyExc_ImportError, "_dhm: the action table does not match its documented layout");
        return NULL;
    }
    PyTypeObject *types[] = {&EnvType, &VecEnvType, &PlayerType, &StoreType};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    PyObject *m = PyModule_Create(&MODULE);
    if (!m)
        return NULL;
    for (int p = 0; p < NPLAYERS; p++) {
        char name[16];
        snprintf(name, sizeof name, "player_%d", p);
        if (!AGENT_NAMES[p] && !(AGENT_NAMES[p] = PyUnicode_InternFromString(name)))
            goto fail;
    }
    PyObject *fields = PyList_New(OBS_NFIELDS);
    for (int i = 0; fields && i < OBS_NFIELDS; i++)
        PyList_SET_ITEM(fields, i, Py_BuildValue("(sii)", OBS_FIELDS[i].name, OBS_FIELDS[i].offset, OBS_FIELDS[i].size));
    if (!fields || PyModule_AddObject(m, "OBS_FIELDS", fields))
        goto fail;
    if (add_int(m, "NUM_ACTIONS", NUM_ACTIONS) || add_int(m, "OBS_SIZE", OBS_SIZE) || add_int(m, "ACT_PASS", ACT_PASS) ||
        add_int(m, "ACT_SINGLE", ACT_SINGLE) || add_int(m, "ACT_JOKER", ACT_JOKER) || add_int(m, "ACT_GROUP", ACT_GROUP) ||
        add_int(m, "ACT_GROUP_JOKER", ACT_GROUP_JOKER) || add_int(m, "ACT_GROUP5", ACT_GROUP5) ||
        add_int(m, "ACT_SEQ", ACT_SEQ) || add_int(m, "ACT_GIVE1", ACT_GIVE1) || add_int(m, "ACT_GIVE2", ACT_GIVE2) ||
        add_int(m, "LEGAL_MAX", LEGAL_MAX) || add_int(m, "NPLAYERS", NPLAYERS))
        goto fail;
    PyModule_AddStringConstant(m, "VERSION", DHM_VERSION);
    const char *names[] = {"Env", "VecEnv", "Player", "Store"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i])) {
            Py_DECREF(types[i]);
            goto fail;
        }
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
