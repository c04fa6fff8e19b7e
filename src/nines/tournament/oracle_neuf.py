"""The Le Neuf oracle: the exact solver on the true deal (tournaments only; it sees every card)."""

from __future__ import annotations

from ..bots.base import Decision
from ..bots.expert_neuf import shared_solver
from ..cards import ace_high
from ..games.contract import GameState
from ..games.neuf import Exchange, Keep, NeufState
from ..games.tricks import Play
from ..solver import make_position


class NeufOracle:
    name = "oracle"
    sees_all_cards = True

    def decide_state(self, state: GameState, seat: str) -> Decision:
        assert isinstance(state, NeufState), f"this oracle plays NeufState, not {type(state).__name__}"
        deal = state.deal
        form = state.options.form
        solver = shared_solver()
        if deal.phase == "exchange":
            # Solve the deal from the first lead both ways (the players still to decide keep).
            leader = state.left_of(deal.dealer)
            values = {}
            for choice in ("keep", "exchange"):
                hands = {s: list(deal.hands[s]) for s in state.seats}
                if choice == "exchange":
                    hands[seat] = list(deal.centre)
                values[choice] = solver.value(make_position("neuf", hands, deal.trump, leader, form=form), seat)
            if values["exchange"] > values["keep"]:
                return Decision(Exchange(), f"seeing every card: exchanging makes {values['exchange']}, keeping {values['keep']}")
            return Decision(Keep(), f"seeing every card: keeping makes {values['keep']}, exchanging {values['exchange']}")
        trick = deal.trick
        assert trick is not None
        position = make_position(
            "neuf", {s: list(deal.hands[s]) for s in state.seats}, deal.trump, trick.leader, trick.cards, form=form
        )
        scores = solver.score_cards(position)
        # among equal cards, the lowest (keeping trumps and high cards)
        best = max(scores, key=lambda c: (scores[c], c.suit != deal.trump, -ace_high(c.rank)))  # type: ignore[arg-type]
        return Decision(Play(best), f"seeing every card: {best.pretty} makes {scores[best]} more tricks")
