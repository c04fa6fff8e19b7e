/*
 * Ordering of leads in bridge card play without trumps (two partnerships following suit,
 * no trump suit or none of it left in play), as DDS orders them: a low card from a suit
 * whose top card an opponent holds alone, or from no sequence; winners cashed from the
 * shorter suit first; a low lead toward the partner's winner before a winner of one's own;
 * the last cutting lead's bonus when it wins the trick, a smaller one when it does not.
 */
#include "core.h"
#include "weights.h"

CORE void order_leads_bridge_nt(const Ctx *c, int p, Move *mv, int n, int killer) {
    const int rem = c->tricks_left;
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
}
