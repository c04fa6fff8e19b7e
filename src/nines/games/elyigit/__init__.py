"""Elyigit's Nines: 36 cards ace low, an auction for tricks, a dummy, compulsory overtaking and ruffing."""

from .actions import Bid, NameTrump, Pass, Play, parse_elyigit_action
from .auction import Auction
from .options import PRESETS, SEATS, SIDES, ElyigitOptions, partner_of, side_of
from .play_rules import STRICT, PlayRules, legal_plays, trick_winner, why_not_playable
from .scoring import Contract, defenders_target, play_stops, score_deal
from .state import ElyigitState, PresetDeal
from .view import ElyigitView

__all__ = [
    "Auction",
    "Bid",
    "Contract",
    "ElyigitOptions",
    "ElyigitState",
    "ElyigitView",
    "NameTrump",
    "PRESETS",
    "Pass",
    "Play",
    "PlayRules",
    "PresetDeal",
    "SEATS",
    "SIDES",
    "STRICT",
    "defenders_target",
    "legal_plays",
    "parse_elyigit_action",
    "partner_of",
    "play_stops",
    "score_deal",
    "side_of",
    "trick_winner",
    "why_not_playable",
]
