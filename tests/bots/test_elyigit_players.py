"""The search players of Elyigit's Nines: what they infer, bid, name and play."""

import random

import pytest

from nines.bots import make_player, play_match
from nines.bots.elyigit_calls import (
    BASIC_MODEL,
    SELF_MODEL,
    CallModel,
    auction_ends,
    auction_likelihood,
    call_likelihood,
    support_from,
)
from nines.bots.elyigit_worlds import ElyigitKnowledge, code, ruled_out
from nines.bots.expert_elyigit import ElyigitBudget, ElyigitExpert
from nines.bots.ismcts_elyigit import ElyigitIsmcts, contract_value
from nines.bots.tricksim import STRICT_COMPULSORY
from nines.cards import Suit
from nines.games.elyigit import Bid, ElyigitOptions, ElyigitState, NameTrump, Pass, PresetDeal
from nines.games.elyigit.play_rules import legal_plays
from nines.games.tricks import Play

# N holds every nine and eight; E holds low cards without a void.
STRONG_NORTH = "N:98.98.98.987 76.76.76.654 543.543.543.- 2A.2A.2A.32A"


def _state(deal=STRONG_NORTH, dealer="W"):
    return ElyigitState(ElyigitOptions(), seed=1, preset_deal=PresetDeal.parse(dealer, deal))


def test_the_rule_reveals_what_a_player_cannot_hold():
    hearts, spades = 1, 0
    led = [hearts * 16 + 5]  # the 5 of hearts led
    # following with the 3: no heart above the 5; nothing said about spades
    out = ruled_out(STRICT_COMPULSORY.legal, hearts * 16 + 3, led, spades, [hearts * 16 + 7, hearts * 16 + 2, 7])
    assert out == {hearts * 16 + 7}
    # discarding a diamond: no hearts at all and no trumps (spades)
    out = ruled_out(STRICT_COMPULSORY.legal, 2 * 16 + 4, led, spades, [hearts * 16 + 2, spades * 16 + 1, 3 * 16 + 9])
    assert out == {hearts * 16 + 2, spades * 16 + 1}


def test_sampled_worlds_would_have_allowed_every_card_played():
    rng = random.Random(2)
    checked = 0
    for seed in range(15):
        state = ElyigitState(seed=seed)
        while state.deal.phase in ("auction", "trump"):
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.randrange(4, 20)):
            if state.deal.phase != "play":
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.deal.phase != "play":
            continue
        seat = state.acting_seat
        view = state.view(seat)
        knowledge = ElyigitKnowledge.from_view(view)
        deal = state.deal
        trump = deal.contract.trump
        for _ in range(5):
            hands = knowledge.sample_hands(rng)
            # replay the deal's tricks backwards from the sampled hands: every card was legal
            holding = {s: set(hands[s]) for s in state.seats}
            for trick in reversed(deal.tricks + ([deal.trick] if deal.trick else [])):
                for s, card in trick.plays:
                    holding[s].add(code(card))
            for trick in deal.tricks + ([deal.trick] if deal.trick else []):
                table = []
                for s, card in trick.plays:
                    hand = [c for c in deal.dealt[s] if code(c) in holding[s]]
                    assert card in legal_plays(hand, table, trump)
                    holding[s].discard(code(card))
                    table.append(card)
            checked += 1
    assert checked > 20


def test_contract_value_counts_the_bid_and_the_penalty():
    assert contract_value([6, 6, 6, 6], 6) == 6
    assert contract_value([5, 5], 6) == -7
    assert contract_value([7, 4], 6) == pytest.approx(0.5 * 6 - 0.5 * 7)


def test_call_likelihood_grows_with_the_hand():
    weak, strong = call_likelihood(1.0, "bid 6", None, 5), call_likelihood(5.0, "bid 6", None, 5)
    assert strong > weak
    assert call_likelihood(1.0, "pass", None, 5) > call_likelihood(5.0, "pass", None, 5)


def test_a_jump_speaks_of_a_stronger_hand_than_a_minimum_bid():
    # a jump to 7 is likelier from a strong hand than from a middling one, and a
    # minimum bid of 5 from the middling one, when the bidder bids the level it expects
    middling, strong = 2.5, 4.5
    assert call_likelihood(strong, "bid 7", None, 5) > 3 * call_likelihood(middling, "bid 7", None, 5)
    assert call_likelihood(middling, "bid 5", None, 5, jumps=1.0) > call_likelihood(strong, "bid 5", None, 5, jumps=1.0)
    # a player who never jumps says nothing against more with a minimum bid
    assert call_likelihood(strong, "bid 5", None, 5, jumps=0.0) > call_likelihood(middling, "bid 5", None, 5, jumps=0.0)


def test_support_counts_what_the_partner_said():
    assert support_from([]) == pytest.approx(2.2)
    assert support_from(["pass"]) < support_from([])
    assert support_from(["bid 5"]) > support_from(["pass"])
    assert support_from(["bid 8", "bid 9"]) == pytest.approx(3.2)  # a first bid promises at most this much


def test_a_raise_over_partner_is_read_with_partner_support():
    # N opened 6, S raised to 7: S's raise counts on N's bid, so it asks less of S's own hand
    # than the same jump made without a partner's bid would
    auction = [("N", "bid 6"), ("E", "pass"), ("S", "bid 7")]
    raised = auction_likelihood(auction, {"S": 2.0}, 5)
    alone = auction_likelihood([("N", "pass"), ("E", "bid 6"), ("S", "bid 7")], {"S": 2.0}, 5)
    assert raised > alone
    # only the seats given are weighed
    assert auction_likelihood(auction, {}, 5) == 1.0


@pytest.mark.parametrize("make", [lambda: ElyigitExpert(random.Random(1), ElyigitBudget(8, 8, 8)),
                                  lambda: ElyigitIsmcts(random.Random(1), iterations=80)])
def test_a_strong_hand_bids_and_a_weak_one_passes(make):
    state = _state()  # W deals: N speaks first
    assert state.to_act == "N"
    decision = make().decide(state.view("N"))
    assert isinstance(decision.action, Bid) and decision.reason
    state.apply(decision.action)  # N opens; E holds the sevens and sixes, nothing above
    decision = make().decide(state.view("E"))
    assert isinstance(decision.action, Pass)


def test_expert_names_the_trump_that_makes_the_contract():
    # N: five clubs including the 9 8 7; clubs make the most tricks.
    state = _state()
    state.apply(Bid(6))
    for _ in range(3):
        state.apply(Pass())
    assert state.deal.phase == "trump"
    decision = ElyigitExpert(random.Random(1), ElyigitBudget(10, 10, 10)).decide(state.view("N"))
    assert isinstance(decision.action, NameTrump) and decision.action.suit is not None
    assert decision.action.suit.value == "C"


@pytest.mark.parametrize("name", ["expert", "ismcts"])
def test_search_players_finish_a_short_match_legally_as_declarer_and_dummy(name):
    state = ElyigitState(ElyigitOptions(target=8), seed=5)
    players = {seat: make_player(name if seat in "NS" else "basic", "elyigit", random.Random(i))
               for i, seat in enumerate(state.seats)}
    if name == "expert":
        for seat in "NS":
            players[seat].budget = ElyigitBudget(6, 6, 6)
    else:
        for seat in "NS":
            players[seat].iterations = 40
    play_match(state, players)
    assert state.is_over
    plays = [d for d in state.deals if d.contract is not None]
    assert plays


def test_play_reasons_name_the_target():
    state = _state()
    state.apply(Bid(6))
    for _ in range(3):
        state.apply(Pass())
    state.apply(NameTrump(Suit.CLUBS))
    seat = state.acting_seat
    decision = ElyigitExpert(random.Random(3), ElyigitBudget(6, 6, 6)).decide(state.view(seat))
    assert isinstance(decision.action, Play) and "%" in decision.reason
    assert seat == "E" and decision.action in state.legal_actions()


def test_a_bid_must_be_worth_more_than_letting_the_standing_contract_play():
    from nines.bots.ismcts_elyigit import choose_call

    state = _state()
    state.apply(Bid(6))  # N bids six; E to speak
    view = state.view("E")
    sure_seven = {suit: [7, 7, 7, 7] for suit in Suit}  # E's side would make seven for sure: +7
    assert isinstance(choose_call(view, sure_seven, "here").action, Bid)
    # but if N's six is defeated anyway (worth +7 to E's side), passing is better
    decision = choose_call(view, sure_seven, "here", standing=7.5)
    assert isinstance(decision.action, Pass) and "more than any bid" in decision.reason
    # and a contract that fails by little is a sacrifice worth making against a sure six
    short = {suit: [6, 6, 7, 7] for suit in Suit}  # seven made half the time: -0.5
    assert isinstance(choose_call(view, short, "here", standing=-6.0).action, Bid)


def test_the_declarer_edge_counts_deals_solved_a_trick_or_two_short_as_sometimes_made():
    plain = ElyigitExpert(random.Random(1), declarer_edge=(0.0, 0.0))
    edged = ElyigitExpert(random.Random(1), declarer_edge=(0.5, 0.25))
    tricks = [7, 6, 5, 4]
    assert plain._contract_value(tricks, 7) == contract_value(tricks, 7)
    made = (1 + 0.5 + 0.25) / 4  # 7 made; 6 one short; 5 two short; 4 never
    assert edged._contract_value(tricks, 7) == pytest.approx(made * 7 - (1 - made) * 8)
    assert edged._contract_value(tricks, 7) > plain._contract_value(tricks, 7)


def test_the_uncontested_edge_applies_only_while_no_opponent_has_bid():
    expert = ElyigitExpert(random.Random(1), declarer_edge=(0.1, 0.0), uncontested_edge=(0.8, 0.2))
    state = _state()  # W deals: N speaks first
    assert expert._edge(state.view("N")) == (0.8, 0.2)
    state.apply(Pass())
    state.apply(Bid(5))  # E bids: from now on North-South's contracts are contested
    assert expert._edge(state.view("S")) == (0.1, 0.0)
    assert expert._edge(state.view("E")) == (0.8, 0.2)  # E's side has not met a bid of ours
    assert ElyigitExpert(random.Random(1), declarer_edge=(0.1, 0.0))._edge(_state().view("N")) == (0.1, 0.0)
    tricks = [7, 6, 6, 5]
    assert expert._contract_value(tricks, 7, (0.8, 0.2)) > expert._contract_value(tricks, 7)


def test_a_call_model_reads_a_bid_over_partner_as_more_than_a_bid_over_the_opponents():
    weak, strong = 2.0, 4.0
    # S raises N's 6 to 7: read with the model's raise slack, it speaks of a strong hand
    raised = [("N", "bid 6"), ("E", "pass"), ("S", "bid 7")]
    over = [("E", "bid 6"), ("S", "bid 7")]
    model = {"S": CallModel(over=0.7, raise_=-0.6, spread=0.3, jumps=0.0)}
    for auction in (raised, over):
        assert auction_likelihood(auction, {"S": strong}, 5, models=model) > auction_likelihood(auction, {"S": weak}, 5, models=model)
    assert auction_likelihood(raised, {"S": 3.0}, 5, models=model) < auction_likelihood(over, {"S": 3.0}, 5, models=model)
    # a pass over partner's contract says little: a player who raises only with much to spare passes with fair hands
    passed = [("N", "bid 6"), ("E", "pass"), ("S", "pass")]
    assert auction_likelihood(passed, {"S": 3.0}, 5, models=model) > 0.8
    # a seat without a model is read as before
    assert auction_likelihood(over, {"S": strong}, 5, models={"N": SELF_MODEL}) == auction_likelihood(over, {"S": strong}, 5)


def test_a_model_without_jumps_reads_a_least_bid_as_no_cap_on_the_hand():
    # the basic player always bids the least: its 5 says nothing against a strong hand
    huge, fair = 5.0, 2.5
    capped = call_likelihood(huge, "bid 5", None, 5) / call_likelihood(fair, "bid 5", None, 5)
    uncapped = call_likelihood(huge, "bid 5", None, 5, jumps=BASIC_MODEL.jumps, spread=BASIC_MODEL.spread,
                               slack=BASIC_MODEL.over) / call_likelihood(fair, "bid 5", None, 5, jumps=BASIC_MODEL.jumps,
                                                                         spread=BASIC_MODEL.spread, slack=BASIC_MODEL.over)
    assert capped < 1 <= uncapped


def test_the_expert_reads_its_partner_and_the_opponents_with_their_models(monkeypatch):
    seen = []

    def spy(auction, strength, min_bid, jumps=0.5, spread=0.7, models=None):
        seen.append(dict(models or {}))
        return 1.0

    monkeypatch.setattr("nines.bots.expert_elyigit.auction_likelihood", spy)
    state = _state()  # W deals: N opens, E passes, S to speak
    state.apply(Bid(5))
    state.apply(Pass())
    expert = ElyigitExpert(random.Random(3), ElyigitBudget(4, 4, 4), partner_model=(0.7, -0.6, 0.3, 0.0), opponent_model=(0.3, -0.2, 0.3, 0.0))
    expert.decide(state.view("S"))
    assert seen and seen[0] == {"N": SELF_MODEL, "E": BASIC_MODEL}
    seen.clear()
    ElyigitExpert(random.Random(3), ElyigitBudget(4, 4, 4)).decide(state.view("S"))  # the defaults
    assert seen and seen[0] == {"N": SELF_MODEL, "E": BASIC_MODEL}
    seen.clear()
    ElyigitExpert(random.Random(3), ElyigitBudget(4, 4, 4), partner_model=None, opponent_model=None).decide(state.view("S"))
    assert seen and seen[0] == {}


def test_the_standing_contract_is_judged_with_the_trump_its_declarer_would_name():
    # W deals, N opens 6 (N holds the nines and eights: a sure contract in clubs);
    # E, who holds nothing, passes rather than overbid it
    state = _state()
    state.apply(Bid(6))
    expert = ElyigitExpert(random.Random(2), ElyigitBudget(8, 8, 8), standing_trump="hand", lookahead=False)
    assert isinstance(expert.decide(state.view("E")).action, Pass)
    # looking ahead, with enough deals to see that its side cannot outbid a sure six, it passes too
    decision = ElyigitExpert(random.Random(2), ElyigitBudget(40, 8, 8)).decide(state.view("E"))
    assert isinstance(decision.action, Pass) and "with the calls likely to follow" in decision.reason


def test_their_made_counts_the_opponents_contracts_solved_as_made_as_sometimes_defeated():
    plain = ElyigitExpert(random.Random(1))
    doubtful = ElyigitExpert(random.Random(1), their_made=(0.5, 0.75))
    tricks = [8, 7, 6, 5]
    assert plain._their_value(tricks, 6) == contract_value(tricks, 6)
    made = (1 + 0.75 + 0.5) / 4  # 8 has two to spare; 7 one; 6 exactly; 5 is short
    assert doubtful._their_value(tricks, 6) == pytest.approx(made * 6 - (1 - made) * 7)
    assert doubtful._their_value(tricks, 6) < plain._their_value(tricks, 6)


def test_a_sharper_call_spread_reads_more_into_a_call():
    weak, strong = 1.0, 4.0
    loose = call_likelihood(strong, "bid 6", None, 5) / call_likelihood(weak, "bid 6", None, 5)
    sharp = call_likelihood(strong, "bid 6", None, 5, spread=0.35) / call_likelihood(weak, "bid 6", None, 5, spread=0.35)
    assert sharp > loose > 1
    assert auction_likelihood([("N", "bid 6")], {"N": strong}, 5, spread=0.35) == pytest.approx(
        call_likelihood(strong, "bid 6", None, 5, spread=0.35))


def test_without_infer_partner_only_the_opponents_calls_weigh_the_deals(monkeypatch):
    import nines.bots.expert_elyigit as module

    state = _state()
    state.apply(Bid(6))  # N bids six
    state.apply(Pass())  # E passes; S to speak, its partner and one opponent having called
    seen: list[set[str]] = []

    def likelihood(auction, strength, *args, **kwargs):
        seen.append(set(strength))
        return 1.0

    monkeypatch.setattr(module, "auction_likelihood", likelihood)
    view = state.view("S")
    knowledge = ElyigitKnowledge.from_view(view)
    ElyigitExpert(random.Random(1), ElyigitBudget(4, 4, 4))._worlds(view, knowledge, 4)
    assert seen and all(keys == {"N", "E"} for keys in seen)
    seen.clear()
    ElyigitExpert(random.Random(1), ElyigitBudget(4, 4, 4), infer_partner=False)._worlds(view, knowledge, 4)
    assert seen and all(keys == {"E"} for keys in seen)


def test_the_auction_ends_where_the_models_take_it():
    models = dict.fromkeys("NESW", BASIC_MODEL)
    # a closed auction ends where it is: three passes after a bid, or four passes
    done = [("N", "bid 6"), ("E", "pass"), ("S", "pass"), ("W", "pass")]
    assert auction_ends(done, "N", 5, dict.fromkeys("NESW", 0.0), models) == {("N", 6): 1.0}
    assert auction_ends([(s, "pass") for s in "NESW"], "N", 5, dict.fromkeys("NESW", 0.0), models) == {None: 1.0}
    # nobody with a hand worth a bid: thrown in, bar the chance the model leaves any caller to err
    weak = auction_ends([], "N", 5, dict.fromkeys("NESW", 0.0), models)
    assert max(weak, key=weak.__getitem__) is None and sum(weak.values()) == pytest.approx(1.0)
    # E is far the strongest: after N's pass E bids, and nobody can take it from them
    strong = {"N": 1.0, "E": 4.5, "S": 1.0, "W": 1.0}
    ends = auction_ends([("N", "pass")], "N", 5, strong, models)
    assert max(ends, key=ends.__getitem__) == ("E", 5) and ends[("E", 5)] > 0.8
    # over its partner's contract a seat bids only with tricks to spare (the model's raise_): the more it asks, the rarer
    hands = {"N": 1.0, "E": 2.0, "S": 3.2, "W": 1.0}
    keen = auction_ends([("N", "bid 5"), ("E", "pass")], "N", 5, hands, models)
    shy = auction_ends([("N", "bid 5"), ("E", "pass")], "N", 5, hands, {**models, "S": SELF_MODEL})
    assert keen[("S", 6)] > 0.5 > shy.get(("S", 6), 0.0)
    # a partner's bid is support: over the opponents' five, S raises more often when N has bid than when N passed
    supported = auction_ends([("N", "bid 5"), ("E", "bid 6")], "N", 5, hands, models)
    alone = auction_ends([("N", "pass"), ("E", "bid 6")], "N", 5, hands, models)
    assert supported.get(("S", 7), 0.0) > alone.get(("S", 7), 0.0)
    # a bid of nine closes the auction at once
    assert auction_ends([("N", "bid 9")], "N", 5, strong, models) == {("N", 9): 1.0}


def test_the_look_ahead_values_a_call_by_the_contracts_the_auction_ends_in():
    state = _state()  # W deals: N opens 5; E to call
    state.apply(Bid(5))
    view = state.view("E")
    hands = {seat: [code(c) for c in state.deal.hands[seat]] for seat in "NESW"}
    worlds = [hands, hands]  # two imagined deals (the same cards: what differs is where the auction ends)
    ends = {
        "pass": [{("N", 5): 1.0}, {("S", 6): 1.0}],  # N's five stands in the first deal; S raises to six in the second
        "bid 6": [{("N", 7): 0.5, ("E", 6): 0.5}, {("E", 6): 1.0}],  # N outbids E's six half the time in the first
        "bid 7": [{None: 1.0}, {("W", 7): 1.0}],  # thrown in (as a device); then W, E's partner, declares
    }
    tricks = {suit: [5, 6] if suit == Suit.CLUBS else [4, 4] for suit in Suit}  # E declaring: clubs, 5 then 6 tricks
    asked = []

    def solve(world, trump, declarer):
        asked.append((trump, declarer))
        return 9 if declarer in "NS" else 4  # N-S make anything; W's contract fails

    worth = ElyigitExpert(random.Random(1), declarer_edge=(0.0, 0.0))._worth(view, ends, worlds, solve, tricks)
    # pass: N's five made (-5), S's six made (-6)
    assert worth["pass"] == pytest.approx((-5 - 6) / 2)
    # bid 6: first deal, N's seven made (-7) half the time, E's six in clubs defeated (-7) the other half;
    # second deal, E's six in clubs made (+6): E names one trump for both deals, the best (clubs)
    assert worth["bid 6"] == pytest.approx((0.5 * -7 + 0.5 * -7 + 6) / 2)
    # bid 7: thrown in (0), then W's seven defeated (-8)
    assert worth["bid 7"] == pytest.approx((0 - 8) / 2)
    # the others' contracts are solved with the trump each declarer's own hand is best for (N's: clubs), once a deal
    assert (Suit.CLUBS.index, "N") in asked and len(asked) == len(set(asked)) + asked.count((Suit.CLUBS.index, "N")) - 1
    decision = ElyigitExpert._look_ahead_decision(view, "bid 6", worth, 2)
    assert decision.action == Bid(6) and decision.reason.params["passing_delta"] == -5.5
