// The form that starts a table: game, rules preset or single options, who sits where, hints and pace.

import { api } from "./api.js";
import { append, clear, h, toast } from "./dom.js";
import { onLangChange, seatName, t } from "./i18n.js";
import { choiceLabel, optionHelp, optionLabel, playerLabel, presetLabel } from "./labels.js";
import { clockOption } from "./life.js";
import { prefs, rememberSeat } from "./prefs.js";
import { errorText } from "./refusals.js";

export const SPEEDS = [
  ["slow", 1600],
  ["normal", 900],
  ["fast", 400],
  ["instant", 0],
];

function defaultBot(game) {
  // the strongest player the server offers for this game, preferring the rule-based one for a first table
  const players = game.players;
  for (const name of ["basic", "expert", "ismcts"]) if (players.includes(name)) return name;
  return players[players.length - 1];
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Build the form. games: the list from /api/games; fixed: a game id to offer only that game.
export function setupForm(games, { fixed = null, onStarted = null } = {}) {
  const state = {
    game: games.find((g) => g.id === fixed) || games[0],
    preset: null,
    overrides: {},
    seats: [],
    choices: {},
    hints: true,
    public: false, // a table is private unless its creator lists it
    clock: null,
    speed: prefs.speed ?? 900,
    error: "",
  };
  state.preset = state.game.default_preset;
  const form = h("form", { class: "setup", "data-game": state.game.id, onsubmit: (e) => { e.preventDefault(); start(); } });
  let resolveTimer = null;

  const presetOptions = () => ({ ...state.game.presets[state.preset] });
  const effective = () => ({ ...presetOptions(), ...state.overrides });

  async function resolveSeats() {
    try {
      const resolved = await api.resolve(state.game.id, state.preset, state.overrides);
      state.error = "";
      setSeats(resolved.seats);
    } catch (error) {
      state.error = errorText(error);
    }
    draw();
  }

  function setSeats(seats) {
    const bot = defaultBot(state.game);
    const previous = state.choices;
    state.seats = seats;
    state.choices = {};
    seats.forEach((seat, i) => {
      state.choices[seat] = previous[seat] || (i === 0 ? { kind: "me" } : { kind: "bot", bot });
    });
  }

  function selectGame(id) {
    state.game = games.find((g) => g.id === id);
    state.preset = state.game.default_preset;
    state.overrides = {};
    state.choices = {};
    setSeats(state.game.seats);
    form.dataset.game = id;
    draw();
  }

  function setOption(name, value) {
    const base = presetOptions()[name];
    if (sameValue(value, base)) delete state.overrides[name];
    else state.overrides[name] = value;
    clearTimeout(resolveTimer);
    resolveTimer = setTimeout(resolveSeats, 150);
  }

  function optionInput(option) {
    const value = effective()[option.name];
    const id = `opt-${state.game.id}-${option.name}`;
    let input;
    if (option.kind === "bool" && !option.optional) {
      input = h("input", { id, type: "checkbox", name: option.name });
      input.checked = !!value;
      input.addEventListener("change", () => setOption(option.name, input.checked));
      input.setAttribute("aria-describedby", `${id}-help`);
      return h("div", { class: "option check" }, input, h("label", { for: id }, optionLabel(option.name)), helpLine(id, option));
    }
    if (option.kind === "choice" || (option.kind === "bool" && option.optional)) {
      const choices = option.kind === "bool" ? [true, false] : option.choices;
      input = h("select", { id, name: option.name });
      if (option.optional) input.append(h("option", { value: "" }, t("setup.auto")));
      for (const choice of choices) {
        const label = choice === true ? t("setup.yes") : choice === false ? t("setup.no") : choiceLabel(choice);
        input.append(h("option", { value: JSON.stringify(choice), selected: sameValue(choice, value) }, label));
      }
      if (value === null || value === undefined) input.value = "";
      input.addEventListener("change", () => setOption(option.name, input.value === "" ? null : JSON.parse(input.value)));
    } else if (option.kind === "int") {
      input = h("input", { id, type: "number", name: option.name, inputmode: "numeric", placeholder: option.optional ? t("setup.auto") : "" });
      input.value = value === null || value === undefined ? "" : String(value);
      input.addEventListener("change", () => setOption(option.name, input.value === "" ? null : Number(input.value)));
    } else if (option.kind === "list") {
      input = h("input", { id, type: "text", name: option.name });
      input.value = (value || []).join(",");
      input.addEventListener("change", () => setOption(option.name, input.value.split(/[\s,]+/).filter(Boolean)));
    } else {
      input = h("input", { id, type: "text", name: option.name, placeholder: option.optional ? t("setup.auto") : "" });
      input.value = value ?? "";
      input.addEventListener("change", () => setOption(option.name, input.value.trim() === "" ? null : input.value.trim()));
    }
    input.setAttribute("aria-describedby", `${id}-help`);
    return h("div", { class: "option" }, h("label", { for: id }, optionLabel(option.name)), input, helpLine(id, option));
  }

  // one sentence for players on what the option changes, in the page's language
  function helpLine(id, option) {
    return h("p", { class: "option-help", id: `${id}-help` }, optionHelp(option.name));
  }

  function seatRow(seat) {
    const choice = state.choices[seat];
    const id = `seat-${state.game.id}-${seat}`;
    const select = h("select", { id, name: `seat-${seat}`, "data-seat": seat });
    select.append(h("option", { value: "me", selected: choice.kind === "me" }, t("setup.me")));
    for (const bot of state.game.players) {
      select.append(h("option", { value: `bot:${bot}`, selected: choice.kind === "bot" && choice.bot === bot }, t("setup.bot", { name: playerLabel(bot) })));
    }
    select.append(h("option", { value: "open", selected: choice.kind === "open" }, t("setup.open")));
    select.addEventListener("change", () => {
      const [kind, bot] = select.value.split(":");
      if (kind === "me") {
        // one seat each: whoever was "me" becomes a computer player
        for (const other of state.seats) {
          if (state.choices[other].kind === "me") state.choices[other] = { kind: "bot", bot: defaultBot(state.game) };
        }
      }
      state.choices[seat] = kind === "bot" ? { kind, bot } : { kind };
      draw();
    });
    return h("div", { class: "seat-choice" }, h("label", { for: id }, seatName(seat)), select);
  }

  async function start() {
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    button.textContent = t("setup.starting");
    try {
      const seated = await api.create({
        game: state.game.id,
        preset: state.preset,
        options: state.overrides,
        seats: state.choices,
        name: prefs.name || null,
        hints: state.hints,
        public: state.public,
        clock_s: state.clock,
        bot_delay_ms: state.speed,
      });
      const id = seated.table.id;
      if (seated.seat) rememberSeat(id, seated.seat);
      // the one-time url seats this browser (the page spends it at once); no secret stays in the address
      const url = seated.url || `/${state.game.id}?t=${encodeURIComponent(id)}`;
      if (onStarted) onStarted(url, seated);
      else window.location.assign(url);
    } catch (error) {
      toast(errorText(error), "error");
      button.disabled = false;
      button.textContent = t("setup.start");
    }
  }

  // a redraw (another game chosen with the arrow keys) keeps the focus where it was: it fell to the page's body
  function draw() {
    const active = document.activeElement;
    const focusId = active && form.contains(active) ? active.id : null;
    drawForm();
    const again = focusId ? form.querySelector(`#${CSS.escape(focusId)}`) : null;
    if (again) again.focus();
  }

  function drawForm() {
    clear(form);
    if (!fixed && games.length > 1) {
      const tabs = h("div", { class: "game-tabs", role: "radiogroup", "aria-label": t("setup.game") });
      for (const game of games) {
        const id = `game-${game.id}`;
        const radio = h("input", { type: "radio", name: "game", id, value: game.id, checked: game.id === state.game.id });
        radio.addEventListener("change", () => selectGame(game.id));
        tabs.append(h("span", { class: "game-tab" }, radio, h("label", { for: id }, t(`game.${game.id}.name`))));
      }
      form.append(h("fieldset", {}, h("legend", {}, t("setup.game")), tabs));
    }
    const presetId = `preset-${state.game.id}`;
    const presetSelect = h("select", { id: presetId, name: "preset" });
    for (const name of Object.keys(state.game.presets)) {
      presetSelect.append(h("option", { value: name, selected: name === state.preset }, presetLabel(name)));
    }
    presetSelect.addEventListener("change", () => {
      state.preset = presetSelect.value;
      state.overrides = {};
      resolveSeats();
    });
    const options = h("details", { class: "options" }, h("summary", {}, t("setup.options")),
      h("div", { class: "option-grid" }, state.game.options.map(optionInput)));
    if (Object.keys(state.overrides).length) options.open = true;
    const speed = h("select", { id: `speed-${state.game.id}`, name: "speed" });
    for (const [name, ms] of SPEEDS) speed.append(h("option", { value: ms, selected: ms === state.speed }, t(`speed.${name}`)));
    speed.addEventListener("change", () => { state.speed = Number(speed.value); });
    const hints = h("input", { type: "checkbox", id: `hints-${state.game.id}`, name: "hints", checked: state.hints });
    hints.addEventListener("change", () => { state.hints = hints.checked; });
    const listed = h("input", { type: "checkbox", id: `public-${state.game.id}`, name: "public", checked: state.public });
    listed.addEventListener("change", () => { state.public = listed.checked; });
    append(form, [
      h("div", { class: "setup-grid" },
        h("fieldset", { class: "rules" }, h("legend", {}, t("setup.preset")),
          h("div", { class: "option" }, h("label", { for: presetId, class: "sr-only" }, t("setup.preset")), presetSelect),
          options),
        h("fieldset", { class: "seats" }, h("legend", {}, t("setup.seats")), state.seats.map(seatRow)),
        h("fieldset", { class: "table-options" },
          h("legend", {}, t("table.settings")),
          h("div", { class: "option" }, h("label", { for: speed.id }, t("setup.speed")), speed),
          clockOption(state),
          h("div", { class: "option check" }, hints, h("label", { for: hints.id }, t("setup.hints"))),
          h("div", { class: "option check" }, listed, h("label", { for: listed.id }, t("setup.public"))))),
      state.error ? h("p", { class: "form-error", role: "alert" }, state.error) : null,
      h("div", { class: "setup-actions" },
        h("button", { type: "submit", class: "button primary", disabled: !!state.error }, t("setup.start"))),
    ]);
  }

  setSeats(state.game.seats);
  draw();
  onLangChange(draw);
  return form;
}
