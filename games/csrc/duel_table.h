/* The duel table of games/ai/duel.py for the search (search.c): the trumps and variant of
 * a duel, equivalent cards collapsed, the moves of a position in the search's order, the
 * quick win, and the heuristic evaluation of games/ai/evaluation.py. */
#ifndef YT_DUEL_TABLE_H
#define YT_DUEL_TABLE_H

#include "duel.h"

typedef struct {
    int trumps[2];
    int strict, collapse;
    uint64_t special, trump_masks[2]; /* the aces of the trumps; each seat's trump suit */
} DuelTable;

static inline uint64_t representatives(const DuelTable *d, uint64_t cards,
                                       uint64_t present) {
    if (!d->collapse) return cards;
    uint64_t reps = cards;
    for (uint64_t c = cards; c; c &= c - 1) {
        int card = lowest(c);
        uint64_t below = present & suit_mask(card / 9) & ((1ULL << card) - 1);
        if (below && cards >> highest(below) & 1 && !(d->special >> card & 1)) {
            reps ^= 1ULL << card;
        }
    }
    return reps;
}

/* out_value: 1 (a win) or 0 (a draw: the other's single last card beats the new top). */
static inline int out_value(const DuelTable *d, uint64_t opp, int top, int mover) {
    return single(opp) && opp & BEATERS[d->trumps[1 - mover]][top] ? 0 : 1;
}

static inline int wins_now(const DuelTable *d, uint64_t me, uint64_t opp, const uint8_t *pile,
                           int len, int mover) {
    const uint64_t *row = BEATERS[d->trumps[mover]];
    if (single(me)) {
        int card = highest(me);
        if (len && !(me & row[pile[len - 1]])) return -1;
        return out_value(d, opp, card, mover) ? card : -1;
    }
    if (!len || popcount(me) != 2) return -1;
    uint64_t low = me & -me, high = me ^ low;
    uint64_t pairs[2][2] = {{low, high}, {high, low}};
    for (int i = 0; i < 2; i++) {
        if (pairs[i][0] & row[pile[len - 1]]) {
            int b = highest(pairs[i][0]), x = highest(pairs[i][1]);
            if (out_value(d, opp, x, mover)) return BEAT_BASE + 36 * b + x;
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

static inline void picker_init(Picker *p, const DuelTable *d, uint64_t me, uint64_t opp,
                        const uint8_t *pile, int len, int mover, int first) {
    const uint64_t *opp_row = BEATERS[d->trumps[1 - mover]];
    uint64_t present = me | opp;
    for (int i = 0; i < len; i++) present |= 1ULL << pile[i];
    uint64_t reps = representatives(d, me, present);
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
        int top = pile[len - 1], my_trump = d->trumps[mover];
        uint64_t beaters = reps & BEATERS[my_trump][top];
        if (single(me)) {
            if (beaters) p->keys[m++] = highest(beaters);
        } else {
            for (uint64_t b = beaters; b; b &= b - 1) {
                int beater = lowest(b);
                uint64_t rest = me ^ (1ULL << beater);
                int cost = (beater / 9 == my_trump) * 16 + beater % 9;
                int base = BEAT_BASE + 36 * beater;
                uint64_t seconds = representatives(d, rest, present);
                int out_now = single(rest);
                for (uint64_t x = seconds; x; x &= x - 1) {
                    int second = lowest(x);
                    int threat = popcount(opp & opp_row[second]);
                    int score = cost + 4 * threat - (out_now ? 1000 : 0);
                    p->keys[m++] = (int64_t)score * 4096 + base + second;
                }
            }
        }
        if (!(d->strict && beaters)) p->take = TAKE_BASE + take_count(len, top, my_trump);
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
static inline int picker_next(Picker *p) {
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

static inline int unbeatable(uint64_t cards, uint64_t against, const uint64_t *row) {
    int count = 0;
    for (uint64_t c = cards; c; c &= c - 1) count += !(against & row[lowest(c)]);
    return count;
}

/* evaluate of evaluation.py. */
static inline int evaluate(const DuelTable *d, uint64_t me, uint64_t opp, const uint8_t *pile,
                           int len, int mover) {
    const uint64_t *my_row = BEATERS[d->trumps[mover]], *opp_row = BEATERS[d->trumps[1 - mover]];
    int score = 100 * (popcount(opp) - popcount(me));
    score += 25 * (popcount(me & d->trump_masks[mover]) -
                   popcount(opp & d->trump_masks[1 - mover]));
    score += 12 * (unbeatable(me, opp, opp_row) - unbeatable(opp, me, my_row));
    if (len && !(me & my_row[pile[len - 1]])) {
        score -= 75 * take_count(len, pile[len - 1], d->trumps[mover]);
    }
    return score;
}

#endif
