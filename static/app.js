/* Domino Referee, on every page (base.html): the companion (service worker, live follow
   page) and the screen wake lock, one file so a page costs one script request. */

/* Domino Referee companion: registers the service worker (every page) and keeps the
   follow page live with Server-Sent Events (only where [data-follow] exists). */
(function () {
  "use strict";
  if (window.__refereeCompanion) return;
  window.__refereeCompanion = true;

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* offline use is a bonus */ });
  }

  var root = document.querySelector("[data-follow]");
  if (!root) return;
  var holder = root.querySelector("[data-follow-live]");
  var announce = root.querySelector("[data-follow-announce]");
  var badge = document.querySelector("[data-live-badge]");
  var stateNote = root.querySelector("[data-live-state]");
  // the page gives its sentences in its own language (data-text-*), English otherwise
  function text(key, english) { return root.getAttribute("data-text-" + key) || english; }
  var shown = function () {
    var live = holder.querySelector("[data-version]");
    return live ? parseInt(live.getAttribute("data-version"), 10) : 0;
  };
  var busy = false, again = false;

  var lostTimer = null;
  function setLive(on) {
    // the stream ends by design every half minute and reopens at once: only a gap that
    // lasts is shown
    clearTimeout(lostTimer);
    if (on) {
      if (badge) badge.classList.add("is-live");
      if (stateNote) stateNote.textContent = "";
      return;
    }
    lostTimer = setTimeout(function () {
      if (badge) badge.classList.remove("is-live");
      if (stateNote) stateNote.textContent = text("reconnecting", "Reconnecting…");
    }, 4000);
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(root.getAttribute("data-fragment"), { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.text(); })
      .then(function (html) {
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.querySelector("[data-version]");
        if (fresh) {
          holder.replaceChildren.apply(holder, Array.prototype.slice.call(box.childNodes));
          if (announce) announce.textContent = text("updated", "Updated.") + " " + (fresh.getAttribute("data-summary") || "");
        }
      })
      .catch(function () { /* the next event tries again */ })
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }

  if (!window.EventSource) {  // very old browsers: look every 5 seconds
    setInterval(refresh, 5000);
    return;
  }
  var source, lost = false;
  function connect() {
    source = new EventSource(root.getAttribute("data-stream") + "?since=" + shown());
    // back after a gap (a Wi-Fi blip, a restarted server): fetch what was missed at once
    source.addEventListener("open", function () { setLive(true); if (lost) { lost = false; refresh(); } });
    source.addEventListener("version", function (event) {
      var data = JSON.parse(event.data);
      if (data.version !== shown()) refresh();
    });
    source.addEventListener("gone", function () { source.close(); setLive(false);
      if (stateNote) stateNote.textContent = text("deleted", "This game was deleted."); });
    source.addEventListener("error", function () {
      setLive(false);
      lost = true;
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    });
  }
  window.addEventListener("online", function () {
    if (source && source.readyState === EventSource.CLOSED) connect();
  });
  connect();
  root.setAttribute("data-follow-ready", "");
})();

/* Keeps the screen awake while a game page is open (Screen Wake Lock API). Where the
   browser cannot, a quiet note says so. Active on /games/<id>… pages and wherever an
   element carries data-wake-lock. */
(function () {
  "use strict";
  if (window.__refereeWakeLock) return;
  window.__refereeWakeLock = true;
  var gamePage = /^\/games\/(?!new(?:\/|$))[^/]+(?:\/|$)/.test(location.pathname);
  if (!gamePage && !document.querySelector("[data-wake-lock]")) return;

  function said(key, english) { return document.body.getAttribute("data-text-wake-" + key) || english; }
  function note(text) {
    if (document.querySelector("[data-wake-note]")) return;
    var p = document.createElement("p");
    p.className = "muted no-print wake-note";
    p.setAttribute("data-wake-note", "");
    p.setAttribute("role", "note");
    p.style.fontSize = ".85rem";
    p.textContent = text;
    (document.querySelector("main") || document.body).appendChild(p);
  }

  if (!("wakeLock" in navigator) || !navigator.wakeLock) {
    note(window.isSecureContext
      ? said("unsupported", "This browser cannot keep the screen awake: give the screen a longer sleep time while you play.")
      : said("insecure", "The screen may go to sleep: keeping it awake needs the app opened over https or on this machine."));
    return;
  }
  var lock = null;
  var pending = false;
  function request() {
    if (lock || pending || document.visibilityState !== "visible") return;
    pending = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      window.__refereeWakeLockHeld = true;
      if (sentinel && sentinel.addEventListener) {
        sentinel.addEventListener("release", function () { lock = null; window.__refereeWakeLockHeld = false; });
      }
    }).catch(function () {
      note(said("refused", "The screen may go to sleep: the browser did not allow keeping it awake (battery saver?)."));
    }).then(function () { pending = false; });
  }
  // The browser lets the lock go whenever the page is hidden: take it again on return.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { lock = null; request(); }
  });
  request();
})();

/* Dark mode: the system's choice until the switch in the top bar is used; the choice is
   remembered on this device (localStorage) and applied before the first paint (base.html). */
(function () {
  "use strict";
  var button = document.querySelector("[data-theme-switch]");
  if (!button) return;
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function dark() {
    var chosen = root.getAttribute("data-theme");
    return chosen ? chosen === "dark" : !!(system && system.matches);
  }
  function show() { button.setAttribute("aria-pressed", dark() ? "true" : "false"); }
  button.addEventListener("click", function () {
    var next = dark() ? "light" : "dark";
    root.setAttribute("data-theme", next);
    try { localStorage.setItem("referee-theme", next); } catch (e) { /* private mode: this page only */ }
    show();
  });
  if (system && system.addEventListener) system.addEventListener("change", show);
  show();
})();
