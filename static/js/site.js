// Small page helpers for every page. Everything here is optional: pages work without it.
(function () {
  "use strict";

  // The language switcher submits as soon as a language is picked. It returns to the page as
  // it is now: htmx may have changed the address (a new hand, a link followed) since the page
  // was rendered, so `next` is refreshed from the location just before sending.
  // Chosen with the arrow keys on the closed box, it waits for Enter or for the focus to leave
  // the box (found by an audit: the first arrow key reloaded the page in Hebrew).
  var langKeyAt = 0;
  function sendLanguage(select) {
    var was = null;
    for (var i = 0; i < select.options.length; i++) if (select.options[i].defaultSelected) was = select.options[i].value;
    if (select.value === was) return;
    var next = select.form.elements.namedItem("next");
    if (next) next.value = window.location.pathname + window.location.search;
    select.form.submit();
  }
  document.addEventListener("keydown", function (event) {
    var select = event.target;
    if (!select || select.id !== "lang-select" || !select.form) return;
    if (event.key === "Enter") { event.preventDefault(); sendLanguage(select); return; }
    if (event.key !== "Tab") langKeyAt = Date.now();
  });
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select || select.id !== "lang-select" || !select.form) return;
    if (Date.now() - langKeyAt < 1000) return;
    sendLanguage(select);
  });
  document.addEventListener("focusout", function (event) {
    var select = event.target;
    if (select && select.id === "lang-select" && select.form && Date.now() - langKeyAt < 60000) sendLanguage(select);
  });

  // A button that cannot be taken back (leave the club, remove a member, close a table, end a
  // session) asks first: its form's data-confirm is the question. Without the script the button
  // acts at once, as before.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);

  // A form posted once is not posted again while its answer loads (a second tap on a slow
  // phone would give chips twice or schedule a night twice). Forms the page sends itself
  // (htmx, the table's chat: their handlers stop the browser's own sending) are left alone; the
  // guard lifts after a few seconds (a download answers without leaving the page) and when the
  // page comes back from the browser's history.
  window.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form || !form.getAttribute || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.hasAttribute("hx-post")) return;
    if (form.hasAttribute("data-posting")) { event.preventDefault(); return; }
    form.setAttribute("data-posting", "");
    setTimeout(function () { form.removeAttribute("data-posting"); }, 6000);
  });
  window.addEventListener("pageshow", function () {
    var busy = document.querySelectorAll("form[data-posting]");
    for (var i = 0; i < busy.length; i++) busy[i].removeAttribute("data-posting");
  });

  // A form that reloads the page to answer (give chips, ask for chips, schedule a night) and is
  // refused comes back empty: what was typed is kept for the page that answers, and put back
  // (its <details> opened) when that page says what was wrong. Forms marked data-keep only;
  // never a password.
  var KEPT = "pp-kept-form";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form || !form.hasAttribute || !form.hasAttribute("data-keep")) return;
    var fields = [];
    for (var i = 0; i < form.elements.length; i++) {
      var el = form.elements[i];
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "password" || el.type === "file" || el.type === "submit") continue;
      fields.push([el.name, el.type === "radio" || el.type === "checkbox" ? (el.checked ? el.value : null) : el.value, el.type]);
    }
    try {
      window.sessionStorage.setItem(KEPT, JSON.stringify({ action: form.getAttribute("action"), fields: fields, at: Date.now() }));
    } catch (e) { /* private mode: nothing kept */ }
  });
  function putBack() {
    var raw = null;
    try { raw = window.sessionStorage.getItem(KEPT); window.sessionStorage.removeItem(KEPT); } catch (e) { return; }
    if (!raw || !document.querySelector(".message--error")) return;  // nothing kept, or it went through
    var kept;
    try { kept = JSON.parse(raw); } catch (e) { return; }
    if (!kept || Date.now() - kept.at > 120000) return;
    var forms = document.querySelectorAll("form[data-keep]"), form = null;
    for (var i = 0; i < forms.length; i++) if (forms[i].getAttribute("action") === kept.action) form = forms[i];
    if (!form) return;
    kept.fields.forEach(function (f) {
      var els = form.querySelectorAll("[name='" + f[0].replace(/'/g, "") + "']");
      for (var j = 0; j < els.length; j++) {
        var el = els[j];
        if (el.type === "radio" || el.type === "checkbox") { if (f[2] === el.type && f[1] !== null) el.checked = el.value === f[1]; }
        else if (f[1] !== null) el.value = f[1];
      }
    });
    for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", putBack); else putBack();

  // The four-colour deck: a box on the table page turns it on and off for every page in this
  // browser (static/js/early.js applies the choice before the page is drawn, so nothing flickers).
  function syncDeckBoxes() {
    var boxes = document.querySelectorAll("[data-deck-four]"), on = document.documentElement.classList.contains("deck-four");
    for (var i = 0; i < boxes.length; i++) boxes[i].checked = on;
  }
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box || !box.hasAttribute || !box.hasAttribute("data-deck-four")) return;
    document.documentElement.classList.toggle("deck-four", box.checked);
    try { window.localStorage.setItem("pp-deck", box.checked ? "four" : "two"); } catch (e) { /* private mode */ }
    syncDeckBoxes();
  });
  syncDeckBoxes();
  document.addEventListener("htmx:load", syncDeckBoxes);

  // "Copy" next to a text to take away (a session's results for the group's chat): the text
  // goes to the clipboard and the button says so for a moment.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var box = button.parentNode.querySelector("[data-share-text]");
    if (!box) return;
    var done = function () {
      var was = button.textContent;
      button.textContent = button.getAttribute("data-copied-text") || was;
      setTimeout(function () { button.textContent = was; }, 2000);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(box.value).then(done, function () { box.select(); });
    } else {
      box.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* selected: the reader copies it */ }
    }
  });

  // "Share" beside the same text, where the phone has a share sheet (a link goes as a link, the
  // results as text): hidden where there is none.
  function showShare() {
    if (!navigator.share) return;
    var buttons = document.querySelectorAll("[data-share][hidden]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }
  showShare();
  document.addEventListener("htmx:load", showShare);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button || !navigator.share) return;
    var box = button.parentNode.querySelector("[data-share-text]");
    if (!box) return;
    var what = box.tagName === "INPUT" ? { url: box.value } : { text: box.value };
    navigator.share(what).catch(function () { /* the reader closed the sheet */ });
  });

  // A new-table form: choosing the game sets the seats to that game's usual number (a full
  // ring for Hold'em, three for Patch-Patch), until the host picks a number themselves.
  document.addEventListener("change", function (event) {
    var field = event.target, form = field && field.form;
    if (!form || !form.hasAttribute("data-seat-defaults")) return;
    var seats = form.elements.namedItem("max_seats");
    if (!seats) return;
    if (field === seats) { seats.setAttribute("data-chosen", ""); return; }
    if (field.name !== "game" || seats.hasAttribute("data-chosen")) return;
    var usual;
    try { usual = JSON.parse(form.getAttribute("data-seat-defaults"))[field.value]; } catch (e) { return; }
    if (usual) seats.value = String(usual);
  });

  // The reader's time zone, for the server to write times in (club/middleware.py): the cookie
  // is set once (and again if the zone changes, say after a trip), and counts from the next page.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    var had = (document.cookie.match(/(?:^|;\s*)tz=([^;]*)/) || [])[1];
    // Zone names are letters, digits, "_", "-", "+" and "/": safe in a cookie as they are.
    if (zone && /^[A-Za-z0-9_+\-\/]+$/.test(zone) && had !== zone) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
      // The first page of a first visit was written in UTC: one that shows times (a game
      // night's hour, a statement) is loaded again at once in the reader's zone, when its
      // offset from UTC now (<meta name="utc-offset">, seconds) is not the reader's; once per visit.
      var offsetMeta = document.querySelector('meta[name="utc-offset"]'), drawn = offsetMeta && offsetMeta.getAttribute("content");
      if (drawn !== null && +drawn !== -new Date().getTimezoneOffset() * 60 && document.querySelector("time[datetime]") &&
          window.sessionStorage && !sessionStorage.getItem("tz-redrawn")) {
        sessionStorage.setItem("tz-redrawn", zone);
        if (window.location.hash) window.location.reload();
        else window.location.replace(window.location.href);  // a GET: never a form sent again
      }
    }
  } catch (e) { /* no Intl: times stay in UTC */ }
})();
