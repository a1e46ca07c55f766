/* The compiled core of games.rules and games.ai: the tables and helpers both halves share.
 *
 * Cards are codes 0..35 (suit * 9 + rank, suits C D H S), a set of cards a uint64_t bit
 * mask, exactly as in games/rules/cards.py; move codes are those of games/rules/moves.py.
 */
#ifndef YT_CORE_H
#define YT_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define N_CARDS 36
#define BEAT_BASE 36
#define TAKE_BASE 1400
#define MAX_SEATS 8
/* The most moves a position can have: 36 beaters times 35 seconds, and the take. */
#define MAX_MOVES 1264

/* BEATERS[trump][top]: the cards that beat top for a mover of that trump (cards.py). */
extern uint64_t BEATERS[4][N_CARDS];

void cards_init(void);

static inline uint64_t suit_mask(int suit) { return 0x1FFULL << (9 * suit); }
static inline int popcount(uint64_t mask) { return __builtin_popcountll(mask); }
static inline int lowest(uint64_t mask) { return __builtin_ctzll(mask); }
static inline int highest(uint64_t mask) { return 63 - __builtin_clzll(mask); }
static inline int single(uint64_t mask) { return (mask & (mask - 1)) == 0; }

/* Cards a take takes from a pile of len cards topped by top, for a mover of trump. */
static inline int take_count(int len, int top, int trump) {
    if (len == 0) return 0;
    if (top / 9 != trump) return len < 3 ? len : 3;
    if (top == trump * 9 + 8) return len;
    return len < 5 ? len : 5;
}

/* The legal move codes of a mover holding hand before pile (legal_codes of state.py):
 * the same codes in the same order; returns their number. */
int hand_moves(uint64_t hand, const uint8_t *pile, int len, int trump, int strict, int *codes);

/* Python values to C: a mask, a pile (a sequence of card codes), a seat's trump. */
int read_mask(PyObject *value, uint64_t *mask);
int read_pile(PyObject *value, uint8_t *pile, int *len);

int search_add_to_module(PyObject *module);
extern PyMethodDef RULES_METHODS[];

#endif
