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
  var source;
  function connect() {
    source = new EventSource(root.getAttribute("data-stream") + "?since=" + shown());
    source.addEventListener("open", function () { setLive(true); });
    source.addEventListener("version", function (event) {
      var data = JSON.parse(event.data);
      if (data.version !== shown()) refresh();
    });
    source.addEventListener("gone", function () { source.close(); setLive(false);
      if (stateNote) stateNote.textContent = text("deleted", "This game was deleted."); });
    source.addEventListener("error", function () {
      setLive(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
    });
  }
  connect();
  root.setAttribute("data-follow-ready", "");
})();
