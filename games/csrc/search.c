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
#include "duel.h"
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
    int trumps[2];
    int strict, collapse;
    uint64_t special, trump_masks[2];
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

/* --- the duel table (games/ai/duel.py) -------------------------------------------------- */

static uint64_t representatives(const Session *s, uint64_t cards, uint64_t present) {
    if (!s->collapse) return cards;
    uint64_t reps = cards;
    for (uint64_t c = cards; c; c &= c - 1) {
        int card = lowest(c);
        uint64_t below = present & suit_mask(card / 9) & ((1ULL << card) - 1);
        if (below && cards >> highest(below) & 1 && !(s->special >> card & 1)) {
            reps ^= 1ULL << card;
        }
    }
    return reps;
}

/* out_value: 1 (a win) or 0 (a draw: the other's single last card beats the new top). */
static inline int out_value(const Session *s, uint64_t opp, int top, int mover) {
    return single(opp) && opp & BEATERS[s->trumps[1 - mover]][top] ? 0 : 1;
}

static int wins_now(const Session *s, uint64_t me, uint64_t opp, const uint8_t *pile, int len,
                    int mover) {
    const uint64_t *row = BEATERS[s->trumps[mover]];
    if (single(me)) {
        int card = highest(me);
        if (len && !(me & row[pile[len - 1]])) return -1;
        return out_value(s, opp, card, mover) ? card : -1;
    }
    if (!len || popcount(me) != 2) return -1;
    uint64_t low = me & -me, high = me ^ low;
    uint64_t pairs[2][2] = {{low, high}, {high, low}};
    for (int i = 0; i < 2; i++) {
        if (pairs[i][0] & row[pile[len - 1]]) {
            int b = highest(pairs[i][0]), x = highest(pairs[i][1]);
            if (out_value(s, opp, x, mover)) return BEAT_BASE + 36 * b + x;
        }
    }
    return -1;
}

/* Sorts distinct keys ascending: quicksort down to short runs, then insertion sort. */
static void sort_keys(int64_t *keys, int n) {
    while (n > 16) {
        int64_t a = keys[0], b = keys[n / 2], c = keys[n - 1];
        int64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int i = 0, j = n - 1;
        for (;;) {
            while (keys[i] < pivot) i++;
            while (keys[j] > pivot) j--;
            if (i >= j) break;
            int64_t t = keys[i];
            keys[i++] = keys[j];
            keys[j--] = t;
        }
        /* keys[0..j] <= pivot <= keys[j+1..n): sort the smaller side by recursion */
        if (j + 1 < n - j - 1) {
            sort_keys(keys, j + 1);
            keys += j + 1;
            n -= j + 1;
        } else {
            sort_keys(keys + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (int i = 1; i < n; i++) {
        int64_t key = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > key) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = key;
    }
}

/* The moves of ordered_moves (duel.py) in the same order, handed out one at a time: each
 * move has a sort key (its order, then its code), and since a cut often comes after one
 * or two moves, the first few are picked by selection and the rest sorted only when they
 * are asked for. The take, if allowed, comes last; `first`, if among the moves, first. */
#define PICKED_BY_SELECTION 3

typedef struct {
    int64_t keys[MAX_MOVES];
    int n_keys, given, take, first, first_given, count;
} Picker;

static inline int key_code(int64_t key) {
    int64_t code = key % 4096;
    return (int)(code < 0 ? code + 4096 : code);
}

static void picker_init(Picker *p, const Session *s, uint64_t me, uint64_t opp,
                        const uint8_t *pile, int len, int mover, int first) {
    const uint64_t *opp_row = BEATERS[s->trumps[1 - mover]];
    uint64_t present = me | opp;
    for (int i = 0; i < len; i++) present |= 1ULL << pile[i];
    uint64_t reps = representatives(s, me, present);
    int m = 0;
    p->take = -1;
    if (!len) {
        if (single(me)) {
            p->keys[m++] = highest(me);
        } else {
            /* by (threat, rank), stable over the codes in ascending order */
            for (uint64_t r = reps; r; r &= r - 1) {
                int c = lowest(r);
                p->keys[m++] = ((int64_t)popcount(opp & opp_row[c]) * 16 + c % 9) * 4096 + c;
            }
        }
    } else {
        int top = pile[len - 1], my_trump = s->trumps[mover];
        uint64_t beaters = reps & BEATERS[my_trump][top];
        if (single(me)) {
            if (beaters) p->keys[m++] = highest(beaters);
        } else {
            for (uint64_t b = beaters; b; b &= b - 1) {
                int beater = lowest(b);
                uint64_t rest = me ^ (1ULL << beater);
                int cost = (beater / 9 == my_trump) * 16 + beater % 9;
                int base = BEAT_BASE + 36 * beater;
                uint64_t seconds = representatives(s, rest, present);
                int out_now = single(rest);
                for (uint64_t x = seconds; x; x &= x - 1) {
                    int second = lowest(x);
                    int threat = popcount(opp & opp_row[second]);
                    int score = cost + 4 * threat - (out_now ? 1000 : 0);
                    p->keys[m++] = (int64_t)score * 4096 + base + second;
                }
            }
        }
        if (!(s->strict && beaters)) p->take = TAKE_BASE + take_count(len, top, my_trump);
    }
    p->n_keys = m;
    p->given = 0;
    p->count = m + (p->take >= 0);
    p->first = -1;
    p->first_given = 0;
    if (first >= 0) {
        int found = first == p->take;
        for (int i = 0; i < m && !found; i++) found = key_code(p->keys[i]) == first;
        if (found) p->first = first;
    }
}

/* The next move, or -1 after the last. */
static int picker_next(Picker *p) {
    if (p->first >= 0 && !p->first_given) {
        p->first_given = 1;
        return p->first;
    }
    while (p->given < p->n_keys) {
        int64_t *keys = p->keys;
        int i = p->given;
        if (i < PICKED_BY_SELECTION) {
            int best = i;
            for (int j = i + 1; j < p->n_keys; j++) {
                if (keys[j] < keys[best]) best = j;
            }
            int64_t t = keys[i];
            keys[i] = keys[best];
            keys[best] = t;
        } else if (i == PICKED_BY_SELECTION) {
            sort_keys(keys + i, p->n_keys - i);
        }
        p->given++;
        int code = key_code(keys[i]);
        if (code != p->first) return code;
    }
    if (p->take >= 0 && p->given == p->n_keys) {
        p->given++;
        if (p->take != p->first) return p->take;
    }
    return -1;
}

static int unbeatable(uint64_t cards, uint64_t against, const uint64_t *row) {
    int count = 0;
    for (uint64_t c = cards; c; c &= c - 1) count += !(against & row[lowest(c)]);
    return count;
}

/* evaluate of evaluation.py. */
static int evaluate(const Session *s, uint64_t me, uint64_t opp, const uint8_t *pile, int len,
                    int mover) {
    const uint64_t *my_row = BEATERS[s->trumps[mover]], *opp_row = BEATERS[s->trumps[1 - mover]];
    int score = 100 * (popcount(opp) - popcount(me));
    score += 25 * (popcount(me & s->trump_masks[mover]) - popcount(opp & s->trump_masks[1 - mover]));
    score += 12 * (unbeatable(me, opp, opp_row) - unbeatable(opp, me, my_row));
    if (len && !(me & my_row[pile[len - 1]])) {
        score -= 75 * take_count(len, pile[len - 1], s->trumps[mover]);
    }
    return score;
}

/* --- the node ------------------------------------------------------------------------- */

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* _check_budget of duel_search.py: sets stopped and returns nonzero past the budget. */
static int check_budget(Session *s) {
    if (s->max_nodes >= 0 && s->nodes > s->max_nodes) return s->stopped = 1;
    if (s->deadline >= 0 && monotonic() > s->deadline) return s->stopped = 1;
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
    if (wins_now(s, me, opp, pile, len, mover) >= 0) return WIN_SCORE - ply - 1;
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
    if (depth <= 0 || ply >= MAX_PLY) return evaluate(s, me, opp, pile, len, mover);
    Picker picker;
    picker_init(&picker, s, me, opp, pile, len, mover, hint);
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
            value = out_value(s, opp, after[after_len - 1], mover) ? WIN_SCORE - ply - 1 : 0;
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
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "(ii)pp|O:DuelSearch", names, &s->trumps[0],
                                     &s->trumps[1], &s->strict, &s->collapse, &repeated))
        return -1;
    for (int i = 0; i < 2; i++) {
        if (s->trumps[i] < 0 || s->trumps[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "a suit is 0..3");
            return -1;
        }
        s->trump_masks[i] = suit_mask(s->trumps[i]);
    }
    s->special = 1ULL << (s->trumps[0] * 9 + 8) | 1ULL << (s->trumps[1] * 9 + 8);
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
                            "nodes", "max_nodes", "deadline", "should_stop", NULL};
    PyObject *me_obj, *opp_obj, *pile_obj, *max_nodes, *deadline, *should_stop;
    int mover, depth, alpha, beta, ply;
    long long nodes;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOiiiiiLOOO:search", names, &me_obj,
                                     &opp_obj, &pile_obj, &mover, &depth, &alpha, &beta, &ply,
                                     &nodes, &max_nodes, &deadline, &should_stop))
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
    s->stopped = 0;
    int dep = FREE;
    int value = node(s, me, opp, pile, len, mover, depth, alpha, beta, ply, &dep);
    s->should_stop = NULL;
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
    picker_init(picker, s, me, opp, pile, len, mover, first);
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
    return PyLong_FromLong(evaluate(s, me, opp, pile, len, mover));
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
    int code = wins_now(s, me, opp, pile, len, mover);
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
     "should_stop) -> (score, path index, nodes, stopped)"},
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
