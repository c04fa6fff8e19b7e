/*
 * Move ordering: heuristics of card play, so that the card that proves the point comes
 * first.  Weights only order the moves; any order gives the same, exact, answer.
 *
 * Each kind of play has its own file: leads in bridge card play without trumps
 * (order_lead_nt.c), every other lead (order_lead.c), and the cards played to a trick
 * already led (order_follow.c).  Here: which of them applies, the bonus of the table's
 * best card (hint) and of the last card that cut the search at this point (killer), and
 * the sort.
 */
#include "core.h"
#include "weights.h"

CORE void order_moves(const Ctx *c, int p, Move *mv, int n, int hint, int killer, const Trick *t) {
    const int nt0 = c->ntable == 0;
    if (nt0 && W[27] && bridge_nt(c)) {
        order_leads_bridge_nt(c, p, mv, n, killer);
        killer = NO_MOVE; /* its bonus is given there */
    } else if (nt0) {
        order_leads(c, p, mv, n);
    } else if (c->ntable == 1 && W[49] && c->hand[p][t->ls] && bridge_nt(c)) {
        order_second_bridge_nt(c, p, mv, n, t->ls); /* second hand following suit without trumps */
    } else {
        order_follow(c, p, mv, n, t);
    }
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
