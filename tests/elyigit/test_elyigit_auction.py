"""The auction: who speaks, how it ends, what is refused (seed 003, "The auction")."""

from __future__ import annotations

import pytest
from elyigit_helpers import scripted

from nines.games.contract import IllegalAction, OutOfTurn
from nines.games.elyigit import Auction, ElyigitOptions


def test_the_player_left_of_the_dealer_speaks_first_and_calls_go_clockwise():
    state = scripted([], dealer="W")
    assert state.to_act == "N"
    state.apply("pass")
    assert state.to_act == "E"


def test_the_dealer_speaks_first_as_a_variant():
    state = scripted([], ElyigitOptions(first_bidder="dealer"), dealer="W")
    assert state.to_act == "W"


def test_a_bid_then_three_passes_ends_the_auction_with_the_bidder_declaring():
    state = scripted(["bid 6", "pass", "pass", "pass"])
    deal = state.deal
    assert deal.phase == "trump"
    assert (deal.declarer, deal.bid) == ("N", 6)
    assert state.to_act == "N"
    assert [str(a) for a in state.legal_actions()] == ["trump S", "trump H", "trump D", "trump C"]


def test_a_pass_does_not_put_a_player_out():
    # N passes, then is asked again on the next lap and outbids
    state = scripted(["pass", "bid 5", "pass", "pass", "bid 6", "pass", "pass", "pass"])
    assert (state.deal.declarer, state.deal.bid) == ("N", 6)


def test_two_passes_after_a_bid_do_not_end_it():
    state = scripted(["bid 5", "pass", "pass"])
    assert state.deal.phase == "auction"
    assert state.to_act == "W"


def test_a_bid_of_nine_ends_the_auction_at_once():
    state = scripted(["pass", "bid 9"])
    assert state.deal.phase == "trump"
    assert (state.deal.declarer, state.deal.bid) == ("E", 9)


def test_only_higher_bids_and_pass_are_offered():
    state = scripted(["bid 7"])
    assert [str(a) for a in state.legal_actions()] == ["bid 8", "bid 9", "pass"]


def test_a_bid_not_higher_is_refused_with_the_standing_bid_named():
    state = scripted(["bid 7"])
    before = state.record()
    with pytest.raises(IllegalAction, match=r"higher than the standing bid of 7 \(N\).*bid 8 to 9"):
        state.apply("bid 7")
    with pytest.raises(IllegalAction, match="higher than the standing bid"):
        state.apply("bid 6")
    assert state.record() == before


def test_bids_below_the_lowest_or_above_nine_are_refused():
    state = scripted([])
    with pytest.raises(IllegalAction, match="the lowest bid is 5 tricks"):
        state.apply("bid 4")
    with pytest.raises(IllegalAction, match="at most 9"):
        state.apply("bid 10")
    low = scripted([], ElyigitOptions(min_bid=3))
    low.apply("bid 3")
    assert low.deal.auction.high_bid == 3


def test_an_out_of_turn_call_is_refused_and_changes_nothing():
    state = scripted(["bid 5"])
    before, view = state.record(), state.view("S").to_dict()
    with pytest.raises(OutOfTurn, match="it is not S's turn: E is to act"):
        state.apply("bid 6", by="S")
    assert state.record() == before
    assert state.view("S").to_dict() == view
    state.apply("bid 6", by="E")


def test_cards_and_trumps_are_refused_during_the_auction():
    state = scripted([])
    with pytest.raises(IllegalAction, match="it is the auction: N may bid 5 to 9"):
        state.apply("play 9S")
    with pytest.raises(IllegalAction, match="it is the auction"):
        state.apply("trump S")


def test_all_pass_throws_the_deal_in_and_the_next_dealer_deals():
    state = scripted(["pass"] * 4, dealer="W")
    first = state.deals[0]
    assert first.result == {"thrown_in": True, "contract": None, "score_change": {"NS": 0, "EW": 0}}
    assert state.scores == {"NS": 0, "EW": 0}
    assert state.deal.number == 2 and state.deal.dealer == "N"
    assert state.to_act == "E" and state.deal.phase == "auction"


def test_all_pass_gives_the_dealer_a_forced_contract_as_a_variant():
    state = scripted(["pass"] * 4, ElyigitOptions(no_bid="dealer"), dealer="W")
    assert state.deal.phase == "trump"
    assert (state.deal.declarer, state.deal.bid, state.deal.forced) == ("W", 5, True)
    state.apply("trump C")
    assert state.deal.contract is not None and state.deal.contract.forced


def _longest(auction: Auction, memo: dict) -> int:
    """The most calls still possible from here, trying every legal call (memoised on what matters)."""
    if auction.is_closed:
        return 0
    key = (auction.high_bid, auction.passes_in_a_row)
    if key not in memo:
        best = 0
        for call in auction.legal_calls():
            auction.calls.append((auction.to_call, call))  # type: ignore[arg-type]
            best = max(best, 1 + _longest(auction, memo))
            auction.calls.pop()
        memo[key] = best
    return memo[key]


@pytest.mark.parametrize("min_bid", [1, 5, 9])
def test_every_auction_ends_and_the_longest_is_known(min_bid):
    # bids strictly rise: three passes may open, two may separate bids, three end it
    # (none after a nine): 3 + n bids + 2 (n - 1) + 3, or 3 + n + 2 (n - 1) ending in a nine
    bids = 10 - min_bid
    expected = max(3 + bids + 2 * (bids - 1), 3 + (bids - 1) + 2 * (bids - 2) + 3) if bids > 1 else 4
    assert _longest(Auction("N", min_bid), {}) == expected
    assert _longest(Auction("N", 5), {}) == 16


def test_the_auction_history_reads_in_order():
    state = scripted(["pass", "bid 5", "bid 6", "pass"])
    assert state.view(None).auction == (("N", "pass"), ("E", "bid 5"), ("S", "bid 6"), ("W", "pass"))
    assert state.view(None).high_bid == 6 and state.view(None).high_bidder == "S"
