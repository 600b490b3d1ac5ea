/* nimlab playground: helpers shared by the pages (no dependencies, no CDN). */
"use strict";

const nl = (() => {
  /** POST a JSON body to the API; resolve with the JSON answer, reject with its message. */
  async function api(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (e) {
      throw new Error("cannot reach the nimlab server (" + e.message + ")");
    }
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    if (!response.ok) {
      throw new Error((data && data.error) || "the server answered with status " + response.status);
    }
    return data;
  }

  /** Build an element: el("button", {class: "x", onclick: f}, "text", child). Text is never parsed as HTML. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function showError(node, message) {
    if (!node) return;
    node.textContent = message || "";
    node.hidden = !message;
  }

  const MAX_STONES = 40;

  /** One heap as a row of stones; clicking stone j leaves j stones. */
  function heapRow(label, size, pendingSize, onStone) {
    const row = el("div", { class: "heap", role: "group", "aria-label": label + ": " + size + (size === 1 ? " stone" : " stones") });
    row.append(el("span", { class: "heap-label", "aria-hidden": "true" }, label), el("span", { class: "heap-size", "aria-hidden": "true" }, String(size)));
    const stones = el("div", { class: "stones" });
    if (size > MAX_STONES) {
      stones.append(el("span", { class: "big-heap" }, size + " stones: type your move"));
    } else {
      for (let j = 0; j < size; j++) {
        const taken = pendingSize !== null && j >= pendingSize;
        const b = el("button", {
          type: "button",
          class: "stone" + (taken ? " taken" : ""),
          "aria-label": label + ": take " + (size - j) + ", leave " + j,
          title: "take " + (size - j) + ", leave " + j,
          "data-leave": String(j),
          disabled: onStone ? null : true,
          onclick: onStone ? () => onStone(j) : null,
        });
        stones.append(b);
      }
    }
    row.append(stones);
    return row;
  }

  /**
   * Draw a position from its view ({kind: heaps|groups|board|text}).
   * pending: the same shape as the view's data (or null); on: callbacks {stone(path, keep), coin(a, b)}.
   */
  function drawPosition(container, view, pending, on) {
    container.replaceChildren();
    container.dataset.kind = view.kind;
    if (view.kind === "heaps") {
      if (view.heaps.length === 0) container.append(el("p", { class: "hint" }, "no heaps"));
      view.heaps.forEach((h, i) => {
        const p = pending ? pending[i] : null;
        container.append(heapRow("Heap " + (i + 1), h, p !== h ? p : null, on && on.stone ? (j) => on.stone([i], j) : null));
      });
    } else if (view.kind === "groups") {
      view.groups.forEach((g, r) => {
        const box = el("div", { class: "group", role: "group", "aria-label": "Range " + (r + 1) });
        box.append(el("div", { class: "group-label", "aria-hidden": "true" }, "Range " + (r + 1)));
        g.forEach((h, i) => {
          const p = pending ? pending[r][i] : null;
          box.append(heapRow("Range " + (r + 1) + " heap " + (i + 1), h, p !== h ? p : null, on && on.stone ? (j) => on.stone([r, i], j) : null));
        });
        container.append(box);
      });
    } else if (view.kind === "board") {
      const heads = new Set(view.heads.map(([a, b]) => a + "," + b));
      const shown = pending ? new Set(pending.map(([a, b]) => a + "," + b)) : heads;
      const grid = el("div", { class: "coins", role: "grid", "aria-label": "Board of coins, " + view.heads.length + " heads", style: "grid-template-columns: auto repeat(" + view.cols + ", 1fr)" });
      grid.append(el("span", { class: "axis" }, ""));
      for (let b = 1; b <= view.cols; b++) grid.append(el("span", { class: "axis" }, String(b)));
      for (let a = 1; a <= view.rows; a++) {
        grid.append(el("span", { class: "axis" }, String(a)));
        for (let b = 1; b <= view.cols; b++) {
          const key = a + "," + b;
          const isHead = shown.has(key);
          const changed = isHead !== heads.has(key);
          grid.append(el("button", {
            type: "button",
            class: "coin" + (isHead ? " head" : "") + (changed ? " changed" : ""),
            "aria-label": "Coin " + a + "," + b + ": " + (isHead ? "heads" : "tails") + (changed ? " (turned)" : ""),
            "aria-pressed": isHead ? "true" : "false",
            disabled: on && on.coin ? null : true,
            onclick: on && on.coin ? () => on.coin(a, b) : null,
          }, isHead ? "H" : ""));
        }
      }
      container.append(grid);
    } else {
      container.append(el("p", { class: "text-position" }, view.text));
    }
  }

  /** The position text of a pending drawing (the command line's syntax). */
  function pendingText(view, pending) {
    if (view.kind === "heaps") return pending.join(" ");
    if (view.kind === "groups") return pending.map((g) => (g.length ? g.join(",") : ",")).join(" ");
    if (view.kind === "board") {
      if (!pending.length) return "-";
      return pending.slice().sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(([a, b]) => a + "," + b).join(" ");
    }
    return view.text;
  }

  /** A small line chart of values (null values are skipped). */
  function chart(container, values, label) {
    container.replaceChildren();
    const pts = values.map((v, i) => [i, v]).filter(([, v]) => v !== null && v !== undefined);
    if (!pts.length) {
      container.append(el("p", { class: "hint" }, "no values yet"));
      return;
    }
    const maxV = Math.max(1, ...pts.map(([, v]) => v));
    // the left margin fits the largest value's digits: its label never covers the first point
    const w = 320, h = 140, pad = 26, left = Math.max(pad, 14 + 6 * String(maxV).length);
    const maxX = Math.max(1, values.length - 1);
    const x = (i) => left + (i * (w - left - pad)) / maxX;
    const y = (v) => h - pad - (v * (h - 2 * pad)) / maxV;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("width", "100%");
    svg.setAttribute("aria-hidden", "true");
    const add = (tag, attrs, text) => {
      const n = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
      if (text !== undefined) n.textContent = text;
      svg.append(n);
      return n;
    };
    add("line", { x1: left, y1: h - pad, x2: w - pad, y2: h - pad, class: "axis-line" });
    add("line", { x1: left, y1: pad, x2: left, y2: h - pad, class: "axis-line" });
    add("text", { x: left - 6, y: pad + 4, class: "axis-text y-max", "text-anchor": "end" }, String(maxV));
    add("text", { x: left - 6, y: h - pad + 4, class: "axis-text", "text-anchor": "end" }, "0");
    add("text", { x: w - pad, y: h - 6, class: "axis-text", "text-anchor": "end" }, "move " + (values.length - 1));
    add("text", { x: left, y: 14, class: "axis-text" }, label);
    add("polyline", { points: pts.map(([i, v]) => x(i) + "," + y(v)).join(" "), class: "value-line-path" });
    for (const [i, v] of pts) add("circle", { cx: x(i), cy: y(v), r: 4, class: v === 0 ? "dot p" : "dot" });
    container.append(svg);
    const text = pts.map(([i, v]) => "after move " + i + ": " + v).join("; ");
    container.setAttribute("aria-label", label + ": " + text);
  }

  return { api, el, showError, drawPosition, pendingText, chart };
})();
