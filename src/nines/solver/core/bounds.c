/*
 * Bounds that settle a position without searching it: at a trick's start the sure tricks
 * of the side on lead, trump tricks and DDS's later tricks (bounds_cut); in the middle of a
 * trick the side's unbeatable card and the winner's cashing (trick_cut); and the last
 * trick, where nothing is left to choose (last_trick).  Each returns <0 when it does not
 * settle the question, otherwise the answer, with in rel the ranks it relied on.
 */
#include "core.h"

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
/* What an opponent o of the player cashing x (its cards of suit s) does to the count: holding
 * l cards of the suit it takes the lead in the round after the n of x above its best card,
 * when n < l; out of the suit with a trump (may_ruff: trumps are not drawn) it may ruff from
 * round l + 1.  limit: the rounds the count may reach; maxlen: the longest opponent holding. */
static inline void cash_opponent(const Ctx *c, int o, int s, uint32_t x, int may_ruff, int *limit, int *maxlen) {
    const uint32_t ho = c->hand[o][s];
    const int l = popc(ho);
    if (l > *maxlen) *maxlen = l;
    if (l) {
        const int above = popc(x & ABOVE(topbit(ho)));
        if (above < l && above < *limit) *limit = above;
    }
    if (l < *limit && may_ruff && c->hand[o][c->trump]) *limit = l;
}

/* whether teammate o, once out of the suit cashed (not trumps), must trump: it holds a trump
 * and Elyigit's rule makes it trump, or it holds nothing but trumps */
static inline int teammate_must_trump(const Ctx *c, int o, int elyigit) {
    const int tr = c->trump;
    return c->hand[o][tr] && (elyigit || !(c->hand[o][(tr + 1) & 3] | c->hand[o][(tr + 2) & 3] | c->hand[o][(tr + 3) & 3]));
}

HOT int cash(const Ctx *c, int p, int s, int *low, int8_t *lowk, int drawn) {
    uint32_t x = c->hand[p][s];
    *low = -1;
    if (lowk) lowk[0] = -1;
    if (!x) return 0;
    const uint32_t others = c->inplay[s] & ~x;
    if (others && topbit(others) > topbit(x)) return 0; /* someone else holds the top card */
    const int np = c->np, tr = c->trump, me = c->maxside[p], elyigit = c->rule == RULE_ELYIGIT;
    /* The opponents' stops are known before a round is played: an opponent holding l cards
     * of the suit follows to the first l rounds with its highest card, so it takes the lead
     * in the first round in which p's card is below it (after the n of p's cards above it,
     * when n < l); out of the suit with a trump, it may ruff from round l + 1 on (unless
     * trumps are drawn).  limit: the rounds p keeps the lead as far as the opponents go;
     * maxlen: p's card has to beat an opponent's in the first maxlen rounds. */
    int limit = popc(x), maxlen = 0, nmates = 0;
    uint32_t mate[MAXP];   /* a teammate's cards of the suit not yet played */
    int must_trump[MAXP];  /* ... and whether, void of it, it must trump */
    const int ruffs = tr >= 0 && s != tr; /* whether a player out of the suit may hold a trump */
    if (c->partnerships) { /* the opponents sit on either side, the partner opposite */
        cash_opponent(c, p ^ 1, s, x, ruffs && !drawn, &limit, &maxlen);
        cash_opponent(c, p ^ 3, s, x, ruffs && !drawn, &limit, &maxlen);
        mate[0] = c->hand[p ^ 2][s];
        must_trump[0] = ruffs && teammate_must_trump(c, p ^ 2, elyigit);
        nmates = 1;
    } else {
        for (int o = 0; o < np; o++) {
            if (o == p) continue;
            if (c->maxside[o] != me) {
                cash_opponent(c, o, s, x, ruffs && !drawn, &limit, &maxlen);
                continue;
            }
            mate[nmates] = c->hand[o][s];
            must_trump[nmates++] = ruffs && teammate_must_trump(c, o, elyigit);
        }
    }
    int rounds = 0;
    for (int i = 1; i <= limit; i++) {
        const int ci = topbit(x);
        x &= ~(1u << ci);
        int followed = i <= maxlen; /* p's card had to beat an opponent's */
        for (int m = 0; m < nmates; m++) {
            if (!mate[m]) {
                if (must_trump[m]) goto done; /* a void teammate that must trump */
                continue;
            }
            const uint32_t under = mate[m] & ((1u << ci) - 1u);
            if (!under || (elyigit && under != mate[m])) goto done; /* it would overtake */
            mate[m] &= ~(1u << topbit(under));
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
        k[s] = cash(c, p, s, &low, lowk[s], 0);
        lows[s] = low;
        best += k[s];
        if (low >= 0) q[s] = PFX(low);
    }
    /* Drawing trumps (as DDS's quick tricks do): when the leader's trumps cashed from the top
     * outlast every opponent's trumps, and each teammate follows to every one of those rounds,
     * the opponents hold no trump afterwards and cannot ruff the leader's winners of the other
     * suits.  (An opponent discarding meanwhile only holds fewer cards of a suit.)  Those suits'
     * counts then rely on the trumps' rounds having been played first, all of them. */
    const int tr = c->trump;
    int drawn = 0;
    if (tr >= 0 && k[tr] > 0 && k[tr] < cutoff && c->rule == RULE_FOLLOW) {
        int ok = 1;
        for (int o = 0; o < c->np && ok; o++) {
            if (o == p) continue;
            const int l = popc(c->hand[o][tr]);
            if (c->maxside[o] != c->maxside[p] ? l > k[tr] : l < k[tr]) ok = 0;
        }
        for (int s = 0; s < NSUITS && ok; s++) {
            if (s == tr || top[s] != p) continue;
            int8_t lk[MAXRANKS + 2];
            const int k2 = cash(c, p, s, &low, lk, 1);
            if (k2 <= k[s]) continue;
            best += k2 - k[s];
            k[s] = k2;
            lows[s] = low;
            memcpy(lowk[s], lk, sizeof lk);
            q[s] = low >= 0 ? PFX(low) : 0;
            drawn = 1;
        }
    }
    if (best >= cutoff) {
        /* enough on its own: rely on as few cards as will do, the suits that rely on the
         * fewest first (the count of a suit relies on the ranks from lows[s] up) */
        int sum = 0;
        uint16_t used[NSUITS] = {0, 0, 0, 0};
        if (drawn) { /* every trump round first, the others' counts need them */
            used[tr] = 1;
            sum = k[tr];
        }
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
    /* in two partnerships the one teammate sits opposite */
    const int t0 = c->partnerships ? p ^ 2 : 0, t1 = c->partnerships ? (p ^ 2) + 1 : c->np;
    for (int t = t0; t < t1; t++) {
        if (t == p || c->maxside[t] != c->maxside[p]) continue;
        int lead_in = 0; /* p can lead a suit whose top card t holds: else no crossing to count */
        for (int s = 0; s < NSUITS; s++)
            if (top[s] == t && c->hand[p][s]) lead_in = 1;
        if (!lead_in) continue;
        int total = 0, entry = 0;
        uint16_t qt[NSUITS] = {0, 0, 0, 0};
        for (int s = 0; s < NSUITS; s++) {
            if (top[s] != t) continue;
            int k = cash(c, t, s, &low, NULL, 0);
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

/* DDS's later tricks with the third-best trump, in bridge card play: the side holding the
 * top trump (h1) is on lead and needs every trick; the other side holds the second-best
 * trump (h2) with another trump and the third-best in the partner's hand (h3), and h1 plays
 * just after h2 (when h1 plays just before, the rule of the guarded second trump applies).
 * Then the other side takes a trick (tests/solver/test_later_tricks.py).
 *
 * Why: while the side on lead takes every trick it leads every trick, so with the seats h2,
 * h1, h3 and h1's partner in play order, h3 always plays just after h1, and h2 plays last when
 * h1 leads, second when h1's partner leads.  A trick with a trump in it goes to its highest
 * trump, so taking every trick needs the top three trumps to fall in one trick.  The defence:
 * h3 wins any trick in which h1 has played without the top trump and the third-best trump may
 * be played (only its partner's second-best is higher), and otherwise keeps it while it has
 * another legal card; h2, made to play a trump, plays the second-best when h1 has led without
 * the top trump (it wins) and low when h1 has played it; when h1's partner leads trumps and
 * h3's only trump is the third-best, it plays low (the top trump then drops the third-best
 * alone and the second-best is master, or h3 wins the trick); otherwise (a ruff, or h3 with
 * another trump) it plays the second-best: it wins, or the top trump takes it and h3, never
 * made to follow with the third-best, keeps the master.  Without the guard h2 can be made to
 * play the second-best alone under the top trump with the third-best beside it.  (The other
 * forms of Le Neuf seat the sides otherwise: the rule is for two partnerships only.) */
static inline int third_trump_trick(const Ctx *c, int h1, int h2, int h3) {
    return c->partnerships && c->maxside[c->leader] == c->maxside[h1] && h1 == ((h2 + 1) & 3) &&
           h3 == ((h2 + 2) & 3) && popc(c->hand[h2][c->trump]) > 1;
}

CORE int bounds_cut(const Ctx *c, int need, uint16_t rel[NSUITS]) {
    const int p = c->leader, np = c->np, tr = c->trump, rem = c->tricks_left;
    const int lmax = c->maxside[p];
    uint16_t q[NSUITS];
    int top[NSUITS];
    int held[MAXP] = {0, 0, 0, 0}; /* each player's cards in the suits whose top card it holds */
    for (int s = 0; s < NSUITS; s++) {
        top[s] = -1;
        uint32_t all = c->inplay[s];
        if (!all) continue;
        const int o = c->owner[s][topbit(all)];
        top[s] = o;
        held[o] += popc(c->hand[o][s]);
    }
    /* sure tricks are only cashed in suits whose top card the leader's side holds: a cheap
     * ceiling first, and the count only when it could reach the cutoff */
    const int cutoff = lmax ? need : rem - need + 1;
    const int own = held[p]; /* the leader's cards in those suits, then the most a teammate has */
    int mate = 0;
    if (c->partnerships) mate = held[p ^ 2]; /* the partner sits opposite */
    else
        for (int o = 0; o < np; o++)
            if (o != p && c->maxside[o] == lmax && held[o] > mate) mate = held[o];
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
                /* Against a side that needs every trick (DDS's later tricks with trumps): a
                 * guarded second-best trump held by the other side just after the top trump's
                 * holder (in play order), and not on lead, takes a trick.  Until that side wins
                 * a trick its holder never leads, so it plays after the top trump's holder in
                 * every trick: it sees whether the top trump has gone (then it is master) and,
                 * if not, can win with it (only the top trump beats it); guarded, it never has
                 * to play it alone under the top trump.  (On lead, holding only trumps, it could
                 * be made to lead into the top trump: only 1 trick is claimed, and only then.) */
                const int side2 = c->maxside[h2];
                if (side2 != side && h2 != p && h2 == (h1 + 1 == np ? 0 : h1 + 1) && best[side2] < 1 &&
                    popc(c->hand[h2][tr]) > 1) {
                    best[side2] = 1;
                    low[side2] = t2;
                }
                /* The same with the third-best trump (DDS's later tricks), looked at only when
                 * one trick of that side settles the question: see third_trump_trick */
                const uint32_t rest2 = rest & ~(1u << t2);
                if (side2 != side && (side2 ? need <= 1 : need >= rem) && best[side2] < 1 && rest2 &&
                    third_trump_trick(c, h1, h2, c->owner[tr][topbit(rest2)])) {
                    best[side2] = 1;
                    low[side2] = topbit(rest2);
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
 * other suit it holds, and every card of a suit nobody else holds.  <0: no cutoff. */
CORE int trick_cut(const Ctx *c, const Trick *t, int need_won, uint16_t rel[NSUITS]) {
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
            /* a suit nobody else holds: every card of it (as DDS's quick tricks of the second
             * hand count it); the lengths, part of every key, say so, no rank matters */
            if (all == c->hand[hh][s]) { k += popc(all); continue; }
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
CORE int last_trick(Ctx *c, uint16_t rel[NSUITS]) {
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

