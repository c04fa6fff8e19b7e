/*
 * The move-ordering weights (docs/solver.md, "Move ordering").  Included by the files that
 * order moves and by the search driver (W[23]); a constant array in each, so the compiler
 * folds every weight into the code that uses it.
 */
#ifndef NINES_SOLVER_WEIGHTS_H
#define NINES_SOLVER_WEIGHTS_H

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
 * toward the partner's winner rather than of our own (bridge leads without trumps); second hand
 * following suit in bridge card play without trumps, as DDS (order_follow_nt.c): 44 a card that
 * wins the trick, 45 one that makes no difference, 46 one below the lead, 47 a sequence, 48 a lone
 * card; 49 (1) these rules on. */
#define NW 50
static const int W[NW] = {52, 14, 22, 7, 25, 32, 31, -3, 30, 11, 20, -17, 18, -20, 10, 80,
                          30, 20, 5, 3, 2, 15, 6, 1, 0, 5, 0, 1, 25, 25, 40, 10, 3, 19, 10, 6, 30, 20, 30, 40, 15,
                          5, 1, 6, 81, -3, -11, 10, 13, 1};

#endif
