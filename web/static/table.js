// A seat's page in the browser: clicks choose a move, the server plays it, and a stream
// of server-sent events brings the fragment #table again whenever the table changes.
// Everything shown comes from the server, drawn for this link's seat; this script only
// picks among the moves the fragment lists.  On a game's setup form it shows as many
// seats as the game will have players.
(function () {
  "use strict";
  const players = document.querySelector("form.setup select[name=players]");
  if (players) {
    const fit = () => document.querySelectorAll("form.setup tr[data-seat]").forEach((row) => {
      row.hidden = Number(row.dataset.seat) >= Number(players.value);
    });
    players.addEventListener("change", fit);
    fit();
  }
  const token = document.body.dataset.token;
  const lang = document.body.dataset.lang || "en";
  if (!token) return;
  const base = "/play/" + token;
  let selected = [];  // what was clicked on the board or the table, in order
  let chosen = null;  // the move button waiting for "confirm"
  let sent = false;  // the chosen move was sent and is no longer waiting

  const $ = (id) => document.getElementById(id);
  const table = () => $("table");
  const shownVersion = () => Number(table().dataset.version);
  const moveButtons = () => Array.from(document.querySelectorAll("#moves button.move"));
  const groups = () => Array.from(document.querySelectorAll("#moves details.group"));
  const mentions = (button) => JSON.parse(button.dataset.mentions || "[]");

  // A live update is shown when it is newer than the page; an answer to this page's own
  // request also when it is as new (taking a seat changes the page, not the table).  An
  // older answer is never shown: a bot's move may have arrived before it.
  // A choice waiting for "confirm" outlives an update that still offers the same move
  // (another seat moved meanwhile: a bot's pick in a simultaneous draft); what was clicked
  // on the table is kept with it.  A move sent is no longer waiting: the answer starts afresh.
  function show(html, version, answer) {
    if (answer ? version < shownVersion() : version <= shownVersion()) return;
    const waiting = chosen && !sent ? chosen.dataset.move : null;
    sent = false;
    const clicked = selected;
    const holder = document.createElement("div");
    holder.innerHTML = html;
    table().replaceWith(holder.firstElementChild);
    selected = [];
    chosen = null;
    const again = waiting === null ? undefined : moveButtons().find((b) => b.dataset.move === waiting);
    if (again) {
      selected = clicked.filter((t) => fitting([t]).includes(again));
      narrow();
      if (chosen !== again) choose(again);
    }
    latest();
    hint();
  }

  // The log opens at its newest moves (and what the rules did then), not its first.
  function latest() {
    const log = document.querySelector("ol.log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  function say(text) {
    const box = $("message");
    if (box) box.textContent = text;
  }

  async function send(path, data) {
    const response = await fetch(base + path + "?lang=" + encodeURIComponent(lang), {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(data),
    });
    let answer;
    try {
      answer = await response.json();
    } catch (e) {
      answer = {error: response.statusText};
    }
    if (!response.ok) {
      say(answer.error + (answer.code ? " [" + answer.code + "]" : ""));
      sent = false;  // refused: the choice waits again
      const confirm = $("confirm");
      if (confirm) confirm.disabled = false;
      return;
    }
    show(answer.html, answer.version, true);
  }

  function seat() {
    const value = table().dataset.seat;
    return value === undefined ? null : Number(value);
  }

  // -- choosing a move ---------------------------------------------------------------------
  function fitting(tokens) {
    return moveButtons().filter((b) => tokens.every((t) => mentions(b).includes(t)));
  }

  function choose(button) {
    chosen = button;
    const group = button.closest("details");
    if (group) group.open = true;
    moveButtons().forEach((b) => b.classList.toggle("chosen", b === button));
    $("chosen").textContent = button.title || button.textContent;
    $("selection").hidden = false;
    $("confirm").disabled = false;
  }

  function narrow() {
    say("");
    const fits = fitting(selected);
    moveButtons().forEach((b) => { b.closest("li").hidden = !fits.includes(b); });
    // a group with no move left is hidden; with a click on the table, the groups left open
    groups().forEach((g) => {
      const left = Array.from(g.querySelectorAll("button.move")).some((b) => fits.includes(b));
      g.hidden = !left;
      if (selected.length && left) g.open = true;
    });
    $("narrowed").hidden = selected.length === 0;
    chosen = null;
    $("selection").hidden = true;
    moveButtons().forEach((b) => b.classList.remove("chosen"));
    if (fits.length === 1) choose(fits[0]);
    hint();
  }

  function clear() {
    selected = [];
    if ($("moves")) narrow();
  }

  // What a click on the board or the table may stand for, most particular first: the item
  // (a chip, a piece on a map), then the place, then the place's attributes (a column).
  function candidates(target) {
    const out = [];
    const item = target.closest("[data-item]");
    if (item) out.push(item.dataset.item);
    const entry = target.closest("[data-value]");
    if (entry) out.push(entry.dataset.value);
    const piece = target.closest("[data-piece]");
    if (piece) out.push(piece.dataset.piece);
    const node = target.closest("[data-node]");
    if (node) {
      out.push(node.dataset.node);
      JSON.parse(node.dataset.attrs || "[]").forEach((t) => out.push(t));
    }
    return out;
  }

  function pick(target) {
    if (!$("moves")) return false;
    const tokens = candidates(target);
    if (!tokens.length) return false;
    for (const t of tokens) {
      if (selected.includes(t)) return true;
      if (fitting(selected.concat([t])).length) {
        selected.push(t);
        narrow();
        return true;
      }
    }
    for (const t of tokens) {  // nothing goes with what was picked before: start again from here
      if (fitting([t]).length) {
        selected = [t];
        narrow();
        return true;
      }
    }
    say($("moves").dataset.nothing);
    return true;
  }

  // Marks what a click can choose now, and what is chosen.
  function hint() {
    const visible = moveButtons().filter((b) => !b.closest("li").hidden);
    const named = new Set();
    visible.forEach((b) => mentions(b).forEach((t) => named.add(t)));
    document.querySelectorAll("[data-item], [data-node], [data-piece], [data-value]").forEach((el) => {
      const own = el.dataset.item || el.dataset.piece || el.dataset.node || el.dataset.value;
      const attrs = el.dataset.node ? JSON.parse(el.dataset.attrs || "[]") : [];
      el.classList.toggle("can", named.has(own) || attrs.some((t) => named.has(t)));
      el.classList.toggle("selected", selected.includes(own) || attrs.some((t) => selected.includes(t)));
    });
  }

  document.addEventListener("click", (event) => {
    const target = event.target;
    if (!(target instanceof Element) || !table() || !table().contains(target)) return;
    if (target.closest("#confirm")) {
      if (chosen) {
        $("confirm").disabled = true;
        sent = true;
        send("/move", {seat: seat(), move: chosen.dataset.move});
      }
    } else if (target.closest("#cancel") || target.closest("#show-all")) {
      clear();
    } else if (target.closest("button.move")) {
      choose(target.closest("button.move"));
    } else if (target.closest("#undo")) {
      send("/undo", {seat: seat()});
    } else if (target.closest("#take-seat")) {
      send("/seat", {seat: Number(target.closest("#take-seat").dataset.seat)});
    } else if (target.closest("#record")) {
      window.location.href = base + "/scenario";
    } else if (target.closest("#save-scenario")) {
      ask("/scenario", {}, (answer) => { $("saved").textContent = answer.saved || answer.error; });
    } else {
      pick(target);
    }
  });

  // -- the author panel (meeple serve --author) -----------------------------------------------
  async function ask(path, data, then) {
    const response = await fetch(base + path + "?lang=" + encodeURIComponent(lang), {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(data),
    });
    then(await response.json());
  }

  document.addEventListener("submit", (event) => {
    if (event.target.id !== "why-form") return;
    event.preventDefault();
    ask("/why", {move: $("why-move").value}, (answer) => {
      $("why-answer").textContent = answer.answer || answer.error;
    });
  });

  // -- live updates --------------------------------------------------------------------------
  const stream = new EventSource(base + "/events?lang=" + encodeURIComponent(lang));
  stream.addEventListener("table", (event) => {
    const data = JSON.parse(event.data);
    show(data.html, data.version, false);
  });
  latest();
  hint();
})();
