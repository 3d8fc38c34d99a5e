/* Tile picker: tap real tiles to fill a hand's text field ("0-0 5-6"), pips summed live.
 * The text fields stay the truth (the page works without this script); the server decides
 * whether an entry is allowed. Markup: a form holding input[data-hand] fields and one
 * [data-picker] grid of button[data-tile]; button[data-pick-for=<input id>] makes a hand the
 * one being tapped, button[data-out-for=<input id>] enters "out" (went out, no tiles).
 */
(function () {
  "use strict";
  var TILE = /^(\d{1,2})\s*[-|:/]\s*(\d{1,2})$/;

  function canon(text) {
    var m = TILE.exec(text.trim());
    if (!m) return null;
    var a = +m[1], b = +m[2];
    return a <= b ? a + "-" + b : b + "-" + a;
  }

  // The sentences, in the page's language when the picker gives them (data-texts, a JSON
  // object of templates with {named} values), else in English.
  // A count-bearing text has the language's two plural forms, {one, other}.
  var ENGLISH = {
    points: { one: "{n} point", other: "{n} points" }, out: "went out: 0",
    tiles: { one: "{n} tile", other: "{n} tiles" }, tiles_of: { one: "{n} of {size} tile", other: "{n} of {size} tiles" },
    sum: "{tiles}: {points}", bad: "not tiles yet", tap: "Tap the tiles", tap_player: "Tap {player}'s tiles",
    picked: "{n} picked", picked_of: "{n} of {of} picked", full: { one: "A hand has {n} tile", other: "A hand has {n} tiles" }
  };
  var TEXTS = {};
  try { TEXTS = JSON.parse((document.querySelector("[data-picker]") || {dataset: {}}).dataset.texts || "{}"); }
  catch (err) { TEXTS = {}; }
  var PLURALS = null;
  try { PLURALS = new Intl.PluralRules(document.documentElement.lang || "en"); } catch (err) { PLURALS = null; }
  // "one" or "other" for a count, by the page language's rule (hi, pa: 0 and 1 are "one").
  function form(count) {
    var kind = PLURALS ? PLURALS.select(+count) : (+count === 1 ? "one" : "other");
    return kind === "one" ? "one" : "other";
  }
  // The text of ``key`` with its {names} filled; ``count`` chooses a plural form.
  function say(key, values, count) {
    var text = TEXTS[key] || ENGLISH[key];
    if (text && typeof text === "object") text = text[form(count !== undefined ? count : values.n)] || text.other;
    return String(text).replace(/\{(\w+)\}/g, function (all, name) {
      return values[name] !== undefined ? values[name] : all;
    });
  }

  function parse(value) {
    var raw = (value || "").trim();
    if (!raw) return { kind: "empty" };
    if (/^(out|-|—|none|empty)$/i.test(raw)) return { kind: "tiles", tiles: [] };
    if (/^\d+$/.test(raw)) return { kind: "points", points: +raw };
    // a counted hand added up at the table: "10+15+8" (the server adds it up the same way)
    if (/^\d+(\s*\+\s*\d+)+$/.test(raw)) {
      return { kind: "points", points: raw.split("+").reduce(function (sum, part) { return sum + (+part.trim()); }, 0) };
    }
    var tiles = [], bad = false;
    raw.split(/[\s,;]+/).forEach(function (part) {
      if (!part) return;
      var t = canon(part);
      if (t) tiles.push(t); else bad = true;
    });
    return bad ? { kind: "bad", tiles: tiles } : { kind: "tiles", tiles: tiles };
  }

  // A hand's points: the sum of each tile's value as the server gives it (the game's own
  // hand scoring: data-points beside other tiles, data-points-alone as the only tile).
  function pips(tiles, values) {
    var sum = 0;
    tiles.forEach(function (t) {
      var v = values[t];
      if (v) sum += tiles.length === 1 ? v.alone : v.beside;
    });
    return sum;
  }

  function setup(form) {
    var picker = form.querySelector("[data-picker]");
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input[data-hand]"));
    if (!picker || !inputs.length) return;
    picker.hidden = false;
    form.classList.add("has-picker");
    var buttons = Array.prototype.slice.call(picker.querySelectorAll("button[data-tile]"));
    var max = +(picker.dataset.max || 0);
    var values = {};
    buttons.forEach(function (b) {
      if (b.dataset.points !== undefined) values[b.dataset.tile] = { beside: +b.dataset.points, alone: +b.dataset.pointsAlone };
    });
    var label = picker.querySelector(".picker-label");
    var status = picker.querySelector(".picker-status");
    // The first hand still to enter (the player who went out is filled in already).
    var active = inputs.filter(function (input) { return !input.value.trim(); })[0] || inputs[0];

    function full(input) {
      var p = parse(input.value), size = +(input.dataset.size || 0);
      return p.kind === "points" || (p.kind === "tiles" && (!p.tiles.length || (size && p.tiles.length >= size)));
    }

    // After a hand is complete (its count by the log), the picker moves to the next hand
    // that is not entered yet, by itself.
    function advance() {
      var at = inputs.indexOf(active);
      for (var step = 1; step < inputs.length; step++) {
        var next = inputs[(at + step) % inputs.length];
        if (!next.value.trim()) { active = next; return true; }
      }
      return false;
    }

    function owners() {
      var owner = {};
      inputs.forEach(function (input) {
        var p = parse(input.value);
        (p.tiles || []).forEach(function (t) { if (!(t in owner)) owner[t] = input; });
      });
      return owner;
    }

    function render() {
      var owner = owners();
      buttons.forEach(function (button) {
        var t = button.dataset.tile, who = owner[t];
        var onTable = button.classList.contains("on-table");
        button.setAttribute("aria-pressed", who === active ? "true" : "false");
        button.disabled = onTable || (who !== undefined && who !== active);
        button.classList.toggle("taken", who !== undefined && who !== active);
        var mark = button.querySelector(".owner");
        if (mark) mark.textContent = who && who !== active ? (who.dataset.initial || "") : "";
      });
      inputs.forEach(function (input) {
        var p = parse(input.value), out = document.getElementById(input.id + "-sum");
        var row = input.closest("[data-hand-row]");
        if (row) row.classList.toggle("active", input === active && inputs.length > 1);
        var pick = form.querySelector('[data-pick-for="' + input.id + '"]');
        if (pick) pick.setAttribute("aria-pressed", input === active ? "true" : "false");
        if (!out) return;
        var size = input.dataset.size;
        if (p.kind === "points") out.textContent = say("points", { n: p.points });
        else if (p.kind === "tiles" && !p.tiles.length) out.textContent = say("out", {});
        else if (p.kind === "tiles") {
          var n = p.tiles.length;
          out.textContent = say("sum", {
            tiles: size ? say("tiles_of", { n: n, size: size }, size) : say("tiles", { n: n }),
            points: say("points", { n: pips(p.tiles, values) })
          });
        }
        else if (p.kind === "bad") out.textContent = say("bad", {});
        else out.textContent = "";
      });
      if (label) label.textContent = inputs.length > 1 && active.dataset.player
        ? say("tap_player", { player: active.dataset.player }) : say("tap", {});
      if (status) {
        var p = parse(active.value), n = (p.tiles || []).length, of = max || active.dataset.size;
        status.textContent = of ? say("picked_of", { n: n, of: of }) : say("picked", { n: n });
      }
    }

    function toggle(tile) {
      var p = parse(active.value);
      var tiles = p.kind === "tiles" || p.kind === "bad" ? p.tiles.slice() : [];
      var at = tiles.indexOf(tile);
      if (at >= 0) tiles.splice(at, 1);
      else if (max && tiles.length >= max) { if (status) status.textContent = say("full", { n: max }); return; }
      else tiles.push(tile);
      active.value = tiles.join(" ");
      active.dispatchEvent(new Event("change", { bubbles: true }));
      if (at < 0 && active.dataset.size && full(active)) advance();
      render();
    }

    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-tile]");
      if (button && !button.disabled) toggle(button.dataset.tile);
    });
    form.addEventListener("click", function (event) {
      var pick = event.target.closest("[data-pick-for]"), out = event.target.closest("[data-out-for]");
      if (pick) {
        active = document.getElementById(pick.dataset.pickFor);
        render();
        // The picker comes into view (tablet and phone) unless it is on screen already.
        var box = picker.getBoundingClientRect();
        if (box.top < 0 || box.top > window.innerHeight * 0.6) picker.scrollIntoView({ behavior: "smooth", block: "start" });
      } else if (out) {
        var input = document.getElementById(out.dataset.outFor);
        input.value = "out";
        if (input === active) advance();
        render();
      }
    });
    inputs.forEach(function (input) {
      input.addEventListener("focus", function () { active = input; render(); });
      input.addEventListener("input", render);
    });
    render();
  }

  // The picker's label sticks under the header, whatever the header's height on this screen.
  var topbar = document.querySelector(".topbar");
  function keepUnderHeader() {
    if (topbar) document.documentElement.style.setProperty("--topbar-h", topbar.offsetHeight + "px");
  }
  keepUnderHeader();
  window.addEventListener("resize", keepUnderHeader);

  document.querySelectorAll("form[data-hands]").forEach(setup);
})();
