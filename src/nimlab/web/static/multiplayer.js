/* nimlab playground: m players with preferences ([SM]); each seat human or computer. */
"use strict";

(() => {
  const { api, el, showError, drawPosition } = nl;
  const $ = (id) => document.getElementById(id);
  let game = null; // {spec, players, preference, seats}
  let history = [];
  let busy = false;
  let seq = 0;

  const error = (m) => showError($("error"), m);

  function drawSeats() {
    const n = Math.max(2, Math.min(8, Number($("mp-players").value) || 3));
    const box = $("seats");
    const old = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren();
    for (let i = 0; i < n; i++) {
      const id = "seat-" + i;
      const select = el("select", { id }, el("option", { value: "human" }, "Human"), el("option", { value: "computer" }, "Computer"));
      select.value = old[i] || (i === 0 ? "human" : "computer");
      box.append(el("div", {}, el("label", { for: id }, "Player " + i), select));
    }
  }

  function readParams(text) {
    const params = {};
    for (const part of text.split(";")) {
      if (!part.trim()) continue;
      const i = part.indexOf("=");
      if (i < 1) throw new Error("cannot read parameter '" + part.trim() + "': write NAME=VALUE, for example k=2");
      params[part.slice(0, i).trim()] = part.slice(i + 1).trim();
    }
    return params;
  }

  const toMove = () => (history.length - 1) % game.players;
  const current = () => history[history.length - 1];

  function draw() {
    const cur = current();
    $("mp-position-text").textContent = cur.position;
    drawPosition($("mp-board"), cur.view, null, null);
    const list = $("mp-options");
    list.replaceChildren();
    const mp = cur.mp;
    const t = toMove();
    const human = game.seats[t] === "human";
    if (mp) {
      $("mp-prediction").textContent =
        "Under perfect play with " + mp.profile + ", player " + mp.last_mover + " moves last.";
      for (const o of mp.options) {
        const best = mp.best.includes(o.position);
        list.append(el("li", {}, el("button", {
          type: "button",
          class: "option" + (best ? " win" : ""),
          "aria-label": o.position + ": then player " + o.last_mover + " moves last" + (best ? " (the choice of perfect play)" : ""),
          "data-position": o.position,
          disabled: human && !busy && !cur.terminal ? null : true,
          onclick: () => move(o.position),
        }, o.position, el("span", { class: "gv", "aria-hidden": "true" }, "→ P" + o.last_mover))));
      }
    }
    const hist = $("mp-history");
    hist.replaceChildren();
    hist.setAttribute("start", "0");
    history.forEach((e, k) => {
      hist.append(el("li", { class: k === 0 ? "start" : "" }, k === 0 ? "start: " + e.position : "player " + e.by + ": " + history[k - 1].position + " → " + e.position));
    });
    $("mp-undo").disabled = busy || !history.some((e, k) => k > 0 && game.seats[e.by] === "human");
  }

  async function step() {
    const my = ++seq;
    error("");
    const cur = current();
    const t = toMove();
    busy = true;
    try {
      if (!cur.mp) {
        cur.mp = await api("/api/multiplayer", { ...game.spec, position: cur.position, players: game.players, preference: game.preference, to_move: t });
      }
      if (my !== seq) return;
      if (cur.terminal) {
        const last = history.length > 1 ? current().by : null;
        $("mp-status").textContent = last === null ? "No moves: the game is over." : "Game over: player " + last + " made the last move.";
        return;
      }
      if (game.seats[t] === "computer") {
        $("mp-status").textContent = "Player " + t + " (computer) is moving…";
        draw();
        const choice = cur.mp.best[0];
        const st = await api("/api/move", { ...game.spec, position: cur.position, move: choice });
        if (my !== seq) return;
        history.push({ position: st.position, view: st.view, terminal: st.terminal, by: t });
        busy = false;
        return step();
      }
      $("mp-status").textContent = "Player " + t + " (you) to move: pick an option.";
    } catch (e) {
      if (my === seq) error(e.message);
    } finally {
      if (my === seq) {
        busy = false;
        draw();
      }
    }
  }

  async function move(text) {
    if (busy) return;
    const cur = current();
    const t = toMove();
    try {
      busy = true;
      draw();
      const st = await api("/api/move", { ...game.spec, position: cur.position, move: text });
      history.push({ position: st.position, view: st.view, terminal: st.terminal, by: t });
    } catch (e) {
      error(e.message);
      busy = false;
      return;
    }
    busy = false;
    step();
  }

  $("mp-players").addEventListener("change", drawSeats);
  $("mp-undo").addEventListener("click", () => {
    if (busy) return;
    seq++;
    while (history.length > 1) {
      const e = history.pop();
      if (game.seats[e.by] === "human") break;
    }
    step();
  });
  $("mp-setup").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error("");
    try {
      const players = Number($("mp-players").value);
      const spec = { game: $("mp-game").value, params: readParams($("mp-params").value) };
      const st = await api("/api/position", { ...spec, position: $("mp-position").value });
      game = {
        spec,
        players,
        preference: $("mp-preference").value,
        seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
      };
      history = [{ position: st.position, view: st.view, terminal: st.terminal, by: null }];
      $("mp-game-panel").hidden = false;
      step();
    } catch (e) {
      error(e.message);
    }
  });
  drawSeats();
})();
