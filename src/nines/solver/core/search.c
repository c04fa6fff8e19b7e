/*
 * The search driver (docs/solver.md, "The search").
 *
 *   - zero-window searches "can MAX take at least t of the remaining tricks?" driven
 *     from a guess (MTD style), each a plain boolean alpha-beta (solve_between);
 *   - at each trick boundary: the bounds (bounds.c), then the transposition table
 *     (table.c); in mid-trick, the trick cutoff (bounds.c);
 *   - only the top card of each run of equivalent cards is searched (moves.h), in the
 *     order of order.c, the table's best card first;
 *   - every answer carries the ranks whose identity decided it (partition search), so the
 *     table can store it for every position that agrees on them.
 */
#include "core.h"
#include "moves.h"
#include "weights.h"

#ifdef SOLVER_STATS
#include <stdio.h> /* a developer's view of the search, on standard error */
#endif

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
    if (__builtin_expect(c->nodes > c->node_limit, 0)) { /* the caller's budget is spent: unwind */
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
    const int read = (c->use_trick_cut >> nt & 1) && c->tricks_left > 1; /* never at the lead: bit 0 is 0 */
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
            /* the first lead failed: next, the best card of the most alike entry */
            if (nt == 0 && c->use_tt) tt_next_hint(c, sig, k0, k1, mv[0].card, need, &h2);
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
            /* the trick is complete: its winner leads the next one (counted: DDS reports
             * its search effort as the tricks it completed, benchmarks/dds_compare.py) */
            c->st_tricks++;
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

/* Bridge card play (two partnerships following suit): a guess at the share of the tricks the
 * side on lead takes, a linear fit made on exact results of 1,500 random deals (seed 77, not a
 * benchmark seed), one fit without trumps and one with.  The features are differences between
 * the side on lead and the other: top cards (4-3-2-1 for the four highest still in play) of the
 * plain suits and, apart, of trumps; trumps and the longest trump holding; short suits beside
 * trumps; each suit's top cards held in a row by one side, up to that side's longer holding
 * (quick tricks); length beyond four in a plain suit; the suits' best cards.  Trumps' top cards
 * apart from the others' is what counts most: it cut the guess's mean square error with trumps
 * by a fifth. */
static double estimate_bridge(const Ctx *c) {
    enum { PTS, TPTS, TLEN, SHORT, QUICK, LONGX, TMAX, ACES, NF };
    static const double fit_nt[NF + 1] = {0.5345, 0.0164, 0, 0, 0, 0.0081, 0.0036, 0, 0.0154};
    static const double fit_tr[NF + 1] = {0.5146, 0.0153, 0.0193, 0.0204, 0.0329, -0.0136, -0.0038, 0.0235, 0.0249};
    const int tr = c->trump >= 0 && c->inplay[c->trump] ? c->trump : -1;
    const double *w = tr < 0 ? fit_nt : fit_tr;
    double f[NF][2];
    memset(f, 0, sizeof f);
    for (int s = 0; s < NSUITS; s++) {
        const uint32_t in = c->inplay[s];
        if (!in) continue;
        uint32_t all = in;
        for (int i = 0; i < 4 && all; i++) {
            const int r = topbit(all);
            all &= ~(1u << r);
            const int side = c->maxside[c->owner[s][r]];
            f[s == tr ? TPTS : PTS][side] += 4 - i;
            if (i == 0) f[ACES][side] += 1;
        }
        int maxlen[2] = {0, 0};
        for (int p = 0; p < c->np; p++) {
            const int l = popc(c->hand[p][s]);
            if (l > maxlen[c->maxside[p]]) maxlen[c->maxside[p]] = l;
        }
        /* the suit's top cards held in a row by one side */
        all = in;
        const int top_side = c->maxside[c->owner[s][topbit(in)]];
        int row = 0;
        while (all && c->maxside[c->owner[s][topbit(all)]] == top_side) {
            all &= ~(1u << topbit(all));
            row++;
        }
        f[QUICK][top_side] += row < maxlen[top_side] ? row : maxlen[top_side];
        if (s != tr)
            for (int side = 0; side < 2; side++) f[LONGX][side] += maxlen[side] > 4 ? maxlen[side] - 4 : 0;
        else
            for (int side = 0; side < 2; side++) f[TMAX][side] = maxlen[side];
    }
    if (tr >= 0) {
        for (int p = 0; p < c->np; p++) {
            const int l = popc(c->hand[p][tr]);
            f[TLEN][c->maxside[p]] += l;
            if (!l) continue;
            for (int s = 0; s < NSUITS; s++) {
                const int ls = popc(c->hand[p][s]);
                if (s != tr && ls < 2) f[SHORT][c->maxside[p]] += 2 - ls;
            }
        }
    }
    /* the fit is for the side on lead; the other side's share is what the side on lead leaves */
    double share = c->maxside[c->leader] ? w[0] : 1 - w[0];
    for (int k = 0; k < NF; k++) share += w[k + 1] * (f[k][1] - f[k][0]);
    return share;
}

/* A guess at MAX's tricks from the cards alone, where the first zero-window search goes.
 * Any guess gives the same exact answer; a close one saves searches.  In bridge card play the
 * fit above, and the first question is "does the side on lead take the guess?", whichever side
 * is counted: the search starts at the guess of the side on lead's tricks, or one trick above
 * the other side's (asked from the other side, the same question).  Starting one trick higher
 * for the side on lead: 1.4% more completed tricks on seeds 9001 and 2024; half a trick above
 * or below: 3 and 0.7% more; the other side's own guess, not one above: 3.5% more nodes.  In
 * the other forms a linear fit, made on exact results of random deals of each form, of the
 * share of the tricks on the difference between the sides in top cards (4-3-2-1 for the four
 * highest of each suit still in play), in trumps, in short suits beside trumps, and on who
 * leads, and the search starts W[23] tricks above it. */
static int estimate(const Ctx *c) {
    static const double fit[3][5] = {
        {0.0158, 0.0493, 0.0243, 0.0855, 0.0008},  /* Elyigit's Nines */
        {0.0119, 0.0209, 0.0309, 0.0506, -0.0363}, /* Le Neuf, one of three */
        {0.0073, 0.0076, 0.0112, 0.0391, -0.1893}, /* Le Neuf, one of four */
    };
    int g;
    if (c->partnerships && c->rule == RULE_FOLLOW) {
        g = (int)(c->tricks_left * estimate_bridge(c) + 0.5) + !c->maxside[c->leader];
    } else {
        const double *w = c->rule == RULE_ELYIGIT ? fit[0] : c->np == 3 ? fit[1] : fit[2];
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
        double share = 0.5 + w[0] * (pts[1] - pts[0]) + w[1] * (tlen[1] - tlen[0]) +
                       w[2] * (shortness[1] - shortness[0]) + w[3] * (c->maxside[c->leader] - 0.5) + w[4];
        g = (int)(c->tricks_left * share + 0.5) + W[23];
    }
    if (g < 0) g = 0;
    if (g > c->tricks_left) g = c->tricks_left;
    return c->won + g;
}

/* exact tricks MAX takes from here (c->won included), by zero-window searches, knowing
 * that the answer lies in [lo, hi] */
CORE int solve_between(Ctx *c, int guess, int lo, int hi) {
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

CORE int solve_value(Ctx *c, int guess) { return solve_between(c, guess, 0, MAXRANKS + 1); }

/* MAX's tricks after a card of the player to move (its side MAX when mover_max): within the
 * bound of the position's value v when it is known, else searched from the best card's
 * value so far (best, -1: none yet).  The first question is whether the card does as well
 * for the mover as the best so far: for MAX "at least best?", for MIN "MAX at least best + 1?"
 * (a no holds MAX to best).  Asked "at least best?", MIN's card is nearly always a yes, a
 * question its value answers anyway: a card one trick worse took three questions, not two. */
static int score_card(Ctx *c, int v, int best, int mover_max) {
    if (v >= 0) return solve_between(c, v, mover_max ? 0 : v, mover_max ? v : MAXRANKS + 1);
    return solve_between(c, best >= 0 && !mover_max ? best + 1 : best, 0, MAXRANKS + 1);
}


/* The value of every legal card of the player to move (one per run of equivalent cards,
 * in mv; the value in values).  known: the position's value, or -1.  Returns the number of
 * moves; c->aborted tells whether the node limit was reached. */
CORE int score_moves(Ctx *c, int known, Move mv[MAXMOVES], int values[MAXMOVES]) {
    const int p = seat_at(c, c->ntable);
    uint16_t legal[NSUITS], lrel[NSUITS];
    gen_legal(c, p, legal, lrel);
    const int nm = gen_moves(c, p, legal, mv);
    /* With the position's value known, a card of MAX's gives MAX at most that value and a
     * card of MIN's at least it.  Without it, each card is solved from the best value found
     * so far (the first from the estimate): solving the position first would prove, for every
     * card, a bound that the card's own search then proves again more tightly. */
    const int mover_max = c->maxside[p];
    int v = known, best = -1;
    for (int i = 0; i < nm && !c->aborted; i++) {
        const int card = mv[i].card, nt = c->ntable;
        play_card(c, p, nt, card);
        c->ntable = nt + 1;
        if (c->ntable == c->np) {
            TableSave sv;
            close_trick(c, &sv);
            values[i] = c->tricks_left > 0 ? score_card(c, v, best, mover_max) : c->won;
            reopen_trick(c, &sv);
        } else {
            values[i] = score_card(c, v, best, mover_max);
        }
        take_back(c, p, nt, card);
        if (!c->aborted && (best < 0 || (mover_max ? values[i] > best : values[i] < best))) best = values[i];
    }
    return nm;
}
