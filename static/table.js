// The table page works without this file: every tap is a link (GET ?tile=…) or a form POST.
// With it, taps on the table fetch the same server-rendered page and swap the table in
// place, so a tablet does not reload the whole page for every tile.
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.history.pushState) return;

  function sameTable(url) {
    return url.origin === location.origin && url.pathname === location.pathname;
  }

  async function swap(response, url, push) {
    const html = await response.text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("table");
    const current = document.getElementById("table");
    if (!fresh || !current) { location.assign(url); return; }
    // A keyboard player keeps their place: after picking a tile, on the first lit place;
    // otherwise on the control they used (or its tile), else on the table itself.
    const active = document.activeElement;
    const hadFocus = current.contains(active);
    const tile = hadFocus && active.getAttribute("data-tile");
    const typed = hadFocus && active.matches("[data-type-tile]");
    const main = document.getElementById("main");
    main.querySelectorAll(":scope > .flash").forEach((node) => node.remove());
    const flashes = Array.from(doc.querySelectorAll("#main > .flash"));
    flashes.reverse().forEach((node) => main.insertBefore(document.importNode(node, true), main.firstChild));
    // The panes keep their scroll: the page never jumps after a play.
    const scrolls = Array.from(current.querySelectorAll(".pane-table, .dock, .picker"), (pane) => pane.scrollTop);
    const table = document.importNode(fresh, true);
    current.replaceWith(table);
    Array.from(table.querySelectorAll(".pane-table, .dock, .picker")).forEach((pane, i) => {
      if (scrolls[i] !== undefined) pane.scrollTop = scrolls[i];
    });
    const feedback = table.querySelector(".feedback .refusal, .feedback .answer, .feedback .notice");
    if (feedback) feedback.scrollIntoView({ block: "nearest" });
    document.title = doc.title;
    if (push) history.pushState({ table: true }, "", url);
    else history.replaceState({ table: true }, "", url);
    if (hadFocus && !typed) {
      const picked = tile && table.getAttribute("data-selected") === tile;
      const target = (picked && table.querySelector(".place.lit")) ||
        (tile && table.querySelector('[data-tile="' + CSS.escape(tile) + '"]')) || table;
      if (target === table) table.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: target === table });
    }
  }

  let busy = false;
  async function go(request, url, push) {
    if (busy) return;
    busy = true;
    document.documentElement.classList.add("table-busy");
    try {
      const response = await fetch(request);
      const target = response.redirected ? response.url : url;
      await swap(response, target, push);
    } catch (error) {
      location.assign(url);  // the network hiccuped: fall back to a plain page load
    } finally {
      busy = false;
      document.documentElement.classList.remove("table-busy");
    }
  }

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest("#table a[href]");
    if (!link || link.target) return;
    const url = new URL(link.href, location.href);
    if (!sameTable(url)) return;
    event.preventDefault();
    go(new Request(url, { headers: { "X-Table-Fetch": "1" } }), url.href, true);
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    if (!form.closest("#table")) return;
    event.preventDefault();
    const data = new FormData(form);
    const submitter = event.submitter;
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    const table = location.pathname;
    go(new Request(form.action, { method: "POST", body: data, headers: { "X-Table-Fetch": "1" } }),
       table, false);
  });

  window.addEventListener("popstate", () => location.reload());

  // Typing a tile ("3 11", "3-11", "11:3") picks it as soon as both halves are there: the
  // same tap as on its face (one place: logged; several: lit). Enter sends the form as is.
  let typing = null;
  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.matches("[data-type-tile]")) return;
    clearTimeout(typing);
    const m = /^\s*(\d{1,2})\s*[-\s:/|,.]\s*(\d{1,2})\s*$/.exec(input.value);
    if (!m) return;
    const a = +m[1], b = +m[2];
    const text = Math.min(a, b) + "-" + Math.max(a, b);
    typing = setTimeout(() => {
      const face = document.querySelector('#picker [data-tile="' + text + '"]');
      if (face) face.click();
    }, 600);  // a pause, so "3 1" is not taken for a tile while "3 11" is being typed
  });
})();
