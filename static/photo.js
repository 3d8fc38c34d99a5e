/* Hands from a photo: send the picture to the referee (POST …/photo), show a box on each
 * tile read, let a tap correct it with the picker, add a missed tile, remove a box that is
 * not a tile, and keep the hand's text field in step (saving stays the usual form post).
 * After each correction the server checks the hand again (POST …/check): the warnings and
 * the points are the referee's, never this script's.
 * Markup: input[data-photo-input][data-photo-for=<hand input id>] (optional data-player, or
 * a checked input[data-photo-player] names the player) and one section[data-photo-panel].
 */
(function () {
  "use strict";
  var panel = document.querySelector("[data-photo-panel]");
  if (!panel || !window.fetch || !window.FormData) return;

  var TEXTS = {}, RULES = {};
  try { TEXTS = JSON.parse(panel.dataset.texts || "{}"); } catch (err) { TEXTS = {}; }
  try { RULES = JSON.parse(panel.dataset.rules || "{}"); } catch (err) { RULES = {}; }
  var PLURALS = null;
  try { PLURALS = new Intl.PluralRules(document.documentElement.lang || "en"); } catch (err) { PLURALS = null; }
  // A count-bearing text is {one, other}: the form the page language's plural rule picks.
  function say(key, values, count) {
    var text = TEXTS[key] || key;
    if (typeof text === "object") {
      var n = +(count !== undefined ? count : values && values.n);
      text = text[(PLURALS ? PLURALS.select(n) : n === 1 ? "one" : "other") === "one" ? "one" : "other"] || text.other;
    }
    return String(text).replace(/\{(\w+)\}/g, function (all, name) {
      return values && values[name] !== undefined ? values[name] : all;
    });
  }
  function $(sel) { return panel.querySelector(sel); }
  var title = $("[data-photo-title]"), progress = $("[data-photo-progress]"), failure = $("[data-photo-error]");
  var stage = $("[data-photo-stage]"), img = $("[data-photo-img]"), boxes = $("[data-photo-boxes]");
  var added = $("[data-photo-added]"), summary = $("[data-photo-summary]"), warningsList = $("[data-photo-warnings]");
  var addButton = $("[data-photo-add]"), removeButton = $("[data-photo-remove]"), closeButton = $("[data-photo-close]");
  var picker = $("[data-photo-picker]"), pickerLabel = $("[data-photo-picker-label]");
  // the reader says which tiles are sure (right at least 99 times in 100): a person looks at the others
  function unsure(item) { return !item.sure; }

  var state = { items: [], selected: -1, adding: false, target: null, player: null, width: 1, height: 1, seq: 0 };

  function playerOf(input) {
    if (input.dataset.player) return input.dataset.player;
    var checked = document.querySelector("input[data-photo-player]:checked");
    return checked ? checked.value : null;
  }

  // The tiles typed in the other hands of the form, so the referee can say "read in two hands".
  function otherHands() {
    var hands = {};
    document.querySelectorAll("input[data-hand][data-player]").forEach(function (input) {
      if (input === state.target || !input.dataset.player || input.dataset.player === state.player) return;
      var tiles = (input.value || "").split(/[\s,;]+/).filter(function (w) { return /^\d{1,2}-\d{1,2}$/.test(w); });
      if (tiles.length) hands[input.dataset.player] = tiles;
    });
    return hands;
  }

  function show(el, on) { el.hidden = !on; }

  function setProgress(text, value) {
    show(progress, !!text);
    progress.querySelector("span").textContent = text || "";
    var bar = progress.querySelector("progress");
    if (value === null || value === undefined) bar.removeAttribute("value"); else bar.value = value;
  }

  function fail(message) {
    setProgress(null);
    failure.textContent = message;
    show(failure, true);
  }

  function tilesOf() { return state.items.map(function (item) { return item.tile; }); }

  function syncField() {
    if (!state.target) return;
    state.target.value = tilesOf().join(" ");
    state.target.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function warningsFor(warnings) {
    var byTile = {};
    (warnings || []).forEach(function (w) { if (w.tile) byTile[w.tile] = w; });
    return byTile;
  }

  function labelFor(item) {
    if (!item.box) return say("added", { tile: item.tile });
    return say(unsure(item) ? "box_unsure" : "box", { tile: item.tile });
  }

  function button(item, index, warned) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "photo-box" + (unsure(item) ? " unsure" : "") + (warned ? " warned" : "") +
      (index === state.selected ? " selected" : "");
    b.dataset.index = index;
    b.dataset.tile = item.tile;
    b.setAttribute("aria-pressed", index === state.selected ? "true" : "false");
    b.setAttribute("aria-label", labelFor(item) + (warned ? " — " + (warned.text || warned.error) : ""));
    var label = document.createElement("span");
    label.className = "photo-label";
    label.textContent = item.tile + (unsure(item) ? " ?" : "") + (warned ? " ⚠" : "");
    b.appendChild(label);
    return b;
  }

  function render(warnings) {
    if (warnings !== undefined) state.warnings = warnings;
    var warned = warningsFor(state.warnings);
    boxes.textContent = "";
    added.textContent = "";
    state.items.forEach(function (item, index) {
      var b = button(item, index, warned[item.tile]);
      if (item.box) {
        b.style.left = (100 * item.box[0] / state.width) + "%";
        b.style.top = (100 * item.box[1] / state.height) + "%";
        b.style.width = (100 * item.box[2] / state.width) + "%";
        b.style.height = (100 * item.box[3] / state.height) + "%";
        boxes.appendChild(b);
      } else {
        b.classList.add("photo-chip");
        added.appendChild(b);
      }
    });
    warningsList.textContent = "";
    // A reading is partial until the hand is saved: a count that disagrees with the log
    // ("hidden") is not shown in red here (the summary says "3 of 15 tiles read"); saving
    // the round lists it with every other problem.
    (state.warnings || []).filter(function (w) { return w.rule !== "hidden"; }).forEach(function (w) {
      var li = document.createElement("li");
      li.className = "refusal";
      li.dataset.rule = w.rule || "";
      var line = document.createElement("span");
      line.textContent = (w.text || w.error) + (w.rule ? " (" : "");
      if (w.rule) {
        var link = document.createElement(RULES[w.rule] ? "a" : "span");
        link.className = "rule-id";
        if (RULES[w.rule]) link.href = RULES[w.rule];
        link.textContent = w.rule;
        line.appendChild(link);
        line.appendChild(document.createTextNode(")"));
      }
      li.appendChild(line);
      warningsList.appendChild(li);
    });
    removeButton.disabled = state.selected < 0;
    addButton.setAttribute("aria-pressed", state.adding ? "true" : "false");
    var picking = state.selected >= 0 || state.adding;
    show(picker, picking);
    pickerLabel.textContent = state.adding ? say("pick_add") :
      state.selected >= 0 ? say("pick_for", { tile: state.items[state.selected].tile }) : "";
    picker.querySelectorAll("[data-photo-tile]").forEach(function (t) {
      var current = state.selected >= 0 && state.items[state.selected].tile === t.dataset.photoTile;
      t.setAttribute("aria-pressed", current ? "true" : "false");
    });
  }

  function setSummary(total, tracked) {
    var n = state.items.length;
    summary.textContent = !n && state.read ? say("none") :
      say("summary", {
        tiles: tracked ? say("read_of", { n: n, size: tracked }, tracked) : say("read", { n: n }),
        points: say("points", { n: total })
      });
  }

  // Ask the referee about the hand as it is now: points and warnings (never decided here).
  function recheck() {
    var seq = ++state.seq;
    fetch(panel.dataset.check, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify({ tiles: tilesOf(), player: state.player, hands: otherHands() })
    }).then(function (r) { return r.json(); }).then(function (body) {
      if (seq !== state.seq) return;  // a later correction is on its way
      if (body.error) { fail(body.text || body.error); return; }
      render(body.warnings);
      setSummary(body.total, body.tracked);
      panel.dataset.state = "checked";
    }).catch(function () { if (seq === state.seq) fail(say("failed")); });
  }

  function changed() {
    syncField();
    render();
    panel.dataset.state = "checking";
    recheck();
  }

  function select(index) {
    state.adding = false;
    state.selected = state.selected === index ? -1 : index;
    render();
    if (state.selected >= 0) picker.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  function pick(tile) {
    if (state.adding) {
      state.items.push({ tile: tile, confidence: 1, sure: true, box: null });
      state.adding = false;
    } else if (state.selected >= 0) {
      state.items[state.selected] = { tile: tile, confidence: 1, sure: true, box: state.items[state.selected].box };
      var back = boxes.querySelector('[data-index="' + state.selected + '"]');
      state.selected = -1;
      if (back) back.focus();
    } else return;
    changed();
  }

  function upload(input) {
    var file = input.files && input.files[0];
    if (!file) return;
    state = { items: [], selected: -1, adding: false, target: document.getElementById(input.dataset.photoFor),
              player: playerOf(input), width: 1, height: 1, seq: state.seq + 1, warnings: [], read: false };
    // the hands page's own picker follows the hand being photographed (without the phone's keyboard)
    if (state.target) state.target.dispatchEvent(new Event("focus"));
    show(panel, true);
    show(failure, false);
    show(stage, false);
    panel.dataset.state = "reading";
    panel.dataset.for = input.dataset.photoFor;
    title.textContent = state.player ? say("title", { player: state.player }) : say("title_any");
    summary.textContent = "";
    warningsList.textContent = "";
    render([]);
    if (img.src && img.src.indexOf("blob:") === 0) URL.revokeObjectURL(img.src);
    img.src = URL.createObjectURL(file);
    panel.scrollIntoView({ behavior: "smooth", block: "start" });
    if (file.size > 20 * 1024 * 1024) { panel.dataset.state = "failed"; fail(say("too_large")); input.value = ""; return; }
    var data = new FormData();
    data.append("photo", file);
    if (state.player) data.append("player", state.player);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", panel.dataset.endpoint);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = function (e) {
      if (e.lengthComputable) setProgress(say("uploading", { n: Math.round(100 * e.loaded / e.total) }), 100 * e.loaded / e.total);
    };
    xhr.upload.onload = function () { setProgress(say("reading"), null); };
    xhr.onerror = function () { panel.dataset.state = "failed"; fail(say("failed")); };
    xhr.onload = function () {
      var body = {};
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = { error: say("failed") }; }
      if (xhr.status !== 200) { panel.dataset.state = "failed"; fail(body.text || body.error || say("failed")); return; }
      setProgress(null);
      state.read = true;
      state.width = body.width || 1;
      state.height = body.height || 1;
      state.items = (body.tiles || []).map(function (t) { return { tile: t.tile, confidence: t.confidence, sure: t.sure === true, box: t.box }; });
      stage.style.aspectRatio = state.width + " / " + state.height;
      // the whole photo in view: no taller than most of the screen
      stage.style.maxWidth = "min(100%, calc(62vh * " + state.width + " / " + state.height + "))";
      show(stage, true);
      syncField();
      render(body.warnings || []);
      setSummary(body.total, body.tracked);
      panel.dataset.state = "read";
      title.focus();
    };
    setProgress(say("uploading", { n: 0 }), 0);
    xhr.send(data);
    input.value = "";  // the same photo can be chosen again
  }

  document.addEventListener("change", function (event) {
    var input = event.target.closest && event.target.closest("input[data-photo-input]");
    if (input) upload(input);
  });
  // loaded by the page's small loader (templates/_photo.html): a photo chosen meanwhile is read now
  window.refereePhoto = { upload: upload };
  if (window.refereePhotoPending) {
    var pending = window.refereePhotoPending;
    window.refereePhotoPending = null;
    upload(pending);
  }
  boxes.addEventListener("click", onBox);
  added.addEventListener("click", onBox);
  function onBox(event) {
    var b = event.target.closest(".photo-box");
    if (b) select(+b.dataset.index);
  }
  picker.addEventListener("click", function (event) {
    var t = event.target.closest("[data-photo-tile]");
    if (t) pick(t.dataset.photoTile);
  });
  addButton.addEventListener("click", function () {
    state.adding = !state.adding;
    state.selected = -1;
    render();
    if (state.adding) picker.scrollIntoView({ behavior: "smooth", block: "nearest" });
  });
  removeButton.addEventListener("click", function () {
    if (state.selected < 0) return;
    state.items.splice(state.selected, 1);
    state.selected = -1;
    changed();
  });
  closeButton.addEventListener("click", function () {
    show(panel, false);
    if (state.target) state.target.focus();
  });
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && (state.selected >= 0 || state.adding)) {
      state.selected = -1; state.adding = false; render();
    }
  });
})();
