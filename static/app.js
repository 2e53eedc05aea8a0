// Coup referee: the little the pages need beyond htmx. No inline script anywhere (CSP).
(function () {
  "use strict";

  // Each screen has one element that fetches it again ([data-refresh], see _macros.html).
  function refresh() {
    var el = document.querySelector("[data-refresh]");
    if (el && window.htmx) { window.htmx.trigger(el, "refresh"); }
  }

  // Secrets are hidden again as soon as the player looks away.
  function hideSecrets() {
    document.querySelectorAll("details.secret[open]").forEach(function (d) { d.open = false; });
    document.querySelectorAll("[data-reveal]").forEach(function (b) { show(b, false); });
  }

  function show(button, on) {
    var target = document.querySelector(button.getAttribute("data-reveal"));
    if (!target) { return; }
    target.hidden = !on;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.classList.toggle("pressed", on);
  }

  // Press and hold to see your cards; they hide when you let go.
  document.addEventListener("pointerdown", function (e) {
    var b = e.target.closest && e.target.closest("[data-reveal]");
    if (b) { e.preventDefault(); show(b, true); }
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (type) {
    document.addEventListener(type, function (e) {
      var b = e.target.closest && e.target.closest("[data-reveal]");
      if (b) { show(b, false); }
    }, true);
  });
  document.addEventListener("keydown", function (e) {
    var b = e.target.closest && e.target.closest("[data-reveal]");
    if (b && (e.key === " " || e.key === "Enter")) { e.preventDefault(); show(b, true); }
  });
  document.addEventListener("keyup", function (e) {
    var b = e.target.closest && e.target.closest("[data-reveal]");
    if (b) { show(b, false); }
  });
  document.addEventListener("contextmenu", function (e) {
    if (e.target.closest && e.target.closest("[data-reveal]")) { e.preventDefault(); }
  });

  // A phone that wakes up, or a stream that reconnects, fetches the whole view again:
  // pushes sent while it slept are lost (iOS drops background streams).
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { hideSecrets(); } else { refresh(); }
  });
  window.addEventListener("pagehide", hideSecrets);
  window.addEventListener("pageshow", function (e) { if (e.persisted) { refresh(); } });
  document.addEventListener("htmx:sseOpen", refresh);

  // A tap's answer is the fresh view; a push that came while it was on its way was dropped
  // (hx-sync), so ask once more: the server answers 204 when nothing changed since.
  document.addEventListener("htmx:afterSettle", function (e) {
    var config = e.detail && e.detail.requestConfig;
    if (config && config.verb === "post") { refresh(); }
  });

  // A change comes inside the stream's event, the screen as it now is (sse-swap). One that is
  // not newer than the screen shown (say, the answer to this device's own tap came first) is
  // not swapped in again.
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    var shown = document.querySelector("[data-version]");
    var data = e.detail && typeof e.detail.data === "string" ? e.detail.data : "";
    var found = /data-version="(\d+)"/.exec(data);
    if (!found) { e.preventDefault(); return; }
    if (shown && Number(found[1]) <= Number(shown.getAttribute("data-version"))) {
      e.preventDefault();
    }
  });

  // Plain forms ask before doing something that can't be taken back.
  document.addEventListener("submit", function (e) {
    var button = e.submitter;
    var question = button && button.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { e.preventDefault(); }
  });

  // While a request is on its way, its buttons can't be tapped twice.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.target.closest && e.target.closest("form");
    if (form) { form.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }
  });
})();
