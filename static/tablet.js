// Coup referee, the big screens: the tablet's rulings read aloud and its "Another referee" box,
// the TV's page filling its screen, a timeline page following its table, the players' page's
// merge. Every page but a phone's loads this after night.js (base.html).
// No inline script anywhere (CSP); every screen is swapped whole, so each swap starts again.
(function () {
  "use strict";

  // -- rulings read aloud (the tablet's switch, remembered on this device) ----------------
  var KEY = "coup-speak";
  var SAID = "coup-said";

  function voiceFor(lang) {
    if (!("speechSynthesis" in window)) { return null; }
    var want = lang.toLowerCase(), base = want.split("-")[0];
    var voices = window.speechSynthesis.getVoices();
    return voices.filter(function (v) { return v.lang.toLowerCase().replace("_", "-") === want; })[0] ||
      voices.filter(function (v) { return v.lang.toLowerCase().split(/[-_]/)[0] === base; })[0] || null;
  }

  function speechList() { return document.querySelector("[data-speech]"); }

  function newest(list) {
    var items = list.querySelectorAll("li[data-n]");
    return items.length ? Number(items[items.length - 1].getAttribute("data-n")) : 0;
  }

  function saidKey(list) { return SAID + ":" + location.pathname; }

  function speak() {
    var list = speechList();
    var on = window.localStorage.getItem(KEY) === "1";
    var sw = document.querySelector("[data-speech-switch]");
    if (sw) { sw.checked = on; }
    var none = document.querySelector("[data-speech-none]");
    if (!list) { return; }
    var seen = window.sessionStorage.getItem(saidKey(list));
    var said = Number(seen || "0");
    var last = newest(list);
    // Off, or a page just opened: nothing said before now is read out.
    if (!on || seen === null) { window.sessionStorage.setItem(saidKey(list), String(last)); return; }
    var lang = list.getAttribute("data-lang") || "en";
    var voice = voiceFor(lang);
    if (none) { none.hidden = voice !== null; }
    if (!voice) { return; }
    list.querySelectorAll("li[data-n]").forEach(function (li) {
      if (Number(li.getAttribute("data-n")) <= said) { return; }
      var u = new window.SpeechSynthesisUtterance(li.textContent);
      u.lang = voice.lang;
      u.voice = voice;
      window.speechSynthesis.speak(u);
    });
    window.sessionStorage.setItem(saidKey(list), String(last));
  }

  document.addEventListener("change", function (e) {
    if (!e.target.matches || !e.target.matches("[data-speech-switch]")) { return; }
    window.localStorage.setItem(KEY, e.target.checked ? "1" : "0");
    var list = speechList();
    if (list) { window.sessionStorage.setItem(saidKey(list), String(newest(list))); }
    if (!e.target.checked && "speechSynthesis" in window) { window.speechSynthesis.cancel(); }
    speak();
  });

  // -- a timeline page follows the table ------------------------------------------------
  // It listens to the table's stream (versions only) and, on each change, asks for itself
  // again: the server sends it back to the live screen once the rematch's lobby opens or the
  // next game starts, and a page waiting for the timeline turns into it once it is opened.
  function followTable() {
    var page = document.querySelector("main[data-again]");
    if (!page || !("EventSource" in window)) { return; }
    var again = page.getAttribute("data-again");
    var shows = page.getAttribute("data-shows");
    var stream = new window.EventSource(page.getAttribute("data-events"));
    var leaving = false;
    // A page on its way out (its own "Open the timeline" was sent, say) asks nothing more: a
    // second navigation would race the first.
    function leave() { leaving = true; stream.close(); }
    document.addEventListener("submit", function (e) { if (!e.defaultPrevented) { leave(); } });
    document.addEventListener("click", function (e) {
      if (e.target.closest && e.target.closest("a[href]")) { leave(); }
    });
    window.addEventListener("pagehide", leave);
    stream.addEventListener("changed", function () {
      if (leaving) { return; }
      window.fetch(again, { credentials: "same-origin" }).then(function (answer) {
        if (leaving) { return null; }
        if (answer.redirected) { leave(); window.location.assign(answer.url); return null; }
        return answer.ok ? answer.text() : null;
      }).then(function (html) {
        if (html && !leaving && html.indexOf('data-shows="' + shows + '"') < 0) {
          leave();
          window.location.replace(again);
        }
      }).catch(function () { /* the next change asks again */ });
    });
  }

  // -- the players' page: a merge asks with the two names chosen ------------------------
  // Runs before app.js's confirm (capture phase): the question it asks is the one that names
  // the players as chosen now.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var button = e.submitter;
    if (!form.matches || !form.matches("form[data-merge]") || !button) { return; }
    var asked = button.getAttribute("data-confirm-names");
    if (!asked) { return; }
    var name = form.querySelector("select[name=name]").value;
    var into = form.querySelector("select[name=into]").value;
    button.setAttribute("data-confirm", asked.split("{name}").join(name).split("{into}").join(into));
  }, true);

  // -- a TV's short page fills its screen ------------------------------------------------
  // The TV's lobby and its timeline are drawn in type that fits a long game; a short one
  // would use a third of the screen, and six players' lanes can need more than it. On a wide
  // screen their type is scaled, by halving steps, to the largest that still fits unscrolled:
  // grown for a short game, shrunk for a crowded one. A TV can't scroll, and nobody on a sofa
  // reads a whole long game drawn in 5 px: where the timeline would need body type under
  // READABLE (10 px on a TV 1080 px high, in proportion on another: its chips, .9 of it, at
  // the 9 px the tests hold every word to), its oldest bands are left out, one at a time,
  // until the rest fits in readable type, and the page says which turns are left out (the
  // route sends a long game's newest turns only: night.tv_part).
  var WIDE = "(min-aspect-ratio: 4/3) and (min-width: 900px)";
  var MOST = 3;
  var FEWEST = 0.25;
  var READABLE = 10 / 1080;

  function fitScreen() {
    var root = document.documentElement, body = document.body;
    root.style.fontSize = "";
    body.style.fontSize = "";
    var bands = document.querySelectorAll(".tv-timeline .bands > table.lanes");
    bands.forEach(function (band) { band.hidden = false; });
    leftOut();
    wholeRulings();  // the live board: its type is the style sheet's, not scaled
    var lobby = document.querySelector("#tv.tv-lobby");
    if (!(lobby || body.classList.contains("tv-timeline")) || !window.matchMedia(WIDE).matches) {
      return;
    }
    var rootSize = parseFloat(window.getComputedStyle(root).fontSize);
    var bodySize = parseFloat(window.getComputedStyle(body).fontSize);
    function scale(k) {
      root.style.fontSize = (rootSize * k) + "px";
      body.style.fontSize = (bodySize * k) + "px";
    }
    function fits(box) {
      return box.scrollHeight <= box.clientHeight && box.scrollWidth <= box.clientWidth;
    }
    function inside() { return fits(root) && (!lobby || fits(lobby)); }
    function largest() {
      var low = FEWEST, high = MOST;
      for (var i = 0; i < 12; i += 1) {
        var middle = (low + high) / 2;
        scale(middle);
        if (inside()) { low = middle; } else { high = middle; }
      }
      return low;
    }
    var k = largest(), hidden = 0;
    while (bodySize * k < READABLE * window.innerHeight && hidden < bands.length - 1) {
      bands[hidden].hidden = true;
      hidden += 1;
      leftOut();
      k = largest();
    }
    scale(k);
  }

  // The line saying which of a long game's turns a TV leaves out: from the game's first turn
  // (data-first) to the one before the first band shown, in the words of data-left-out.
  function leftOut() {
    var line = document.querySelector(".tv-timeline .left-out[data-left-out]");
    var band = document.querySelector(".tv-timeline .bands > table.lanes:not([hidden])");
    if (!line || !band) { return; }
    var first = Number(line.getAttribute("data-first"));
    var shown = Number(band.querySelector("thead th[scope=col]:nth-child(2)").textContent);
    line.hidden = !(shown > first);
    line.textContent = line.hidden ? "" : line.getAttribute("data-left-out")
      .split("{first}").join(String(first)).split("{last}").join(String(shown - 1));
  }

  // -- the TV's rulings: whole ones only ------------------------------------------------
  // The live board's rulings, newest first, fill what the seats leave of the screen (their
  // box ends at its foot: night.css); a TV can't scroll, so the oldest that would be cut off
  // by the foot are hidden, never shown in part: the first that would be cut and every one
  // older (a shorter, older one moving up into the room a hidden one left would skip the
  // rulings between them: "37." then "34.").
  function wholeRulings() {
    var box = document.querySelector("#tv .tv-rulings");
    if (!box) { return; }
    var rulings = box.querySelectorAll(".tv-log li");
    rulings.forEach(function (li) { li.hidden = false; });
    var foot = box.getBoundingClientRect().bottom, cut = false;
    rulings.forEach(function (li) {
      cut = cut || li.getBoundingClientRect().bottom > foot + 1;
      li.hidden = cut;
    });
  }

  // -- "Another referee" ------------------------------------------------------------------
  // Its box stands by its button: its right edge under the button's, or as near as it can
  // come while the prompt is beside the seats (the box never covers the prompt), and never
  // past the bar's left edge. --join-left: from the bar's left edge, measured while it is open.
  function joinFold() { return document.querySelector(".tablet .tools details.join"); }
  function placeJoinBox() {
    var fold = joinFold(), bar = document.querySelector(".tablet > .bar");
    if (!fold || !fold.open || !bar) { return; }
    var box = fold.querySelector(".join-box");
    var right = fold.querySelector("summary").getBoundingClientRect().right;
    var prompt = document.querySelector(".tablet > #prompt");
    var edge = bar.getBoundingClientRect().left + bar.clientLeft;
    if (prompt) {
      var beside = prompt.getBoundingClientRect().left;
      if (beside > edge + box.offsetWidth) { right = Math.min(right, beside - 8); }
    }
    document.documentElement.style.setProperty(
      "--join-left", Math.max(0, right - edge - box.offsetWidth) + "px");
  }
  // Open, it floats over the seats: like any pop-up it closes on a tap anywhere outside it
  // (that tap still does what it does) or on Escape, which gives the focus back to its button.
  document.addEventListener("toggle", function (e) {
    if (e.target === joinFold()) { placeJoinBox(); }
  }, true);
  document.addEventListener("click", function (e) {
    var fold = joinFold();
    if (fold && fold.open && !fold.contains(e.target)) { fold.open = false; }
  });
  document.addEventListener("keydown", function (e) {
    var fold = joinFold();
    if (e.key !== "Escape" || !fold || !fold.open) { return; }
    fold.open = false;
    fold.querySelector("summary").focus();
  });

  function refreshed() { speak(); fitScreen(); placeJoinBox(); }
  function resized() { fitScreen(); placeJoinBox(); }
  document.addEventListener("DOMContentLoaded", refreshed);
  document.addEventListener("DOMContentLoaded", followTable);
  document.addEventListener("htmx:afterSwap", placeJoinBox);
  document.addEventListener("htmx:afterSettle", refreshed);
  window.addEventListener("resize", resized);
  if ("speechSynthesis" in window) {
    window.speechSynthesis.addEventListener("voiceschanged", speak);
  }
})();
