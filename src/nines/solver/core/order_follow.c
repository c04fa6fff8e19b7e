/*
 * Ordering of the cards played to a trick already led: win as cheaply as possible and only
 * when the side has not already won, third hand high with a card that can still be beaten,
 * make the last player spend its top card, discard low from long suits, unblock a suit
 * without trumps.
 */
#include "core.h"
#include "weights.h"

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

CORE void order_follow(const Ctx *c, int p, Move *mv, int n, const Trick *t) {
    const int tr = c->trump;
    const int me = c->maxside[p];
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
        return;
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
