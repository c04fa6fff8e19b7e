/*
 * The cards a player may play, and which of them need searching.  A header of static inline
 * functions (included by search.c and module.c): inlined into the search, a node saves the
 * two calls (1.6% of the instructions a solve).
 *
 * The two play rules differ only in gen_legal: plain follow suit (Le Neuf, bridge) and
 * Elyigit's follow and beat, else trump and over-trump.  gen_moves then keeps one card per
 * run of equivalent cards (no other card in play between them).
 */
#ifndef NINES_SOLVER_MOVES_H
#define NINES_SOLVER_MOVES_H
#include "core.h"

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
        /* the other cards in play, one place up, with a mark below the weakest card: the
         * highest of them below a card is where its run stops (the runs are taken from the
         * top, so nothing of L lies above r) */
        const uint32_t others = (uint32_t)((c->inplay[s] | c->tmask[s]) & ~c->hand[p][s]) << 1 | 1u;
        while (L) {
            const int r = topbit(L);
            const uint16_t run = (uint16_t)(L & (0xFFFFFFFFu << topbit(others & ((2u << r) - 1u))));
            mv[n].card = (uint8_t)(s << 4 | r);
            mv[n].run = run;
            mv[n].weight = 0;
            n++;
            L &= (uint16_t)~run;
        }
    }
    return n;
}

#endif
