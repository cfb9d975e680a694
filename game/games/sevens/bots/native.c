/* The hard Sevens bot's two hot loops in C: the rollouts (rollout.py) and the sampler's chain
 * (inference.py); and the analysis' exact solve of a round's end (endgame.py's Solver). Each does
 * exactly what its Python does, many times faster. Built by
 * `make setup` into _native.so and loaded with ctypes (native.py). Cards are bits as in
 * bits.py: bit suit * 13 + rank, rank 0 the Ace, 6 the 7.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEVEN 6
#define MAX_SEATS 8

static uint64_t OPENS[52], BEYOND[52];
static int ready;

static void prepare(void) {
    for (int index = 0; index < 52; index++) {
        int suit = index / 13, rank = index % 13;
        uint64_t base = (uint64_t)1 << (suit * 13);
        OPENS[index] = 0;
        BEYOND[index] = 0;
        if (rank == SEVEN) OPENS[index] = (base << (rank - 1)) | (base << (rank + 1));
        else if (rank > 0 && rank < SEVEN) OPENS[index] = base << (rank - 1);
        else if (rank > SEVEN && rank < 12) OPENS[index] = base << (rank + 1);
        for (int r = 0; r < 13; r++) {
            int after = rank == SEVEN ? r != SEVEN : (rank < SEVEN ? r < rank : r > rank);
            if (after) BEYOND[index] |= base << r;
        }
    }
    ready = 1;
}

/* An end as one key: each hand's count in four bits, seat 0 lowest. */
static uint32_t end_key(const uint64_t *hands, int seats) {
    uint32_t key = 0;
    for (int seat = seats - 1; seat >= 0; seat--) key = (key << 4) | (uint32_t)__builtin_popcountll(hands[seat]);
    return key;
}

/* Play on from `seat` until a hand is empty, every seat by medium's rule (rollout.py's
 * finish_round, keen_pick written out). */
static void finish_round(uint64_t *hands, int seats, uint64_t fitting, int seat) {
    uint64_t in_hands = 0;
    for (int i = 0; i < seats; i++) in_hands |= hands[i];
    for (;;) {
        uint64_t hand = hands[seat], options = hand & fitting;
        if (options) {
            uint64_t card = options;
            if (options & (options - 1)) {
                int best = -(1 << 30);
                while (options) {
                    uint64_t low = options & -options;
                    options ^= low;
                    uint64_t behind = BEYOND[__builtin_ctzll(low)];
                    int own = __builtin_popcountll(hand & behind), rivals = __builtin_popcountll(in_hands & behind);
                    int keen = own ? 4096 + 65 * own - rivals : -rivals;
                    if (keen > best) {
                        best = keen;
                        card = low;
                    }
                }
            }
            hands[seat] = hand ^ card;
            in_hands ^= card;
            fitting = (fitting ^ card) | OPENS[__builtin_ctzll(card)];
            if (!hands[seat]) return;
        }
        seat = (seat + 1) % seats;
    }
}

/* For each deal (`seats` hands each), `me` plays `card` (a card index) with `fitting` fitting
 * before it, then the round is played out; the end (end_key) to keys[deal]. */
int sevens_ends(const uint64_t *deals, int n, int seats, uint64_t fitting, int me, int card, uint32_t *keys) {
    if (!ready) prepare();
    if (seats < 2 || seats > MAX_SEATS) return -2;
    uint64_t bit = (uint64_t)1 << card, after = (fitting ^ bit) | OPENS[card];
    for (int deal = 0; deal < n; deal++) {
        uint64_t hands[MAX_SEATS];
        memcpy(hands, deals + (size_t)deal * seats, sizeof(uint64_t) * seats);
        hands[me] ^= bit;
        if (hands[me]) finish_round(hands, seats, after, (me + 1) % seats);
        keys[deal] = end_key(hands, seats);
    }
    return 0;
}

/* The sampler's chain (inference.py's `likely_deals`): the same steps with the same random
 * numbers (splitmix64), so the same deals as the Python chain. */

typedef struct {
    uint64_t hands[MAX_SEATS], lacks[MAX_SEATS];
    uint64_t held[MAX_SEATS][52]; /* each hand's cards, in the order the swaps leave them */
    int held_count[MAX_SEATS];
    double weights[MAX_SEATS];
    uint64_t random;
    int step;
} Chain;

static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(uint64_t *state, int n) { return (int)(((next_random(state) >> 11) * (uint64_t)n) >> 53); }

static double uniform(uint64_t *state) { return (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0); }

/* A seat's evidence, flattened: items[seat] .. items[seat + 1] are its plays; play p has the
 * card `card[p]`, the cards played since `since[p]` and candidates cands[p] .. cands[p + 1]. */
typedef struct {
    const int *items, *cands;
    const uint64_t *card, *since;
    const uint64_t *bit, *free;
    const int *free_count;
    const double *powers; /* UNLIKE ** k */
} Evidence;

/* A seat's weight: UNLIKE to the number of its plays medium's rule would not have made
 * (inference.py's odd_plays). */
static double weight(const Evidence *e, int seat, uint64_t hand) {
    int odd = 0;
    for (int p = e->items[seat]; p < e->items[seat + 1]; p++) {
        uint64_t then = hand | e->since[p], keen_card = 0;
        int best = -(1 << 30), choices = 0;
        for (int c = e->cands[p]; c < e->cands[p + 1]; c++) {
            if (!(then & e->bit[c])) continue;
            choices++;
            int own = __builtin_popcountll(then & e->free[c]);
            int score = own ? ((64 + own) << 6) - (e->free_count[c] - own) : -e->free_count[c];
            if (score > best) {
                best = score;
                keen_card = e->bit[c];
            }
        }
        if (choices > 1) odd += keen_card != e->card[p];
    }
    return e->powers[odd];
}

/* Start a chain from a deal. */
int sevens_chain_start(Chain *chain, int size, const uint64_t *hands, const uint64_t *lacks, int seats,
                       const Evidence *e, uint64_t seed) {
    if (size != (int)sizeof(Chain) || seats < 2 || seats > MAX_SEATS) return -2;
    memset(chain, 0, sizeof(Chain));
    for (int seat = 0; seat < seats; seat++) {
        chain->hands[seat] = hands[seat];
        chain->lacks[seat] = lacks[seat];
        for (uint64_t bits = hands[seat]; bits; bits &= bits - 1) chain->held[seat][chain->held_count[seat]++] = bits & -bits;
        chain->weights[seat] = weight(e, seat, hands[seat]);
    }
    chain->random = seed;
    return 0;
}

/* The next `n` deals (`seats` hands each, to `out`): every `thin`th step after `burn_in`. */
void sevens_chain_deals(Chain *chain, int seats, int me, const Evidence *e, int burn_in, int thin, int n, uint64_t *out) {
    int others[MAX_SEATS], pairs[MAX_SEATS * MAX_SEATS][2], n_others = 0, n_pairs = 0;
    for (int seat = 0; seat < seats; seat++)
        if (seat != me) others[n_others++] = seat;
    for (int i = 0; i < n_others; i++)
        for (int j = 0; j < n_others; j++)
            if (i != j) {
                pairs[n_pairs][0] = others[i];
                pairs[n_pairs++][1] = others[j];
            }
    for (;;) {
        if (chain->step >= burn_in && (chain->step - burn_in) % thin == 0) {
            if (!n) return; /* the next call starts with this deal */
            memcpy(out, chain->hands, sizeof(uint64_t) * seats);
            out += seats;
            n--;
        }
        chain->step++;
        int pair = below(&chain->random, n_pairs), a = pairs[pair][0], b = pairs[pair][1];
        if (!chain->held_count[a] || !chain->held_count[b]) continue;
        int i = below(&chain->random, chain->held_count[a]), j = below(&chain->random, chain->held_count[b]);
        uint64_t x = chain->held[a][i], y = chain->held[b][j];
        if ((chain->lacks[b] & x) || (chain->lacks[a] & y)) continue;
        uint64_t new_a = (chain->hands[a] ^ x) | y, new_b = (chain->hands[b] ^ y) | x;
        double weight_a = weight(e, a, new_a), weight_b = weight(e, b, new_b);
        double ratio = weight_a * weight_b / (chain->weights[a] * chain->weights[b]);
        if (ratio >= 1 || uniform(&chain->random) < ratio) {
            chain->hands[a] = new_a;
            chain->hands[b] = new_b;
            chain->held[a][i] = y;
            chain->held[b][j] = x;
            chain->weights[a] = weight_a;
            chain->weights[b] = weight_b;
        }
    }
}

int sevens_chain_size(void) { return (int)sizeof(Chain); }

/* A round's end solved exactly (endgame.py's Solver): with every hand known, each seat plays
 * the card best for itself to the round's end (max^n), of equal cards the first in DECK order;
 * a seat with nothing that fits passes. The worth of an end to each seat comes from the caller:
 * worth[(sum of count[s] * stride[s]) * seats + seat]. Within one deal a position is the cards
 * still in hands and the seat to act (each card's holder is fixed), remembered in a table of the
 * call's own (so calls on several threads are safe) that the next deal's generation empties; a
 * table half full only stops remembering. */

#define SOLVE_SLOTS (1 << 16)

typedef struct {
    uint64_t key;
    uint32_t end, generation;
} Slot;

typedef struct {
    int seats;
    const int *stride;
    const double *worth;
    Slot *slots;
    uint32_t generation;
    int used;
} Solve;

static double worth_of(const Solve *s, uint32_t end, int seat) {
    int index = 0;
    for (int i = 0; i < s->seats; i++) index += (int)((end >> (4 * i)) & 15) * s->stride[i];
    return s->worth[index * s->seats + seat];
}

static uint32_t solve_end(Solve *s, uint64_t *hands, uint64_t fitting, int seat) {
    uint64_t in_hands = 0;
    for (int i = 0; i < s->seats; i++) in_hands |= hands[i];
    uint64_t key = in_hands | ((uint64_t)seat << 56);
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    unsigned at = (unsigned)(h >> 48) & (SOLVE_SLOTS - 1);
    for (;;) {
        Slot *slot = &s->slots[at];
        if (slot->generation != s->generation) break;
        if (slot->key == key) return slot->end;
        at = (at + 1) & (SOLVE_SLOTS - 1);
    }
    while (!(hands[seat] & fitting)) seat = (seat + 1) % s->seats;
    uint64_t options = hands[seat] & fitting;
    double best = 0;
    uint32_t best_end = 0;
    int first = 1;
    while (options) {
        uint64_t card = options & -options;
        options ^= card;
        uint32_t end;
        hands[seat] ^= card;
        if (!hands[seat]) end = end_key(hands, s->seats);
        else end = solve_end(s, hands, (fitting ^ card) | OPENS[__builtin_ctzll(card)], (seat + 1) % s->seats);
        hands[seat] ^= card;
        double value = worth_of(s, end, seat);
        if (first || value > best) {
            best = value;
            best_end = end;
            first = 0;
        }
    }
    if (s->used < SOLVE_SLOTS / 2) {
        Slot *slot = &s->slots[at];
        slot->key = key;
        slot->end = best_end;
        slot->generation = s->generation;
        s->used++;
    }
    return best_end;
}

/* For each deal, `me` plays `card` (a card index) with `fitting` fitting before it, then the
 * round is solved; its end (end_key) to keys[deal]. */
int sevens_solve(const uint64_t *deals, int n, int seats, uint64_t fitting, int me, int card, const int *stride,
                 const double *worth, uint32_t *keys) {
    if (!ready) prepare();
    if (seats < 2 || seats > MAX_SEATS) return -2;
    Slot *slots = calloc(SOLVE_SLOTS, sizeof(Slot));
    if (!slots) return -4;
    Solve s = {seats, stride, worth, slots, 0, 0};
    uint64_t bit = (uint64_t)1 << card, after = (fitting ^ bit) | OPENS[card];
    for (int deal = 0; deal < n; deal++) {
        uint64_t hands[MAX_SEATS];
        memcpy(hands, deals + (size_t)deal * seats, sizeof(uint64_t) * seats);
        if (!(hands[me] & bit)) {
            free(slots);
            return -3;
        }
        s.generation = (uint32_t)deal + 1;
        s.used = 0;
        hands[me] ^= bit;
        keys[deal] = hands[me] ? solve_end(&s, hands, after, (me + 1) % seats) : end_key(hands, seats);
    }
    free(slots);
    return 0;
}
