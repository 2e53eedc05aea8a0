// Coup referee, game night on every screen: the decision timer's countdown. The tablet's,
// the TV's and the night's pages' own scripts are in tablet.js (a phone's page loads none).
// No inline script anywhere (CSP); every screen is swapped whole, so each swap starts again.
(function () {
  "use strict";

  // -- the decision timer ---------------------------------------------------------------
  // The server says how many seconds are left when it drew the screen, counted from when
  // the decision opened (a reload shows the same time left); the device counts down from
  // there (its own clock may differ from the laptop's).
  var ticking = null;

  function mmss(s) {
    var m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }

  function startCountdown() {
    if (ticking) { window.clearInterval(ticking); ticking = null; }
    var box = document.querySelector("[data-countdown]");
    if (!box) { return; }
    // Seconds left when the server drew this box (it counts from when the decision opened).
    // The moment it ends is kept on the box: another region's swap runs this again, and must
    // not start the count again from the box's old number.
    var ends = Number(box.getAttribute("data-ends"));
    if (!ends) {
      ends = Date.now() + 1000 * Number(box.getAttribute("data-countdown"));
      box.setAttribute("data-ends", String(ends));
    }
    var left = box.querySelector("[data-left]");
    // Counted in milliseconds: the time-out goes only once the moment has passed (the seconds
    // shown round up, as the server's do, so 0:00 is shown only then). Rounded to the nearest
    // second, it went half a second early, and the server refused it.
    function tick() {
      var ms = ends - Date.now();
      var s = Math.max(0, Math.ceil(ms / 1000));
      if (left) { left.textContent = mmss(s); }
      box.classList.toggle("hurry", s <= 10);
      if (ms > 0) { return; }
      window.clearInterval(ticking);
      ticking = null;
      box.classList.add("timed-out");
      var up = box.querySelector("[data-up]");
      if (up) { up.hidden = false; }
      var stand = box.querySelector("form[data-timeout]");
      if (stand && window.htmx && !stand.hasAttribute("data-sent")) {
        stand.setAttribute("data-sent", "1");
        window.htmx.trigger(stand, "timeout");
      }
    }
    tick();
    if (!box.classList.contains("timed-out")) { ticking = window.setInterval(tick, 250); }
  }

  document.addEventListener("DOMContentLoaded", startCountdown);
  document.addEventListener("htmx:afterSettle", startCountdown);
})();
