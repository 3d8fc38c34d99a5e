// The table page works without this file: every tap is a link (GET ?tile=…) or a form POST.
// With it, taps on the table fetch the same server-rendered page and swap the table in
// place, so a tablet does not reload the whole page for every tile.
//
// A Wi-Fi blip never wipes the table: every tap goes into a queue and is sent in order; a
// tap the server does not answer stays queued (the page says it is waiting) and is sent
// again, with the same ``key`` (API.md: a repeat is never logged twice), until an answer
// comes; then the page carries on without a reload.
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.history.pushState) return;

  function sameTable(url) {
    return url.origin === location.origin && url.pathname === location.pathname;
  }

  // Where the page says what happened, for a screen reader (the table is swapped, this stays).
  function announce(text) {
    const live = document.querySelector("[data-table-announce]");
    if (!live || !text) return;
    live.textContent = "";
    requestAnimationFrame(() => { live.textContent = text; });
  }

  // Each round's score is said once (per round, in this tab), when the table first shows it.
  function announceScore() {
    const score = document.querySelector("#table [data-round-score]");
    if (!score) return;
    const key = "referee-scored-" + score.getAttribute("data-round-score");
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, "1");
    } catch (error) { /* no storage: said on every load */ }
    setTimeout(() => announce(score.textContent.replace(/\s+/g, " ").trim()), 500);
  }
  announceScore();

  function focusLit(table) {
    const lit = table.querySelector(".place.lit, .log-answer");
    if (lit) { lit.focus(); return true; }
    return false;
  }

  // tap_to_paint (bench): from the tap's event (mark "table-tap") to the frame that shows its
  // answer (the first animation frame after the swap).
  function paintMark() {
    if (!performance.getEntriesByName("table-tap", "mark").length) return;
    requestAnimationFrame(() => {
      performance.mark("table-paint");
      performance.measure("tap-to-paint", "table-tap", "table-paint");
      performance.clearMarks("table-tap");
    });
  }

  async function swap(response, url, push, focusPlace) {
    const html = await response.text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("table");
    const current = document.getElementById("table");
    if (!fresh || !current) { location.assign(url); return; }  // not a table (the unlock page)
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
    paintMark();
    Array.from(table.querySelectorAll(".pane-table, .dock, .picker")).forEach((pane, i) => {
      if (scrolls[i] !== undefined) pane.scrollTop = scrolls[i];
    });
    const feedback = table.querySelector(".feedback .refusal, .feedback .answer, .feedback .notice");
    if (feedback) feedback.scrollIntoView({ block: "nearest" });
    document.title = doc.title;
    if (push) history.pushState({ table: true }, "", url);
    else history.replaceState({ table: true }, "", url);
    const logged = table.querySelector("[data-toast] .toast-text");
    if (logged && table.dataset.version !== current.dataset.version) announce(logged.textContent);
    else announceScore();
    if (focusPlace && focusLit(table)) return;
    if (hadFocus && !typed) {
      const picked = tile && table.getAttribute("data-selected") === tile;
      const target = (picked && table.querySelector(".place.lit")) ||
        (tile && table.querySelector('[data-tile="' + CSS.escape(tile) + '"]')) || table;
      if (target === table) table.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: target === table });
    }
  }

  // ------------------------------------------------------------------ the queue of taps
  const queue = [];
  let sending = false;
  let retryTimer = null;
  let wake = null;  // resolves the wait before the next try (the network is back: at once)

  function newKey() {
    const random = (window.crypto && crypto.randomUUID) ? crypto.randomUUID().replace(/-/g, "")
      : Math.random().toString(36).slice(2) + Date.now().toString(36);
    return ("tap-" + random).slice(0, 40);
  }

  function waitingBar() { return document.querySelector("[data-table-waiting]"); }

  function showWaiting(on) {
    const bar = waitingBar();
    document.documentElement.classList.toggle("table-waiting", on);
    if (!bar) return;
    bar.hidden = !on;
    const count = bar.querySelector("[data-waiting-count]");
    if (count) count.textContent = on && queue.length > 1 ? "× " + queue.length : "";
    markWaiting();
  }

  // The tapped tiles still waiting keep a mark on the (possibly swapped) table.
  function markWaiting() {
    document.querySelectorAll("#table .waiting").forEach((node) => node.classList.remove("waiting"));
    if (!document.documentElement.classList.contains("table-waiting")) return;
    queue.forEach((item) => {
      if (!item.tile) return;
      document.querySelectorAll('#picker [data-tile="' + CSS.escape(item.tile) + '"]')
        .forEach((node) => node.classList.add("waiting"));
    });
  }

  function pause(ms) {
    return new Promise((resolve) => {
      wake = resolve;
      retryTimer = setTimeout(resolve, ms);
    });
  }
  window.addEventListener("online", () => { clearTimeout(retryTimer); if (wake) wake(); });

  // An answer that is no answer: the network, or a proxy that could not reach the server.
  function unanswered(response) {
    return response.status === 502 || response.status === 503 || response.status === 504;
  }

  async function pump() {
    if (sending) return;
    sending = true;
    document.documentElement.classList.add("table-busy");
    let tries = 0;
    try {
      while (queue.length) {
        const item = queue[0];
        let response = null;
        // A request the network swallows is given up after a while and sent again (its key
        // keeps it from being logged twice); the page says it waits after a short moment.
        const abort = window.AbortController ? new AbortController() : null;
        const giveUp = setTimeout(() => abort && abort.abort(), 8000);
        const slow = setTimeout(() => showWaiting(true), 1500);
        try {
          response = await fetch(item.request(), abort ? { signal: abort.signal } : {});
        } catch (error) {
          response = null;
        } finally {
          clearTimeout(giveUp);
          clearTimeout(slow);
        }
        if (!response || unanswered(response)) {
          tries += 1;
          showWaiting(true);
          await pause(Math.min(400 * tries, 2000));
          continue;
        }
        tries = 0;
        queue.shift();
        const refused = !response.ok;
        const dropped = refused && queue.length ? queue.splice(0, queue.length).length : 0;
        const target = response.redirected ? response.url : item.url;
        await swap(response, target, item.push, item.focusPlace);
        if (dropped) {
          const bar = waitingBar();
          const note = bar && bar.getAttribute("data-text-dropped");
          const feedback = document.querySelector("#table .feedback");
          if (note && feedback) {
            const p = document.createElement("p");
            p.className = "notice dropped";
            p.textContent = note;
            feedback.appendChild(p);
          }
        }
        showWaiting(queue.length > 0 && document.documentElement.classList.contains("table-waiting"));
      }
    } finally {
      sending = false;
      showWaiting(false);
      document.documentElement.classList.remove("table-busy");
    }
  }

  // ``build(version)`` makes a fresh request each try (a body is read once). A tap made while
  // earlier ones wait was made on a table that assumed them logged: it is sent with the
  // version of the table as it then stands.
  function waiting() { return document.documentElement.classList.contains("table-waiting"); }

  function enqueue(build, url, push, extra) {
    const item = Object.assign({ url: url, push: push }, extra || {});
    if (queue.length) {
      // An answer is on its way: one tap at a time, as ever. Only while the server is out of
      // reach do taps queue (a double tap on the same thing queues once).
      if (!waiting() || queue[queue.length - 1].signature === item.signature) return false;
    }
    const behind = queue.length > 0;
    item.request = () => build(behind ? document.getElementById("table").dataset.version : null);
    queue.push(item);
    if (waiting()) showWaiting(true);
    pump();
    return true;
  }

  function getRequest(url) {
    return () => new Request(url, { headers: { "X-Table-Fetch": "1" }, cache: "no-store" });
  }

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest("#table a[href]");
    if (!link || link.target) return;
    const url = new URL(link.href, location.href);
    if (!sameTable(url)) return;
    event.preventDefault();
    performance.mark("table-tap");
    enqueue(getRequest(url), url.href, true, { tile: link.getAttribute("data-tile"), signature: url.href });
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest("#table")) return;
    if (form.method.toLowerCase() !== "post") {
      if (form.matches(".pick-type")) typedTile(event, form);
      return;
    }
    event.preventDefault();
    performance.mark("table-tap");
    const data = new FormData(form);
    const submitter = event.submitter;
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    const signature = new URLSearchParams(Array.from(data, ([n, v]) => [n, String(v)])
      .filter(([n]) => n !== "version" && n !== "csrf_token")).toString();
    data.set("key", newKey());
    const tile = (submitter && submitter.getAttribute("data-tile")) || data.get("tile");
    const action = form.action;
    const build = (version) => {
      const body = new FormData();
      data.forEach((value, name) => body.append(name, value));
      if (version) body.set("version", version);
      return new Request(action, { method: "POST", body: body, headers: { "X-Table-Fetch": "1" } });
    };
    enqueue(build, location.pathname, false, { tile: tile, signature: signature });
  });

  window.addEventListener("popstate", () => location.reload());

  // Typing a tile ("3 11", "3-11", "11:3") picks it as soon as both halves are there: the
  // same tap as on its face (one place: logged; several: lit). Enter picks it at once and
  // takes the focus to the first lit place.
  let typing = null;
  function parseTile(value) {
    const m = /^\s*(\d{1,2})\s*[-\s:/|,.]\s*(\d{1,2})\s*$/.exec(value);
    if (!m) return null;
    const a = +m[1], b = +m[2];
    return Math.min(a, b) + "-" + Math.max(a, b);
  }
  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.matches("[data-type-tile]")) return;
    clearTimeout(typing);
    const text = parseTile(input.value);
    if (!text) return;
    typing = setTimeout(() => {
      const face = document.querySelector('#picker [data-tile="' + text + '"]');
      if (face) face.click();
    }, 600);  // a pause, so "3 1" is not taken for a tile while "3 11" is being typed
  });

  function typedTile(event, form) {
    clearTimeout(typing);
    const input = form.querySelector("[data-type-tile]");
    const text = input && parseTile(input.value);
    const table = document.getElementById("table");
    if (!text) return;  // the server says what is wrong with it
    event.preventDefault();
    if (table.getAttribute("data-selected") === text && !queue.length) {
      if (!focusLit(table)) table.querySelector('#picker [data-tile="' + text + '"]')?.focus();
      return;
    }
    const face = document.querySelector('#picker [data-tile="' + text + '"]');
    if (face && face.matches("button")) { face.focus(); face.click(); return; }
    const url = new URL(form.action, location.href);
    new FormData(form).forEach((value, name) => url.searchParams.set(name, value));
    url.searchParams.set("tile", text);
    enqueue(getRequest(url), url.href, true, { tile: text, focusPlace: true, signature: url.href });
  }

  // The skip link takes the focus into the picker (its first tile that fits, else the first).
  document.addEventListener("click", (event) => {
    const skip = event.target.closest(".skip-link");
    if (!skip) return;
    const picker = document.getElementById("picker");
    if (!picker) return;
    event.preventDefault();
    const first = picker.querySelector(".pick.fits") || picker.querySelector(".pick, input, button");
    (first || picker).focus();
  });

})();
