"""The review: each card scored against the best card, every hand known."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from nines.cards import parse_card, parse_cards
from nines.cli.app import app
from nines.games import get_game
from nines.games.neuf.state import NeufState
from nines.record import replay
from nines.review import ReviewError, Solvers, review_deal, review_record
from nines.review.cards import review_cards
from nines.review.rebuild import CardPlayed, RebuiltDeal
from nines.review.solving import Budget

from .records import first_deals, play_best_cards


def _hands(**hands: str) -> dict[str, tuple]:
    return {seat: tuple(parse_cards(cards)) for seat, cards in hands.items()}


# -- hand-made endings with a known best card and cost -----------------------------------


def test_three_player_ending_cash_the_ace_first() -> None:
    """S holds AS 2C, the others only clubs.  Cashing the ace first takes a trick; leading
    the two of clubs first gives the lead away and the ace is discarded under a club."""
    hands = _hands(S="AS 2C", W="5C 6C", E="3C 4C")
    plays = (
        CardPlayed(12, "S", "S", parse_card("2C"), hands, "S", ()),
        CardPlayed(12, "S", "S", parse_card("AS"), hands, "S", ()),
    )
    deal = RebuiltDeal(1, "neuf", "three", None, plays)
    wrong, right = review_cards(deal, Solvers(), Budget(None))
    assert (wrong.best, wrong.got, wrong.cost, wrong.best_cards) == (1, 0, 1, (parse_card("AS"),))
    assert (right.best, right.got, right.cost) == (1, 1, 0)


def test_elyigit_ending_partnership_value_and_cost() -> None:
    """No trumps, N on lead with 9S 2C: the nine of spades wins at once; the two of clubs
    must be beaten by E, who then leads the seven of clubs and N has to throw the nine."""
    hands = _hands(N="9S 2C", E="6C 7C", S="3S 4S", W="3C 4C")
    plays = (CardPlayed(8, "N", "N", parse_card("2C"), hands, "N", ()),)
    deal = RebuiltDeal(1, "elyigit", "partners", None, plays)
    (play,) = review_cards(deal, Solvers(), Budget(None))
    assert (play.best, play.got, play.cost, play.best_cards) == (1, 0, 1, (parse_card("9S"),))
    # East's side is counted from East's seat: after 9S, East can take one trick of two
    hands_e = _hands(N="2C", E="6C 7C", S="3S 4S", W="3C 4C")
    east = CardPlayed(8, "E", "E", parse_card("6C"), hands_e, "N", (parse_card("9S"),))
    (play,) = review_cards(RebuiltDeal(1, "elyigit", "partners", None, (east,)), Solvers(), Budget(None))
    assert (play.best, play.got, play.cost) == (1, 1, 0)


# -- whole deals ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "preset", "form"), [
    ("neuf", "standard", "three"),
    ("neuf", "newfoundland-partners", "partners"),
    ("elyigit", "standard", "partners"),
])
def test_cost_is_zero_when_every_card_is_a_best_card(game: str, preset: str, form: str) -> None:
    spec = get_game(game)
    state = spec.new_match(spec.options(preset), 11)
    play_best_cards(state, form)
    record = state.record()
    review = review_record(record, 1)
    (deal,) = review.deals
    assert deal.plays and all(play.cost == 0 for play in deal.plays)
    assert all(total.cost == 0 and total.errors == 0 for total in deal.seats.values())
    assert len(deal.plays) == len(record["deals"][0]["tricks"]) * len(state.seats)


def test_costly_cards_add_up_per_seat() -> None:
    record = first_deals("neuf", seed=4)
    (deal,) = review_record(record, 1).deals
    assert len(deal.plays) == 39
    for play in deal.plays:
        assert play.cost == play.best - play.got >= 0
        assert play.card in play.scores and set(play.best_cards) <= set(play.scores)
        assert (play.cost == 0) == (play.card in play.best_cards)
    totals = deal.seats
    for seat in ("S", "W", "E"):
        mine = [p for p in deal.plays if p.seat == seat]
        assert totals[seat].cards == 13
        assert totals[seat].cost == sum(p.cost for p in mine)
        assert totals[seat].errors == sum(1 for p in mine if p.cost)
    # random players do go wrong
    assert sum(t.cost for t in totals.values()) > 0


def test_review_of_a_record_equals_review_of_its_replay() -> None:
    record = first_deals("elyigit", seed=5, deals=2)
    replayed = replay(record).record()
    assert review_record(record).to_json() == review_record(replayed).to_json()


def test_a_record_with_stand_in_marks_is_reviewed_as_without() -> None:
    # a web table's record marks the moves a stand-in made ("stand_in": true): a note, not part of the move
    record = first_deals("neuf", seed=3)
    marked = copy.deepcopy(record)
    for entry in marked["deals"][0]["actions"][::5]:
        entry["stand_in"] = True
    assert review_record(marked).to_json() == review_record(record).to_json()


def test_exchange_values_are_the_seats_values_at_the_first_lead() -> None:
    record = first_deals("neuf", seed=8)
    (deal,) = review_record(record, 1).deals
    assert [d.seat for d in deal.exchange] == [a["seat"] for a in record["deals"][0]["actions"] if a["action"] in ("keep", "exchange")]
    first = deal.plays[0]
    leader = next(d for d in deal.exchange if d.seat == first.seat)
    # the leader's value as it decided is its best card's value at the first lead
    assert leader.value == first.best
    for decision in deal.exchange:
        assert decision.other_choice != decision.choice
        assert decision.cost == max(0, decision.other_value - decision.value)


def test_contract_values_against_the_first_lead() -> None:
    record = first_deals("elyigit", seed=2)
    deal = next(d for d in review_record(record).deals if d.contract is not None)
    contract = deal.contract
    assert set(contract.by_trump) == {"S", "H", "D", "C"}
    # the defender's best at the first lead is what the declaring side cannot take
    first = deal.plays[0]
    assert first.seat != contract.declarer and contract.by_trump[contract.trump] == 9 - first.best
    assert contract.to_json()["value"] == contract.by_trump[contract.trump]


def test_a_record_that_lies_is_refused() -> None:
    record = first_deals("neuf", seed=3)
    bad = copy.deepcopy(record)
    plays = [a for a in bad["deals"][0]["actions"] if a["action"] == "play"]
    # the second card of the first trick replaced by a card of its own seat that does not follow suit
    lead = parse_card(plays[0]["card"])
    hand = bad["deals"][0]["hands"][plays[1]["seat"]]
    off = [c for c in hand if parse_card(c).suit != lead.suit]
    on = [c for c in hand if parse_card(c).suit == lead.suit]
    if not on or not off:
        pytest.skip("this seed's second player cannot revoke")
    plays[1]["card"] = off[0]
    with pytest.raises(ReviewError, match="deal 1, action"):
        review_record(bad, 1)


def test_unknown_deal_and_non_records_are_refused() -> None:
    record = first_deals("neuf", seed=3)
    with pytest.raises(ReviewError, match="no deal 9"):
        review_record(record, 9)
    with pytest.raises(ReviewError, match="not a Nines game record"):
        review_record({"game": "neuf"})


def test_four_alone_node_limit_says_which_cards_are_unscored() -> None:
    record = first_deals("neuf", "four-individual", seed=6)
    (deal,) = review_record(record, 1, max_nodes=20_000).deals
    unscored = [play for play in deal.plays if not play.scored]
    assert unscored, "a budget of 20,000 nodes cannot score a whole four-alone deal"
    for play in unscored:
        assert play.best is None and play.cost is None and play.best_cards == ()
        assert "node budget" in (play.unscored or "")
    assert any("not scored" in note and "20,000" in note for note in deal.notes)
    # the note's key and numbers, for a page in another language
    assert {"key": "review.unscored", "params": {"n": len(unscored), "cards": len(deal.plays), "nodes": 20_000}} in deal.to_json()["note_keys"]
    assert sum(t.unscored for t in deal.seats.values()) == len(unscored)
    data = deal.to_json()
    assert data["budget"] == 20_000
    assert all(p["cost"] is None and "unscored" in p for p in data["plays"] if p["best"] is None)
    # the last cards of the deal are cheap to search and are scored
    assert deal.plays[-1].scored


def test_relaxed_elyigit_rules_are_not_guessed() -> None:
    record = first_deals("elyigit", "partner-exemption", seed=2)
    deal = next(d for d in review_record(record).deals if d.plays)
    assert all(not p.scored for p in deal.plays) and deal.contract is None
    assert any("cannot be scored" in note for note in deal.notes)
    assert {"key": "review.relaxed_rules", "params": {}} in deal.to_json()["note_keys"]


def test_neuf_instant_win_and_elyigit_early_stop_are_counted_to_the_end() -> None:
    record = first_deals("elyigit", seed=2, deals=3)
    for deal in review_record(record).deals:
        if deal.plays and deal.plays[-1].trick < 9:
            assert any("as if it were played out" in note for note in deal.notes)
            keys = deal.to_json()["note_keys"]
            assert {"key": "review.stopped_early", "params": {"trick": deal.plays[-1].trick, "tricks": 9}} in keys
            # the last card's values still count every trick to the ninth
            last = deal.plays[-1]
            assert last.best <= 9 - last.trick + 1
            return
    pytest.skip("no deal of these stopped early")


# -- the command ---------------------------------------------------------------------------


def test_cli_json_shape(tmp_path) -> None:
    record = first_deals("neuf", seed=9)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["review", str(path), "--deal", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) >= ["deals"] and len(data["deals"]) == 1
    deal = data["deals"][0]
    assert deal["number"] == 1
    assert len(deal["plays"]) == 39
    for play in deal["plays"]:
        assert {"trick", "seat", "card", "best", "got", "cost", "best_cards"} <= set(play)
        assert isinstance(play["trick"], int) and isinstance(play["card"], str)
        assert play["cost"] == play["best"] - play["got"] >= 0
        assert all(isinstance(c, str) for c in play["best_cards"])
    assert set(deal["seats"]) == {"S", "W", "E"}
    for totals in deal["seats"].values():
        assert {"cost", "errors"} <= set(totals)
    assert [(p["seat"], p["card"]) for p in deal["plays"]] == [
        (a["seat"], a["card"]) for a in record["deals"][0]["actions"] if a["action"] == "play"
    ]


def test_cli_text_from_standard_input() -> None:
    record = first_deals("elyigit", seed=2)
    result = CliRunner().invoke(app, ["review", "-", "--deal", "1"], input=json.dumps(record))
    assert result.exit_code == 0, result.output
    assert "Deal 1" in result.output
    assert "as if every trick were played out" in " ".join(result.output.split())
    assert "tricks lost" in result.output


def test_cli_bad_input() -> None:
    result = CliRunner().invoke(app, ["review", "-"], input="not json")
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["review", "-"], input='{"format": "nines-record/1", "game": "chess"}')
    assert result.exit_code == 2 and "unknown game" in result.output


def test_review_deal_reuses_solvers_across_deals() -> None:
    record = first_deals("neuf", seed=10, deals=2)
    spec = get_game("neuf")
    options = spec.options_from_record(record["options"])
    pool = Solvers()
    first = review_deal("neuf", options, record["deals"][0], solvers=pool)
    again = review_deal("neuf", options, record["deals"][0])
    assert first == again
    assert isinstance(NeufState, type)


def test_rummy_discards_get_the_experts_opinion() -> None:
    record = first_deals("rummy", seed=3)
    (deal,) = review_record(record, 1).deals
    discards = [a for a in record["deals"][0]["actions"] if a["action"] == "discard"]
    assert [(d.seat, d.card.code) for d in deal.discards] == [(a["seat"], a["card"]) for a in discards]
    assert not deal.plays
    data = deal.to_json()
    assert data["seats"] == {}  # no card scored: no trick totals
    assert "opinion" in data["measure"] and "not a proof" in data["measure"]
    for entry in data["discards"]:
        assert entry["same"] == (entry["expert"] == entry["card"])
    # the same record gets the same opinion
    assert review_record(record, 1).to_json() == review_record(record, 1).to_json()


@pytest.mark.parametrize(("game", "preset", "seed"), [("elyigit", "standard", 7), ("neuf", "newfoundland-partners", 7)])
def test_partnership_values_carried_from_card_to_card_change_nothing(game: str, preset: str, seed: int, monkeypatch) -> None:
    """In partnerships each position's value is known from the card before and bounds the search;
    the scores must be exactly those found without it."""
    record = first_deals(game, preset, seed=seed)
    (carried,) = review_record(record, 1).deals
    from nines.review import cards

    monkeypatch.setattr(cards, "_next_value", lambda *args: None)
    (alone,) = review_record(record, 1).deals
    assert carried.plays and [p.scores for p in carried.plays] == [p.scores for p in alone.plays]
