/* nimlab playground: a game against the computer. The page keeps the game's history; the
   server validates every move and computes every answer (stateless JSON API). */
"use strict";

(() => {
  const { api, el, showError, drawPosition, pendingText, chart } = nl;
  const $ = (id) => document.getElementById(id);
  const init = JSON.parse($("init").textContent);
  const spec = { game: init.name, params: init.params, misere: init.misere };
  const strength = init.strength;

  // history[k] = {position, view, terminal, by: null|"human"|"computer", how, analysis}
  let history = [{ position: init.position, view: init.view, terminal: init.terminal, by: null }];
  let redoStack = [];
  let pending = null;
  let busy = false;
  let seq = 0; // increases at every change of position: late answers are dropped

  const current = () => history[history.length - 1];
  const moverAt = (k) => ((k % 2 === 0) === (init.first === "human") ? "human" : "computer");

  function setStatus(text) {
    $("status").textContent = text;
  }

  function error(message) {
    showError($("error"), message);
  }

  function setBusy(value) {
    busy = value;
    document.body.classList.toggle("busy", value);
    for (const id of ["undo", "redo", "move-submit", "play-pending"]) {
      const b = $(id);
      if (b) b.disabled = value;
    }
    updateUndoRedo();
  }

  function updateUndoRedo() {
    $("undo").disabled = busy || !history.some((e) => e.by === "human");
    $("redo").disabled = busy || redoStack.length === 0;
  }

  // -- drawing ------------------------------------------------------------------------------

  function clone(x) {
    return JSON.parse(JSON.stringify(x));
  }

  function pendingData(view) {
    if (view.kind === "heaps") return clone(view.heaps);
    if (view.kind === "groups") return clone(view.groups);
    if (view.kind === "board") return clone(view.heads);
    return null;
  }

  function singleHeapMoves() {
    // every listed option changes exactly one heap: a click on a stone plays at once
    const cur = current();
    const a = cur.analysis;
    if (cur.view.kind !== "heaps" || !a || !a.options.length) return false;
    const tokens = cur.position.split(/\s+/);
    return a.options.every((o) => {
      const t = o.position.split(/\s+/);
      return t.length === tokens.length && t.filter((x, i) => x !== tokens[i]).length === 1;
    });
  }

  function humanTurn() {
    const k = history.length - 1;
    return !current().terminal && moverAt(k) === "human";
  }

  function draw() {
    const cur = current();
    $("position-text").textContent = cur.position;
    const interactive = humanTurn() && !busy;
    const on = interactive
      ? {
          stone: (path, keep) => clickStone(path, keep),
          coin: (a, b) => clickCoin(a, b),
        }
      : null;
    drawPosition($("board"), cur.view, pending, on);
    $("stone-help").hidden = !(interactive && (cur.view.kind === "heaps" || cur.view.kind === "groups"));
    const row = $("pending-row");
    if (pending && pendingText(cur.view, pending) !== cur.position) {
      row.hidden = false;
      $("pending-text").textContent = pendingText(cur.view, pending);
    } else {
      row.hidden = true;
    }
    const over = cur.terminal;
    $("move-input").disabled = over || !humanTurn();
    $("move-submit").disabled = over || !humanTurn() || busy;
    $("move-input").placeholder = over ? "the game is over" : moveExample(cur.view);
    drawOptions();
    drawHistory();
    drawValues();
    updateUndoRedo();
  }

  /** How to type a move in this game, from the shape of its position (not from its name). */
  function moveHelp(view) {
    if (view.kind === "heaps")
      return "the position after it (" + (view.heaps.length > 1 ? "3 4 1" : "3") + ") or HEAP:SIZE (1:2 makes heap 1 a heap of 2)";
    if (view.kind === "groups")
      return "the ranges after it, heaps of a range joined by commas, ranges by spaces (as in " + view.text + ")";
    if (view.kind === "board")
      return "the coins showing heads after it, as ROW,COLUMN pairs (as in " + view.text + "), or click the coins to turn";
    return "the position after it, written as the position is (" + view.text + ")";
  }

  function moveExample(view) {
    if (view.kind === "heaps") return view.heaps.length > 1 ? "e.g. 3 4 1 or 1:2" : "e.g. 3";
    return "e.g. " + view.text;
  }

  function clickStone(path, keep) {
    const cur = current();
    if (!pending) pending = pendingData(cur.view);
    if (path.length === 1) pending[path[0]] = keep;
    else pending[path[0]][path[1]] = keep;
    if (singleHeapMoves()) {
      const p = pendingData(cur.view);
      p[path[0]] = keep;
      pending = null;
      humanMove(p.join(" "));
      return;
    }
    draw();
  }

  function clickCoin(a, b) {
    if (!pending) pending = pendingData(current().view);
    const i = pending.findIndex(([x, y]) => x === a && y === b);
    if (i >= 0) pending.splice(i, 1);
    else pending.push([a, b]);
    draw();
  }

  function hintsOn() {
    return $("hints").checked;
  }

  function drawOptions() {
    const cur = current();
    const list = $("options");
    list.replaceChildren();
    const a = cur.analysis;
    const note = $("options-note");
    note.textContent = "";
    if (cur.terminal) {
      note.textContent = "No moves left.";
      return;
    }
    if (!a) {
      note.textContent = "…";
      return;
    }
    if (a.options_note) note.textContent = a.options_note;
    else if (a.more_options) note.textContent = "The first " + a.options.length + " options are listed; type any other move.";
    const mine = humanTurn() && !busy;
    for (const o of a.options) {
      const hint = hintsOn() ? (o.winning ? "win" : "lose") : "";
      const label = o.position + (hintsOn() ? (o.winning ? ": winning move" : ": losing move") : "");
      const b = el(
        "button",
        {
          type: "button",
          class: "option " + hint,
          "aria-label": label,
          "data-position": o.position,
          "data-winning": o.winning ? "true" : "false",
          disabled: mine ? null : true,
          onclick: () => humanMove(o.position),
        },
        o.position,
      );
      if (hintsOn()) {
        b.append(el("span", { class: "tag " + hint, "aria-hidden": "true" }, o.winning ? "wins" : "loses"));
        if (o.value !== undefined) b.append(el("span", { class: "gv", "aria-hidden": "true" }, "G=" + o.value));
      }
      list.append(el("li", {}, b));
    }
  }

  function drawHistory() {
    const list = $("history");
    list.replaceChildren();
    list.setAttribute("start", "0");
    history.forEach((e, k) => {
      if (k === 0) {
        list.append(el("li", { class: "start" }, "start: " + e.position));
        return;
      }
      const who = e.by === "human" ? "You" : "Computer";
      list.append(el("li", {}, who + ": " + history[k - 1].position + " → " + e.position + (e.how ? " (" + e.how + ")" : "")));
    });
  }

  function drawValues() {
    const show = hintsOn();
    const line = $("value-line");
    const box = $("chart");
    box.hidden = !show;
    line.hidden = !show;
    if (!show) return;
    const a = current().analysis;
    if (current().terminal) {
      line.textContent = "No moves left" + (a && a.value !== null ? ": Grundy value " + a.value : "") + ". " + endMessage();
      line.className = "value-line";
    } else if (a) {
      const who = humanTurn() ? "you" : "the player to move";
      const win = a.outcome === "N";
      line.textContent =
        (a.value !== null && a.value !== undefined ? "Grundy value " + a.value + ". " : "") +
        a.outcome + "-position: " + (win ? who + " can win" : "every move loses against perfect play") +
        (spec.misere ? " (misère play)." : ".");
      line.className = "value-line " + (win ? "win" : "lose");
    }
    const values = history.map((e) =>
      e.analysis ? (spec.misere ? (e.analysis.outcome === "N" ? 1 : 0) : e.analysis.value) : null,
    );
    chart(box, values, spec.misere ? "outcome (1 = N, 0 = P)" : "Grundy value");
  }

  function clearUnderstanding() {
    $("explanation").replaceChildren();
    $("tree").replaceChildren();
    const t = $("table");
    if (t) t.replaceChildren();
  }

  // -- the game loop ------------------------------------------------------------------------

  async function analyse(entry) {
    if (entry.analysis) return;
    entry.analysis = await api("/api/analysis", { ...spec, position: entry.position });
  }

  function endMessage() {
    const last = current().by;
    if (last === null) return "This position has no moves: the game is over before it starts.";
    const lastMoverWins = !spec.misere;
    const humanWins = (last === "human") === lastMoverWins;
    return humanWins
      ? "You win! " + (spec.misere ? "The computer had to make the last move." : "You made the last move.")
      : "The computer wins. " + (spec.misere ? "You had to make the last move." : "It made the last move.") + " Undo, or start a new game.";
  }

  async function step() {
    const my = ++seq;
    pending = null;
    error("");
    const cur = current();
    if (cur.terminal) {
      setStatus(endMessage());
      document.body.dataset.over = "true";
      draw();
      try {
        await analyse(cur); // the final value, for the chart
      } catch (e) {
        /* the game is over either way */
      }
      if (my === seq) draw();
      return;
    }
    document.body.dataset.over = "false";
    const k = history.length - 1;
    setBusy(true);
    try {
      if (moverAt(k) === "computer") {
        setStatus("The computer is thinking…");
        draw();
        await analyse(cur);
        const mv = await api("/api/computer", { ...spec, position: cur.position, strength });
        if (my !== seq) return;
        history.push({ position: mv.position, view: mv.view, terminal: mv.terminal, by: "computer", how: mv.how });
        setBusy(false);
        return step();
      }
      setStatus("Your move.");
      draw();
      await analyse(cur);
      if (my !== seq) return;
      setStatus(cur.analysis && hintsOn() && cur.analysis.outcome === "N" ? "Your move: a winning move exists." : "Your move.");
    } catch (e) {
      if (my === seq) error(e.message);
    } finally {
      if (my === seq) {
        setBusy(false);
        draw();
      }
    }
  }

  async function humanMove(text) {
    if (busy || !humanTurn()) return;
    error("");
    setBusy(true);
    const cur = current();
    try {
      const st = await api("/api/move", { ...spec, position: cur.position, move: text });
      history.push({ position: st.position, view: st.view, terminal: st.terminal, by: "human" });
      redoStack = [];
      $("move-input").value = "";
      clearUnderstanding();
    } catch (e) {
      setBusy(false);
      pending = null;
      draw();
      error(e.message);
      $("move-input").focus();
      return;
    }
    setBusy(false);
    await step();
  }

  function undo() {
    if (busy || !history.some((e) => e.by === "human")) {
      setStatus("Nothing to undo.");
      return;
    }
    seq++;
    while (history.length > 1) {
      const e = history.pop();
      redoStack.push(e);
      if (e.by === "human") break;
    }
    clearUnderstanding();
    document.body.dataset.over = "false";
    pending = null;
    error("");
    setStatus("Move taken back. Your move.");
    draw();
    step();
  }

  function redo() {
    if (busy || !redoStack.length) return;
    seq++;
    history.push(redoStack.pop());
    while (redoStack.length && redoStack[redoStack.length - 1].by === "computer") history.push(redoStack.pop());
    clearUnderstanding();
    step();
  }

  // -- understanding ------------------------------------------------------------------------

  /** Text with its circled symbols (Nimhoff's ⓚ, ① ... ⑳) drawn by CSS: many fonts lack them. */
  function circled(text) {
    const out = [];
    let last = 0;
    for (const m of text.matchAll(/[\u24da\u2460-\u2473]/g)) {
      out.push(text.slice(last, m.index));
      const c = m[0].codePointAt(0);
      const inner = c === 0x24da ? "k" : String(c - 0x2460 + 1);
      out.push(el("span", { class: "circled", title: "circled " + inner }, inner));
      last = m.index + m[0].length;
    }
    out.push(text.slice(last));
    return out;
  }

  function explanationNode(x) {
    const box = el("div", { class: "explain-box", id: "explanation-content" });
    const play = x.misere ? "misère play" : "normal play";
    box.append(el("p", { class: "explain-head" }, x.game + " " + x.position + ": " + x.outcome + "-position (" + play + ")"));
    const t = x.table;
    if (t) {
      const table = el("table", { class: "binary" });
      table.append(el("caption", {}, "Heaps in binary; digit sums mod " + t.modulus));
      const head = el("tr", {}, el("th", { scope: "col" }, "heap"), el("th", { scope: "col" }, "size"), el("th", { scope: "col" }, "binary"));
      const hasAfter = t.digit_sums_after !== null;
      if (hasAfter) head.append(el("th", { scope: "col" }, "after"), el("th", { scope: "col" }, "binary"));
      table.append(el("thead", {}, head));
      const body = el("tbody");
      // long numbers in groups of four digits (from the right), so 30 digits stay readable
      const group = (digits) => {
        if (digits.length <= 8) return digits.join(" ");
        const out = [];
        for (let end = digits.length; end > 0; end -= 4) out.unshift(digits.slice(Math.max(0, end - 4), end).join(""));
        return out.join(" ");
      };
      const bits = (s) => group(s.split(""));
      const sumsText = (a) => (a.every((d) => d < 10) ? group(a.map(String)) : a.join(" "));
      for (const r of t.rows) {
        const tr = el("tr", { class: r.changed ? "changed" : "" }, el("td", {}, String(r.heap)), el("td", {}, String(r.before)), el("td", { class: "bits" }, bits(r.binary_before)));
        if (hasAfter) tr.append(el("td", {}, r.after === null ? "" : String(r.after)), el("td", { class: "bits" }, r.binary_after === null ? "" : bits(r.binary_after) + (r.changed ? " *" : "")));
        body.append(tr);
      }
      const sums = el("tr", { class: "sums" }, el("th", { scope: "row", colspan: "2" }, "sum mod " + t.modulus), el("td", { class: "bits" }, sumsText(t.digit_sums_before)));
      if (hasAfter) sums.append(el("td"), el("td", { class: "bits" }, sumsText(t.digit_sums_after)));
      body.append(sums);
      table.append(body);
      box.append(el("div", { class: "table-scroll" }, table));
    }
    // the text's own binary table is drawn above as a table: skip its lines (only then)
    const tableLine = (l) => /^( {0,3}heap  |\s+\d+\s+\d|\s*sum mod|heaps changed)/.test(l);
    const lines = x.text.split("\n").slice(1).filter((l) => !(t && tableLine(l)));
    for (const l of lines) box.append(el("p", { class: l.startsWith("winning move") ? "explain-move" : "" }, ...circled(l)));
    if (x.theorem) {
      box.append(el("p", { class: "hint" }, "The result behind it: ", el("a", { class: "result-id", href: "/theorem/" + encodeURIComponent(x.theorem) }, x.theorem), " (its statement, paper and status)."));
    }
    return box;
  }

  async function explain() {
    error("");
    const cur = current();
    if (cur.terminal) {
      error("The game is over: there is no move to explain.");
      return;
    }
    $("explanation").replaceChildren(el("p", { class: "hint" }, "Computing…"));
    try {
      const a = await api("/api/analysis", { ...spec, position: cur.position, explain: true });
      $("explanation").replaceChildren(explanationNode(a.explanation));
    } catch (e) {
      $("explanation").replaceChildren();
      error(e.message);
    }
  }

  async function showTree() {
    error("");
    $("tree").replaceChildren(el("p", { class: "hint" }, "Drawing…"));
    try {
      const t = await api("/api/tree", { ...spec, position: current().position });
      const fig = el("figure", {});
      const holder = el("div", { class: "svg-scroll", role: "img", "aria-label": "Game tree of " + current().position + ", " + t.nodes + " nodes; P-positions are filled" });
      holder.innerHTML = t.svg; // SVG drawn by nimlab, its labels escaped
      const svg = holder.querySelector("svg");
      const baseW = Number(svg.getAttribute("width")) || 600;
      const baseH = Number(svg.getAttribute("height")) || 300;
      let scale = 1; // drawn at its own size (labels 13 px): the box scrolls, the buttons zoom
      const zoomTo = (s) => {
        scale = Math.min(4, Math.max(0.1, s));
        svg.setAttribute("width", String(Math.round(baseW * scale)));
        svg.setAttribute("height", String(Math.round(baseH * scale)));
        $("zoom-level").textContent = Math.round(scale * 100) + "%";
      };
      const zoom = el(
        "div",
        { class: "zoom" },
        el("button", { type: "button", id: "zoom-out", "aria-label": "Zoom out of the game tree", onclick: () => zoomTo(scale / 1.25) }, "−"),
        el("button", { type: "button", id: "zoom-in", "aria-label": "Zoom into the game tree", onclick: () => zoomTo(scale * 1.25) }, "+"),
        el("button", { type: "button", id: "zoom-fit", onclick: () => zoomTo(holder.clientWidth / baseW) }, "Fit"),
        el("button", { type: "button", id: "zoom-reset", onclick: () => zoomTo(1) }, "100%"),
        el("span", { id: "zoom-level", class: "hint" }, "100%"),
      );
      holder.setAttribute("tabindex", "0"); // scrollable with the keyboard
      fig.append(zoom, holder, el("figcaption", {}, t.nodes + " nodes" + (t.depth !== null ? ", cut at depth " + t.depth : "") + (t.dag ? ", equal positions merged" : "") + ". Filled boxes are P-positions; G is the Grundy value."));
      $("tree").replaceChildren(fig);
    } catch (e) {
      $("tree").replaceChildren();
      error(e.message);
    }
  }

  async function showTable() {
    error("");
    const cur = current();
    const size = Math.min(24, Math.max(10, ...cur.view.heaps.map((h) => h + 2)));
    try {
      const t = await api("/api/table", { ...spec, position: cur.position, size });
      const maxV = Math.max(1, ...t.rows.flat().filter((v) => typeof v === "number"));
      const table = el("table", { class: "heat" });
      table.append(el("caption", {}, (t.kind === "grundy" ? "Grundy values" : "Misère outcomes") + " of (x, y); the current position is outlined"));
      const head = el("tr", {}, el("th", { scope: "col" }, "x\\y"));
      for (let y = 0; y < t.size; y++) head.append(el("th", { scope: "col" }, String(y)));
      table.append(el("thead", {}, head));
      const body = el("tbody");
      t.rows.forEach((row, x) => {
        const tr = el("tr", {}, el("th", { scope: "row" }, String(x)));
        row.forEach((v, y) => {
          const marked = t.mark && t.mark[0] === x && t.mark[1] === y;
          let style = "";
          if (typeof v === "number") {
            const light = v === 0 ? 22 : 92 - (50 * v) / maxV;
            style = "background: hsl(" + (210 - (150 * v) / maxV) + ", 70%, " + light + "%);" + (v === 0 ? "color: white;" : "");
          } else if (v === "P") style = "background: #1f2937; color: white;";
          tr.append(el("td", { style, class: marked ? "mark" : "", "aria-current": marked ? "true" : null }, v === null ? "·" : String(v)));
        });
        body.append(tr);
      });
      table.append(body);
      $("table").replaceChildren(el("div", { class: "table-scroll" }, table));
    } catch (e) {
      error(e.message);
    }
  }

  // -- wiring -------------------------------------------------------------------------------

  $("move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("move-input").value.trim();
    if (!text) {
      error("Type a move: " + moveHelp(current().view) + ".");
      return;
    }
    humanMove(text);
  });
  $("play-pending").addEventListener("click", () => {
    if (pending) humanMove(pendingText(current().view, pending));
  });
  $("clear-pending").addEventListener("click", () => {
    pending = null;
    draw();
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hints").addEventListener("change", () => {
    draw();
  });
  $("explain").addEventListener("click", explain);
  $("show-tree").addEventListener("click", showTree);
  if ($("show-table")) $("show-table").addEventListener("click", showTable);
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "u") undo();
    else if (ev.key === "r") redo();
  });

  $("move-help").textContent = moveHelp(init.view);
  step();
})();
