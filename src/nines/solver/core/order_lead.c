/*
 * Ordering of leads in every form but bridge card play without trumps (order_lead_nt.c):
 * cash winners and lead toward a partner's winners, prefer suits where the opponents have
 * few cards to choose from, avoid suits an opponent can ruff, lead low toward a partner's
 * top card; in bridge card play with trumps, DDS's rules for leads as well.
 */
#include "core.h"
#include "weights.h"

CORE void order_leads(const Ctx *c, int p, Move *mv, int n) {
    const int np = c->np, tr = c->trump, rem = c->tricks_left;
    const int me = c->maxside[p];
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
}
