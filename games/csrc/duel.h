/* Duel positions for search: the key of a position, its hash, and a move played on bare
 * masks (DuelTable.play of games/ai/duel.py). Shared by search.c and retrograde.c. */
#ifndef YT_DUEL_H
#define YT_DUEL_H

#include "core.h"
#include <string.h>

/* A position: the two hands seat by seat, the pile packed six bits a card, the mover. */
typedef struct {
    uint64_t h0, h1;
    uint64_t pile[4];
    uint8_t len, seat;
} Key;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t key_hash(const Key *k) {
    return mix(k->h0 * 0x9E3779B97F4A7C15ULL + k->h1 * 0xC2B2AE3D27D4EB4FULL +
               k->pile[0] * 0x165667B19E3779F9ULL + k->pile[1] * 0x27D4EB2F165667C5ULL +
               k->pile[2] * 0x94D049BB133111EBULL + k->pile[3] * 0xBF58476D1CE4E5B9ULL +
               (uint64_t)(k->len << 1 | k->seat));
}

static inline int key_equal(const Key *a, const Key *b) {
    return a->h0 == b->h0 && a->h1 == b->h1 && a->pile[0] == b->pile[0] &&
           a->pile[1] == b->pile[1] && a->pile[2] == b->pile[2] && a->pile[3] == b->pile[3] &&
           a->len == b->len && a->seat == b->seat;
}

/* duel_key of duel_search.py: seat 0's hand first. */
static inline void make_key(Key *k, uint64_t me, uint64_t opp, const uint8_t *pile, int len,
                            int mover) {
    k->h0 = mover == 0 ? me : opp;
    k->h1 = mover == 0 ? opp : me;
    k->pile[0] = k->pile[1] = k->pile[2] = k->pile[3] = 0;
    for (int i = 0; i < len; i++) k->pile[i / 10] |= (uint64_t)pile[i] << (6 * (i % 10));
    k->len = (uint8_t)len;
    k->seat = (uint8_t)mover;
}

/* A duel key from Python: (hand of seat 0, hand of seat 1, pile, seat to move). */
int read_key(PyObject *value, Key *k);

/* DuelTable.play: the mover's hand and the pile after the move. */
static inline uint64_t play(uint64_t me, const uint8_t *pile, int len, int code, uint8_t *after,
                            int *after_len) {
    memcpy(after, pile, len);
    if (code < BEAT_BASE) {
        after[len] = (uint8_t)code;
        *after_len = len + 1;
        return me ^ (1ULL << code);
    }
    if (code < TAKE_BASE) {
        int beater = (code - BEAT_BASE) / 36, second = (code - BEAT_BASE) % 36;
        after[len] = (uint8_t)beater;
        after[len + 1] = (uint8_t)second;
        *after_len = len + 2;
        return me ^ (1ULL << beater | 1ULL << second);
    }
    int count = code - TAKE_BASE;
    for (int i = len - count; i < len; i++) me |= 1ULL << pile[i];
    *after_len = len - count;
    return me;
}

#endif
