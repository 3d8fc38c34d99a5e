/* Club nights: the night page and the board stay live by asking for their live part every
   few seconds with the mark they show (an unchanged night answers 204 and costs nothing);
   the board turns the pages of a long standing or many tables. No rule logic here. */
(function () {
  "use strict";
  var root = document.querySelector("[data-night-live]");
  if (!root) return;
  var EVERY = 3000, TURN = 8000;
  function mark() {
    var live = root.querySelector("[data-live-mark]");
    return live ? live.getAttribute("data-live-mark") : "";
  }
  var turned = 0;
  function showPages() {
    root.querySelectorAll("[data-pages]").forEach(function (box) {
      var pages = box.querySelectorAll("[data-page]");
      var shown = pages.length ? turned % pages.length : 0;
      pages.forEach(function (page, i) { page.hidden = i !== shown; });
      var count = box.parentNode.querySelector("[data-page-count]");
      if (count) count.textContent = (shown + 1) + "/" + pages.length;
    });
  }
  function look() {
    var src = root.getAttribute("data-src");
    fetch(src + (src.indexOf("?") < 0 ? "?" : "&") + "mark=" + encodeURIComponent(mark()),
          { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 204) return null;
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        var box = document.createElement("div");
        box.innerHTML = html;
        if (!box.querySelector("[data-live-mark]")) return;
        root.replaceChildren.apply(root, Array.prototype.slice.call(box.childNodes));
        showPages();
        root.setAttribute("data-updated", String(Date.now()));
      })
      .catch(function () { /* the next look tries again */ })
      .then(function () { setTimeout(look, EVERY); });
  }
  showPages();
  setInterval(function () { turned += 1; showPages(); }, TURN);
  setTimeout(look, EVERY);
  root.setAttribute("data-night-ready", "");
})();
