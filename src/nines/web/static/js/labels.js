// Names of presets and options in both languages, and a sentence for players on each option.

import { lang } from "./i18n.js";

const PRESETS = {
  standard: ["Standard", "Standard"],
  "spades-first": ["Spades first (S H D C NT)", "Pique d'abord (P C K T SA)"],
  "hearts-clubs": ["Hearts, clubs, diamonds, spades", "Cœur, trèfle, carreau, pique"],
  "clubs-first": ["Clubs first (C D H S NT)", "Trèfle d'abord"],
  "hearts-spades": ["Hearts, spades, diamonds, clubs", "Cœur, pique, carreau, trèfle"],
  "dealer-first": ["The dealer exchanges first", "Le donneur échange en premier"],
  "instant-win": ["Instant win at zero (house rule)", "Victoire immédiate à zéro (règle maison)"],
  "newfoundland-partners": ["Newfoundland partners (4 players)", "Équipes de Terre-Neuve (4 joueurs)"],
  "four-individual": ["Four players, each alone", "Quatre joueurs, chacun pour soi"],
  "play-out": ["Play all nine tricks", "Jouer les neuf levées"],
  "declarer-leads": ["The declarer leads", "Le déclarant entame"],
  "forced-dealer": ["Nobody bids: the dealer is forced", "Personne n'enchérit : contrat forcé du donneur"],
  "no-trumps": ["No trumps allowed", "Sans-atout permis"],
  "partner-exemption": ["No overtaking a partner (Belote)", "Pas d'obligation sur le partenaire (belote)"],
  "no-undertrump": ["No under-trumping", "Pas d'obligation de sous-couper"],
  "any-trump": ["Any trump will do", "N'importe quel atout"],
  "follow-suit": ["Follow suit only (whist)", "Fournir seulement (whist)"],
  "any-bid": ["Any bid opens", "Toute enchère ouvre"],
  "dealer-bids-first": ["Dealer bids first", "Le donneur parle en premier"],
  "stop-at-target": ["Stop at the target", "Arrêt à l'objectif"],
  "bid-only": ["The bid only", "L'enchère seule"],
  "short-match": ["Match to 25", "Partie en 25"],
  "two-decks": ["Two decks (monkeys)", "Deux jeux (singes)"],
  "single-hand": ["A single hand", "Une seule main"],
  "indian-scoring": ["Indian rummy scoring", "Décompte du rami indien"],
  "heavy-penalties": ["Heavy penalties", "Pénalités lourdes"],
  "capped": ["Capped hands (tournaments)", "Mains plafonnées (tournois)"],
  "one-hand-each": ["One hand per player", "Une main par joueur"],
  "natural-monkeys": ["Monkeys with a natural card", "Singes avec une carte naturelle"],
  "fixed-wilds": ["Wilds placed by rule", "Jokers placés par la règle"],
};

// Each option's name and one short sentence for players, both languages (options.json: the tests read it too).
const response = await fetch("/static/options.json");
const OPTION_TEXTS = response.ok ? await response.json() : { labels: {}, help: {} };
const OPTIONS = OPTION_TEXTS.labels;
const OPTION_HELP = OPTION_TEXTS.help;

const CHOICES = {
  three: ["three players and a spare hand", "trois joueurs et une main de réserve"],
  partners: ["four players in partnerships", "quatre joueurs en équipes"],
  individual: ["four players, each alone", "quatre joueurs, chacun pour soi"],
  "left-of-dealer": ["left of the dealer", "à gauche du donneur"],
  dealer: ["the dealer", "le donneur"],
  redeal: ["deal again", "redistribuer"],
  "left-of-declarer": ["left of the declarer", "à gauche du déclarant"],
  declarer: ["the declarer", "le déclarant"],
};

const PLAYERS = {
  random: ["random moves", "coups au hasard"],
  basic: ["basic", "simple"],
  ismcts: ["strong (IS-MCTS search)", "fort (recherche IS-MCTS)"],
  expert: ["expert (the strongest)", "expert (le plus fort)"],  // not "exact solver": rummy's expert searches, it does not solve
};

function humanize(name) {
  const text = String(name).replace(/[-_]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function choose(table, key) {
  const pair = table[key];
  if (!pair) return humanize(key);
  return lang === "fr" ? pair[1] : pair[0];
}

export const presetLabel = (name) => choose(PRESETS, name);
export const optionLabel = (name) => choose(OPTIONS, name);
export const optionHelp = (name) => (OPTION_HELP[name] ? choose(OPTION_HELP, name) : "");
export const choiceLabel = (value) => (CHOICES[value] ? choose(CHOICES, value) : String(value));
export const playerLabel = (name) => (PLAYERS[name] ? choose(PLAYERS, name) : String(name));
