/* nimlab playground: the setup form (a random position of the chosen size). */
"use strict";

(() => {
  const { api, showError } = nl;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("setup-data").textContent);
  const size = $("size");
  const out = $("size-out");
  out.textContent = size.value;
  size.addEventListener("input", () => {
    out.textContent = size.value;
  });

  function params() {
    const p = {};
    for (const spec of data.params) {
      const v = $("p-" + spec.name).value.trim();
      if (v) p[spec.name] = v;
    }
    return p;
  }

  $("random").addEventListener("click", async () => {
    showError($("setup-error"), "");
    try {
      const st = await api("/api/random", { game: data.game, params: params(), size: Number(size.value) });
      $("position").value = st.position;
      $("position").focus();
    } catch (e) {
      showError($("setup-error"), e.message);
    }
  });
})();
