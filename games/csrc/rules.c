/* The rules core: move generation, apply, perft and random playouts on a compact state.
 *
 * The C twin of games/rules/state.py (legal_codes, apply_code), perft.py and playout.py:
 * the same moves in the same order, the same positions after a move, and a playout that
 * draws the same random numbers (Python's Mersenne Twister, run here on the state that
 * random.Random.getstate() gives) and so plays the same game for the same seed.
 */
#include "core.h"

uint64_t BEATERS[4][N_CARDS];

void cards_init(void) {
    for (int trump = 0; trump < 4; trump++) {
        for (int top = 0; top < N_CARDS; top++) {
            int suit = top / 9;
            uint64_t higher = suit_mask(suit) & ~((1ULL << (top + 1)) - 1);
            BEATERS[trump][top] = suit == trump ? higher : higher | suit_mask(trump);
        }
    }
}

int read_mask(PyObject *value, uint64_t *mask) {
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >> N_CARDS) {
        PyErr_SetString(PyExc_ValueError, "a hand mask has bits above card 35");
        return -1;
    }
    *mask = v;
    return 0;
}

int read_pile(PyObject *value, uint8_t *pile, int *len) {
    PyObject *seq = PySequence_Fast(value, "the pile must be a sequence of card codes");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > N_CARDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a pile holds at most 36 cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (card < 0 || card >= N_CARDS) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card code is 0..35");
            return -1;
        }
        pile[i] = (uint8_t)card;
    }
    *len = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* --- the state ------------------------------------------------------------------------ */

typedef struct {
    int n, strict, to_move, len, n_out;
    int trumps[MAX_SEATS];
    uint64_t hands[MAX_SEATS], known[MAX_SEATS];
    int out[MAX_SEATS];
    uint8_t pile[N_CARDS];
} RState;

static int read_masks(PyObject *value, uint64_t *masks, int n, const char *what) {
    PyObject *seq = PySequence_Fast(value, what);
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: one per seat", what);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (read_mask(PySequence_Fast_GET_ITEM(seq, i), &masks[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* trumps, hands, known (None: none known), pile, out (a sequence of seats), to_move. */
static int read_state(RState *s, PyObject *trumps, PyObject *hands, PyObject *known,
                      PyObject *pile, PyObject *out, int to_move, int strict) {
    memset(s, 0, sizeof *s);
    PyObject *seq = PySequence_Fast(trumps, "trumps must be a sequence of suits");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 2 || n > MAX_SEATS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a game has 2 to 8 seats");
        return -1;
    }
    s->n = (int)n;
    for (int i = 0; i < s->n; i++) {
        long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (t < 0 || t > 3) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a suit is 0..3");
            return -1;
        }
        s->trumps[i] = (int)t;
    }
    Py_DECREF(seq);
    if (read_masks(hands, s->hands, s->n, "hands must be a sequence of masks") < 0) return -1;
    if (known != Py_None &&
        read_masks(known, s->known, s->n, "known must be a sequence of masks") < 0) return -1;
    if (read_pile(pile, s->pile, &s->len) < 0) return -1;
    seq = PySequence_Fast(out, "out must be a sequence of seats");
    if (!seq) return -1;
    Py_ssize_t n_out = PySequence_Fast_GET_SIZE(seq);
    if (n_out > s->n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "more seats out than seats");
        return -1;
    }
    s->n_out = (int)n_out;
    for (int i = 0; i < s->n_out; i++) {
        s->out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    }
    Py_DECREF(seq);
    if (PyErr_Occurred()) return -1;
    if (to_move < 0 || to_move >= s->n || (!s->hands[to_move] && s->n_out < s->n - 1)) {
        PyErr_SetString(PyExc_ValueError, "the seat to move must hold cards");
        return -1;
    }
    s->to_move = to_move;
    s->strict = strict;
    return 0;
}

/* (hands, known, pile, out, to_move) as Python lists and an int. */
static PyObject *state_tuple(const RState *s) {
    PyObject *hands = PyList_New(s->n), *known = PyList_New(s->n);
    PyObject *pile = PyList_New(s->len), *out = PyList_New(s->n_out);
    if (!hands || !known || !pile || !out) goto fail;
    for (int i = 0; i < s->n; i++) {
        PyList_SET_ITEM(hands, i, PyLong_FromUnsignedLongLong(s->hands[i]));
        PyList_SET_ITEM(known, i, PyLong_FromUnsignedLongLong(s->known[i]));
    }
    for (int i = 0; i < s->len; i++) PyList_SET_ITEM(pile, i, PyLong_FromLong(s->pile[i]));
    for (int i = 0; i < s->n_out; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(s->out[i]));
    return Py_BuildValue("(NNNNi)", hands, known, pile, out, s->to_move);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(known);
    Py_XDECREF(pile);
    Py_XDECREF(out);
    return NULL;
}

/* legal_codes of state.py: the same codes in the same order. */
int hand_moves(uint64_t hand, const uint8_t *pile, int len, int trump, int strict,
                      int *codes) {
    int m = 0;
    if (len == 0) {
        for (uint64_t h = hand; h; h &= h - 1) codes[m++] = lowest(h);
        return m;
    }
    uint64_t beaters = hand & BEATERS[trump][pile[len - 1]];
    if (single(hand)) {
        if (beaters) codes[m++] = highest(beaters);
    } else {
        for (uint64_t b = beaters; b; b &= b - 1) {
            int beater = lowest(b);
            int base = BEAT_BASE + 36 * beater;
            for (uint64_t r = hand ^ (1ULL << beater); r; r &= r - 1) {
                codes[m++] = base + lowest(r);
            }
        }
    }
    if (!(strict && beaters)) codes[m++] = TAKE_BASE + take_count(len, pile[len - 1], trump);
    return m;
}

static inline int is_over(const RState *s) { return s->n_out >= s->n - 1; }

static inline int state_moves(const RState *s, int *codes) {
    if (is_over(s)) return 0;
    int mover = s->to_move;
    return hand_moves(s->hands[mover], s->pile, s->len, s->trumps[mover], s->strict, codes);
}

/* count_legal_moves of state.py. */
static int count_moves(const RState *s) {
    if (is_over(s)) return 0;
    int mover = s->to_move;
    uint64_t hand = s->hands[mover];
    if (s->len == 0) return popcount(hand);
    int beaters = popcount(hand & BEATERS[s->trumps[mover]][s->pile[s->len - 1]]);
    int size = popcount(hand);
    int count = size > 1 ? beaters * (size - 1) : beaters;
    if (!(s->strict && beaters)) count += 1;
    return count;
}

static inline void next_mover(RState *s, int mover) {
    int seat = mover;
    for (int i = 0; i < s->n; i++) {
        seat = seat + 1 < s->n ? seat + 1 : 0;
        if (s->hands[seat]) break;
    }
    s->to_move = seat;
}

/* apply_code of state.py, for a legal code. */
static void apply_code(RState *s, int code) {
    int mover = s->to_move;
    if (code < BEAT_BASE) {
        uint64_t bit = 1ULL << code;
        s->hands[mover] ^= bit;
        s->known[mover] &= ~bit;
        s->pile[s->len++] = (uint8_t)code;
    } else if (code < TAKE_BASE) {
        int beater = (code - BEAT_BASE) / 36, second = (code - BEAT_BASE) % 36;
        uint64_t bits = 1ULL << beater | 1ULL << second;
        s->hands[mover] ^= bits;
        s->known[mover] &= ~bits;
        s->pile[s->len++] = (uint8_t)beater;
        s->pile[s->len++] = (uint8_t)second;
    } else {
        int count = code - TAKE_BASE;
        uint64_t taken = 0;
        for (int i = s->len - count; i < s->len; i++) taken |= 1ULL << s->pile[i];
        s->len -= count;
        s->hands[mover] |= taken;
        s->known[mover] |= taken;
    }
    if (!s->hands[mover]) s->out[s->n_out++] = mover;
    next_mover(s, mover);
}

static uint64_t perft(const RState *s, int depth) {
    if (depth == 0) return 1;
    if (depth == 1) return (uint64_t)count_moves(s);
    int codes[MAX_MOVES];
    int m = state_moves(s, codes);
    uint64_t total = 0;
    for (int i = 0; i < m; i++) {
        RState child = *s;
        apply_code(&child, codes[i]);
        total += perft(&child, depth - 1);
    }
    return total;
}

/* --- Python's Mersenne Twister (Modules/_randommodule.c), for identical playouts ------ */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

static uint32_t twister_next(Twister *t) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (t->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (t->mt[kk] & 0x80000000U) | (t->mt[kk + 1] & 0x7fffffffU);
            t->mt[kk] = t->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (t->mt[kk] & 0x80000000U) | (t->mt[kk + 1] & 0x7fffffffU);
            t->mt[kk] = t->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (t->mt[MT_N - 1] & 0x80000000U) | (t->mt[0] & 0x7fffffffU);
        t->mt[MT_N - 1] = t->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        t->index = 0;
    }
    y = t->mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 random bits in [0, 1). */
static double twister_random(Twister *t) {
    uint32_t a = twister_next(t) >> 5, b = twister_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int read_twister(PyObject *value, Twister *t) {
    PyObject *seq = PySequence_Fast(value, "the generator state is a tuple of 625 ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != MT_N + 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the generator state is a tuple of 625 ints");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        t->mt[i] = (uint32_t)PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
    }
    long index = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, MT_N));
    Py_DECREF(seq);
    if (PyErr_Occurred()) return -1;
    if (index < 0 || index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "the generator's index is 0..624");
        return -1;
    }
    t->index = (int)index;
    return 0;
}

static PyObject *twister_tuple(const Twister *t) {
    PyObject *tuple = PyTuple_New(MT_N + 1);
    if (!tuple) return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyTuple_SET_ITEM(tuple, i, PyLong_FromUnsignedLong(t->mt[i]));
    }
    PyTuple_SET_ITEM(tuple, MT_N, PyLong_FromLong(t->index));
    return tuple;
}

/* The k-th lowest card (from 0) of a mask holding more than k cards. */
static inline int kth_card(uint64_t mask, int k) {
    while (k--) mask &= mask - 1;
    return lowest(mask);
}

/* random_playout of playout.py, draw for draw. */
static int playout(RState *s, Twister *rng, int max_plies) {
    int mover = s->to_move, plies = 0, active = s->n - s->n_out;
    while (active > 1 && plies < max_plies) {
        plies++;
        uint64_t hand = s->hands[mover];
        int trump = s->trumps[mover];
        if (s->len) {
            int top = s->pile[s->len - 1];
            uint64_t beaters = hand & BEATERS[trump][top];
            int take = 1;
            if (beaters) {
                int size = popcount(hand);
                int seconds = size > 1 ? size - 1 : 1;
                int beats = popcount(beaters) * seconds;
                int pick = (int)(twister_random(rng) * (s->strict ? beats : beats + 1));
                if (pick < beats) {
                    take = 0;
                    int beater = kth_card(beaters, pick / seconds);
                    uint64_t bits;
                    if (size == 1) {
                        bits = 1ULL << beater;
                        s->pile[s->len++] = (uint8_t)beater;
                    } else {
                        int second = kth_card(hand ^ (1ULL << beater), pick % seconds);
                        bits = 1ULL << beater | 1ULL << second;
                        s->pile[s->len++] = (uint8_t)beater;
                        s->pile[s->len++] = (uint8_t)second;
                    }
                    hand ^= bits;
                    s->hands[mover] = hand;
                    s->known[mover] &= ~bits;
                }
            }
            if (take) {
                int count = take_count(s->len, top, trump);
                uint64_t taken = 0;
                for (int i = s->len - count; i < s->len; i++) taken |= 1ULL << s->pile[i];
                s->len -= count;
                s->hands[mover] = hand | taken;
                s->known[mover] |= taken;
                next_mover(s, mover);
                mover = s->to_move;
                continue;
            }
        } else {
            int card = kth_card(hand, (int)(twister_random(rng) * popcount(hand)));
            uint64_t bit = 1ULL << card;
            hand ^= bit;
            s->hands[mover] = hand;
            s->known[mover] &= ~bit;
            s->pile[s->len++] = (uint8_t)card;
        }
        if (!hand) {
            s->out[s->n_out++] = mover;
            active--;
        }
        next_mover(s, mover);
        mover = s->to_move;
    }
    s->to_move = mover;
    return plies;
}

/* --- Python functions ----------------------------------------------------------------- */

static PyObject *py_legal_codes(PyObject *self, PyObject *args) {
    PyObject *hand_obj, *pile_obj;
    int trump, strict;
    if (!PyArg_ParseTuple(args, "OOip:legal_codes", &hand_obj, &pile_obj, &trump, &strict))
        return NULL;
    uint64_t hand;
    uint8_t pile[N_CARDS];
    int len, codes[MAX_MOVES];
    if (read_mask(hand_obj, &hand) < 0 || read_pile(pile_obj, pile, &len) < 0) return NULL;
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "a suit is 0..3");
        return NULL;
    }
    int m = hand_moves(hand, pile, len, trump, strict, codes);
    PyObject *list = PyList_New(m);
    if (!list) return NULL;
    for (int i = 0; i < m; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(codes[i]));
    return list;
}

static PyObject *py_perft(PyObject *self, PyObject *args) {
    PyObject *trumps, *hands, *pile, *out;
    int to_move, strict, depth;
    if (!PyArg_ParseTuple(args, "OOOOipi:perft", &trumps, &hands, &pile, &out, &to_move,
                          &strict, &depth))
        return NULL;
    RState s;
    if (read_state(&s, trumps, hands, Py_None, pile, out, to_move, strict) < 0) return NULL;
    if (depth < 0) {
        PyErr_Format(PyExc_ValueError, "perft depth must be 0 or more, got %d", depth);
        return NULL;
    }
    uint64_t count;
    Py_BEGIN_ALLOW_THREADS
    count = perft(&s, depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(count);
}

static PyObject *py_apply_codes(PyObject *self, PyObject *args) {
    PyObject *trumps, *hands, *known, *pile, *out, *codes;
    int to_move;
    if (!PyArg_ParseTuple(args, "OOOOOiO:apply_codes", &trumps, &hands, &known, &pile, &out,
                          &to_move, &codes))
        return NULL;
    RState s;
    if (read_state(&s, trumps, hands, known, pile, out, to_move, 0) < 0) return NULL;
    PyObject *seq = PySequence_Fast(codes, "codes must be a sequence of move codes");
    if (!seq) return NULL;
    int legal[MAX_MOVES];
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (code == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        /* Only legal moves of the default variant (the strict ones are among them). */
        int m = state_moves(&s, legal), found = 0;
        for (int j = 0; j < m && !found; j++) found = legal[j] == code;
        if (!found) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "move code %ld is not legal here", code);
            return NULL;
        }
        apply_code(&s, (int)code);
    }
    Py_DECREF(seq);
    return state_tuple(&s);
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *trumps, *hands, *known, *pile, *out, *rng_state;
    int to_move, strict, max_plies;
    if (!PyArg_ParseTuple(args, "OOOOOipiO:playout", &trumps, &hands, &known, &pile, &out,
                          &to_move, &strict, &max_plies, &rng_state))
        return NULL;
    RState s;
    Twister rng;
    if (read_state(&s, trumps, hands, known, pile, out, to_move, strict) < 0) return NULL;
    if (read_twister(rng_state, &rng) < 0) return NULL;
    int plies = playout(&s, &rng, max_plies);
    PyObject *position = state_tuple(&s);
    if (!position) return NULL;
    return Py_BuildValue("(NiN)", position, plies, twister_tuple(&rng));
}

PyMethodDef RULES_METHODS[] = {
    {"legal_codes", py_legal_codes, METH_VARARGS,
     "legal_codes(hand, pile, trump, strict) -> the legal move codes, as state.legal_codes"},
    {"perft", py_perft, METH_VARARGS,
     "perft(trumps, hands, pile, out, to_move, strict, depth) -> the perft count"},
    {"apply_codes", py_apply_codes, METH_VARARGS,
     "apply_codes(trumps, hands, known, pile, out, to_move, codes) -> (hands, known, pile, "
     "out, to_move) after the legal moves of codes"},
    {"playout", py_playout, METH_VARARGS,
     "playout(trumps, hands, known, pile, out, to_move, strict, max_plies, rng_state) -> "
     "((hands, known, pile, out, to_move), plies, rng_state)"},
    {NULL, NULL, 0, NULL},
};
