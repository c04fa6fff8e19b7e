/*
 * The transposition table with partition search (docs/solver.md, "The table").
 *
 * Every result carries, per suit, the set of ranks whose identity mattered (always a top
 * segment: "all cards of strength >= t").  A table entry is keyed on the suit lengths of
 * every hand and on who holds those relevant top cards only, so one entry answers for many
 * positions.  It stores a lower and an upper bound on the tricks MAX takes from that trick
 * on, and the best card found.  The table has a fixed size (buckets of entries, replacement
 * when full) and is emptied by bumping a generation counter, never by walking it.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and madvise's MADV_HUGEPAGE under -std=c11 */
#include "core.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ------------------------------------------------------------------------------------
 * pext for 13-bit masks: gather the bits of x selected by m, packed low.  Used to write
 * each suit as the sequence of its holders from the weakest card up, in relative ranks (the
 * cards already played are squeezed out).  Built where the processor has a fast pext (BMI2,
 * chosen by setup.py) with the instruction, elsewhere by table.
 * ---------------------------------------------------------------------------------- */
#if defined(__BMI2__)
#include <immintrin.h>

CORE void init_tables(void) {}

static inline uint32_t pext13(uint32_t x, uint32_t m) { return _pext_u32(x, m); }

/* strength of the k-th strongest card (1 <= k <= its cards) of mask: the bit of mask
 * that the (n - k + 1)-th lowest deposits into */
static inline int kth_top(uint32_t mask, int k) { return topbit(_pdep_u32(1u << (popc(mask) - k), mask)); }
#else
static uint8_t PEXT7[128][128];

CORE void init_tables(void) {
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

/* strength of the k-th strongest card (1 <= k <= its cards) of mask */
static inline int kth_top(uint32_t mask, int k) {
    while (--k > 0) mask &= ~(1u << topbit(mask));
    return topbit(mask);
}
#endif

CORE int tt_alloc(TT *t, size_t bytes) {
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

CORE void tt_free(TT *t) {
    if (!t->b) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(t->b, t->nbuckets * sizeof(TTBucket));
#else
    free(t->b);
#endif
    t->b = NULL;
}

CORE void tt_clear(TT *t) {
    t->gen++;
    t->used = 0;
    t->active = t->nbuckets < TT_START_BUCKETS ? t->nbuckets : TT_START_BUCKETS;
    if (t->gen == 0) { /* generations wrapped: empty for real, once every 65535 clears */
        memset(t->b, 0, t->nbuckets * sizeof(TTBucket));
        t->gen = 1;
    }
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


/* ... and who holds each card, in relative ranks, in two bit planes: player 1 = (1,0),
 * 2 = (0,1), 3 = (1,1) */
CORE void make_planes(const Ctx *c, uint64_t *k0, uint64_t *k1) {
    uint64_t a = 0, b = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint32_t all = c->inplay[s];
        a |= (uint64_t)pext13(c->hand[1][s] | c->hand[3][s], all) << (16 * s);
        b |= (uint64_t)pext13(c->hand[2][s] | c->hand[3][s], all) << (16 * s);
    }
    *k0 = a; *k1 = b;
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
CORE int tt_probe(Ctx *c, int need, uint64_t sig, uint64_t k0, uint64_t k1, uint16_t rel[NSUITS], int *hint) {
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
            const int k = popc64(e->mask);
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

CORE void tt_store(Ctx *c, int need, int result, uint64_t sig, uint64_t k0, uint64_t k1, const uint16_t rel[NSUITS],
                    int best) {
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

/* After the first lead failed: the best card of the most alike entry that names another card
 * than skip.  Looked up again: the search below the first lead may have stored into the
 * table, growing it (which moves buckets) or replacing entries. */
CORE void tt_next_hint(Ctx *c, uint64_t sig, uint64_t k0, uint64_t k1, int skip, int need, int *hint) {
    const TTBucket *b = tt_find(c->tt, sig);
    if (b) alike(c, b, k0, k1, hint, skip, need);
}
