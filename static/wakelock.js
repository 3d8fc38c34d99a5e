/* Keeps the screen awake while a game page is open (Screen Wake Lock API). Where the
   browser cannot, a quiet note says so. Active on /games/<id>… pages and wherever an
   element carries data-wake-lock. */
(function () {
  "use strict";
  if (window.__refereeWakeLock) return;
  window.__refereeWakeLock = true;
  var gamePage = /^\/games\/(?!new(?:\/|$))[^/]+(?:\/|$)/.test(location.pathname);
  if (!gamePage && !document.querySelector("[data-wake-lock]")) return;

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
      ? "This browser cannot keep the screen awake: give the screen a longer sleep time while you play."
      : "The screen may go to sleep: keeping it awake needs the app opened over https or on this machine.");
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
      note("The screen may go to sleep: the browser did not allow keeping it awake (battery saver?).");
    }).then(function () { pending = false; });
  }
  // The browser lets the lock go whenever the page is hidden: take it again on return.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { lock = null; request(); }
  });
  request();
})();
