/*
 * nines.solver._core -- exact perfect-information ("double dummy") solver for the
 * trick-taking games of Nines: Elyigit's Nines (compulsory overtaking and trumping)
 * and Le Neuf (plain follow suit; three players, four in partnerships, four alone).
 *
 * This header is what every part of the core shares: the position (Ctx), a move, the
 * trick in progress, the transposition table's layout, the bit helpers and the
 * functions one part calls in another.  docs/solver.md walks through the search; the
 * parts are
 *   search.c          the zero-window driver (MTD style), the node's order of work, scoring
 *   moves.h           legal cards (both play rules), runs of equivalent cards (inlined)
 *   order.c           move ordering: the weights' use, the table's hint, the final sort
 *   order_lead.c      ordering of leads (every form; bridge leads with trumps)
 *   order_lead_nt.c   ordering of leads in bridge card play without trumps
 *   order_follow.c    ordering of the cards played to a trick already led
 *   order_follow_nt.c ordering of second hand's cards in bridge card play without trumps
 *   weights.h         the ordering weights, measured on node counts
 *   bounds.c          sure tricks, trump tricks, later tricks, the mid-trick cutoff, last trick
 *   table.c           the transposition table with partition search (keys, probe, store)
 *   module.c          the Python module: argument checks, the Solver type, the GIL
 *
 * Everything about a position lives here as bitmasks: hand[player][suit] is a 16-bit
 * mask whose bit r is the card of strength r in that suit (bit 0 the weakest; the
 * Python layer maps ace-low or ace-high ranks onto bits).  Players are numbered
 * clockwise 0..np-1.  The two sides are MAX (the side whose tricks are counted) and
 * MIN; for a paranoid value MAX is one player alone.
 *
 * The C core trusts its caller for game logic (the Python layer validates deals) but
 * still checks what it needs not to crash: sizes, ranges and overlaps.
 */
#ifndef NINES_SOLVER_CORE_H
#define NINES_SOLVER_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RULE_FOLLOW 0  /* follow suit if you can, otherwise anything (Le Neuf, bridge) */
#define RULE_ELYIGIT 1 /* follow and beat, else trump and over-trump, else anything */

#define NSUITS 4
/* HOT: a helper used in one file; CORE: a function one file calls in another (built with
 * link-time optimisation, so the compiler may still inline it).  PROFILE_NOINLINE keeps
 * every one of them a function of its own, to see its share of the time in a profiler. */
#ifdef PROFILE_NOINLINE
#define HOT static __attribute__((noinline, unused)) /* unused: a header's helper a file does not call */
#define CORE __attribute__((noinline))
#else
#define HOT static inline
#define CORE
#endif
#define MAXP 4
#define MAXRANKS 13
#define MAXMOVES 14

/* ranks of strength >= r, as a mask: the "top segment" from r upward */
#define PFX(r) ((uint16_t)(0xFFFFu << (r)))
/* ranks of strength > r */
#define ABOVE(r) ((uint16_t)(0xFFFFu << ((r) + 1)))

#if defined(__POPCNT__)
static inline int popc(uint32_t x) { return __builtin_popcount(x); }
static inline int popc64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int popc(uint32_t x) { /* without the instruction: a few shifts, no library call */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}
static inline int popc64(uint64_t x) { return popc((uint32_t)x) + popc((uint32_t)(x >> 32)); }
#endif
static inline int topbit(uint32_t x) { return 31 ^ __builtin_clz(x); } /* x != 0 (31 - clz, one instruction fewer) */
static inline int lowbit(uint32_t x) { return __builtin_ctz(x); }     /* x != 0 */

/* ------------------------------------------------------------------------------------
 * Transposition table (table.c): its layout, shared with the Python glue's statistics
 * ---------------------------------------------------------------------------------- */
#ifndef WAYS
#define WAYS 63 /* a bucket is then 2 KB: tables use their whole memory limit */
#endif
#define NO_MOVE 0xFF

typedef struct {
    uint64_t k0, k1; /* the two bit planes of the holders of the relevant cards, masked */
    uint64_t mask;   /* per suit (16 bits each), the positions of the relevant cards */
    int8_t lb, ub;   /* bounds on the tricks MAX takes from this trick on */
    uint8_t best;    /* suit << 4 | relative index from the top, or NO_MOVE */
    uint8_t hit;     /* it answered a probe since the replacement last passed it */
    uint8_t pad[4];
} TTEntry;

typedef struct {
    uint64_t sig;  /* lengths of every hand in every suit, leader; 0 = empty */
    uint16_t gen;  /* valid only when equal to the table's generation */
    uint8_t n;     /* entries in use */
    uint8_t next;  /* where the replacement looks next when full (a clock) */
    uint8_t pad[4];
    TTEntry e[WAYS]; /* compared one by one (see docs/solver.md: a quick filter read first was slower) */
    uint8_t pad2[(2048 - (16 + 32 * WAYS) % 2048) % 2048];
} TTBucket;

#define TT_START_BUCKETS 8192 /* 16 MB: the active part of the table starts small ... */

typedef struct {
    TTBucket *b;
    size_t nbuckets; /* power of two: the whole table, at most the memory limit */
    size_t active;   /* ... and doubles while it fills, up to nbuckets */
    size_t used;     /* buckets claimed in this generation */
    uint16_t gen;
    uint64_t stores, replaced_buckets;
} TT;

static inline size_t tt_index(const TT *t, uint64_t sig) {
    uint64_t h = sig; /* splitmix64's finaliser: every bit of the key moves the low bits */
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    return (size_t)(h & (t->active - 1)) & ~(size_t)1;
}


/* ------------------------------------------------------------------------------------
 * Search context: the position, the trick on the table, the question being asked
 * ---------------------------------------------------------------------------------- */
typedef struct {
    int np, rule, trump; /* trump: suit 0..3, or -1 for no trumps */
    uint8_t maxside[MAXP];
    int partnerships;        /* four hands in two partnerships facing each other (N-S, E-W) */
    int bridge;              /* ... following suit: bridge card play */
    uint8_t wrap[2 * MAXP];  /* wrap[i]: seat i modulo the number of players (seat_at) */
    uint16_t hand[MAXP][NSUITS];
    uint16_t inplay[NSUITS]; /* union of the hands */
    uint64_t lens;           /* 4 bits per hand and suit: the number of cards */
    int8_t owner[NSUITS][16]; /* who was dealt each card: a card in play is still there */
    uint8_t killer[MAXRANKS + 1][MAXP][MAXP]; /* tricks left, place in trick, player: last cutting card */
    int tricks_left;         /* tricks not finished, the current one included */
    int leader, ntable;
    uint8_t tcard[MAXP];     /* cards on the table, in play order: suit << 4 | strength */
    uint8_t twin[MAXP];      /* after k + 1 of them, the index in tcard of the card winning so far */
    uint16_t tmask[NSUITS];  /* the same as masks */
    int won;                 /* tricks MAX has won since the root */
    int target;              /* the zero-window question: does MAX reach target tricks? */
    uint64_t nodes;
    uint64_t st_bound, st_probe, st_hit, st_store, st_depth[MAXRANKS + 1], st_cut[2][4], st_all[2], st_nd[MAXRANKS + 1], st_side[2][2][5], st_tricks;
    int use_partition;       /* 0: key the table on every card (exact relative ranks) */
    int use_tt, use_bounds;  /* both 1 except when cross-checking the search in tests */
    int use_trick_cut;       /* the places in the trick (bit k: k cards down) where the mid-trick cutoff (trick_cut) pays */
    TT *tt;
    uint64_t node_limit;     /* give up past this many nodes (UINT64_MAX: never) */
    int aborted;             /* set when it gave up: nothing more is stored, every search returns */
} Ctx;

typedef struct {
    uint8_t card;  /* suit << 4 | strength: the representative (top of its run) */
    uint16_t run;  /* the equivalent cards it stands for (itself included) */
    int weight;
} Move;

static inline int seat_at(const Ctx *c, int k) { return c->wrap[c->leader + k]; }

/* index in tcard of the card winning the trick so far (n >= 1 cards) */
static inline int trick_winner(const Ctx *c, int n) { return c->twin[n - 1]; }

/* put a card on the table as the trick's card number nt (0: the lead): a card of the suit
 * of the winning card beats it by rank, a trump beats any other suit */
static inline void put_card(Ctx *c, int nt, int card) {
    const int s = card >> 4, r = card & 15;
    c->tcard[nt] = (uint8_t)card;
    c->tmask[s] |= (uint16_t)(1u << r);
    int w = 0;
    if (nt > 0) {
        w = c->twin[nt - 1];
        const int ws = c->tcard[w] >> 4, wr = c->tcard[w] & 15;
        if ((s == ws && r > wr) || (s == c->trump && ws != c->trump)) w = nt;
    }
    c->twin[nt] = (uint8_t)w;
}

/* player p plays card as the trick's card number nt ... */
static inline void play_card(Ctx *c, int p, int nt, int card) {
    const int s = card >> 4;
    const uint16_t bit = (uint16_t)(1u << (card & 15));
    c->hand[p][s] ^= bit;
    c->inplay[s] ^= bit;
    c->lens -= 1ull << (4 * (4 * p + s));
    put_card(c, nt, card);
}

/* ... and takes it back: nt cards on the table again */
static inline void take_back(Ctx *c, int p, int nt, int card) {
    const int s = card >> 4;
    const uint16_t bit = (uint16_t)(1u << (card & 15));
    c->ntable = nt;
    c->tmask[s] &= (uint16_t)~bit;
    c->hand[p][s] ^= bit;
    c->inplay[s] ^= bit;
    c->lens += 1ull << (4 * (4 * p + s));
}

/* What a completed trick leaves on the table, set aside while the next tricks are played */
typedef struct {
    uint16_t tmask[NSUITS];
    uint8_t tcard[MAXP], twin[MAXP];
    int leader;
} TableSave;

/* The trick's last card is down: its winner leads the next trick.  Returns the winning
 * card (suit << 4 | strength). */
static inline int close_trick(Ctx *c, TableSave *sv) {
    const int wi = trick_winner(c, c->np), wp = seat_at(c, wi);
    memcpy(sv->tmask, c->tmask, sizeof sv->tmask);
    memcpy(sv->tcard, c->tcard, sizeof sv->tcard);
    memcpy(sv->twin, c->twin, sizeof sv->twin);
    sv->leader = c->leader;
    memset(c->tmask, 0, sizeof c->tmask);
    c->ntable = 0;
    c->leader = wp;
    c->won += c->maxside[wp];
    c->tricks_left--;
    return sv->tcard[wi];
}

/* the trick as it was before close_trick */
static inline void reopen_trick(Ctx *c, const TableSave *sv) {
    c->tricks_left++;
    c->won -= c->maxside[c->leader];
    c->leader = sv->leader;
    memcpy(c->tmask, sv->tmask, sizeof c->tmask);
    memcpy(c->tcard, sv->tcard, sizeof c->tcard);
    memcpy(c->twin, sv->twin, sizeof c->twin);
    c->ntable = c->np;
}

/* The trick in progress as the player to move finds it: the led suit, the card winning so
 * far, and the best card each player still to play can bring to it (k = 0 the player to
 * move): its top card of the led suit, or its top trump when it is out of the led suit
 * (suit -1: it cannot win the trick).  Read once a node, for the trick cutoff and the
 * move ordering alike. */
typedef struct {
    int ls, wi, ws, wr;
    int left;                      /* players still to play, the one to move included */
    int who[MAXP], cs[MAXP], cr[MAXP];
} Trick;

static inline void read_trick(const Ctx *c, Trick *t) {
    const int nt = c->ntable, tr = c->trump;
    const int ls = c->tcard[0] >> 4;
    t->ls = ls;
    t->wi = trick_winner(c, nt);
    t->ws = c->tcard[t->wi] >> 4;
    t->wr = c->tcard[t->wi] & 15;
    t->left = c->np - nt;
    for (int k = 0; k < t->left; k++) {
        const int q = seat_at(c, nt + k);
        t->who[k] = q;
        if (c->hand[q][ls]) { t->cs[k] = ls; t->cr[k] = topbit(c->hand[q][ls]); }
        else if (tr >= 0 && c->hand[q][tr]) { t->cs[k] = tr; t->cr[k] = topbit(c->hand[q][tr]); }
        else { t->cs[k] = -1; t->cr[k] = 0; }
    }
}

/* holder of the strongest card of mask among the hands (-1 if none) */
static inline int holder(const Ctx *c, int s, uint32_t mask) {
    return mask ? c->owner[s][topbit(mask)] : -1;
}

/* Bridge card play without trumps: two partnerships following suit, no trump suit (or
 * none of it left in play) */
static inline int bridge_nt(const Ctx *c) {
    return c->bridge && (c->trump < 0 || !c->inplay[c->trump]);
}

/* ------------------------------------------------------------------------------------
 * Keys of a position at a trick's start (table.c)
 * ---------------------------------------------------------------------------------- */
/* The key of a position at a trick's start: the bucket's signature (every hand's length in
 * every suit, and the leader) ... */
static inline uint64_t make_sig(const Ctx *c) {
    /* the last hand's last suit is implied by the others: its place holds the leader */
    return (c->lens & 0x0FFFFFFFFFFFFFFFull) | (uint64_t)c->leader << 60 | 1ull << 63;
}

static inline TTBucket *tt_find(TT *t, uint64_t sig) {
    size_t i = tt_index(t, sig);
    TTBucket *b0 = &t->b[i], *b1 = &t->b[i + 1];
    if (b0->gen == t->gen && b0->sig == sig) return b0;
    if (b1->gen == t->gen && b1->sig == sig) return b1;
    return NULL;
}


/* ------------------------------------------------------------------------------------
 * What each part offers the others
 * ---------------------------------------------------------------------------------- */
/* table.c */
void init_tables(void);
int tt_alloc(TT *t, size_t bytes);
void tt_free(TT *t);
void tt_clear(TT *t);
void make_planes(const Ctx *c, uint64_t *k0, uint64_t *k1);
void tt_next_hint(Ctx *c, uint64_t sig, uint64_t k0, uint64_t k1, int skip, int need, int *hint);
int tt_probe(Ctx *c, int need, uint64_t sig, uint64_t k0, uint64_t k1, uint16_t rel[NSUITS], int *hint);
void tt_store(Ctx *c, int need, int result, uint64_t sig, uint64_t k0, uint64_t k1, const uint16_t rel[NSUITS],
              int best);

/* moves.h: gen_legal, gen_moves (static inline, included where moves are generated) */

/* order.c and the ordering of each kind of play */
void order_moves(const Ctx *c, int p, Move *mv, int n, int hint, int killer, const Trick *t);
void order_leads_bridge_nt(const Ctx *c, int p, Move *mv, int n, int killer);
void order_leads(const Ctx *c, int p, Move *mv, int n);
void order_follow(const Ctx *c, int p, Move *mv, int n, const Trick *t);
void order_second_bridge_nt(const Ctx *c, int p, Move *mv, int n, int ls);

/* bounds.c */
int bounds_cut(const Ctx *c, int need, uint16_t rel[NSUITS]);
int trick_cut(const Ctx *c, const Trick *t, int need_won, uint16_t rel[NSUITS]);
int last_trick(Ctx *c, uint16_t rel[NSUITS]);

/* search.c */
int solve_between(Ctx *c, int guess, int lo, int hi);
int solve_value(Ctx *c, int guess);
int score_moves(Ctx *c, int known, Move mv[MAXMOVES], int values[MAXMOVES]);

#endif
