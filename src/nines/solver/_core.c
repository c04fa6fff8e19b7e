/*
 * nines.solver._core -- exact perfect-information ("double dummy") solver for the
 * trick-taking games of Nines: Elyigit's Nines (compulsory overtaking and trumping)
 * and Le Neuf (plain follow suit; three players, four in partnerships, four alone).
 *
 * Everything about a position lives here as bitmasks: hand[player][suit] is a 16-bit
 * mask whose bit r is the card of strength r in that suit (bit 0 the weakest; the
 * Python layer maps ace-low or ace-high ranks onto bits).  Players are numbered
 * clockwise 0..np-1.  The two sides are MAX (the side whose tricks are counted) and
 * MIN; for a paranoid value MAX is one player alone.
 *
 * The search (see docs/solver.md):
 *   - zero-window searches "can MAX take at least t of the remaining tricks?" driven
 *     from a guess (MTD style), each a plain boolean alpha-beta;
 *   - at each trick boundary: sure tricks of the side on lead and a sure trick for the
 *     holder of the top trump (bounds that cut the search), then a transposition table;
 *   - only the top card of each run of equivalent cards is searched (equivalence
 *     relative to the cards still in play, the current trick's cards included);
 *   - heuristic move ordering, plus the best move remembered by the table;
 *   - partition search: every result carries, per suit, the set of ranks whose
 *     identity mattered (always a top segment: "all cards of strength >= t").  A table
 *     entry is keyed on the suit lengths of every hand and on who holds those relevant
 *     top cards only, so one entry answers for many positions.  It stores a lower and
 *     an upper bound on the tricks MAX takes from that trick on.
 *   - the table has a fixed size (buckets of entries, replacement when full) and is
 *     emptied by bumping a generation counter, never by walking it.
 *
 * The C core trusts its caller for game logic (the Python layer validates deals) but
 * still checks what it needs not to crash: sizes, ranges and overlaps.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define RULE_FOLLOW 0  /* follow suit if you can, otherwise anything (Le Neuf, bridge) */
#define RULE_ELYIGIT 1 /* follow and beat, else trump and over-trump, else anything */

#define NSUITS 4
#ifdef PROFILE_NOINLINE /* to see each helper's share of the time in a profiler */
#define HOT static __attribute__((noinline))
#else
#define HOT static inline
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
#else
static inline int popc(uint32_t x) { /* without the instruction: a few shifts, no library call */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}
#endif
static inline int popc64(uint64_t x) { return popc((uint32_t)x) + popc((uint32_t)(x >> 32)); }
static inline int topbit(uint32_t x) { return 31 - __builtin_clz(x); } /* x != 0 */
static inline int lowbit(uint32_t x) { return __builtin_ctz(x); }     /* x != 0 */

/* ------------------------------------------------------------------------------------
 * pext for 13-bit masks by table: gather the bits of x selected by m, packed low.
 * Used to write each suit as the sequence of its holders from the weakest card up,
 * in relative ranks (the cards already played are squeezed out).
 * ---------------------------------------------------------------------------------- */
static uint8_t PEXT7[128][128];

static void init_tables(void) {
    for (int m = 0; m < 128; m++) {
        for (int x = 0; x < 128; x++) {
            int out = 0, k = 0;
            for (int b = 0; b < 7; b++) {
                if (m & (1 << b)) {
                    if (x & (1 << b)) out |= 1 << k;
                    k++;
                }
            }
            PEXT7[m][x] = (uint8_t)out;
        }
    }
}

static inline uint32_t pext13(uint32_t x, uint32_t m) {
    uint32_t lo = m & 127u, hi = (m >> 7) & 63u;
    return (uint32_t)PEXT7[lo][x & 127u] | ((uint32_t)PEXT7[hi][(x >> 7) & 63u] << popc(lo));
}

/* strength of the k-th strongest card (k >= 1) of mask */
static inline int kth_top(uint32_t mask, int k) {
    while (--k > 0) mask &= ~(1u << topbit(mask));
    return topbit(mask);
}

/* ------------------------------------------------------------------------------------
 * Transposition table
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

static int tt_alloc(TT *t, size_t bytes) {
    size_t nb = 2;
    while (nb * 2 * sizeof(TTBucket) <= bytes) nb *= 2;
    /* zero pages are handed out lazily, so untouched memory costs nothing */
    size_t size = nb * sizeof(TTBucket);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* 2 MB pages where the system allows: far fewer address-translation misses */
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return -1;
    madvise(mem, size, MADV_HUGEPAGE);
    t->b = (TTBucket *)mem;
#else
    t->b = (TTBucket *)calloc(nb, sizeof(TTBucket));
    if (!t->b) return -1;
#endif
    t->nbuckets = nb;
    t->active = nb < TT_START_BUCKETS ? nb : TT_START_BUCKETS;
    t->used = 0;
    t->gen = 1;
    t->stores = t->replaced_buckets = 0;
    return 0;
}

static void tt_free(TT *t) {
    if (!t->b) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(t->b, t->nbuckets * sizeof(TTBucket));
#else
    free(t->b);
#endif
    t->b = NULL;
}

static void tt_clear(TT *t) {
    t->gen++;
    t->used = 0;
    t->active = t->nbuckets < TT_START_BUCKETS ? t->nbuckets : TT_START_BUCKETS;
    if (t->gen == 0) { /* generations wrapped: empty for real, once every 65535 clears */
        memset(t->b, 0, t->nbuckets * sizeof(TTBucket));
        t->gen = 1;
    }
}

static inline size_t tt_index(const TT *t, uint64_t sig) {
    uint64_t h = sig; /* splitmix64's finaliser: every bit of the key moves the low bits */
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    return (size_t)(h & (t->active - 1)) & ~(size_t)1;
}

/* Double the active part: a bucket at i moves to i + old when its hash says so. */
static void tt_grow(TT *t) {
    size_t old = t->active;
    t->active = old * 2;
    for (size_t i = 0; i < old; i++) {
        TTBucket *b = &t->b[i];
        if (b->gen != t->gen) continue;
        size_t j = tt_index(t, b->sig) | (i & 1);
        if (j != i) {
            t->b[j] = *b;
            b->gen = 0;
        }
    }
}

/* ------------------------------------------------------------------------------------
 * Search context
 * ---------------------------------------------------------------------------------- */
typedef struct {
    int np, rule, trump; /* trump: suit 0..3, or -1 for no trumps */
    uint8_t maxside[MAXP];
    int partnerships;        /* four hands in two partnerships facing each other (N-S, E-W) */
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
    int use_trick_cut;       /* the cutoff in mid-trick (trick_cut): not where it does not pay */
    TT *tt;
    uint64_t node_limit;     /* give up past this many nodes (0: never) */
    int aborted;             /* set when it gave up: nothing more is stored, every search returns */
} Ctx;

typedef struct {
    uint8_t card;  /* suit << 4 | strength: the representative (top of its run) */
    uint16_t run;  /* the equivalent cards it stands for (itself included) */
    int weight;
} Move;

static inline int seat_at(const Ctx *c, int k) {
    int p = c->leader + k;
    return p >= c->np ? p - c->np : p;
}

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

HOT void read_trick(const Ctx *c, Trick *t) {
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

/* The legal cards of player p now, per suit.  lrel receives the ranks whose identity
 * decided legality (Elyigit's "beat the best card on the table" makes ranks matter). */
HOT void gen_legal(const Ctx *c, int p, uint16_t legal[NSUITS], uint16_t lrel[NSUITS]) {
    const uint16_t *h = c->hand[p];
    lrel[0] = lrel[1] = lrel[2] = lrel[3] = 0;
    if (c->ntable == 0) {
        memcpy(legal, h, sizeof(uint16_t) * NSUITS);
        return;
    }
    int led = c->tcard[0] >> 4;
    if (h[led]) {
        legal[0] = legal[1] = legal[2] = legal[3] = 0;
        legal[led] = h[led];
        if (c->rule == RULE_ELYIGIT) {
            /* follow and beat the best card of the led suit on the table, if you can */
            int b = topbit(c->tmask[led]);
            uint16_t over = h[led] & ABOVE(b);
            lrel[led] = PFX(b);
            if (over) legal[led] = over;
        }
        return;
    }
    if (c->rule == RULE_ELYIGIT && c->trump >= 0 && h[c->trump]) {
        /* void in the led suit: trump, over-trumping when you can, under-trumping if not */
        int tr = c->trump;
        legal[0] = legal[1] = legal[2] = legal[3] = 0;
        legal[tr] = h[tr];
        if (c->tmask[tr]) {
            int b = topbit(c->tmask[tr]);
            uint16_t over = h[tr] & ABOVE(b);
            lrel[tr] = PFX(b);
            if (over) legal[tr] = over;
        }
        return;
    }
    memcpy(legal, h, sizeof(uint16_t) * NSUITS); /* neither: play anything */
}

/* one representative per run of equivalent legal cards */
HOT int gen_moves(const Ctx *c, int p, const uint16_t legal[NSUITS], Move *mv) {
    int n = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint16_t L = legal[s];
        if (!L) continue;
        uint16_t others = (uint16_t)((c->inplay[s] | c->tmask[s]) & ~c->hand[p][s]);
        while (L) {
            int r = topbit(L);
            uint16_t below = others & (uint16_t)((1u << r) - 1u);
            uint16_t floor = below ? (uint16_t)(0xFFFFu << (topbit(below) + 1)) : 0xFFFFu;
            uint16_t run = L & floor & (uint16_t)((2u << r) - 1u);
            mv[n].card = (uint8_t)(s << 4 | r);
            mv[n].run = run;
            mv[n].weight = 0;
            n++;
            L &= (uint16_t)~run;
        }
    }
    return n;
}

/* Move-ordering weights, found by measuring node counts on random deals of every form.
 * 0-12 leads, 13-17 following, 18-22 discards, 23 where the first search goes relative to
 * the estimate, 24 (>= 0) a covering partner counts, 25 bonus of the last cutting lead
 * (Le Neuf: small, the table's best cards of alike positions know better), 26 the same when
 * following (0: off, it misleads), 27 (1) bridge leads without trumps, 28 bonus of the last
 * cutting lead under Elyigit's rule, 29 third hand's ruff that can be overruffed (less),
 * 30 forcing out the last player's top card, 31 second hand covering from a sequence;
 * bridge leads with trumps: 32 the right-hand opponent holds the second best card, 33 a
 * singleton toward the partner's winner (for a ruff), 34 and 35 when the suit is not won at
 * once: the partner holds the second and third best cards, or the two hold them between
 * them; 36 the partner's winner that an opponent can ruff (low first), 37 the second best
 * card from a sequence in a suit the leader's side does not win at once (someone else holds
 * the best card); 38 the same in the other forms; bridge leads without trumps: the last
 * cutting lead's bonus (instead of 25) when it wins the trick (39), when not (40); 41 (> 0)
 * above the low cards: overtaking the partner's card to unblock a suit without trumps
 * (unblock_card), 42 a discard's strength without trumps in bridge card play, 43 a lead
 * toward the partner's winner rather than of our own (bridge leads without trumps). */
#define NW 44
static const int W[NW] = {52, 14, 22, 7, 25, 32, 31, -3, 30, 11, 20, -17, 18, -20, 10, 80,
                          30, 20, 5, 3, 2, 15, 6, 1, 0, 5, 0, 1, 25, 25, 40, 10, 3, 19, 10, 6, 30, 20, 30, 40, 15,
                          5, 1, 6};

/* holder of the strongest card of mask among the hands (-1 if none) */
HOT int holder(const Ctx *c, int s, uint32_t mask) {
    return mask ? c->owner[s][topbit(mask)] : -1;
}

/* Bridge card play without trumps: two partnerships following suit, no trump suit (or
 * none of it left in play) */
static inline int bridge_nt(const Ctx *c) {
    return c->partnerships && c->rule == RULE_FOLLOW && (c->trump < 0 || !c->inplay[c->trump]);
}

/* A discard's preference beside others of the same hand: low cards from long suits, not
 * a winner, not the guard of a king; in bridge card play without trumps, by the card's own
 * strength rather than its rank among the cards in play (as DDS discards) */
HOT int discard_pref(const Ctx *c, int p, int s, int r, int rr) {
    const int len = popc(c->hand[p][s]);
    const uint32_t in = c->inplay[s];
    int w = len * W[19] - (bridge_nt(c) ? r * W[42] : rr * W[20]);
    if (r == topbit(in)) w -= W[21];
    else if (len == 2 && holder(c, s, in & ~(1u << topbit(in))) == p) w -= W[22];
    return w;
}

/* Bridge card play without trumps (none in play): the partner's card wins the trick and
 * the partner has no more cards of the suit.  When the side's top cards of the suit are
 * ours and still outnumber every opponent's cards of it once we have played, overtake
 * with the cheapest card above the partner's: the suit then runs from our hand instead of
 * being blocked.  The card's strength, or -1 (third or fourth hand). */
HOT int unblock_card(const Ctx *c, int p, int ls, int wr) {
    const uint32_t mine = c->hand[p][ls], oth = c->inplay[ls] & ~mine;
    const uint32_t over = mine & ABOVE(wr);
    if (!over || (oth && topbit(mine) < topbit(oth)) || c->hand[(p + 2) & 3][ls]) return -1;
    const int ub = lowbit(over);
    const int tops = popc(mine & (oth ? ABOVE(topbit(oth)) : 0xFFFFu) & ~(1u << ub));
    /* the opponents' cards of the suit after this trick (the fourth hand's card to come) */
    const int lho = popc(c->hand[(p + 1) & 3][ls]) - (c->ntable == 2), rho = popc(c->hand[(p + 3) & 3][ls]);
    return (lho > rho ? lho : rho) <= tops ? ub : -1;
}

/* Move ordering: heuristics of card play, so that the card that proves the point comes
 * first.  Weights only order the moves; any order gives the same, exact, answer. */
HOT void order_moves(const Ctx *c, int p, Move *mv, int n, int hint, int killer, const Trick *t) {
    const int np = c->np, tr = c->trump, rem = c->tricks_left;
    const int me = c->maxside[p];
    const int nt0 = c->ntable == 0;
    if (nt0 && W[27] && bridge_nt(c)) {
        /* no trumps, two partnerships: bridge leads */
        const int lho = (p + 1) & 3, pd = (p + 2) & 3, rho = (p + 3) & 3;
        for (int i = 0; i < n;) {
            const int s = mv[i].card >> 4;
            const uint32_t all = c->inplay[s];
            const uint32_t all2 = all & ~(1u << topbit(all));
            const int w1 = holder(c, s, all), w2 = holder(c, s, all2);
            const int w3 = all2 ? holder(c, s, all2 & ~(1u << topbit(all2))) : -1;
            const int llen = popc(c->hand[lho][s]), rlen = popc(c->hand[rho][s]), plen = popc(c->hand[pd][s]);
            int suitw = -(((llen ? llen : rem + 1) + (rlen ? rlen : rem + 1)) * 4 * 32) / 19;
            if (!plen) suitw -= 9;
            const uint32_t opp = c->hand[lho][s] | c->hand[rho][s];
            const int pd_wins = c->hand[pd][s] && (!opp || topbit(c->hand[pd][s]) > topbit(opp));
            for (; i < n && (mv[i].card >> 4) == s; i++) {
                const int r = mv[i].card & 15;
                const int rr = popc(all & (uint32_t)((1u << r) - 1u));
                const int seq = (mv[i].run & (mv[i].run - 1)) != 0;
                int d = suitw, w;
                if (r == topbit(all) || pd_wins) {
                    if (w2 == rho) { if (rlen != 1) d -= 1; }
                    else if (w2 == lho) d += llen != 1 ? 22 : 16;
                    /* a winner, or toward the partner's: the top card itself, from the
                     * shorter suit first, or low (an honour led toward the partner's top
                     * card is wasted or captured) */
                    w = ((w2 != lho || llen == 1) && (w2 != rho || rlen == 1)) ? d + 45 - rr : d + 18 - rr;
                    if (mv[i].card == killer) w += W[39]; /* the last cutting lead, a winner: more */
                    if (r != topbit(all)) w += W[43]; /* to the partner's winner: before our own */
                } else {
                    if ((w1 == rho || w2 == rho) && rlen != 1) d -= 10;
                    else if (w1 == lho && w2 == pd && plen != 1) d += 31;
                    if (w2 == pd && w3 == pd) d += 35;
                    else if (((w2 == p && w3 == pd) || (w2 == pd && w3 == p)) && plen > 1) d += 25;
                    /* the top card sits alone with an opponent, or no sequence to lead
                     * from: low (cards above it counted, as DDS ranks from the top) */
                    const int above = popc(all & ABOVE(r));
                    if ((llen == 1 && w1 == lho) || (rlen == 1 && w1 == rho)) w = d + 28 + above;
                    else if (w1 == p) w = d - 17 + rr;
                    else if (!seq) w = d + 12 + above;
                    else if (all2 && r == topbit(all2)) w = d + 48;
                    else w = d + 29 - rr;
                    if (mv[i].card == killer) w += W[40];
                }
                mv[i].weight = w;
            }
        }
        killer = NO_MOVE; /* its bonus is given above */
    } else if (c->ntable == 0) {
        const int lho = p + 1 == np ? 0 : p + 1;
        const int rho = p == 0 ? np - 1 : p - 1;
        const int pairs = c->partnerships, bridge = pairs && c->rule == RULE_FOLLOW; /* bridge leads with trumps */
        for (int i = 0; i < n;) {
            const int s = mv[i].card >> 4;
            const uint32_t all = c->inplay[s];
            const int w1 = holder(c, s, all);
            const uint32_t all2 = all & ~(1u << topbit(all));
            const int w2 = holder(c, s, all2);
            int oppcards = 0, oppruff = 0, partruff = 0;
            uint32_t oppmask = 0, partmask = 0;
            for (int q = 0; q < np; q++) {
                if (q == p) continue;
                uint32_t h = c->hand[q][s];
                int len = popc(h);
                int canruff = !len && tr >= 0 && s != tr && c->hand[q][tr];
                if (c->maxside[q] != me) {
                    oppcards += len ? len : rem + 1; /* a void opponent may play anything */
                    oppruff |= canruff;
                    oppmask |= h;
                } else {
                    partruff |= canruff;
                    partmask |= h;
                }
            }
            /* small trees first: few cards for the opponents to choose from */
            int suitw = -(oppcards * W[0]) / 13;
            if (oppruff) suitw -= W[1];
            if (partruff && !oppruff) suitw += W[2];
            const int w1side = w1 >= 0 && c->maxside[w1] == me;
            const int partner_wins = partmask && (!oppmask || topbit(partmask) > topbit(oppmask));
            if (w1 == rho && rho != p && c->maxside[rho] != me && popc(c->hand[rho][s]) != 1) suitw -= W[3];
            else if (bridge && w2 == rho && popc(c->hand[rho][s]) != 1) suitw -= W[32];
            if (w1 == lho && c->maxside[lho] != me && w2 >= 0 && w2 != p && c->maxside[w2] == me &&
                popc(c->hand[w2][s]) != 1)
                suitw += W[4]; /* lead toward partner's tenace over the left-hand opponent */
            if (bridge && s != tr && popc(c->hand[p][s]) == 1 && c->hand[p][tr] && w1 == ((p + 2) & 3) &&
                popc(c->hand[w1][s]) > 1)
                suitw += W[33]; /* the partner wins and gives the leader a ruff */
            for (; i < n && (mv[i].card >> 4) == s; i++) {
                const int r = mv[i].card & 15;
                const int rr = popc(all & (uint32_t)((1u << r) - 1u)); /* relative rank */
                const int is_top = r == topbit(all);
                int w;
                if ((is_top || partner_wins) && !oppruff) {
                    if (w1 == p) w = (w2 >= 0 && w2 != p && c->maxside[w2] == me) ? W[5] + rr : is_top ? W[6] : W[7] + rr;
                    /* toward the partner's top card in a partnership: lead low, not an
                     * honour that the opponent sitting over it would capture (the queen into
                     * the king) */
                    else if (w1side) w = W[8] + (is_top || !pairs ? rr : -rr);
                    else w = W[9] + rr;
                } else {
                    if (w1 == p) w = is_top ? W[10] : W[11] + rr;
                    else if (bridge && w1 == ((p + 2) & 3)) w = W[36] - rr;
                    else if ((mv[i].run & (mv[i].run - 1)) && r == topbit(all2)) w = W[bridge ? 37 : 38];
                    else w = W[12] - rr;
                    if (bridge) { /* the side holds the best card of the next round */
                        const int pd = (p + 2) & 3;
                        const int w3 = all2 ? holder(c, s, all2 & ~(1u << topbit(all2))) : -1;
                        if (w2 == pd && w3 == pd) w += W[34];
                        else if (((w2 == p && w3 == pd) || (w2 == pd && w3 == p)) && popc(c->hand[pd][s]) > 1) w += W[35];
                    }
                }
                mv[i].weight = suitw + w;
            }
        }
    } else {
        const int ls = t->ls, ws = t->ws, wr = t->wr;
        const int side_win = c->maxside[seat_at(c, t->wi)] == me;
        const int left = t->left - 1; /* players after p in this trick */
        /* the best card each later player can bring (see Trick) */
        const int *cs = t->cs + 1, *cr = t->cr + 1, *cq = t->who + 1;
#define CAP_BEATS(k, s_, r_) (cs[k] >= 0 && ((cs[k] == (s_) && cr[k] > (r_)) || (cs[k] == tr && (s_) != tr)))
        int opp_beat_w = 0, mate_covers = 0;
        for (int k = 0; k < left; k++)
            if (c->maxside[cq[k]] != me && CAP_BEATS(k, ws, wr)) opp_beat_w = 1;
        for (int k = 0; k < left && !mate_covers; k++) {
            if (c->maxside[cq[k]] != me || !CAP_BEATS(k, ws, wr)) continue;
            int safe = 1; /* the teammate's best card stands against every later opponent */
            for (int j = 0; j < left; j++)
                if (c->maxside[cq[j]] != me && CAP_BEATS(j, cs[k], cr[k])) { safe = 0; break; }
            mate_covers = safe;
        }
        const int ours = (side_win && !opp_beat_w) || (W[24] >= 0 && mate_covers); /* the trick is ours anyway */
        /* no trumps, the partner's card winning at third or fourth hand: unblock the suit */
        const int unblock = side_win && c->ntable >= 2 && t->wi == c->ntable - 2 &&
                            (left == 0 || ours) && bridge_nt(c) ? unblock_card(c, p, ls, wr) : -1;
        if (left == 0) { /* the last card of the trick: win it as cheaply as possible, or play low */
            for (int i = 0; i < n; i++) {
                const int s = mv[i].card >> 4, r = mv[i].card & 15;
                const int rr = popc((c->inplay[s] | c->tmask[s]) & (uint32_t)((1u << r) - 1u));
                const int beats = (s == ws && r > wr) || (s == tr && ws != tr);
                if (s != ls && s != tr) mv[i].weight = W[18] + discard_pref(c, p, s, r, rr); /* a discard */
                else if (side_win) mv[i].weight = unblock >= 0 && s == ls && (mv[i].run >> unblock & 1) ? W[14] + W[41] : beats ? W[13] - rr : W[14] - rr;
                else mv[i].weight = beats ? W[15] - rr : -rr;
            }
            goto sort;
        }
        /* before the last player, when it follows suit: its best card below the run of its
         * top card (-1: none); a card above that leaves it only its top card to win with */
        int forces = MAXRANKS;
        if (left == 1 && cs[0] == ls) {
            const uint32_t seen = c->inplay[ls] | c->tmask[ls];
            uint32_t rest = c->hand[cq[0]][ls];
            for (int t = cr[0];;) { /* strip the top card's run */
                rest &= ~(1u << t);
                const uint32_t below = seen & ((1u << t) - 1u);
                if (!below || !(rest >> topbit(below) & 1)) break;
                t = topbit(below);
            }
            forces = rest ? topbit(rest) : -1;
        }
        /* a card of the led suit lower than every card of a later opponent who follows
         * suit loses to whatever that opponent plays, and one lower than every card of a
         * later teammate is beaten by the teammate anyway: it makes no difference, play low
         * (not for a teammate under Elyigit's rule, where beating the table is compulsory) */
        int lowest = -1;
        for (int k = 0; k < left; k++) {
            if (cs[k] != ls || (c->maxside[cq[k]] == me && c->rule != RULE_FOLLOW)) continue;
            const int lo = lowbit(c->hand[cq[k]][ls]);
            if (lo > lowest) lowest = lo;
        }
        for (int i = 0; i < n; i++) {
            const int s = mv[i].card >> 4, r = mv[i].card & 15;
            const uint32_t all = c->inplay[s] | c->tmask[s];
            const int rr = popc(all & (uint32_t)((1u << r) - 1u));
            const int beats = (s == ws && r > wr) || (s == tr && ws != tr);
            int w;
            if (ours && (beats || s == ls || s == tr)) {
                w = beats ? W[13] - rr : W[14] - rr;
                if (unblock >= 0 && s == ls && (mv[i].run >> unblock & 1)) w = W[14] + W[41];
            } else if (ours) {
                w = W[14] + discard_pref(c, p, s, r, rr); /* the trick is ours anyway: discard */
            } else if (beats && !(s == ls && r < lowest)) {
                int safe = 1;
                for (int k = 0; k < left; k++)
                    if (c->maxside[cq[k]] != me && CAP_BEATS(k, s, r)) { safe = 0; break; }
                /* a card that wins for now but can be beaten: low at second hand, high at
                 * third (third hand high: it makes the last player spend its best) */
                const int hi = c->ntable >= 2 ? rr : -rr;
                w = safe ? W[15] - rr : (s == ls ? W[16] + hi : W[17] - rr);
                /* third hand out of the suit: no ruff of the partner's winning card that the
                 * last player can overruff (a discard first) */
                if (!safe && s != ls && side_win && c->ntable == 2) w -= W[29];
                /* force out the last player's top card as cheaply as possible: the lowest card
                 * that leaves it nothing else to win with */
                if (!safe && s == ls && r > forces) w += W[30] - 2 * rr;
                /* second hand splits its honours: it covers with a card from a sequence, which
                 * keeps an equal card behind, before it covers with a lone card */
                if (!safe && s == ls && left == 2 && c->rule == RULE_FOLLOW && (mv[i].run & (mv[i].run - 1))) w += W[31];
            } else if (s == ls || s == tr) {
                w = -rr; /* cannot win: play low */
            } else {
                w = W[18] + discard_pref(c, p, s, r, rr); /* a discard */
            }
            mv[i].weight = w;
        }
#undef CAP_BEATS
    }
sort:
    for (int i = 0; i < n; i++) {
        if (mv[i].card == hint) mv[i].weight += 1000;
        else if (mv[i].card == killer) mv[i].weight += W[!nt0 ? 26 : c->rule == RULE_ELYIGIT ? 28 : 25];
    }
    for (int i = 1; i < n; i++) { /* insertion sort, heaviest first */
        Move m = mv[i];
        int j = i - 1;
        while (j >= 0 && mv[j].weight < m.weight) { mv[j + 1] = mv[j]; j--; }
        mv[j + 1] = m;
    }
}

/* ------------------------------------------------------------------------------------
 * Keys and the table
 * ---------------------------------------------------------------------------------- */
/* The key of a position at a trick's start: the bucket's signature (every hand's length in
 * every suit, and the leader) ... */
static inline uint64_t make_sig(const Ctx *c) {
    /* the last hand's last suit is implied by the others: its place holds the leader */
    return (c->lens & 0x0FFFFFFFFFFFFFFFull) | (uint64_t)c->leader << 60 | 1ull << 63;
}

/* ... and who holds each card, in relative ranks, in two bit planes: player 1 = (1,0),
 * 2 = (0,1), 3 = (1,1) */
HOT void make_planes(const Ctx *c, uint64_t *k0, uint64_t *k1) {
    uint64_t a = 0, b = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint32_t all = c->inplay[s];
        a |= (uint64_t)pext13(c->hand[1][s] | c->hand[3][s], all) << (16 * s);
        b |= (uint64_t)pext13(c->hand[2][s] | c->hand[3][s], all) << (16 * s);
    }
    *k0 = a; *k1 = b;
}

static inline TTBucket *tt_find(TT *t, uint64_t sig) {
    size_t i = tt_index(t, sig);
    TTBucket *b0 = &t->b[i], *b1 = &t->b[i + 1];
    if (b0->gen == t->gen && b0->sig == sig) return b0;
    if (b1->gen == t->gen && b1->sig == sig) return b1;
    return NULL;
}

/* the relevant ranks an entry stood for, translated to the position at hand */
static inline void entry_rel(const Ctx *c, uint64_t mask, uint16_t rel[NSUITS]) {
    for (int s = 0; s < NSUITS; s++) {
        int k = popc((uint32_t)(mask >> (16 * s)) & 0xFFFFu);
        rel[s] = k ? PFX(kth_top(c->inplay[s], k)) : 0;
    }
}

/* the card of the leader an entry's best card stands for here (suit << 4 | strength), or
 * NO_MOVE when the leader does not hold it; the top of its run of equivalent cards here,
 * the card the moves stand for (the card may have been alone in the entry's position) */
static inline int entry_hint(const Ctx *c, const TTEntry *e) {
    int s = e->best >> 4, k = e->best & 15;
    uint32_t all = c->inplay[s];
    if (popc(all) <= k) return NO_MOVE;
    int r = kth_top(all, k + 1);
    const uint32_t h = c->hand[c->leader][s];
    if (!(h >> r & 1)) return NO_MOVE;
    const uint32_t above = all & ~h & ABOVE(r); /* the others' cards above it */
    return s << 4 | topbit(above ? h & ((1u << lowbit(above)) - 1u) : h);
}

static inline void alike(const Ctx *c, const TTBucket *b, uint64_t k0, uint64_t k1, int *hint, int skip, int need) {
    const int lmax = c->maxside[c->leader];
    /* the most alike entry; the leader's code in the key's bit planes, over every card */
    const uint64_t lead0 = (c->leader & 1) ? ~0ull : 0, lead1 = (c->leader & 2) ? ~0ull : 0;
    /* too far (five of the leader's cards that differ, or a bound short of the need): no
     * hint, the ordering rules know better */
    int alike_d = 5 * 64;
    for (int i = 0; i < b->n; i++) {
        const TTEntry *e = &b->e[i];
        if (e->best == NO_MOVE) continue;
        const uint64_t differ = ((k0 ^ e->k0) | (k1 ^ e->k1)) & e->mask;
        /* a card that the leader holds in one position and not in the other weighs
         * four times as much as another difference: the lead comes from its hand */
        const uint64_t lead = differ & ~(((k0 ^ lead0) | (k1 ^ lead1)) & ((e->k0 ^ lead0) | (e->k1 ^ lead1)));
        int d = 64 * popc64(lead) + 16 * popc64(differ & ~lead) - popc64(e->mask);
        /* an entry whose bound falls short of what the leader needs here (its best card
         * reached fewer tricks, or held MAX to more) counts, per trick short, as sixteen
         * of the leader's cards that differ; a bound beyond it, per trick, as two (a best
         * card found for the same question knows best) */
        const int gap = lmax ? need - e->lb : e->ub - (need - 1);
        d += gap > 0 ? gap << 10 : -gap << 7;
        if (d < alike_d) {
            const int h = entry_hint(c, e);
            if (h != NO_MOVE && h != skip) { *hint = h; alike_d = d; }
        }
    }
}

/* <0: no cutoff; else the answer.  hint receives a remembered best move: that of the most
 * alike entry of the bucket (same suit lengths and leader): the fewest relevant cards held
 * by someone else (the leader's cards counting most), then the most relevant cards, where
 * a bound short of what the leader needs counts heavily, so that an entry standing for the
 * position (whose bounds do not answer, so fall short) gives way to a near one whose best
 * card reached enough.  Positions that differ in a few cards mostly share their best lead. */
static int tt_probe(Ctx *c, int need, uint64_t sig, uint64_t k0, uint64_t k1, uint16_t rel[NSUITS], int *hint) {
    TTBucket *b = tt_find(c->tt, sig);
    if (!b) return -1;
    TTEntry *answer = NULL;
    int best_k = 99;
    for (int i = 0; i < b->n; i++) {
        TTEntry *e = &b->e[i];
        if (((k0 ^ e->k0) | (k1 ^ e->k1)) & e->mask) continue;
        if (e->lb >= need || e->ub < need) {
            /* of the entries that answer, the one relying on the fewest cards: the
             * positions above are then stored for more positions alike */
            const int k = popc((uint32_t)e->mask) + popc((uint32_t)(e->mask >> 32));
            if (k < best_k) { best_k = k; answer = e; }
            continue;
        }
    }
    if (answer) {
        answer->hit = 1;
        entry_rel(c, answer->mask, rel);
        return answer->lb >= need;
    }
    alike(c, b, k0, k1, hint, NO_MOVE, need);
    return -1;
}

HOT void tt_store(Ctx *c, int need, int result, uint64_t sig, uint64_t k0, uint64_t k1,
                     const uint16_t rel[NSUITS], int best) {
    TT *t = c->tt;
    uint64_t mask = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint32_t all = c->inplay[s];
        int n = popc(all);
        int k = c->use_partition ? popc(all & rel[s]) : n;
        mask |= (uint64_t)((((1u << k) - 1u) << (n - k)) & 0xFFFFu) << (16 * s);
    }
    k0 &= mask; k1 &= mask;
    int8_t lb = 0, ub = (int8_t)c->tricks_left;
    if (result) lb = (int8_t)need; else ub = (int8_t)(need - 1);
    uint8_t bm = NO_MOVE;
    if (best >= 0) {
        int s = best >> 4, r = best & 15;
        bm = (uint8_t)(s << 4 | popc(c->inplay[s] & ABOVE(r)));
    }
    t->stores++;
    TTBucket *b = tt_find(t, sig);
    if (!b) {
        for (;;) {
            size_t i = tt_index(t, sig);
            TTBucket *b0 = &t->b[i], *b1 = &t->b[i + 1];
            if (b0->gen != t->gen) { b = b0; break; }
            if (b1->gen != t->gen) { b = b1; break; }
            if (t->active < t->nbuckets && t->used * 8 > t->active) { tt_grow(t); continue; }
            /* both taken: keep the one standing for more tricks (dearer to recompute) */
            int l0 = 0, l1 = 0;
            for (int s = 0; s < 4; s++) { l0 += (int)(b0->sig >> (4 * s) & 15); l1 += (int)(b1->sig >> (4 * s) & 15); }
            b = (l0 < l1 || (l0 == l1 && b0->n <= b1->n)) ? b0 : b1;
            t->replaced_buckets++;
            t->used--;
            break;
        }
        t->used++;
        b->sig = sig; b->gen = t->gen; b->n = 0; b->next = 0;
    }
    /* an entry that the new one makes useless takes its place: it relies on the same cards
     * or more, they lie the same way, and its bounds are no tighter */
    int slot = -1;
    for (int i = 0; i < b->n; i++) {
        TTEntry *e = &b->e[i];
        if (e->mask == mask && e->k0 == k0 && e->k1 == k1) {
            if (lb > e->lb) e->lb = lb;
            if (ub < e->ub) e->ub = ub;
            if (bm != NO_MOVE) e->best = bm;
            return;
        }
        if (slot < 0 && (e->mask & mask) == mask && !(((e->k0 ^ k0) | (e->k1 ^ k1)) & mask) && e->lb <= lb && e->ub >= ub)
            slot = i;
    }
    if (slot < 0 && b->n < WAYS) slot = b->n++;
    else if (slot < 0) {
        /* the oldest entry goes, unless it answered a probe since the last pass: then it
         * stays for one more round (second chance) */
        for (;;) {
            slot = b->next;
            b->next = (uint8_t)(slot + 1 == WAYS ? 0 : slot + 1);
            if (!b->e[slot].hit) break;
            b->e[slot].hit = 0;
        }
    }
    TTEntry *e = &b->e[slot];
    e->k0 = k0; e->k1 = k1; e->mask = mask; e->lb = lb; e->ub = ub; e->best = bm; e->hit = 0;
}

/* ------------------------------------------------------------------------------------
 * Bounds at a trick boundary.  <0: no cutoff; otherwise the answer, rel its reasons.
 *
 * Sure tricks of the leader, suit by suit: the leader plays its cards from the top and
 * keeps the lead as long as each card is higher than every card still held in that suit
 * by anyone who has not run out of it, and nobody who has run out holds a trump (a
 * player out of the suit with no trump can never win the trick).  Cashing suit after
 * suit changes nothing for the other suits: the only players who run out during the
 * counted rounds hold no trumps.
 *
 * Trumps: a trump that loses its trick loses to a higher trump of the other side, and a
 * hand plays its cards in different tricks, so a side takes at least as many tricks as one
 * of its hands holds trumps that cannot each be paired with a higher trump of the other
 * side (master trumps are the simplest case).
 * ---------------------------------------------------------------------------------- */
/* Rounds of suit s that player p can cash from the top, keeping the lead (see above);
 * *low receives the lowest rank whose holder the count relied on, or -1, and lowk[i] (when
 * given) the same for the first i rounds alone.
 *
 * Opponents play their highest card while they hold the suit (a void opponent with a trump
 * may ruff, which stops the count).  A teammate unblocks: it plays its highest card below
 * p's card, or discards when void, and only stops the count where it would have to take
 * the lead from p: no card below p's, any card above it under Elyigit's rule (it must beat
 * the table), or void and bound to trump (Elyigit's rule, or nothing but trumps left).
 * Which cards lie below p's card in a round is known once the holders of the cards from
 * p's card up are, so the count relies on the ranks from p's card in the last round in
 * which anyone else still held the suit. */
HOT int cash(const Ctx *c, int p, int s, int *low, int8_t *lowk) {
    uint32_t x = c->hand[p][s];
    *low = -1;
    if (lowk) lowk[0] = -1;
    if (!x) return 0;
    const uint32_t others = c->inplay[s] & ~x;
    if (others && topbit(others) > topbit(x)) return 0; /* someone else holds the top card */
    const int np = c->np, tr = c->trump, me = c->maxside[p], elyigit = c->rule == RULE_ELYIGIT;
    int len[MAXP], top[MAXP];
    uint32_t mate[MAXP]; /* a teammate's cards of the suit not yet played */
    for (int o = 0; o < np; o++) {
        uint32_t ho = o == p ? 0 : c->hand[o][s];
        len[o] = popc(ho);
        top[o] = ho ? topbit(ho) : -1;
        mate[o] = ho;
    }
    int rounds = 0;
    for (int i = 1; x; i++) {
        const int ci = topbit(x);
        x &= ~(1u << ci);
        int followed = 0;
        for (int o = 0; o < np; o++) {
            if (o == p) continue;
            const int has_trump = tr >= 0 && s != tr && c->hand[o][tr] != 0;
            if (c->maxside[o] != me) {
                if (len[o] >= i) {
                    if (top[o] > ci) goto done;
                    followed = 1; /* p's card had to beat this opponent's */
                } else if (has_trump) goto done; /* it may ruff */
                continue;
            }
            if (!mate[o]) {
                if (has_trump && (elyigit || !(c->hand[o][(tr + 1) & 3] | c->hand[o][(tr + 2) & 3] | c->hand[o][(tr + 3) & 3])))
                    goto done; /* a void teammate that must trump */
                continue;
            }
            const uint32_t under = mate[o] & ((1u << ci) - 1u);
            if (!under || (elyigit && under != mate[o])) goto done; /* it would overtake */
            mate[o] &= ~(1u << topbit(under));
            followed = 1;
        }
        rounds++;
        if (followed) *low = ci;
        if (lowk) lowk[rounds] = (int8_t)*low; /* what the first rounds alone rely on */
    }
done:
    return rounds;
}

/* Sure tricks of player p on lead: its own cashing, then crossing to a teammate's winner
 * (p leads a card of a suit the teammate cashes) and the teammate's cashing.  top[s] is the
 * holder of the top card of suit s (-1: none left).  (A sure ruff by a teammate, as a trick
 * of its own, was measured and dropped: it cost nodes rather than saving them.) */
HOT int sure_tricks(const Ctx *c, int p, const int top[NSUITS], int cutoff, uint16_t q[NSUITS]) {
    int best = 0, low, k[NSUITS], lows[NSUITS];
    int8_t lowk[NSUITS][MAXRANKS + 2];
    for (int s = 0; s < NSUITS; s++) {
        q[s] = 0;
        k[s] = 0;
        if (top[s] != p) continue;
        k[s] = cash(c, p, s, &low, lowk[s]);
        lows[s] = low;
        best += k[s];
        if (low >= 0) q[s] = PFX(low);
    }
    if (best >= cutoff) {
        /* enough on its own: rely on as few cards as will do, the suits that rely on the
         * fewest first (the count of a suit relies on the ranks from lows[s] up) */
        int sum = 0;
        uint16_t used[NSUITS] = {0, 0, 0, 0};
        while (sum < cutoff) {
            int pick = -1;
            for (int s = 0; s < NSUITS; s++)
                if (k[s] && !used[s] && (pick < 0 || (lows[s] < 0 ? 16 : lows[s]) > (lows[pick] < 0 ? 16 : lows[pick]))) pick = s;
            used[pick] = 1;
            if (sum + k[pick] > cutoff) { /* the last suit: only the rounds still needed */
                const int l = lowk[pick][cutoff - sum];
                q[pick] = l >= 0 ? PFX(l) : 0;
            }
            sum += k[pick];
        }
        for (int s = 0; s < NSUITS; s++)
            if (!used[s]) q[s] = 0;
        return best;
    }
    const int own = best;
    uint16_t qown[NSUITS];
    memcpy(qown, q, sizeof qown);
    for (int t = 0; t < c->np; t++) {
        if (t == p || c->maxside[t] != c->maxside[p]) continue;
        int total = 0, entry = 0;
        uint16_t qt[NSUITS] = {0, 0, 0, 0};
        for (int s = 0; s < NSUITS; s++) {
            if (top[s] != t) continue;
            int k = cash(c, t, s, &low, NULL);
            if (k && c->hand[p][s]) entry = 1;
            total += k;
            if (low >= 0) qt[s] = PFX(low);
        }
        /* the leader's own winners first (the suits differ: each needs its holder to have
         * the top card), then across to the teammate; the teammate, holding as many cards
         * as there are tricks, always has other cards to follow or discard with */
        if (entry && own + total > best) {
            best = own + total;
            for (int s = 0; s < NSUITS; s++) q[s] = (uint16_t)(qown[s] | qt[s]);
        }
    }
    return best;
}

HOT int bounds_cut(const Ctx *c, int need, uint16_t rel[NSUITS]) {
    const int p = c->leader, np = c->np, tr = c->trump, rem = c->tricks_left;
    const int lmax = c->maxside[p];
    uint16_t q[NSUITS];
    int top[NSUITS];
    for (int s = 0; s < NSUITS; s++) {
        top[s] = -1;
        uint32_t all = c->inplay[s];
        if (!all) continue;
        top[s] = c->owner[s][topbit(all)];
    }
    /* sure tricks are only cashed in suits whose top card the leader's side holds: a cheap
     * ceiling first, and the count only when it could reach the cutoff */
    const int cutoff = lmax ? need : rem - need + 1;
    int own = 0, mate = 0; /* the leader's cards in those suits, then the most a teammate has */
    for (int o = 0; o < np; o++) {
        if (c->maxside[o] != lmax) continue;
        int sum = 0;
        for (int s = 0; s < NSUITS; s++)
            if (top[s] == o) sum += popc(c->hand[o][s]);
        if (o == p) own = sum;
        else if (sum > mate) mate = sum;
    }
    const int ceiling = own + mate; /* the leader's cashing, then one teammate's */
    int qt = ceiling >= cutoff ? sure_tricks(c, p, top, cutoff, q) : 0;
    if (qt >= cutoff) {
        memcpy(rel, q, sizeof q);
        return lmax;
    }
    if (need == (lmax ? rem : 1) && (tr < 0 || !c->inplay[tr])) {
        /* Later tricks (DDS's cutoff for no trumps): the side on lead needs every trick,
         * so it must keep the lead throughout and only lead suits whose top card it holds;
         * each trick in such a suit uses a card of it from each of the side's hands that
         * still has one, so the side makes at most, over those suits, its longer holding. */
        int sum = 0;
        uint16_t lr[NSUITS] = {0, 0, 0, 0};
        for (int s = 0; s < NSUITS; s++) {
            if (top[s] < 0) continue;
            if (c->maxside[top[s]] == lmax) {
                int m = 0;
                for (int o = 0; o < np; o++)
                    if (c->maxside[o] == lmax) { int l = popc(c->hand[o][s]); if (l > m) m = l; }
                sum += m;
            } else lr[s] = PFX(topbit(c->inplay[s]));
        }
        if (sum < rem) { memcpy(rel, lr, sizeof lr); return !lmax; }
    }
    if (tr >= 0 && c->inplay[tr]) {
        /* master trumps of each side: side 1 is MAX */
        uint32_t sidetr[2] = {0, 0};
        for (int o = 0; o < np; o++) sidetr[c->maxside[o]] |= c->hand[o][tr];
        int best[2] = {0, 0}, low[2] = {-1, -1};
        /* the same from master trumps alone (above every trump of the other side), which
         * rely on fewer cards: from the lowest master up */
        int mbest[2] = {0, 0}, mlow[2] = {-1, -1};
        for (int o = 0; o < np; o++) {
            /* every trump of o that loses its trick loses to a higher trump of the other
             * side, a different one each time: o's side makes at least as many tricks as
             * o has trumps the other side's cannot all be matched against (greedy matching) */
            const int side = c->maxside[o];
            uint32_t mine = c->hand[o][tr], opp = sidetr[!side];
            if (!mine) continue;
            const int lowest = lowbit(mine);
            int beaten = 0;
            for (uint32_t x = mine; x; x &= x - 1) {
                uint32_t higher = opp & ABOVE(lowbit(x));
                if (!higher) break;
                opp &= ~(1u << lowbit(higher));
                beaten++;
            }
            int n = popc(mine) - beaten;
            if (n > best[side]) { best[side] = n; low[side] = sidetr[!side] ? lowest : -1; }
            const uint32_t masters = sidetr[!side] ? mine & ABOVE(topbit(sidetr[!side])) : mine;
            const int m = popc(masters);
            const int ml = sidetr[!side] && masters ? lowbit(masters) : -1;
            if (m > mbest[side] || (m == mbest[side] && m && ml > mlow[side])) { mbest[side] = m; mlow[side] = ml; }
        }
        if (c->rule == RULE_FOLLOW) {
            /* DDS's later tricks in trumps: a side holding the two top trumps in two hands
             * takes two tricks unless both are bare (following suit it can keep them apart) */
            uint32_t all = c->inplay[tr];
            int t1 = topbit(all);
            uint32_t rest = all & ~(1u << t1);
            if (rest) {
                int t2 = topbit(rest);
                int h1 = c->owner[tr][t1], h2 = c->owner[tr][t2], side = c->maxside[h1];
                if (h1 != h2 && c->maxside[h2] == side && best[side] < 2 &&
                    (popc(c->hand[h1][tr]) > 1 || popc(c->hand[h2][tr]) > 1)) {
                    best[side] = 2;
                    low[side] = t2;
                }
            }
        }
        /* MAX reaches need when MAX's side takes need tricks; it cannot when MIN's side
         * takes more than rem - need */
        const int takes[2] = {rem - need + 1, need};
        int cut = -1, why = -1;
        if (best[1] >= takes[1]) { cut = 1; why = 1; }
        else if (best[0] >= takes[0]) { cut = 0; why = 0; }
        if (cut >= 0) {
            rel[0] = rel[1] = rel[2] = rel[3] = 0;
            const int l = mbest[why] >= takes[why] ? mlow[why] : low[why];
            if (l >= 0) rel[tr] = PFX(l);
            return cut;
        }
    }
    return -1;
}

/* In the middle of a trick: does the side of the player to move win this trick for sure,
 * and how many more tricks can the winner cash at once?  (DDS's quick tricks of the second
 * hand, for any place in the trick.)  The side wins the trick when one of its players still
 * to play holds a card that beats the card winning now and that no opponent still to play
 * can beat (the side's strongest card: a teammate may have to overtake another); that
 * player then leads, and when nobody else holds a trump it cashes the top card of each
 * other suit it holds.  <0: no cutoff. */
HOT int trick_cut(const Ctx *c, const Trick *t, int need_won, uint16_t rel[NSUITS]) {
    const int np = c->np, tr = c->trump;
    const int me = c->maxside[t->who[0]];
    const int ws = t->ws, wr = t->wr, left = t->left;
    const int *cs = t->cs, *cr = t->cr, *who = t->who;
#define BEATS(s1, r1, s2, r2) (((s1) == (s2) && (r1) > (r2)) || ((s1) == tr && (s2) != tr))
    /* the side's strongest card decides who of the side wins (a teammate may have to
     * follow with a higher card than another's) */
    int hh = -1, hs = 0, hr = 0;
    for (int k = 0; k < left; k++) {
        if (c->maxside[who[k]] != me || cs[k] < 0) continue;
        if (hh < 0 || BEATS(cs[k], cr[k], hs, hr)) { hh = who[k]; hs = cs[k]; hr = cr[k]; }
    }
    if (hh < 0 || !BEATS(hs, hr, ws, wr)) return -1;
    for (int j = 0; j < left; j++)
        if (c->maxside[who[j]] != me && cs[j] >= 0 && BEATS(cs[j], cr[j], hs, hr)) return -1;
#undef BEATS
    int k = 1;
    uint16_t q[NSUITS] = {0, 0, 0, 0};
    q[hs] = PFX(hr);
    /* anyone else holding a trump could ruff, and a teammate who ruffs takes the lead */
    int trumps = 0;
    if (tr >= 0)
        for (int o = 0; o < np; o++)
            if (o != hh && c->hand[o][tr]) trumps = 1;
    const int rem = c->tricks_left;
    const int want = me ? need_won : rem - need_won + 1; /* tricks the side must take */
    if (!trumps) {
        for (int s = 0; s < NSUITS && k < want; s++) { /* no more suits than it takes */
            uint32_t all = c->inplay[s];
            if (s == hs || !all) continue;
            int top = topbit(all);
            if (c->owner[s][top] == hh) { k++; q[s] = PFX(top); }
        }
    }
    if (k >= want) {
        memcpy(rel, q, sizeof q);
        return me;
    }
    return -1;
}

/* the last trick: one card each, nothing to choose */
HOT int last_trick(Ctx *c, uint16_t rel[NSUITS]) {
    int ls = 0, lr = 0, ws = -1, wr = 0, wp = c->leader, same = 0;
    rel[0] = rel[1] = rel[2] = rel[3] = 0;
    for (int k = 0; k < c->np; k++) {
        int p = seat_at(c, k);
        int s = 0;
        while (!c->hand[p][s]) s++;
        int r = topbit(c->hand[p][s]);
        if (k == 0) { ls = s; lr = r; ws = s; wr = r; same = 1; continue; }
        if (s == ws) {
            same++;
            if (r > wr) { wr = r; wp = p; }
        } else if (s == c->trump) {
            ws = s; wr = r; wp = p; same = 1;
        }
    }
    (void)ls; (void)lr;
    if (same >= 2) rel[ws] = PFX(wr); /* the winner had to be higher than another card */
    c->nodes++;
    return c->won + c->maxside[wp] >= c->target;
}

/* widen rel so that no run of p's equivalent cards is split between relevant and not */
HOT void extend_runs(const Ctx *c, int p, const uint16_t legal[NSUITS], uint16_t rel[NSUITS]) {
    for (int s = 0; s < NSUITS; s++) {
        if (!rel[s] || !legal[s]) continue;
        uint32_t all = c->inplay[s] | c->tmask[s];
        uint32_t mine = c->hand[p][s];
        uint32_t relin = all & rel[s];
        if (!relin) continue;
        int lo = lowbit(relin);
        if (!(mine >> lo & 1)) continue;
        for (;;) {
            uint32_t below = all & ((1u << lo) - 1u);
            if (!below) break;
            int nx = topbit(below);
            if (!(mine >> nx & 1)) break;
            lo = nx;
        }
        rel[s] = PFX(lo);
    }
}

/* At the start of a trick: the answer without searching, if the target is out of reach
 * either way, the last trick is forced, a bound settles it or the table knows it; else <0
 * (and the position's key, with the table's best card if it has one). */
static inline int boundary_cut(Ctx *c, uint16_t rel[NSUITS], int *hint, uint64_t *sig, uint64_t *k0, uint64_t *k1) {
    const int need = c->target - c->won;
    if (need <= 0) { rel[0] = rel[1] = rel[2] = rel[3] = 0; return 1; }
    if (need > c->tricks_left) { rel[0] = rel[1] = rel[2] = rel[3] = 0; return 0; }
    if (c->tricks_left == 1) return last_trick(c, rel);
#ifdef SOLVER_STATS
    c->st_depth[c->tricks_left]++;
#endif
    if (c->use_tt) { /* start fetching the table's bucket while the bounds are worked out */
        *sig = make_sig(c);
        const TTBucket *pb = &c->tt->b[tt_index(c->tt, *sig)];
        __builtin_prefetch(pb);
        __builtin_prefetch((const char *)pb + 64);
        __builtin_prefetch((const char *)pb + 128);
        __builtin_prefetch((const char *)pb + sizeof(TTBucket));
    }
    int r = c->use_bounds ? bounds_cut(c, need, rel) : -1;
    if (r >= 0) { c->st_bound++; return r; }
    if (c->use_tt) {
        c->st_probe++;
        make_planes(c, k0, k1);
        r = tt_probe(c, need, *sig, *k0, *k1, rel, hint);
        if (r >= 0) { c->st_hit++; return r; }
    }
    return -1;
}

static int search(Ctx *c, uint16_t rel[NSUITS]) {
    c->nodes++;
    if (c->node_limit && c->nodes > c->node_limit) { /* the caller's budget is spent: unwind */
        c->aborted = 1;
        rel[0] = rel[1] = rel[2] = rel[3] = 0;
        return 0;
    }
#ifdef SOLVER_STATS
    c->st_nd[c->tricks_left]++;
#endif
    const int np = c->np, nt = c->ntable;
    uint64_t sig = 0, k0 = 0, k1 = 0;
    int hint = NO_MOVE, need = 0;
    if (nt == 0) {
        need = c->target - c->won;
        int r = boundary_cut(c, rel, &hint, &sig, &k0, &k1);
        if (r >= 0) return r;
    }
    Trick tk;
    const int read = nt > 0 && c->use_trick_cut && c->tricks_left > 1;
    if (read) {
        read_trick(c, &tk);
        int r = trick_cut(c, &tk, c->target - c->won, rel);
        if (r >= 0) return r;
    }
    const int p = seat_at(c, nt);
    const int ismax = c->maxside[p];
    uint16_t legal[NSUITS], lrel[NSUITS];
    gen_legal(c, p, legal, lrel);
    Move mv[MAXMOVES];
    int nm = gen_moves(c, p, legal, mv);
    if (nt > 0 && !read && nm > 1) read_trick(c, &tk); /* for the move ordering */
    uint8_t *killer = &c->killer[c->tricks_left][nt][p];
    /* the table's best card goes first, and the others are only ordered if it fails */
    int ordered = nm <= 1;
    if (!ordered && hint != NO_MOVE) {
        for (int j = 0; j < nm; j++) {
            if (mv[j].card != hint) continue;
            Move m = mv[j];
            mv[j] = mv[0];
            mv[0] = m;
            ordered = -1;
            break;
        }
    }
    if (!ordered) order_moves(c, p, mv, nm, NO_MOVE, *killer, &tk);
    uint16_t acc[NSUITS] = {lrel[0], lrel[1], lrel[2], lrel[3]};
    uint16_t tried[NSUITS] = {0, 0, 0, 0};
    for (int i = 0; i < nm; i++) {
        if (i == 1 && ordered < 0) {
            int h2 = NO_MOVE;
            if (nt == 0 && c->use_tt) { /* the first lead failed: next, the best card of the most alike entry */
                /* looked up again: the search below the first lead may have stored into the
                 * table, growing it (which moves buckets) or replacing entries */
                const TTBucket *b = tt_find(c->tt, sig);
                if (b) alike(c, b, k0, k1, &h2, mv[0].card, need);
            }
            order_moves(c, p, mv + 1, nm - 1, h2, *killer, &tk);
        }
        const int card = mv[i].card, s = card >> 4, r = card & 15;
        const uint16_t bit = (uint16_t)(1u << r);
        /* a card below every relevant rank is worth the same as one already tried that is too */
        if ((tried[s] & (uint16_t)~acc[s]) && !(acc[s] & bit)) continue;
        tried[s] |= bit;
        uint16_t cr[NSUITS];
        int res;
        play_card(c, p, nt, card);
        if (nt + 1 < np) {
            c->ntable = nt + 1;
            res = search(c, cr);
        } else {
            /* the trick is complete: its winner leads the next one */
#ifdef SOLVER_STATS
            c->st_tricks++;
#endif
            TableSave sv;
            const int won_by = close_trick(c, &sv), ws = won_by >> 4, wr = won_by & 15;
            res = search(c, cr);
            reopen_trick(c, &sv);
            if (popc(sv.tmask[ws]) >= 2) cr[ws] |= PFX(wr); /* the winner had to be higher than another card */
        }
        take_back(c, p, nt, card);
        if (c->aborted) return 0; /* an unfinished answer is neither stored nor used */
        if (res == ismax) {
            *killer = (uint8_t)card;
#ifdef SOLVER_STATS
            c->st_cut[nt == 0][i < 3 ? i : 3]++;
            if (nm > 1) c->st_side[nt == 0][ismax][i < 3 ? i : 3]++;
#endif
            for (int t = 0; t < NSUITS; t++) rel[t] = cr[t] | lrel[t];
            if (nt == 0 && c->use_tt) tt_store(c, need, res, sig, k0, k1, rel, card);
            return res;
        }
        for (int t = 0; t < NSUITS; t++) acc[t] |= cr[t];
    }
#ifdef SOLVER_STATS
    if (nm > 1) c->st_all[nt == 0]++;
    if (nm > 1) c->st_side[nt == 0][ismax][4]++;
#endif
    extend_runs(c, p, legal, acc);
    memcpy(rel, acc, sizeof acc);
    if (nt == 0 && c->use_tt) tt_store(c, need, !ismax, sig, k0, k1, rel, -1);
    return !ismax;
}

/* A guess at MAX's tricks from the cards alone, where the first zero-window search goes:
 * a linear fit, made on exact results of random deals of each form, of the share of the
 * tricks on the difference between the sides in top cards (4-3-2-1 for the four highest
 * of each suit still in play), in trumps, in short suits beside trumps, and on who leads.
 * Any guess gives the same exact answer; a close one saves searches. */
static int estimate(const Ctx *c) {
    static const double fit[4][5] = {
        {0.0158, 0.0493, 0.0243, 0.0855, 0.0008},  /* Elyigit's Nines */
        {0.0146, 0.0431, 0.0313, 0.0454, -0.0056}, /* Le Neuf, partnerships (bridge) */
        {0.0119, 0.0209, 0.0309, 0.0506, -0.0363}, /* Le Neuf, one of three */
        {0.0073, 0.0076, 0.0112, 0.0391, -0.1893}, /* Le Neuf, one of four */
    };
    int nmax = 0;
    for (int p = 0; p < c->np; p++) nmax += c->maxside[p];
    const double *w = c->rule == RULE_ELYIGIT ? fit[0] : c->np == 3 ? fit[2] : nmax == 2 ? fit[1] : fit[3];
    double pts[2] = {0, 0}, tlen[2] = {0, 0}, shortness[2] = {0, 0};
    for (int s = 0; s < NSUITS; s++) {
        uint32_t all = c->inplay[s];
        for (int i = 0; i < 4 && all; i++) {
            int r = topbit(all);
            all &= ~(1u << r);
            for (int p = 0; p < c->np; p++)
                if (c->hand[p][s] >> r & 1) pts[c->maxside[p]] += 4 - i;
        }
    }
    if (c->trump >= 0) {
        for (int p = 0; p < c->np; p++) {
            int l = popc(c->hand[p][c->trump]);
            tlen[c->maxside[p]] += l;
            if (!l) continue;
            for (int s = 0; s < NSUITS; s++) {
                int ls = popc(c->hand[p][s]);
                if (s != c->trump && ls < 2) shortness[c->maxside[p]] += 2 - ls;
            }
        }
    }
    double share = 0.5 + w[0] * (pts[1] - pts[0]) + w[1] * (tlen[1] - tlen[0]) + w[2] * (shortness[1] - shortness[0]) +
                   w[3] * (c->maxside[c->leader] - 0.5) + w[4];
    int g = (int)(c->tricks_left * share + 0.5) + W[23];
    if (g < 0) g = 0;
    if (g > c->tricks_left) g = c->tricks_left;
    return c->won + g;
}

/* exact tricks MAX takes from here (c->won included), by zero-window searches, knowing
 * that the answer lies in [lo, hi] */
static int solve_between(Ctx *c, int guess, int lo, int hi) {
    if (lo < c->won) lo = c->won;
    if (hi > c->won + c->tricks_left) hi = c->won + c->tricks_left;
    int g = guess < 0 ? estimate(c) : guess;
    while (lo < hi) {
        int t = g;
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
        c->target = t;
        uint16_t rel[NSUITS];
#ifdef SOLVER_STATS
        uint64_t before = c->nodes;
#endif
        int ok = search(c, rel);
        if (c->aborted) return -1;
#ifdef SOLVER_STATS
        fprintf(stderr, "  target %d: %s, %llu nodes\n", t, ok ? "yes" : "no", (unsigned long long)(c->nodes - before));
#endif
        if (ok) { lo = t; g = t + 1; }
        else { hi = t - 1; g = t - 1; }
    }
    return lo;
}

static int solve_value(Ctx *c, int guess) { return solve_between(c, guess, 0, MAXRANKS + 1); }

/* ------------------------------------------------------------------------------------
 * Python glue
 * ---------------------------------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    TT tt;
    size_t bytes;
    int busy;
    int use_partition, use_tt, use_bounds;
    /* the deal the table's entries came from: same settings, cards a subset -> keep */
    int last_np, last_rule, last_trump, last_maxmask;
    uint16_t deal_cards[NSUITS];
    uint64_t last_nodes, total_nodes;
    uint64_t st[4], st_depth[MAXRANKS + 1]; /* counters of the last call */
} SolverObject;

static void keep_stats(SolverObject *self, const Ctx *c) {
    self->last_nodes = c->nodes;
    self->total_nodes += c->nodes;
    self->st[0] = c->st_bound; self->st[1] = c->st_probe; self->st[2] = c->st_hit; self->st[3] = c->tt->stores;
    memcpy(self->st_depth, c->st_depth, sizeof self->st_depth);
#ifdef SOLVER_STATS /* a developer's view of the search, on standard error */
    for (int i = 0; i <= MAXRANKS; i++) fprintf(stderr, "%llu ", (unsigned long long)c->st_nd[i]);
    fprintf(stderr, "nodes by tricks left; %llu tricks completed\n", (unsigned long long)c->st_tricks);
    for (int a = 1; a >= 0; a--)
        for (int b = 1; b >= 0; b--)
            fprintf(stderr, "%s %s: cut@1 %llu cut@2 %llu cut@3 %llu cut@4+ %llu all %llu\n", a ? "lead" : "follow",
                    b ? "MAX" : "MIN", (unsigned long long)c->st_side[a][b][0], (unsigned long long)c->st_side[a][b][1],
                    (unsigned long long)c->st_side[a][b][2], (unsigned long long)c->st_side[a][b][3],
                    (unsigned long long)c->st_side[a][b][4]);
#endif
}

static PyObject *Solver_stats(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *depth = PyList_New(MAXRANKS + 1);
    if (!depth) return NULL;
    for (int i = 0; i <= MAXRANKS; i++) PyList_SET_ITEM(depth, i, PyLong_FromUnsignedLongLong(self->st_depth[i]));
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:N}", "nodes", (unsigned long long)self->last_nodes,
                         "bound_cuts", (unsigned long long)self->st[0], "probes", (unsigned long long)self->st[1],
                         "hits", (unsigned long long)self->st[2], "stores_total", (unsigned long long)self->st[3],
                         "boundaries_by_tricks_left", depth);
}

static PyTypeObject SolverType;

static int parse_mask_seq(PyObject *obj, uint16_t out[NSUITS], const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NSUITS) {
        PyErr_Format(PyExc_ValueError, "%s: expected 4 suit masks", what);
        Py_DECREF(seq);
        return -1;
    }
    for (int s = 0; s < NSUITS; s++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, s));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (v < 0 || v >= (1 << MAXRANKS)) {
            PyErr_Format(PyExc_ValueError, "%s: suit mask %ld out of range", what, v);
            Py_DECREF(seq);
            return -1;
        }
        out[s] = (uint16_t)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* Fill a context from Python arguments; checks shapes, overlaps and sizes. */
static int setup_ctx(Ctx *c, int np, int rule, int trump, PyObject *hands, int leader, PyObject *played, int maxmask) {
    memset(c, 0, sizeof *c);
    memset(c->killer, NO_MOVE, sizeof c->killer);
    if (np != 3 && np != 4) { PyErr_SetString(PyExc_ValueError, "np must be 3 or 4"); return -1; }
    if (rule != RULE_FOLLOW && rule != RULE_ELYIGIT) { PyErr_SetString(PyExc_ValueError, "unknown rule"); return -1; }
    if (trump < -1 || trump > 3) { PyErr_SetString(PyExc_ValueError, "trump must be -1..3"); return -1; }
    if (leader < 0 || leader >= np) { PyErr_SetString(PyExc_ValueError, "leader out of range"); return -1; }
    if (maxmask <= 0 || maxmask >= (1 << np) - 1) { PyErr_SetString(PyExc_ValueError, "maxmask must name a proper side"); return -1; }
    c->np = np; c->rule = rule; c->trump = trump; c->leader = leader;
    for (int p = 0; p < np; p++) c->maxside[p] = (uint8_t)(maxmask >> p & 1);
    c->partnerships = np == 4 && (maxmask == 5 || maxmask == 10);
    PyObject *hs = PySequence_Fast(hands, "hands must be a sequence");
    if (!hs) return -1;
    if (PySequence_Fast_GET_SIZE(hs) != np) {
        PyErr_SetString(PyExc_ValueError, "one hand per player expected");
        Py_DECREF(hs);
        return -1;
    }
    for (int p = 0; p < np; p++) {
        if (parse_mask_seq(PySequence_Fast_GET_ITEM(hs, p), c->hand[p], "hand") < 0) { Py_DECREF(hs); return -1; }
        for (int s = 0; s < NSUITS; s++) {
            if (c->inplay[s] & c->hand[p][s]) {
                PyErr_SetString(PyExc_ValueError, "a card is in two hands");
                Py_DECREF(hs);
                return -1;
            }
            c->inplay[s] |= c->hand[p][s];
            c->lens += (uint64_t)popc(c->hand[p][s]) << (4 * (4 * p + s));
            for (int r = 0; r < 16; r++)
                if (c->hand[p][s] >> r & 1) c->owner[s][r] = (int8_t)p;
        }
    }
    Py_DECREF(hs);
    PyObject *ps = PySequence_Fast(played, "played must be a sequence");
    if (!ps) return -1;
    Py_ssize_t nplayed = PySequence_Fast_GET_SIZE(ps);
    if (nplayed >= np) { PyErr_SetString(PyExc_ValueError, "too many cards on the table"); Py_DECREF(ps); return -1; }
    for (Py_ssize_t i = 0; i < nplayed; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ps, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(ps); return -1; }
        int s = (int)(v >> 4), r = (int)(v & 15);
        if (v < 0 || s >= NSUITS || r >= MAXRANKS) { PyErr_SetString(PyExc_ValueError, "bad card code"); Py_DECREF(ps); return -1; }
        if ((c->inplay[s] | c->tmask[s]) >> r & 1) { PyErr_SetString(PyExc_ValueError, "a played card is also in a hand"); Py_DECREF(ps); return -1; }
        put_card(c, (int)i, (int)v);
    }
    Py_DECREF(ps);
    c->ntable = (int)nplayed;
    int size0 = -1;
    for (int k = 0; k < np; k++) {
        int p = seat_at(c, k);
        int n = 0;
        for (int s = 0; s < NSUITS; s++) n += popc(c->hand[p][s]);
        if (k >= c->ntable) n -= 1; /* still to play to the current trick */
        if (size0 < 0) size0 = n;
        else if (n != size0) { PyErr_SetString(PyExc_ValueError, "hands of unequal size"); return -1; }
    }
    c->tricks_left = size0 + 1;
    if (c->tricks_left < 1) {
        PyErr_SetString(PyExc_ValueError, "no cards to play");
        return -1;
    }
    if (c->tricks_left > MAXRANKS) { PyErr_SetString(PyExc_ValueError, "at most 13 cards a hand"); return -1; }
    return 0;
}

static void attach(SolverObject *self, Ctx *c, int maxmask) {
    c->tt = &self->tt;
    c->use_partition = self->use_partition;
    c->use_tt = self->use_tt;
    c->use_bounds = self->use_bounds;
    /* Two partnerships following suit (bridge card play): the mid-trick cutoff saves under 1%
     * of the nodes there (the sure tricks at the next trick's start find the same tricks)
     * but costs 7% of the time; in the other forms it saves 5 to 16% of the nodes. */
    c->use_trick_cut = c->use_bounds && !(c->partnerships && c->rule == RULE_FOLLOW);
    uint16_t cards[NSUITS];
    int subset = 1;
    for (int s = 0; s < NSUITS; s++) {
        cards[s] = c->inplay[s] | c->tmask[s];
        if (cards[s] & ~self->deal_cards[s]) subset = 0;
    }
    if (!subset || c->np != self->last_np || c->rule != self->last_rule || c->trump != self->last_trump ||
        maxmask != self->last_maxmask) {
        tt_clear(&self->tt);
        memcpy(self->deal_cards, cards, sizeof cards);
        self->last_np = c->np; self->last_rule = c->rule; self->last_trump = c->trump; self->last_maxmask = maxmask;
    }
}

static int acquire(SolverObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Solver is already solving in another thread; give each thread its own Solver");
        return -1;
    }
    if (!self->tt.b && tt_alloc(&self->tt, self->bytes) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->busy = 1;
    return 0;
}

static PyObject *Solver_solve(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"np", "rule", "trump", "hands", "leader", "played", "maxmask", "guess", "max_nodes", NULL};
    int np, rule, trump, leader, maxmask, guess = -1;
    unsigned long long max_nodes = 0;
    PyObject *hands, *played;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiOiOi|iK", kwlist, &np, &rule, &trump, &hands, &leader, &played, &maxmask,
                                     &guess, &max_nodes))
        return NULL;
    Ctx c;
    if (setup_ctx(&c, np, rule, trump, hands, leader, played, maxmask) < 0) return NULL;
    c.node_limit = max_nodes;
    if (acquire(self) < 0) return NULL;
    attach(self, &c, maxmask);
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = solve_value(&c, guess);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    keep_stats(self, &c);
    return Py_BuildValue("(iK)", value, (unsigned long long)c.nodes); /* -1: gave up at the node limit */
}

/* MAX's tricks after a card of the player to move (its side MAX when mover_max): within the
 * bound of the position's value v when it is known, else searched from the best card's
 * value so far (best, -1: none yet) */
static int score_card(Ctx *c, int v, int best, int mover_max) {
    if (v >= 0) return solve_between(c, v, mover_max ? 0 : v, mover_max ? v : MAXRANKS + 1);
    return solve_between(c, best, 0, MAXRANKS + 1);
}

/* value of every legal card of the player to move: list of (card code, MAX tricks) */
static PyObject *Solver_score(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"np", "rule", "trump", "hands", "leader", "played", "maxmask", "value", "max_nodes", NULL};
    int np, rule, trump, leader, maxmask, known = -1;
    unsigned long long max_nodes = 0;
    PyObject *hands, *played;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiiOiOi|iK", kwlist, &np, &rule, &trump, &hands, &leader, &played, &maxmask,
                                     &known, &max_nodes))
        return NULL;
    Ctx c;
    if (setup_ctx(&c, np, rule, trump, hands, leader, played, maxmask) < 0) return NULL;
    c.node_limit = max_nodes;
    if (acquire(self) < 0) return NULL;
    attach(self, &c, maxmask);
    const int p = seat_at(&c, c.ntable);
    uint16_t legal[NSUITS], lrel[NSUITS];
    Move mv[MAXMOVES];
    int values[MAXMOVES];
    int nm;
    Py_BEGIN_ALLOW_THREADS
    gen_legal(&c, p, legal, lrel);
    nm = gen_moves(&c, p, legal, mv);
    /* With the position's value known, a card of MAX's gives MAX at most that value and a
     * card of MIN's at least it.  Without it, each card is solved from the best value found
     * so far (the first from the estimate): solving the position first would prove, for every
     * card, a bound that the card's own search then proves again more tightly. */
    const int mover_max = c.maxside[p];
    int v = known, best = -1;
    for (int i = 0; i < nm && !c.aborted; i++) {
        const int card = mv[i].card, nt = c.ntable;
        play_card(&c, p, nt, card);
        c.ntable = nt + 1;
        if (c.ntable == c.np) {
            TableSave sv;
            close_trick(&c, &sv);
            values[i] = c.tricks_left > 0 ? score_card(&c, v, best, mover_max) : c.won;
            reopen_trick(&c, &sv);
        } else {
            values[i] = score_card(&c, v, best, mover_max);
        }
        take_back(&c, p, nt, card);
        if (!c.aborted && (best < 0 || (mover_max ? values[i] > best : values[i] < best))) best = values[i];
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    keep_stats(self, &c);
    if (c.aborted) return Py_BuildValue("(OK)", Py_None, (unsigned long long)c.nodes); /* gave up */
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int i = 0; i < nm; i++) {
        int s = mv[i].card >> 4;
        uint32_t run = mv[i].run;
        while (run) {
            int r = topbit(run);
            run &= ~(1u << r);
            PyObject *item = Py_BuildValue("(ii)", s << 4 | r, values[i]);
            if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); return NULL; }
            Py_DECREF(item);
        }
    }
    PyObject *res = Py_BuildValue("(NK)", out, (unsigned long long)c.nodes);
    return res;
}

static PyObject *Solver_clear(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "cannot clear a Solver while it is solving");
        return NULL;
    }
    if (self->tt.b) tt_clear(&self->tt);
    memset(self->deal_cards, 0, sizeof self->deal_cards);
    Py_RETURN_NONE;
}

static PyObject *Solver_info(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    size_t entries = 0;
    const TT *t = &self->tt;
    if (t->b) { /* only the active part can hold entries of this generation */
        for (size_t i = 0; i < t->active; i++)
            if (t->b[i].gen == t->gen) entries += t->b[i].n;
    }
    size_t alloc = t->b ? t->nbuckets * sizeof(TTBucket) : 0;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:n,s:K,s:K,s:K}", "limit_bytes", (Py_ssize_t)self->bytes,
                         "active_bytes", (Py_ssize_t)(t->b ? t->active * sizeof(TTBucket) : 0),
                         "table_bytes", (Py_ssize_t)alloc, "buckets", (Py_ssize_t)(t->b ? t->nbuckets : 0),
                         "buckets_used", (Py_ssize_t)(t->b ? t->used : 0), "entries", (Py_ssize_t)entries,
                         "last_nodes", (unsigned long long)self->last_nodes, "total_nodes", (unsigned long long)self->total_nodes,
                         "replaced_buckets", (unsigned long long)t->replaced_buckets);
}

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"table_bytes", "partition", "table", "bounds", NULL};
    Py_ssize_t bytes = 64 * 1024 * 1024;
    int partition = 1, table = 1, bounds = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|nppp", kwlist, &bytes, &partition, &table, &bounds)) return -1;
    if (bytes < 4096) {
        PyErr_SetString(PyExc_ValueError, "table_bytes must be at least 4096");
        return -1;
    }
    tt_free(&self->tt);
    self->bytes = (size_t)bytes;
    self->use_partition = partition;
    self->use_tt = table;
    self->use_bounds = bounds;
    self->busy = 0;
    self->last_np = -1;
    memset(self->deal_cards, 0, sizeof self->deal_cards);
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    tt_free(&self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(np, rule, trump, hands, leader, played, maxmask, guess=-1) -> (MAX tricks, nodes)"},
    {"score", (PyCFunction)(void (*)(void))Solver_score, METH_VARARGS | METH_KEYWORDS,
     "score(np, rule, trump, hands, leader, played, maxmask, value=-1) -> ([(card, MAX tricks)], nodes)"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "empty the transposition table"},
    {"info", (PyCFunction)Solver_info, METH_NOARGS, "table size and use, node counts"},
    {"stats", (PyCFunction)Solver_stats, METH_NOARGS, "search counters of the last call"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nines.solver._core.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A solver with its own transposition table (one per thread).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

/* legal cards (codes) of the player to move; for tests against the Python rules */
static PyObject *core_legal(PyObject *mod, PyObject *args) {
    int rule, trump;
    PyObject *hand, *table;
    (void)mod;
    if (!PyArg_ParseTuple(args, "iiOO", &rule, &trump, &hand, &table)) return NULL;
    Ctx c;
    memset(&c, 0, sizeof c);
    c.np = 4; c.rule = rule; c.trump = trump;
    if (parse_mask_seq(hand, c.hand[0], "hand") < 0) return NULL;
    PyObject *ts = PySequence_Fast(table, "table must be a sequence");
    if (!ts) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ts);
    if (n > 3) { Py_DECREF(ts); PyErr_SetString(PyExc_ValueError, "at most 3 cards on the table"); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, i));
        if ((v == -1 && PyErr_Occurred()) || v < 0 || (v >> 4) >= NSUITS || (v & 15) >= MAXRANKS) {
            Py_DECREF(ts);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card code");
            return NULL;
        }
        c.tcard[i] = (uint8_t)v;
        c.tmask[v >> 4] |= (uint16_t)(1u << (v & 15));
    }
    Py_DECREF(ts);
    c.ntable = (int)n;
    uint16_t legal[NSUITS], lrel[NSUITS];
    gen_legal(&c, 0, legal, lrel);
    PyObject *out = PyList_New(0);
    for (int s = 0; s < NSUITS && out; s++) {
        for (int r = 0; r < MAXRANKS; r++) {
            if (!(legal[s] >> r & 1)) continue;
            PyObject *v = PyLong_FromLong(s << 4 | r);
            if (!v || PyList_Append(out, v) < 0) { Py_XDECREF(v); Py_DECREF(out); return NULL; }
            Py_DECREF(v);
        }
    }
    return out;
}

static PyMethodDef core_methods[] = {
    {"legal", core_legal, METH_VARARGS, "legal(rule, trump, hand_masks, table_codes) -> [codes]"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled core of the Nines exact solvers.", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "RULE_FOLLOW", RULE_FOLLOW);
    PyModule_AddIntConstant(m, "RULE_ELYIGIT", RULE_ELYIGIT);
    PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(TTEntry));
    PyModule_AddIntConstant(m, "BUCKET_BYTES", (long)sizeof(TTBucket));
    return m;
}
