/* The heuristic duel search of games/ai/search.py (Searcher._search) in C, a whole subtree
 * per call, with the pieces of games/ai/duel.py (DuelTable) and evaluation.py it runs on.
 *
 * A DuelSearch object is one search session: the duel's trumps and variant, whether
 * equivalent cards are collapsed, the transposition table, the search path (with the
 * positions held above every root) and the positions the game has seen twice. Every rule
 * of the Python node is kept: the same moves in the same order, the same table entries,
 * the same repetition draws and path indices, the same node count (so a node budget stops
 * both at the same node).
 */
#include "duel_table.h"
#include <time.h>

#define WIN_SCORE 100000
#define FREE (1 << 30)
#define HISTORY (-1)
#define MAX_PLY 200
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define CHECK_EVERY 255
#define FILTER_BITS 12

typedef struct {
    Key key;
    int32_t score;
    int16_t depth, move;
    int8_t flag;
} Entry;

typedef struct {
    Key key;
    uint64_t hash;
    int ply;
} PathEntry;

typedef struct {
    PyObject_HEAD
    DuelTable duel;
    /* the transposition table: open addressing, linear probing, grown at half full; a
     * slot's tag (32 bits of the key's hash, never 0) is 0 while it is empty, so that a
     * probe reads the small array of tags and an entry only when its tag matches */
    uint32_t *tags;
    Entry *table;
    size_t capacity, size;
    /* the path: a stack, with a counting filter on the hashes for the common miss */
    PathEntry *path;
    int path_len, path_capacity;
    uint16_t path_filter[1 << FILTER_BITS];
    /* the positions the game has seen twice */
    PathEntry *repeated;
    int n_repeated;
    uint16_t repeated_filter[1 << FILTER_BITS];
    /* the budget of the running call */
    long long nodes, max_nodes;
    double deadline;
    PyObject *clock; /* the Python clock the deadline is on, or NULL: CLOCK_MONOTONIC */
    PyObject *should_stop;
    int stopped; /* 1: the budget ran out; -1: should_stop raised */
} Session;

int read_key(PyObject *value, Key *k) {
    PyObject *h0, *h1, *pile;
    int seat;
    if (!PyArg_ParseTuple(value, "OOOi", &h0, &h1, &pile, &seat)) return -1;
    uint64_t m0, m1;
    uint8_t cards[N_CARDS];
    int len;
    if (read_mask(h0, &m0) < 0 || read_mask(h1, &m1) < 0 || read_pile(pile, cards, &len) < 0)
        return -1;
    if (seat != 0 && seat != 1) {
        PyErr_SetString(PyExc_ValueError, "a duel's seat is 0 or 1");
        return -1;
    }
    make_key(k, seat == 0 ? m0 : m1, seat == 0 ? m1 : m0, cards, len, seat);
    return 0;
}

/* --- the transposition table ----------------------------------------------------------- */

static inline uint32_t tag_of(uint64_t hash) { return (uint32_t)(hash >> 32) | 1; }

static Entry *table_find(const Session *s, const Key *k, uint64_t hash) {
    if (!s->capacity) return NULL;
    size_t mask = s->capacity - 1;
    uint32_t tag = tag_of(hash);
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t t = s->tags[i];
        if (!t) return NULL;
        if (t == tag && key_equal(&s->table[i].key, k)) return &s->table[i];
    }
}

static void table_free(Session *s) {
    PyMem_Free(s->tags);
    PyMem_Free(s->table);
    s->tags = NULL;
    s->table = NULL;
    s->capacity = s->size = 0;
}

static int table_grow(Session *s) {
    size_t capacity = s->capacity ? s->capacity * 2 : 1 << 16;
    uint32_t *tags = PyMem_Calloc(capacity, sizeof(uint32_t));
    Entry *table = PyMem_Malloc(capacity * sizeof(Entry));
    if (!tags || !table) {
        PyMem_Free(tags);
        PyMem_Free(table);
        return -1;
    }
    for (size_t j = 0; j < s->capacity; j++) {
        if (!s->tags[j]) continue;
        Entry *e = &s->table[j];
        uint64_t hash = key_hash(&e->key);
        size_t i = hash & (capacity - 1);
        while (tags[i]) i = (i + 1) & (capacity - 1);
        tags[i] = tag_of(hash);
        table[i] = *e;
    }
    size_t size = s->size;
    table_free(s);
    s->tags = tags;
    s->table = table;
    s->capacity = capacity;
    s->size = size;
    return 0;
}

static int table_store(Session *s, const Key *k, uint64_t hash, int depth, int score, int flag,
                       int move) {
    Entry *e = table_find(s, k, hash);
    if (!e) {
        if (2 * (s->size + 1) > s->capacity && table_grow(s) < 0) return -1;
        size_t mask = s->capacity - 1, i = hash & mask;
        while (s->tags[i]) i = (i + 1) & mask;
        s->tags[i] = tag_of(hash);
        e = &s->table[i];
        e->key = *k;
        s->size++;
    }
    e->depth = (int16_t)depth;
    e->score = score;
    e->flag = (int8_t)flag;
    e->move = (int16_t)move;
    return 0;
}

/* --- the path and the repeated positions ------------------------------------------------ */

static inline int filter_slot(uint64_t hash) { return (int)(hash >> (64 - FILTER_BITS)); }

/* The ply of the position on the path (the latest entry), or INT32_MIN if it is not. */
static inline int path_get(const Session *s, const Key *k, uint64_t hash) {
    if (!s->path_filter[filter_slot(hash)]) return INT32_MIN;
    for (int i = s->path_len - 1; i >= 0; i--) {
        if (s->path[i].hash == hash && key_equal(&s->path[i].key, k)) return s->path[i].ply;
    }
    return INT32_MIN;
}

static int path_push(Session *s, const Key *k, uint64_t hash, int ply) {
    if (s->path_len == s->path_capacity) {
        int capacity = s->path_capacity ? 2 * s->path_capacity : 256;
        PathEntry *path = PyMem_Realloc(s->path, capacity * sizeof(PathEntry));
        if (!path) return -1;
        s->path = path;
        s->path_capacity = capacity;
    }
    PathEntry *e = &s->path[s->path_len++];
    e->key = *k;
    e->hash = hash;
    e->ply = ply;
    s->path_filter[filter_slot(hash)]++;
    return 0;
}

static inline void path_pop(Session *s) {
    s->path_filter[filter_slot(s->path[--s->path_len].hash)]--;
}

static inline int is_repeated(const Session *s, const Key *k, uint64_t hash) {
    if (!s->repeated_filter[filter_slot(hash)]) return 0;
    for (int i = 0; i < s->n_repeated; i++) {
        if (s->repeated[i].hash == hash && key_equal(&s->repeated[i].key, k)) return 1;
    }
    return 0;
}

/* --- the node ------------------------------------------------------------------------- */

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* _check_budget of duel_search.py: sets stopped and returns nonzero past the budget (-1
 * with a Python error set). */
static int check_budget(Session *s) {
    /* a signal's Python handler (Ctrl-C, a task's time limit) runs here, and may raise */
    if (PyErr_CheckSignals() < 0) return s->stopped = -1;
    if (s->max_nodes >= 0 && s->nodes > s->max_nodes) return s->stopped = 1;
    if (s->deadline >= 0) {
        double now;
        if (s->clock) {
            PyObject *result = PyObject_CallNoArgs(s->clock);
            if (!result) return s->stopped = -1;
            now = PyFloat_AsDouble(result);
            Py_DECREF(result);
            if (now == -1.0 && PyErr_Occurred()) return s->stopped = -1;
        } else {
            now = monotonic();
        }
        if (now > s->deadline) return s->stopped = 1;
    }
    if (s->should_stop) {
        PyObject *result = PyObject_CallNoArgs(s->should_stop);
        if (!result) return s->stopped = -1;
        int stop = PyObject_IsTrue(result);
        Py_DECREF(result);
        if (stop < 0) return s->stopped = -1;
        if (stop) return s->stopped = 1;
    }
    return 0;
}

/* Searcher._search: the score for the mover; *dep the lowest path index a repetition draw
 * referred to. On a stop (s->stopped) the value is meaningless and the path is unwound. */
static int node(Session *s, uint64_t me, uint64_t opp, const uint8_t *pile, int len, int mover,
                int depth, int alpha, int beta, int ply, int *dep) {
    s->nodes++;
    if ((s->nodes & CHECK_EVERY) == 0 && check_budget(s)) return 0;
    Key key;
    make_key(&key, me, opp, pile, len, mover);
    uint64_t hash = key_hash(&key);
    int earlier = path_get(s, &key, hash);
    if (earlier != INT32_MIN) {
        *dep = earlier;
        return 0;
    }
    if (is_repeated(s, &key, hash)) {
        *dep = HISTORY;
        return 0;
    }
    *dep = FREE;
    if (wins_now(&s->duel, me, opp, pile, len, mover) >= 0) return WIN_SCORE - ply - 1;
    Entry *entry = table_find(s, &key, hash);
    int hint = -1;
    if (entry) {
        hint = entry->move;
        if (entry->depth >= depth) {
            int score = entry->score;
            if (score > WIN_SCORE / 2) score -= ply;
            else if (score < -WIN_SCORE / 2) score += ply;
            if (entry->flag == EXACT || (entry->flag == LOWER && score >= beta) ||
                (entry->flag == UPPER && score <= alpha))
                return score;
        }
    }
    if (depth <= 0 || ply >= MAX_PLY) return evaluate(&s->duel, me, opp, pile, len, mover);
    Picker picker;
    picker_init(&picker, &s->duel, me, opp, pile, len, mover, hint);
    int child_depth = picker.count == 1 ? depth : depth - 1;
    int alpha0 = alpha, best = -WIN_SCORE - 1, best_move = -1, lowest_dep = FREE;
    if (path_push(s, &key, hash, ply) < 0) {
        s->stopped = -1;
        PyErr_NoMemory();
        return 0;
    }
    uint8_t after[N_CARDS];
    int after_len;
    for (int i = 0, code; (code = picker_next(&picker)) >= 0; i++) {
        int value, d = FREE;
        if (i == 0) best_move = code;
        uint64_t mine = play(me, pile, len, code, after, &after_len);
        if (!mine) {
            value = out_value(&s->duel, opp, after[after_len - 1], mover) ? WIN_SCORE - ply - 1 : 0;
        } else if (i == 0) {
            value = -node(s, opp, mine, after, after_len, 1 - mover, child_depth, -beta, -alpha,
                          ply + 1, &d);
        } else {
            value = -node(s, opp, mine, after, after_len, 1 - mover, child_depth, -alpha - 1,
                          -alpha, ply + 1, &d);
            if (!s->stopped && alpha < value && value < beta) {
                value = -node(s, opp, mine, after, after_len, 1 - mover, child_depth, -beta,
                              -alpha, ply + 1, &d);
            }
        }
        if (s->stopped) {
            path_pop(s);
            return 0;
        }
        if (d < lowest_dep) lowest_dep = d;
        if (value > best) {
            best = value;
            best_move = code;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) break;
            }
        }
    }
    path_pop(s);
    if (lowest_dep >= ply) {
        int stored = best;
        if (stored > WIN_SCORE / 2) stored += ply;
        else if (stored < -WIN_SCORE / 2) stored -= ply;
        int flag = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
        if (table_store(s, &key, hash, depth, stored, flag, best_move) < 0) {
            s->stopped = -1;
            PyErr_NoMemory();
            return 0;
        }
        lowest_dep = FREE;
    }
    *dep = lowest_dep;
    return best;
}

/* --- the Python type ------------------------------------------------------------------ */

static int session_init(Session *s, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"trumps", "strict", "collapse", "repeated", NULL};
    PyObject *repeated = NULL;
    DuelTable *d = &s->duel;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "(ii)pp|O:DuelSearch", names, &d->trumps[0],
                                     &d->trumps[1], &d->strict, &d->collapse, &repeated))
        return -1;
    for (int i = 0; i < 2; i++) {
        if (d->trumps[i] < 0 || d->trumps[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "a suit is 0..3");
            return -1;
        }
        d->trump_masks[i] = suit_mask(d->trumps[i]);
    }
    d->special = 1ULL << (d->trumps[0] * 9 + 8) | 1ULL << (d->trumps[1] * 9 + 8);
    PyMem_Free(s->repeated);
    s->repeated = NULL;
    s->n_repeated = 0;
    memset(s->repeated_filter, 0, sizeof s->repeated_filter);
    if (!repeated) return 0;
    PyObject *seq = PySequence_Fast(repeated, "repeated must be a collection of duel keys");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    s->repeated = PyMem_Calloc(n ? n : 1, sizeof(PathEntry));
    if (!s->repeated) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PathEntry *e = &s->repeated[i];
        if (read_key(PySequence_Fast_GET_ITEM(seq, i), &e->key) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        e->hash = key_hash(&e->key);
        s->repeated_filter[filter_slot(e->hash)]++;
        s->n_repeated++;
    }
    Py_DECREF(seq);
    return 0;
}

static void session_dealloc(Session *s) {
    table_free(s);
    PyMem_Free(s->path);
    PyMem_Free(s->repeated);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int read_position(PyObject *me_obj, PyObject *opp_obj, PyObject *pile_obj, int mover,
                         uint64_t *me, uint64_t *opp, uint8_t *pile, int *len) {
    if (read_mask(me_obj, me) < 0 || read_mask(opp_obj, opp) < 0 ||
        read_pile(pile_obj, pile, len) < 0)
        return -1;
    if (mover != 0 && mover != 1) {
        PyErr_SetString(PyExc_ValueError, "a duel's mover is 0 or 1");
        return -1;
    }
    if (!*me) {
        PyErr_SetString(PyExc_ValueError, "the mover holds no card");
        return -1;
    }
    return 0;
}

static PyObject *session_search(Session *s, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"me", "opp", "pile", "mover", "depth", "alpha", "beta", "ply",
                            "nodes", "max_nodes", "deadline", "should_stop", "clock", NULL};
    PyObject *me_obj, *opp_obj, *pile_obj, *max_nodes, *deadline, *should_stop;
    PyObject *clock = Py_None;
    int mover, depth, alpha, beta, ply;
    long long nodes;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOiiiiiLOOO|O:search", names, &me_obj,
                                     &opp_obj, &pile_obj, &mover, &depth, &alpha, &beta, &ply,
                                     &nodes, &max_nodes, &deadline, &should_stop, &clock))
        return NULL;
    uint64_t me, opp;
    uint8_t pile[N_CARDS];
    int len;
    if (read_position(me_obj, opp_obj, pile_obj, mover, &me, &opp, pile, &len) < 0) return NULL;
    s->nodes = nodes;
    s->max_nodes = max_nodes == Py_None ? -1 : PyLong_AsLongLong(max_nodes);
    s->deadline = deadline == Py_None ? -1.0 : PyFloat_AsDouble(deadline);
    if (PyErr_Occurred()) return NULL;
    s->should_stop = should_stop == Py_None ? NULL : should_stop;
    s->clock = clock == Py_None ? NULL : clock;
    s->stopped = 0;
    int dep = FREE;
    int value = node(s, me, opp, pile, len, mover, depth, alpha, beta, ply, &dep);
    s->should_stop = NULL;
    s->clock = NULL;
    if (s->stopped < 0) return NULL;
    return Py_BuildValue("(iiLO)", value, dep, s->nodes, s->stopped ? Py_True : Py_False);
}

static PyObject *session_ordered_moves(Session *s, PyObject *args) {
    PyObject *me_obj, *opp_obj, *pile_obj;
    int mover, first = -1;
    if (!PyArg_ParseTuple(args, "OOOi|i:ordered_moves", &me_obj, &opp_obj, &pile_obj, &mover,
                          &first))
        return NULL;
    uint64_t me, opp;
    uint8_t pile[N_CARDS];
    int len;
    if (read_position(me_obj, opp_obj, pile_obj, mover, &me, &opp, pile, &len) < 0) return NULL;
    Picker *picker = PyMem_Malloc(sizeof(Picker));
    if (!picker) return PyErr_NoMemory();
    picker_init(picker, &s->duel, me, opp, pile, len, mover, first);
    PyObject *list = PyList_New(0);
    for (int code; list && (code = picker_next(picker)) >= 0;) {
        PyObject *item = PyLong_FromLong(code);
        if (!item || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    PyMem_Free(picker);
    return list;
}

static PyObject *session_evaluate(Session *s, PyObject *args) {
    PyObject *me_obj, *opp_obj, *pile_obj;
    int mover;
    if (!PyArg_ParseTuple(args, "OOOi:evaluate", &me_obj, &opp_obj, &pile_obj, &mover))
        return NULL;
    uint64_t me, opp;
    uint8_t pile[N_CARDS];
    int len;
    if (read_position(me_obj, opp_obj, pile_obj, mover, &me, &opp, pile, &len) < 0) return NULL;
    return PyLong_FromLong(evaluate(&s->duel, me, opp, pile, len, mover));
}

static PyObject *session_wins_now(Session *s, PyObject *args) {
    PyObject *me_obj, *opp_obj, *pile_obj;
    int mover;
    if (!PyArg_ParseTuple(args, "OOOi:wins_now", &me_obj, &opp_obj, &pile_obj, &mover))
        return NULL;
    uint64_t me, opp;
    uint8_t pile[N_CARDS];
    int len;
    if (read_position(me_obj, opp_obj, pile_obj, mover, &me, &opp, pile, &len) < 0) return NULL;
    int code = wins_now(&s->duel, me, opp, pile, len, mover);
    if (code < 0) Py_RETURN_NONE;
    return PyLong_FromLong(code);
}

static PyObject *session_path_push(Session *s, PyObject *args) {
    PyObject *key_obj;
    int ply;
    if (!PyArg_ParseTuple(args, "Oi:path_push", &key_obj, &ply)) return NULL;
    Key key;
    if (read_key(key_obj, &key) < 0) return NULL;
    if (path_push(s, &key, key_hash(&key), ply) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *session_path_pop(Session *s, PyObject *unused) {
    if (!s->path_len) {
        PyErr_SetString(PyExc_IndexError, "the path is empty");
        return NULL;
    }
    path_pop(s);
    Py_RETURN_NONE;
}

static PyObject *session_path_get(Session *s, PyObject *key_obj) {
    Key key;
    if (read_key(key_obj, &key) < 0) return NULL;
    int ply = path_get(s, &key, key_hash(&key));
    if (ply == INT32_MIN) Py_RETURN_NONE;
    return PyLong_FromLong(ply);
}

static PyObject *session_table_size(Session *s, PyObject *unused) {
    return PyLong_FromSize_t(s->size);
}

static PyObject *session_clear_table(Session *s, PyObject *unused) {
    table_free(s);
    Py_RETURN_NONE;
}

/* The table's entry of a key, (depth, score, flag, move), or None: for the tests. */
static PyObject *session_table_get(Session *s, PyObject *key_obj) {
    Key key;
    if (read_key(key_obj, &key) < 0) return NULL;
    Entry *e = table_find(s, &key, key_hash(&key));
    if (!e) Py_RETURN_NONE;
    return Py_BuildValue("(iiii)", e->depth, e->score, e->flag, e->move);
}

static PyMethodDef SESSION_METHODS[] = {
    {"search", (PyCFunction)(void (*)(void))session_search, METH_VARARGS | METH_KEYWORDS,
     "search(me, opp, pile, mover, depth, alpha, beta, ply, nodes, max_nodes, deadline, "
     "should_stop, clock=None) -> (score, path index, nodes, stopped); the deadline is on "
     "clock() (CLOCK_MONOTONIC if None)"},
    {"ordered_moves", (PyCFunction)session_ordered_moves, METH_VARARGS,
     "ordered_moves(me, opp, pile, mover, first=-1) -> codes, as DuelTable.ordered_moves"},
    {"evaluate", (PyCFunction)session_evaluate, METH_VARARGS,
     "evaluate(me, opp, pile, mover) -> the heuristic score, as evaluation.evaluate"},
    {"wins_now", (PyCFunction)session_wins_now, METH_VARARGS,
     "wins_now(me, opp, pile, mover) -> a code or None, as DuelTable.wins_now"},
    {"path_push", (PyCFunction)session_path_push, METH_VARARGS,
     "path_push(key, ply): put a position on the path"},
    {"path_pop", (PyCFunction)session_path_pop, METH_NOARGS, "take the last position off"},
    {"path_get", (PyCFunction)session_path_get, METH_O, "path_get(key) -> its ply or None"},
    {"table_size", (PyCFunction)session_table_size, METH_NOARGS, "entries in the table"},
    {"clear_table", (PyCFunction)session_clear_table, METH_NOARGS, "empty the table"},
    {"table_get", (PyCFunction)session_table_get, METH_O,
     "table_get(key) -> (depth, score, flag, move) or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SessionType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games._core.DuelSearch",
    .tp_basicsize = sizeof(Session),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "DuelSearch(trumps, strict, collapse, repeated=()): one search session",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)session_init,
    .tp_dealloc = (destructor)session_dealloc,
    .tp_methods = SESSION_METHODS,
};

int search_add_to_module(PyObject *module) {
    if (PyType_Ready(&SessionType) < 0) return -1;
    Py_INCREF(&SessionType);
    if (PyModule_AddObject(module, "DuelSearch", (PyObject *)&SessionType) < 0) {
        Py_DECREF(&SessionType);
        return -1;
    }
    return 0;
}
