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

  // The reveal being held ("#hand"), so a live update that redraws the hand mid-hold shows
  // the new hand too rather than hiding the cards under a finger still pressing.
  var held = null;
  function show(button, on) {
    held = on ? button.getAttribute("data-reveal") : null;
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
      if (!b && held && type !== "pointerleave") {  // let go over a redrawn screen
        b = document.querySelector('[data-reveal="' + held + '"]');
      }
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
    if (document.hidden) { leave(); } else { leaving = false; refresh(); }
  });
  window.addEventListener("pagehide", leave);
  window.addEventListener("pageshow", function (e) { leaving = false; if (e.persisted) { refresh(); } });
  document.addEventListener("htmx:sseOpen", refresh);

  // The fallback for a stream that died without a word (a browser sees none of the server's
  // keepalives): fetch the screen when no event has come for 10 s. While events come, the
  // stream is alive and a poll would only hear "nothing new".
  var POLL_MS = 10000;
  var heard = Date.now();
  function stillHere() { heard = Date.now(); }
  ["htmx:sseOpen", "htmx:sseBeforeMessage", "htmx:sseMessage"].forEach(function (type) {
    document.addEventListener(type, stillHere);
  });
  window.setInterval(function () {
    if (Date.now() - heard >= POLL_MS) { stillHere(); refresh(); }
  }, 1000);

  // The version the screen shows (every screen has one [data-version]), or -1.
  function shownVersion() {
    var shown = document.querySelector("[data-version]");
    return shown ? Number(shown.getAttribute("data-version")) : -1;
  }

  // The version a pushed event carries: its screen's, or the bare version (-1 if neither).
  function pushedVersion(data) {
    var found = /data-version="(\d+)"/.exec(data);
    if (found) { return Number(found[1]); }
    return /^\d+$/.test(data.trim()) ? Number(data) : -1;
  }

  // A change this screen was told of but did not show: a push dropped while this device's
  // tap was on its way (see htmx:sseBeforeMessage: the tap's answer is the fresh screen), or
  // the bare version of a screen fetched on each event (the TV's), which drops an event that
  // comes while its fetch is on its way (the refresher's hx-sync drop). After each request
  // settles, the screen is fetched once more only if it shows something older than the newest
  // such version; once per version, so a screen that can't reach it (a gone table) doesn't
  // fetch again and again. Nothing missed, nothing fetched: no request per tap for nothing.
  var missedVersion = -1;  // the newest version told of and not swapped in
  var chasedVersion = -1;  // the newest one fetched again for
  function missed(version) { missedVersion = Math.max(missedVersion, version); }
  function catchUp() {
    if (missedVersion > shownVersion() && missedVersion > chasedVersion) {
      chasedVersion = missedVersion;
      window.setTimeout(refresh, 0);  // after htmx has finished with this request
    }
  }
  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.detail && e.detail.requestConfig) { catchUp(); }
    decisionInView();  // once the swapped screen has its classes (htmx settles them)
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status === 204) { catchUp(); }  // nothing swapped, so no afterSettle
  });
  // An event a screen fetches on (hx-trigger="sse:changed") comes as htmx:sseMessage; one
  // swapped in, as htmx:sseBeforeMessage (below).
  document.addEventListener("htmx:sseMessage", function (e) {
    var data = e.detail && typeof e.detail.data === "string" ? e.detail.data : "";
    if (data && !/data-version="\d+"/.test(data)) { missed(pushedVersion(data)); }
  });

  // A change comes inside the stream's event, the screen as it now is (sse-swap). One that is
  // not newer than the screen shown (say, the answer to this device's own tap came first) is
  // not swapped in again. The device whose tap it was gets only the version (its tap's answer
  // is the screen): if that answer never came, or this is a second tab, fetch the screen.
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    // While this device's own tap is on its way, a pushed screen waits: swapped in now, it
    // would leave the tap's answer (perhaps a refusal saying why) nowhere to land. The answer
    // is the screen as it is, and the fetch after it (htmx:afterSettle) brings anything newer.
    var data = e.detail && typeof e.detail.data === "string" ? e.detail.data : "";
    var version = pushedVersion(data);
    if (tapOnItsWay()) {
      missed(version);
      e.preventDefault();
      return;
    }
    var shown = document.querySelector("[data-version]");
    if (!/data-version="\d+"/.test(data)) {
      e.preventDefault();
      missed(version);
      if (version >= 0 && shown && version > shownVersion()) { refresh(); }
      return;
    }
    if (shown && version <= shownVersion()) {
      e.preventDefault();
      return;
    }
    // A pushed screen is swapped without htmx:beforeSwap (that event is a request's): keep
    // what the player was filling in here, restored on htmx:afterSwap as for a fetch.
    keptBeforeSwap = snapshot();
    placesBeforeSwap = buttonPlaces(document.querySelector("#tablet, #phone"));
  });

  // Plain forms ask before doing something that can't be taken back.
  document.addEventListener("submit", function (e) {
    var button = e.submitter;
    var question = button && button.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { e.preventDefault(); return; }
    sendOnce(e);
  });

  // A plain form (not htmx: "Create the table", join, a seat's new code, the players' page)
  // is sent once: a second tap before the next page loads would send it again (two tables).
  // htmx's forms have their own guard (their submit is prevented by htmx before this); a form
  // whose answer is a file (data-resend) leaves the page where it is and may be sent again.
  // The mark goes with the page; one back from the browser's cache is sent afresh (pageshow).
  function sendOnce(e) {
    var form = e.target;
    if (e.defaultPrevented || form.hasAttribute("data-resend")) { return; }
    if (form.hasAttribute("data-sent")) { e.preventDefault(); return; }
    form.setAttribute("data-sent", "");
  }
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) { return; }
    document.querySelectorAll("form[data-sent]").forEach(function (f) { f.removeAttribute("data-sent"); });
  });

  // -- A screen that was just replaced does not take a tap at once -------------------------
  // A second tap of a double tap (or a tap aimed at the screen as it was) would land on the
  // new screen's buttons: the next window's "Nobody ..." could rule a second time. So each
  // new screen's buttons wait a moment (body's data-tap-guard, in ms) before they work.
  // Disabled, not just ignored: a browser test waits for a button to be enabled.
  function guardMs() {
    var ms = parseInt(document.body.getAttribute("data-tap-guard") || "", 10);
    return isNaN(ms) ? 600 : ms;
  }

  // A button the new screen keeps as it was (the same words and step, the same place) is not
  // new under the finger: another player's "let it stand" leaves a phone's own "Let it stand"
  // and the tablet's "Nobody challenges" where they were, and they keep working at once.
  function buttonKey(b) {
    var parts = [b.textContent.trim(), b.name, b.value, b.form ? b.form.getAttribute("action") : ""];
    if (b.form) {
      Array.prototype.forEach.call(b.form.elements, function (f) {
        if (f.type === "hidden" && f.name !== "version" && f.name !== "csrf") { parts.push(f.name + "=" + f.value); }
      });
    }
    return parts.join("|");
  }
  function placeOf(b) {
    var r = b.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map(Math.round).join(",");
  }
  // A button still settling took no tap yet: the new screen's button in its place waits too.
  function buttonPlaces(root) {
    var places = {};
    if (root) {
      root.querySelectorAll("button:not([type=button]):not([data-settling])").forEach(function (b) {
        places[buttonKey(b)] = placeOf(b);
      });
    }
    return places;
  }
  var placesBeforeSwap = {};
  function keptInPlace(b) { return placesBeforeSwap[buttonKey(b)] === placeOf(b); }

  // A button held again before its moment ended (a list opened just after a new screen) waits
  // the new moment out: only the newest hold lets it go (its number, on the button).
  var holds = 0;
  function settle(root) {
    var ms = guardMs();
    if (!root || ms <= 0) { return; }
    var hold = ++holds, held = [];
    root.querySelectorAll("button:not([type=button])").forEach(function (b) {
      if ((b.disabled && !b.hasAttribute("data-settling")) || keptInPlace(b)) { return; }
      b.disabled = true; b.setAttribute("data-settling", ""); b.coupHold = hold; held.push(b);
    });
    placesBeforeSwap = {};
    window.setTimeout(function () {
      held.forEach(function (b) {
        if (b.isConnected && b.hasAttribute("data-settling") && b.coupHold === hold) {
          b.disabled = false; b.removeAttribute("data-settling");
        }
      });
    }, ms);
  }

  // Not silent: a tap on a button still settling flashes it once (app.css), so the player
  // sees the tap was too soon, not lost somewhere. The browser still sends a disabled button
  // its pointerdown (never its click: the tap is not taken).
  // A tap pressed just before its button was held (a target of "Steal ▸" whose press came
  // before the list's hold began: the toggle event comes a moment after the fold opens) is not
  // taken either, and flashes as it is let go (outside tester: such a tap said nothing).
  var pressFlashed = null;  // the held button this press flashed already
  function tooSoon(e) {
    var b = e.target.closest && e.target.closest("button[data-settling]");
    if (!b) { return null; }
    b.removeAttribute("data-too-soon");
    void b.offsetWidth;  // a second tap too soon flashes it again
    b.setAttribute("data-too-soon", "");
    return b;
  }
  document.addEventListener("pointerdown", function (e) { pressFlashed = tooSoon(e); }, true);
  document.addEventListener("pointerup", function (e) {
    var b = e.target.closest && e.target.closest("button[data-settling]");
    if (b && b !== pressFlashed) { tooSoon(e); }
    pressFlashed = null;
  }, true);
  document.addEventListener("animationend", function (e) {
    if (e.animationName === "too-soon") { e.target.removeAttribute("data-too-soon"); }
  });

  // A page just loaded is new under the finger as well: a reload, a phone opening its link, a
  // plain form's answer (the second tap of a double tap on "Create the table", or any tap where
  // htmx is not running), a page back from the browser's cache or a phone back from sleep.
  // Its buttons wait the same moment; there is no screen before it to keep a button in place.
  function settlePage() { placesBeforeSwap = {}; settle(document.body); }
  document.addEventListener("DOMContentLoaded", settlePage);
  window.addEventListener("pageshow", function (e) { if (e.persisted) { settlePage(); } });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { settlePage(); } });

  // Opening a target list ("Steal ▸") moves buttons too: its targets open on a row of their
  // own, the actions after it slide into its place, and a target or another action comes under
  // the finger (an outside tester's double tap declared an Exchange, or a Steal from whoever
  // stood there). What moved or appeared waits the same moment; what stayed in place does not.
  var foldTapped = null;
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest("details.targets > summary");
    if (!summary || summary.parentElement.open) { return; }
    foldTapped = summary.parentElement;
    placesBeforeSwap = buttonPlaces(summary.closest("#tablet, #phone"));
  }, true);
  document.addEventListener("toggle", function (e) {
    if (e.target !== foldTapped) { return; }
    foldTapped = null;
    if (e.target.open) { settle(e.target.closest("#tablet, #phone")); } else { placesBeforeSwap = {}; }
  }, true);

  // -- What the player was filling in survives a live update ------------------------------
  // Forms and folds marked data-keep="key" keep their choices and their open state when the
  // screen is replaced by one with the same key (the same question: the key names it).
  function snapshot() {
    var kept = {};
    document.querySelectorAll("[data-keep]").forEach(function (el) {
      var entry = { open: el.open === true, fields: [] };
      if (el.elements) {
        Array.prototype.forEach.call(el.elements, function (f) {
          if (f.type === "hidden" || !f.name) { entry.fields.push(null); return; }
          entry.fields.push(f.type === "checkbox" || f.type === "radio" ? f.checked : f.value);
        });
      }
      kept[el.getAttribute("data-keep")] = entry;
    });
    return kept;
  }

  function restore(kept) {
    document.querySelectorAll("[data-keep]").forEach(function (el) {
      var entry = kept && kept[el.getAttribute("data-keep")];
      if (!entry) { return; }
      if (el.tagName === "DETAILS" && entry.open) { el.open = true; }
      if (!el.elements || el.elements.length !== entry.fields.length) { return; }
      Array.prototype.forEach.call(el.elements, function (f, i) {
        var value = entry.fields[i];
        if (value === null || value === undefined) { return; }
        if (f.type === "checkbox" || f.type === "radio") { f.checked = value; } else { f.value = value; }
      });
    });
  }

  var keptBeforeSwap = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    keptBeforeSwap = snapshot();
    placesBeforeSwap = buttonPlaces(document.querySelector("#tablet, #phone"));
    // The answer to a form that was sent and taken: that question is answered, so the form's
    // choices don't come back (a saved hand is not shown ticked), nor a fold around it marked
    // data-close-when-sent ("Change your cards"). A refused form keeps them, to try again.
    var sent = e.detail && e.detail.requestConfig && e.detail.requestConfig.elt;
    var form = sent && sent.closest ? sent.closest("form[data-keep]") : null;
    if (!form || !(e.detail.xhr && e.detail.xhr.status < 300)) { return; }
    delete keptBeforeSwap[form.getAttribute("data-keep")];
    var fold = form.closest("details[data-keep][data-close-when-sent]");
    if (fold) {
      delete keptBeforeSwap[fold.getAttribute("data-keep")];
      forgetFold(fold.getAttribute("data-keep"));
    }
  });

  // -- The page speaks its screen's language ----------------------------------------------
  // A phone that switched its language swaps in a screen in the new one (its [lang]): the
  // page's <html lang> follows at once, not at the next reload (speech, fonts, hyphens).
  document.addEventListener("htmx:afterSettle", function () {
    var screen = document.querySelector("#phone[lang]");
    if (screen && document.documentElement.lang !== screen.lang) {
      document.documentElement.lang = screen.lang;
    }
  });

  // -- The phone that must act says so: "It's you", and a buzz where the browser allows ----
  function buzz() {
    var alert = document.querySelector("[data-buzz]");
    if (!alert) { return; }
    var key = location.pathname + ":" + alert.getAttribute("data-buzz");
    var seen;
    try { seen = window.sessionStorage.getItem("buzzed"); } catch (err) { seen = null; }
    if (seen === key) { return; }
    try { window.sessionStorage.setItem("buzzed", key); } catch (err) { /* private mode */ }
    if (navigator.vibrate) {
      try { navigator.vibrate([180, 90, 180]); } catch (err) { /* not allowed here */ }
    }
  }

  // -- The seats as a round table or a grid: this device's own choice ----------------------
  function layout() {
    var round = false;
    try { round = window.localStorage.getItem("layout") === "round"; } catch (err) { round = false; }
    document.body.classList.toggle("round-table", round);
    document.querySelectorAll("[data-layout-toggle]").forEach(function (b) {
      b.setAttribute("aria-pressed", round ? "true" : "false");
    });
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-layout-toggle]");
    if (!b) { return; }
    var round = b.getAttribute("aria-pressed") !== "true";
    try { window.localStorage.setItem("layout", round ? "round" : "grid"); } catch (err) { /* */ }
    layout();
  });

  // -- A refusal follows the form that asked, and floats: it moves nothing -----------------
  // The answer to a refused tap is the screen as it is, with the reason (role=alert) on top.
  // Where the same form (the same step at the same version) is still on the new screen, the
  // reason moves next to it in the page (read after it); when the table moved on, it stays on
  // top. Either way it is drawn over the top of the screen (app.css), where it pushes nothing
  // down: an outside tester aimed at a button as a banner pushed the screen 70 px down, and up
  // again 10 s later.
  var askedBy = null;

  function formKey(form) {
    var parts = [form.getAttribute("action") || ""];
    Array.prototype.forEach.call(form.elements, function (f) {
      if (f.type === "hidden" && f.name && f.name !== "csrf") {
        parts.push(f.name + "=" + f.value);
      }
    });
    return parts.join("&");
  }

  function refusalBesideItsForm() {
    var key = askedBy;
    askedBy = null;
    var flash = document.querySelector("#tablet > .flash, #phone > .flash");
    if (!flash || key === null) { return; }
    var form = Array.prototype.find.call(document.querySelectorAll("form"), function (f) {
      return formKey(f) === key;
    });
    if (!form) { return; }
    // A button in a row of buttons: the reason goes under the row, not inside it.
    var place = form.closest(".choices, .actions") || form;
    place.insertAdjacentElement("afterend", flash);
  }

  function keepHolding() {
    var button = held && document.querySelector('[data-reveal="' + held + '"]');
    if (button) { show(button, true); }
  }

  document.addEventListener("htmx:afterSwap", function (e) {
    keepHolding();
    restore(keptBeforeSwap);
    keptBeforeSwap = null;
    var asked = e.detail && e.detail.requestConfig;
    if (asked && asked.verb === "post") { tapSent = 0; }
    if (asked && asked.verb === "post" && !byClock(asked.elt)) {
      refusalBesideItsForm();
      keepRefusal();
    } else {
      showKeptRefusal();
    }
    // The game begins at the top of the screen ("Ann's turn"), not where the lobby was scrolled.
    if (asked && asked.verb === "post" && /\/start$/.test(asked.path || "") && document.querySelector("#seats")) {
      window.scrollTo(0, 0);
    }
    settle(document.querySelector("#tablet, #phone"));
    layout();
    buzz();
    var config = e.detail && e.detail.requestConfig;
    if (config && config.verb === "post") { moveFocus(); }
  });

  // After a tap the button is gone: focus goes to the new screen's first question, so a
  // keyboard or screen-reader user stays in place.
  function moveFocus() {
    var target = document.querySelector("#alert:not([hidden]) h2, .prompt h3, .prompt h2");
    if (target) { target.setAttribute("tabindex", "-1"); target.focus({ preventScroll: true }); }
  }

  // An open fold marked data-keep stays open through a reload of the page too: this tab
  // remembers the keys of its open folds (a key names one question, so it never opens another).
  function openFolds() {
    try { return JSON.parse(window.sessionStorage.getItem("open-folds") || "[]"); } catch (err) { return []; }
  }
  function keepFolds(folds) {
    var keys = openFolds();
    folds.forEach(function (el) {
      var key = el.getAttribute("data-keep");
      keys = keys.filter(function (k) { return k !== key; });
      if (el.open) { keys.push(key); }
    });
    try { window.sessionStorage.setItem("open-folds", JSON.stringify(keys.slice(-20))); } catch (err) { /* private mode */ }
  }
  document.addEventListener("toggle", function (e) {
    var el = e.target;
    if (leaving || !el.matches || !el.matches("details[data-keep]")) { return; }
    keepFolds([el]);
  }, true);
  // A toggle event comes a moment after its fold opened, so a reload right after the tap could
  // go first: as the page goes (or the phone's screen goes off), every fold's state is written
  // down, then the secrets are hidden. Hiding closes the secret folds; that closing is not the
  // player's, so it is not written down.
  var leaving = false;
  function leave() {
    if (!leaving) { keepFolds(Array.prototype.slice.call(document.querySelectorAll("details[data-keep]"))); }
    leaving = true;
    hideSecrets();
  }
  // A phone's "Steal ▸" opened by its player (its targets under the actions), or its secret
  // options ("Show the Contessa", "Concede"), are brought into sight: on a small screen they
  // would open below the fold. Only on the player's tap: a live update that keeps them open
  // leaves the page where it is.
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest("#phone :is(details.targets, details.secret) > summary");
    if (!summary) { return; }
    window.requestAnimationFrame(function () {
      if (summary.parentElement.open) { summary.parentElement.scrollIntoView({ block: "nearest" }); }
    });
  });
  // When a phone's screen turns to a decision of its own ("It's you"), the page is brought to
  // it: the screen came as the page was scrolled before (outside tester: the gold panel was
  // above the screen). Once per decision (its buzz key), only where it is not wholly in sight,
  // and never under a finger on the screen: a player scrolling is left where they scroll to.
  var decisionSeen = null;
  var fingers = 0;
  ["touchstart", "touchend", "touchcancel"].forEach(function (type) {
    document.addEventListener(type, function (e) { fingers = e.touches.length; }, { passive: true, capture: true });
  });
  function phoneDecision() { return document.querySelector("#phone > #alert[data-buzz]"); }
  function decisionKey(alert) { return alert ? alert.getAttribute("data-buzz") : null; }
  function decisionInView() {
    var alert = phoneDecision(), key = decisionKey(alert);
    if (key === decisionSeen) { return; }
    decisionSeen = key;
    if (!alert || fingers > 0) { return; }
    var r = alert.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) { alert.scrollIntoView({ block: "start" }); }
  }
  document.addEventListener("DOMContentLoaded", function () {
    decisionSeen = decisionKey(phoneDecision());
  });
  function forgetFold(key) {
    var keys = openFolds().filter(function (k) { return k !== key; });
    try { window.sessionStorage.setItem("open-folds", JSON.stringify(keys)); } catch (err) { /* private mode */ }
  }
  function reopenFolds() {
    var keys = openFolds();
    document.querySelectorAll("details[data-keep]").forEach(function (el) {
      if (keys.indexOf(el.getAttribute("data-keep")) >= 0) { el.open = true; }
    });
  }

  // A half-made choice in a form marked data-keep (the card drawn, the cards ticked to keep)
  // survives a reload too: this tab stores the form's fields as they change, under this
  // screen's address and the form's key (which holds the turn, so a stale choice never fills
  // a later question), and forgets them once the form is sent.
  function storedForms() {
    try { return JSON.parse(window.sessionStorage.getItem("kept-forms") || "{}") || {}; } catch (err) { return {}; }
  }
  function storeForms(forms) {
    var keys = Object.keys(forms).slice(-20);  // a tab remembers a few questions, not a night
    var kept = {};
    keys.forEach(function (k) { kept[k] = forms[k]; });
    try { window.sessionStorage.setItem("kept-forms", JSON.stringify(kept)); } catch (err) { /* private mode */ }
  }
  function formSlot(form) { return location.pathname + "#" + form.getAttribute("data-keep"); }
  function rememberForm(e) {
    var form = e.target && e.target.form;
    if (!form || !form.matches("form[data-keep]")) { return; }
    var forms = storedForms();
    delete forms[formSlot(form)];  // re-added last: the newest stays within the few kept
    forms[formSlot(form)] = snapshot()[form.getAttribute("data-keep")];
    storeForms(forms);
  }
  function forgetForm(form) {
    var forms = storedForms();
    if (form && forms[formSlot(form)]) { delete forms[formSlot(form)]; storeForms(forms); }
  }
  function refillForms() {
    var forms = storedForms();
    var kept = {};
    document.querySelectorAll("form[data-keep]").forEach(function (form) {
      var entry = forms[formSlot(form)];
      if (entry) { kept[form.getAttribute("data-keep")] = entry; }
    });
    restore(kept);
  }
  document.addEventListener("change", rememberForm);
  document.addEventListener("submit", function (e) {  // a plain form (htmx's: beforeRequest)
    if (!e.defaultPrevented) { forgetForm(e.target); }
  });

  // -- an empty field says so in the page's language ------------------------------------
  // A required field left empty made the browser say so in its own words and language
  // ("Please select an item in the list." on a Russian phone). Each carries the page's own
  // (data-invalid, filled by the server), given to the browser as the field is found
  // invalid; a choice made takes them back from every field of its name (a radio group).
  document.addEventListener("invalid", function (e) {
    var field = e.target;
    if (!field.getAttribute || !field.getAttribute("data-invalid")) { return; }
    field.setCustomValidity("");
    if (!field.validity.valid) { field.setCustomValidity(field.getAttribute("data-invalid")); }
  }, true);
  function answered(e) {
    var field = e.target;
    if (!field.form || !field.getAttribute("data-invalid")) { return; }
    Array.prototype.forEach.call(field.form.elements, function (other) {
      if (other.name === field.name && other.setCustomValidity) { other.setCustomValidity(""); }
    });
  }
  document.addEventListener("input", answered, true);
  document.addEventListener("change", answered, true);

  document.addEventListener("DOMContentLoaded", function () { reopenFolds(); refillForms(); layout(); buzz(); });

  // -- A refusal stays in sight until the next tap, or for a while ------------------------
  // A live update replaces the whole screen, the refusal with it: the reason a tap was refused
  // is shown again on each new screen for REFUSAL_MS (body's data-refusal-ms), at the top when
  // its form is gone, until this device taps again. Then it goes, the one the answer brought
  // too; a tap on it puts it away at once (it floats over the bar: nothing under it is lost).
  var tapSent = 0;  // when this device's tap left, or 0 once its answer came
  var keptRefusal = null;  // {text, until}

  function tapOnItsWay() {
    return tapSent !== 0 && Date.now() - tapSent < 15000;  // a lost answer doesn't block for ever
  }

  function refusalMs() {
    var ms = parseInt(document.body.getAttribute("data-refusal-ms") || "", 10);
    return isNaN(ms) ? 10000 : ms;
  }

  function keepRefusal() {
    var flash = document.querySelector("#tablet .flash, #phone .flash");
    keptRefusal = flash ? { text: flash.textContent, until: Date.now() + refusalMs(), place: placeRefusal(flash) } : null;
    if (flash) { window.setTimeout(dropKeptRefusal, refusalMs()); }
  }

  // The reason floats over the top of the screen (app.css). It hides nothing the player must
  // act on: a button or a fold (a link leads away and can wait), the phone's decision timer,
  // nor the lines of the phone's alert ("It's you", what to do). Where the top has one of
  // those and the foot none, it floats at the foot; where both have, it is one line over the
  // top (.brief), the rest on a tap. It stays where it is put while it is kept.
  function coversATap(flash) {
    var f = flash.getBoundingClientRect();
    var taps = document.querySelectorAll(":is(#tablet, #phone) :is(button, summary, .countdown, .alert:not([hidden]) > *)");
    return Array.prototype.some.call(taps, function (b) {
      var r = b.getBoundingClientRect();
      return !flash.contains(b) && !(b.disabled && !b.hasAttribute("data-settling")) && r.width > 0 &&
        r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom;
    });
  }
  var PLACES = ["", "foot", "brief", "brief foot"];
  function putRefusal(flash, place) {
    flash.classList.toggle("foot", place.indexOf("foot") >= 0);
    flash.classList.toggle("brief", place.indexOf("brief") >= 0);
  }
  function placeRefusal(flash) {
    var place = PLACES.find(function (p) { putRefusal(flash, p); return !coversATap(flash); });
    if (place === undefined) { place = "brief"; putRefusal(flash, place); }
    return place;
  }

  function dropKeptRefusal() {
    if (keptRefusal && Date.now() < keptRefusal.until) { return; }
    keptRefusal = null;
    document.querySelectorAll("#tablet .flash, #phone .flash").forEach(function (f) { f.remove(); });
  }

  document.addEventListener("click", function (e) {
    var flash = e.target.closest && e.target.closest("#tablet .flash, #phone .flash");
    if (!flash) { return; }
    if (flash.classList.contains("brief")) {  // the first tap reads it whole, the next puts it away
      flash.classList.remove("brief");
      if (keptRefusal) { keptRefusal.place = keptRefusal.place.replace("brief", "").trim(); }
      return;
    }
    keptRefusal = null; flash.remove();
  });
  document.addEventListener("DOMContentLoaded", keepRefusal);  // a plain form's refused answer

  function showKeptRefusal() {
    var root = document.querySelector("#tablet, #phone");
    if (!root || !keptRefusal || Date.now() >= keptRefusal.until || root.querySelector(".flash")) {
      return;
    }
    var flash = document.createElement("p");
    flash.className = "flash";
    flash.setAttribute("data-kept", "");  // already announced (role=alert) when it came
    flash.textContent = keptRefusal.text;
    putRefusal(flash, keptRefusal.place);
    var above = root.querySelector(":scope > header.bar") || root.querySelector(":scope > [data-refresh]");
    if (above) { above.insertAdjacentElement("afterend", flash); } else { root.prepend(flash); }
  }

  // The decision timer's time-out (night.js) is sent by the page, not tapped: the reason a
  // person's tap was refused stays in sight through it, as through a live update.
  function byClock(form) { return !!(form && form.matches && form.matches("form[data-timeout]")); }

  // A tap that failed on the way: fetch the screen as it is (so nothing dropped is kept).
  function tapFailed() { tapSent = 0; refresh(); }
  document.addEventListener("htmx:sendError", tapFailed);
  document.addEventListener("htmx:responseError", tapFailed);

  // While a request is on its way, its buttons can't be tapped twice.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.target.closest && e.target.closest("form");
    if (form && (form.getAttribute("hx-post") || "") !== "") {
      tapSent = Date.now();
    }
    if (form && (form.getAttribute("hx-post") || "") !== "" && !byClock(form)) {
      askedBy = formKey(form);
      keptRefusal = null;
    }
    if (form && form.matches("form[data-keep]")) { forgetForm(form); }
    if (form) {
      form.querySelectorAll("button").forEach(function (b) {
        b.disabled = true; b.setAttribute("data-sending", "");  // on its way: not refused
      });
    }
  });
})();
