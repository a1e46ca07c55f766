/* Retrograde analysis of a duel position: every position reachable from it, the moves
 * between them, and the exact value and distance of each, from the ends backwards.
 *
 * Positions are numbered in the order they are first reached (breadth first from the
 * root, every legal move in the order of legal_codes, no card collapsed). A move that goes
 * out is an exit worth a win or, by the draw rule, a draw; so is a move into a position of
 * `draws` (the game has seen it twice: entering it is its third occurrence), which is not
 * explored. Then, from the exits back: a position with a winning exit, or a move into a
 * position lost for the other seat, is won; one whose every move leads into positions won
 * for the other seat (and that has no drawing exit) is lost; what is left is open, a draw
 * (either side can keep the game going, or repeat). A won position's distance is the
 * fewest plies to the end against the best defence, a lost one's the most; the queue
 * resolves positions in order of distance. Along the winner's line the distance falls at
 * every ply, so it never repeats a position: these are the game's values.
 *
 * retrograde: the root's value, distance and every root move's, in one call (with
 * root_on_path, entering the root again is a draw as well: the rule of a search path).
 * retrograde_graph: the value and distance of every position, as a dict.
 * tests/ai/retrograde_reference.py is the same analysis in Python, which the tests hold
 * these to.
 */
#include "duel.h"

#define UNKNOWN 0
#define WON 1
#define LOST 2
#define DRAWN 3

typedef struct {
    /* positions by number, and a hash index of them */
    Key *keys;
    uint32_t *slots; /* number + 1, 0 while empty */
    size_t n, cap_keys, cap_slots;
    /* moves: position i's go to targets[first[i] .. first[i + 1]) (a number, or an exit:
     * -1 a win for the mover, -2 a draw) */
    int32_t *targets;
    size_t *first;
    size_t n_targets, cap_targets, cap_first;
} Graph;

static void graph_free(Graph *g) {
    PyMem_RawFree(g->keys);
    PyMem_RawFree(g->slots);
    PyMem_RawFree(g->targets);
    PyMem_RawFree(g->first);
}

static int grow(void **array, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) cap2 *= 2;
    void *bigger = PyMem_RawRealloc(*array, cap2 * size);
    if (!bigger) return -1;
    *array = bigger;
    *cap = cap2;
    return 0;
}

static int rehash(Graph *g) {
    size_t cap = g->cap_slots ? 2 * g->cap_slots : 1 << 12;
    uint32_t *slots = PyMem_RawCalloc(cap, sizeof(uint32_t));
    if (!slots) return -1;
    for (size_t i = 0; i < g->n; i++) {
        size_t j = key_hash(&g->keys[i]) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)(i + 1);
    }
    PyMem_RawFree(g->slots);
    g->slots = slots;
    g->cap_slots = cap;
    return 0;
}

/* The number of a position, added if new; -1 out of memory, -2 past max_states. */
static long long graph_number(Graph *g, const Key *k, size_t max_states) {
    if (2 * (g->n + 1) > g->cap_slots && rehash(g) < 0) return -1;
    size_t mask = g->cap_slots - 1, j = key_hash(k) & mask;
    for (; g->slots[j]; j = (j + 1) & mask) {
        if (key_equal(&g->keys[g->slots[j] - 1], k)) return g->slots[j] - 1;
    }
    if (g->n >= max_states) return -2;
    if (grow((void **)&g->keys, &g->cap_keys, g->n + 1, sizeof(Key)) < 0) return -1;
    g->keys[g->n] = *k;
    g->slots[j] = (uint32_t)(g->n + 1);
    return (long long)g->n++;
}

/* The number of a position, or -1 if the graph does not hold it. */
static long long graph_find(const Graph *g, const Key *k) {
    if (!g->cap_slots) return -1;
    size_t mask = g->cap_slots - 1, j = key_hash(k) & mask;
    for (; g->slots[j]; j = (j + 1) & mask) {
        if (key_equal(&g->keys[g->slots[j] - 1], k)) return g->slots[j] - 1;
    }
    return -1;
}

static void unpack(const Key *k, uint64_t *me, uint64_t *opp, uint8_t *pile, int *len,
                   int *mover) {
    *mover = k->seat;
    *me = k->seat == 0 ? k->h0 : k->h1;
    *opp = k->seat == 0 ? k->h1 : k->h0;
    *len = k->len;
    for (int i = 0; i < k->len; i++) pile[i] = (uint8_t)(k->pile[i / 10] >> (6 * (i % 10)) & 63);
}

typedef struct {
    int trumps[2], strict;
    const Key *draws;
    int n_draws;
} Rules;

static int is_draw(const Rules *r, const Key *k) {
    if (!r->n_draws) return 0;
    for (int i = 0; i < r->n_draws; i++) {
        if (key_equal(&r->draws[i], k)) return 1;
    }
    return 0;
}

/* Number every position reachable from the root and record its moves. Returns 0, -1 out
 * of memory, -2 past max_states, -3 if check or a signal handler raised. check(count),
 * if given, is called whenever the count of positions reaches a multiple of 4096. */
static int explore(Graph *g, const Rules *r, const Key *root, size_t max_states,
                   PyObject *check) {
    if (graph_number(g, root, max_states) < 0) return -1;
    int codes[MAX_MOVES];
    uint8_t pile[N_CARDS], after[N_CARDS];
    for (size_t i = 0; i < g->n; i++) {
        if (grow((void **)&g->first, &g->cap_first, i + 2, sizeof(size_t)) < 0) return -1;
        g->first[i] = g->n_targets;
        Key key = g->keys[i];
        uint64_t me, opp;
        int len, mover, after_len;
        unpack(&key, &me, &opp, pile, &len, &mover);
        int m = hand_moves(me, pile, len, r->trumps[mover], r->strict, codes);
        size_t cap = g->cap_targets;
        if (grow((void **)&g->targets, &cap, g->n_targets + m, sizeof(int32_t)) < 0) return -1;
        g->cap_targets = cap;
        for (int c = 0; c < m; c++) {
            uint64_t mine = play(me, pile, len, codes[c], after, &after_len);
            int32_t target;
            if (!mine) {
                int draw = single(opp) && opp & BEATERS[r->trumps[1 - mover]][after[after_len - 1]];
                target = draw ? -2 : -1;
            } else {
                Key child;
                make_key(&child, opp, mine, after, after_len, 1 - mover);
                if (is_draw(r, &child)) {
                    target = -2;
                } else {
                    size_t before = g->n;
                    long long number = graph_number(g, &child, max_states);
                    if (number < 0) return (int)number;
                    target = (int32_t)number;
                    if (g->n > before && (number & 4095) == 0) {
                        /* a signal's Python handler runs here, and may raise */
                        if (PyErr_CheckSignals() < 0) return -3;
                        if (check) {
                            PyObject *done = PyObject_CallFunction(check, "L", number);
                            if (!done) return -3;
                            Py_DECREF(done);
                        }
                    }
                }
            }
            g->targets[g->n_targets++] = target;
        }
    }
    if (grow((void **)&g->first, &g->cap_first, g->n + 1, sizeof(size_t)) < 0) return -1;
    g->first[g->n] = g->n_targets;
    return 0;
}

/* Values (WON, LOST or DRAWN for the mover) and distances of every position; with
 * root_on_path, entering the root again is a draw (it is left DRAWN here, and valued from
 * its moves by the caller). */
static int solve(const Graph *g, int root_on_path, uint8_t *value, int32_t *distance) {
    size_t n = g->n;
    int32_t *open = PyMem_RawCalloc(n ? n : 1, sizeof(int32_t));
    size_t *pred_first = PyMem_RawCalloc(n + 1, sizeof(size_t));
    int32_t *preds = PyMem_RawMalloc((g->n_targets ? g->n_targets : 1) * sizeof(int32_t));
    int32_t *queue = PyMem_RawMalloc((n ? n : 1) * sizeof(int32_t));
    if (!open || !pred_first || !preds || !queue) {
        PyMem_RawFree(open);
        PyMem_RawFree(pred_first);
        PyMem_RawFree(preds);
        PyMem_RawFree(queue);
        return -1;
    }
    size_t head = 0, tail = 0;
    memset(value, UNKNOWN, n);
    for (size_t i = 0; i < n; i++) {
        distance[i] = 0;
        if (g->first[i] == g->first[i + 1] || (i == 0 && root_on_path)) {
            /* a draw when entered */
            value[i] = DRAWN;
            continue;
        }
        for (size_t e = g->first[i]; e < g->first[i + 1]; e++) {
            int32_t t = g->targets[e];
            if (t == -1 && value[i] == UNKNOWN) {
                value[i] = WON;
                distance[i] = 1;
                queue[tail++] = (int32_t)i;
            }
            /* a drawing exit keeps the position from ever being lost */
            open[i] += 1;
            if (t >= 0) pred_first[t + 1]++;
        }
        for (size_t e = g->first[i]; e < g->first[i + 1]; e++) open[i] -= g->targets[e] == -1;
    }
    for (size_t i = 0; i < n; i++) pred_first[i + 1] += pred_first[i];
    size_t *fill = PyMem_RawMalloc((n ? n : 1) * sizeof(size_t));
    if (!fill) {
        PyMem_RawFree(open);
        PyMem_RawFree(pred_first);
        PyMem_RawFree(preds);
        PyMem_RawFree(queue);
        return -1;
    }
    memcpy(fill, pred_first, n * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        if (value[i] == DRAWN) continue; /* a draw when entered: its moves are not played */
        for (size_t e = g->first[i]; e < g->first[i + 1]; e++) {
            int32_t t = g->targets[e];
            if (t >= 0) preds[fill[t]++] = (int32_t)i;
        }
    }
    PyMem_RawFree(fill);
    while (head < tail) {
        int32_t c = queue[head++];
        for (size_t e = pred_first[c]; e < pred_first[c + 1]; e++) {
            int32_t p = preds[e];
            if (value[p] != UNKNOWN) continue;
            if (value[c] == LOST) {
                value[p] = WON;
                distance[p] = distance[c] + 1;
                queue[tail++] = p;
            } else if (--open[p] == 0) {
                value[p] = LOST;
                distance[p] = distance[c] + 1;
                queue[tail++] = p;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (value[i] == UNKNOWN) value[i] = DRAWN;
    }
    PyMem_RawFree(open);
    PyMem_RawFree(pred_first);
    PyMem_RawFree(preds);
    PyMem_RawFree(queue);
    return 0;
}

static int read_rules(Rules *r, PyObject *draws_obj) {
    for (int i = 0; i < 2; i++) {
        if (r->trumps[i] < 0 || r->trumps[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "a suit is 0..3");
            return -1;
        }
    }
    if (!draws_obj) return 0;
    PyObject *seq = PySequence_Fast(draws_obj, "draws must be a collection of duel keys");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Key *draws = PyMem_RawCalloc(n ? n : 1, sizeof(Key));
    if (!draws) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_key(PySequence_Fast_GET_ITEM(seq, i), &draws[i]) < 0) {
            Py_DECREF(seq);
            PyMem_RawFree(draws);
            return -1;
        }
    }
    Py_DECREF(seq);
    r->draws = draws;
    r->n_draws = (int)n;
    return 0;
}

/* Explore and solve: 0, or -2 past max_states, or -1 with a Python error set. */
static int analyse(Graph *g, const Rules *r, const Key *root, Py_ssize_t max_states,
                   PyObject *check, int root_on_path, uint8_t **value, int32_t **distance) {
    memset(g, 0, sizeof *g);
    int status = explore(g, r, root, max_states < 1 ? 1 : (size_t)max_states, check);
    if (status == -2) return -2;
    if (status == -3) return -1;
    if (status == 0) {
        *value = PyMem_RawMalloc(g->n);
        *distance = PyMem_RawMalloc(g->n * sizeof(int32_t));
    }
    if (status < 0 || !*value || !*distance || solve(g, root_on_path, *value, *distance) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static inline int signed_status(uint8_t v) { return v == WON ? 1 : v == LOST ? -1 : 0; }

PyObject *py_retrograde(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"trumps", "strict", "me", "opp", "pile", "mover", "draws",
                            "root_on_path", "max_states", NULL};
    Rules r = {{0, 0}, 0, NULL, 0};
    PyObject *me_obj, *opp_obj, *pile_obj, *draws_obj = NULL;
    int mover, root_on_path = 0;
    Py_ssize_t max_states = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "(ii)pOOOi|Opn:retrograde", names,
                                     &r.trumps[0], &r.trumps[1], &r.strict, &me_obj, &opp_obj,
                                     &pile_obj, &mover, &draws_obj, &root_on_path,
                                     &max_states))
        return NULL;
    uint64_t me, opp;
    uint8_t pile[N_CARDS];
    int len;
    if (read_mask(me_obj, &me) < 0 || read_mask(opp_obj, &opp) < 0 ||
        read_pile(pile_obj, pile, &len) < 0)
        return NULL;
    if (mover != 0 && mover != 1) {
        PyErr_SetString(PyExc_ValueError, "a duel's mover is 0 or 1");
        return NULL;
    }
    if (!me || !opp) {
        PyErr_SetString(PyExc_ValueError, "both seats must hold cards");
        return NULL;
    }
    if (read_rules(&r, draws_obj) < 0) return NULL;
    Key root;
    make_key(&root, me, opp, pile, len, mover);
    Graph g;
    uint8_t *value = NULL;
    int32_t *distance = NULL;
    PyObject *result = NULL;
    int status = analyse(&g, &r, &root, max_states, NULL, root_on_path, &value, &distance);
    if (status == -2) result = Py_NewRef(Py_None);
    if (status) goto done;
    int codes[MAX_MOVES];
    int m = hand_moves(me, pile, len, r.trumps[mover], r.strict, codes);
    PyObject *moves = PyTuple_New(m);
    if (!moves) goto done;
    /* the root's value from its moves: the best; a win as soon, a loss as late as can be */
    int best = -2, best_distance = 0;
    for (int c = 0; c < m; c++) {
        int32_t t = g.targets[g.first[0] + c];
        int v, d;
        if (t == -1) {
            v = 1;
            d = 1;
        } else if (t == -2) {
            v = 0;
            d = 0;
        } else {
            v = -signed_status(value[t]);
            d = v ? distance[t] + 1 : 0;
        }
        PyTuple_SET_ITEM(moves, c, Py_BuildValue("(iii)", codes[c], v, d));
        if (v > best || (v == best && ((v > 0 && d < best_distance) ||
                                       (v < 0 && d > best_distance)))) {
            best = v;
            best_distance = d;
        }
    }
    result = Py_BuildValue("(iiNn)", best, best_distance, moves, (Py_ssize_t)g.n);
done:
    PyMem_RawFree(value);
    PyMem_RawFree(distance);
    PyMem_RawFree((void *)r.draws);
    graph_free(&g);
    return result;
}

static PyObject *key_tuple(const Key *k) {
    PyObject *pile = PyTuple_New(k->len);
    if (!pile) return NULL;
    for (int i = 0; i < k->len; i++) {
        PyTuple_SET_ITEM(pile, i, PyLong_FromLong((long)(k->pile[i / 10] >> (6 * (i % 10)) & 63)));
    }
    return Py_BuildValue("(KKNi)", (unsigned long long)k->h0, (unsigned long long)k->h1, pile,
                         (int)k->seat);
}

/* --- the solved graph: a read-only mapping of duel keys to (status, distance) --------- */

typedef struct {
    PyObject_HEAD
    Graph graph;
    uint8_t *value;
    int32_t *distance;
} Solved;

static void solved_dealloc(Solved *self) {
    PyMem_RawFree(self->value);
    PyMem_RawFree(self->distance);
    graph_free(&self->graph);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t solved_length(Solved *self) { return (Py_ssize_t)self->graph.n; }

static PyObject *solved_node(Solved *self, size_t i) {
    int status = signed_status(self->value[i]);
    return Py_BuildValue("(ii)", status, status ? self->distance[i] : 0);
}

/* The number of the position of a key, -1 if absent, -2 on a malformed key (error set). */
static long long solved_number(Solved *self, PyObject *key_obj) {
    Key key;
    if (!PyTuple_Check(key_obj) || read_key(key_obj, &key) < 0) {
        if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_TypeError)) return -2;
        PyErr_Clear();
        return -1;
    }
    return graph_find(&self->graph, &key);
}

static PyObject *solved_subscript(Solved *self, PyObject *key_obj) {
    long long i = solved_number(self, key_obj);
    if (i == -2) return NULL;
    if (i < 0) {
        PyErr_SetObject(PyExc_KeyError, key_obj);
        return NULL;
    }
    return solved_node(self, (size_t)i);
}

static int solved_contains(Solved *self, PyObject *key_obj) {
    long long i = solved_number(self, key_obj);
    return i == -2 ? -1 : i >= 0;
}

static PyObject *solved_get(Solved *self, PyObject *args) {
    PyObject *key_obj, *fallback = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:get", &key_obj, &fallback)) return NULL;
    long long i = solved_number(self, key_obj);
    if (i == -2) return NULL;
    if (i < 0) return Py_NewRef(fallback);
    return solved_node(self, (size_t)i);
}

static PyObject *solved_to_dict(Solved *self, PyObject *unused) {
    PyObject *nodes = PyDict_New();
    for (size_t i = 0; nodes && i < self->graph.n; i++) {
        PyObject *key = key_tuple(&self->graph.keys[i]), *node = solved_node(self, i);
        if (!key || !node || PyDict_SetItem(nodes, key, node) < 0) Py_CLEAR(nodes);
        Py_XDECREF(key);
        Py_XDECREF(node);
    }
    return nodes;
}

static PyMappingMethods SOLVED_MAPPING = {
    .mp_length = (lenfunc)solved_length,
    .mp_subscript = (binaryfunc)solved_subscript,
};

static PySequenceMethods SOLVED_SEQUENCE = {
    .sq_contains = (objobjproc)solved_contains,
};

static PyMethodDef SOLVED_METHODS[] = {
    {"get", (PyCFunction)solved_get, METH_VARARGS,
     "get(key, default=None) -> (status, distance) of the position, or default"},
    {"to_dict", (PyCFunction)solved_to_dict, METH_NOARGS,
     "every position's (status, distance), as a dict"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolvedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games._core.SolvedGraph",
    .tp_basicsize = sizeof(Solved),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The solved graph of a retrograde_graph call: solved[key] -> (status, distance)",
    .tp_dealloc = (destructor)solved_dealloc,
    .tp_as_mapping = &SOLVED_MAPPING,
    .tp_as_sequence = &SOLVED_SEQUENCE,
    .tp_methods = SOLVED_METHODS,
};

int retrograde_add_to_module(PyObject *module) {
    if (PyType_Ready(&SolvedType) < 0) return -1;
    Py_INCREF(&SolvedType);
    if (PyModule_AddObject(module, "SolvedGraph", (PyObject *)&SolvedType) < 0) {
        Py_DECREF(&SolvedType);
        return -1;
    }
    return 0;
}

PyObject *py_retrograde_graph(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"trumps", "strict", "root", "draws", "max_states", "check", NULL};
    Rules r = {{0, 0}, 0, NULL, 0};
    PyObject *root_obj, *draws_obj = NULL, *max_obj = Py_None, *check = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "(ii)pO|OOO:retrograde_graph", names,
                                     &r.trumps[0], &r.trumps[1], &r.strict, &root_obj,
                                     &draws_obj, &max_obj, &check))
        return NULL;
    Py_ssize_t max_states = PY_SSIZE_T_MAX;
    if (max_obj != Py_None) {
        max_states = PyLong_AsSsize_t(max_obj);
        if (max_states == -1 && PyErr_Occurred()) return NULL;
    }
    Key root;
    if (read_key(root_obj, &root) < 0) return NULL;
    if (!root.h0 || !root.h1) {
        PyErr_SetString(PyExc_ValueError, "both seats must hold cards");
        return NULL;
    }
    if (read_rules(&r, draws_obj) < 0) return NULL;
    Solved *solved = PyObject_New(Solved, &SolvedType);
    if (!solved) {
        PyMem_RawFree((void *)r.draws);
        return NULL;
    }
    solved->value = NULL;
    solved->distance = NULL;
    int status = analyse(&solved->graph, &r, &root, max_states, check == Py_None ? NULL : check,
                         0, &solved->value, &solved->distance);
    PyMem_RawFree((void *)r.draws);
    if (status) {
        Py_DECREF(solved);
        return status == -2 ? Py_NewRef(Py_None) : NULL;
    }
    /* the moves are not needed any more: only the positions and their values */
    PyMem_RawFree(solved->graph.targets);
    PyMem_RawFree(solved->graph.first);
    solved->graph.targets = NULL;
    solved->graph.first = NULL;
    return (PyObject *)solved;
}
