// The live table client: one websocket, server-rendered fragments, a countdown, taps and keys.
// Every server message is a full snapshot of what this viewer may see, stamped with the table
// version; older ones are ignored, and a reconnect always starts with a fresh snapshot.
(function () {
  "use strict";
  var app = document.getElementById("table-app");
  if (!app) return;
  var root = document.getElementById("table-root");
  var toast = document.getElementById("table-toast");
  var version = parseInt(root.getAttribute("data-version") || "-1", 10);
  var deadline = null;
  var selected = null;
  var pickedGroup = null;  // Patch-Patch: the board whose four is to be swapped with another's
  var socket = null;
  var retry = 500;
  var invite = new URLSearchParams(window.location.search).get("invite");

  function wsUrl() {
    var proto = window.location.protocol === "https:" ? "wss://" : "ws://";
    // presence=1: this page marks the seats of players who are away (see markAway).
    var url = proto + window.location.host + app.getAttribute("data-ws") + "?presence=1";
    if (invite) url += "&invite=" + encodeURIComponent(invite);
    return url;
  }

  var reconnectTimer = null, probeTimer = null, heardAt = Date.now();
  // Silence longer than this on an open socket is checked with a ping (see tick), answered
  // within PING_ANSWER_MS or the page opens a new socket.
  var QUIET_MS = 6000, PING_ANSWER_MS = 4000;
  var ended = false, lastError = "";
  function connect() {
    clearTimeout(reconnectTimer);
    clearTimeout(probeTimer);  // the new socket gets its own wait when it opens
    probeDue = 0;
    if (ended) return;
    pre = preAmount = null;  // a new socket: what was picked before may be for a turn already taken
    var mine = socket = new WebSocket(wsUrl()), heard = false;
    // Open is not enough: the table's picture comes first on every new socket, and "Reconnecting…"
    // stays until it does (a socket that opens and carries nothing is tried again).
    socket.onopen = function () { retry = 500; expectAnswer(8000); };
    socket.onmessage = function (ev) {
      if (mine !== socket) return;  // a socket given up on (see wakeUp)
      heard = true;
      unheard = 0;
      clearTimeout(probeTimer);
      probeDue = 0;
      heardAt = Date.now();
      app.classList.remove("offline");  // a socket that carries messages is a live one
      if (ev.data === '{"type":"pong"}') return;  // alive; not the answer to an action (see tick)
      answered();
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "state") {
        applyState(msg);
        if (msg.chat) { addChat(msg.chat.lines, true); setMuted(msg.chat.muted); }
      } else if (msg.type === "chat") { addChat(msg.lines, false); if (msg.muted) setMuted(msg.muted); }
      else if (msg.type === "chat_deleted") removeChat(msg.id);
      else if (msg.type === "chat_muted") setMuted(null, msg);
      else if (msg.type === "presence") { away = msg.away || []; markAway(); }
      else if (msg.type === "error") { lastError = msg.message || ""; showToast(msg.message); chatRefused(); }
    };
    socket.onclose = function (ev) {
      if (mine !== socket) return;
      // The server closed this page's socket for good: the viewer was removed from the club, or
      // a new invite link shut the old one out (4403), or they logged out (4401). Trying again
      // would only be refused; the page says so and stops (found by an audit: a removed player
      // was left with live-looking buttons under an endless "Reconnecting…").
      if (ev && (ev.code === 4403 || ev.code === 4401)) { endTable(ev.code); return; }
      if (!heard && ++unheard % 3 === 0) checkThePage();
      app.classList.add("offline");
      clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  // Sockets that close before their first message, three in a row: the server may be down (then
  // trying again is right) or refusing this page now (a name it no longer answers at, a table
  // gone). The page itself is asked; refused, it is reloaded, and the server's own page says why
  // (found by an audit: a server restarted without the phones' address left them on an endless
  // "Reconnecting…").
  var unheard = 0;
  function checkThePage() {
    if (!window.fetch) return;
    fetch(location.href, {credentials: "same-origin", cache: "no-store", redirect: "manual"}).then(function (r) {
      if (r.status >= 400 && r.status < 500 && r.status !== 429) location.reload();
    }, function () { /* no answer: the server is down, and the retries go on */ });
  }

  function endTable(code) {
    ended = true;
    clearTimeout(reconnectTimer);
    clearTimeout(probeTimer);
    // The host panel (or its hidden slot) asks the server every few seconds: no more, for a page
    // that follows the table no longer (found by an audit: a removed member's page went on asking).
    var panel = document.getElementById("host-panel");
    if (panel) panel.remove();
    app.classList.remove("offline");
    app.classList.add("ended");
    var controls = app.querySelectorAll("button, input, select, textarea");
    for (var i = 0; i < controls.length; i++) controls[i].disabled = true;
    var note = document.createElement("p");
    note.className = "table-ended";
    note.setAttribute("role", "alert");
    note.textContent = (lastError || app.getAttribute("data-ended-text") || "") + " ";
    var link = document.createElement("a");
    if (code === 4401) {
      link.href = app.getAttribute("data-login-href") || "/";
      link.textContent = app.getAttribute("data-login-text") || "Log in";
    } else {
      link.href = app.getAttribute("data-leave-href") || "/";
      link.textContent = app.getAttribute("data-leave-text") || "Back";
    }
    note.appendChild(link);
    app.insertBefore(note, app.firstChild);
  }

  // A phone that slept, or changed networks, may come back to a socket that is gone (its close
  // not yet noticed, or a retry many seconds away) or one that looks open and carries nothing.
  // Back in sight or back online: a closed socket reconnects at once; an open one is asked for a
  // fresh picture, and if nothing comes within a few seconds a new socket replaces it.
  function wakeUp() {
    if (document.hidden || ended) return;
    if (!socket || socket.readyState === 2 || socket.readyState === 3) {
      retry = 500;
      connect();
      return;
    }
    if (socket.readyState !== 1) return;  // still connecting
    try { socket.send(JSON.stringify({ action: "snapshot" })); } catch (e) { /* the timer below decides */ }
    expectAnswer(4000);
  }

  // A socket that looks open but carries nothing (a phone between cell towers; found by an
  // audit: a tap into one was lost without a word and the clock folded the player): whatever
  // is sent must be answered within a few seconds (every action, a refusal too, brings a
  // message), or the page says it is reconnecting and opens a new socket, which brings the
  // table as it is now.
  // (Waits long enough for a busy server: at 500 tables every answer took a second or two.)
  // A wait already running is never pushed back by a later question (found by a test: a ping
  // then the clock's snapshot request then a ping again kept the page from noticing for 16 s).
  var probeDue = 0;
  function expectAnswer(ms) {
    if (ended) return;
    var due = Date.now() + (ms || 5000);
    if (probeDue && probeDue <= due) return;
    clearTimeout(probeTimer);
    probeDue = due;
    probeTimer = setTimeout(function () {
      probeDue = 0;
      var dead = socket;
      app.classList.add("offline");
      retry = 500;
      connect();
      try { dead.close(); } catch (e) { /* already gone */ }
    }, ms || 5000);
  }
  document.addEventListener("visibilitychange", wakeUp);
  window.addEventListener("online", wakeUp);
  // The browser knows it lost the network: say so at once, not when the socket gives up.
  window.addEventListener("offline", function () { app.classList.add("offline"); });
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) wakeUp(); });

  function applyState(msg) {
    if (typeof msg.version === "number" && msg.version < version) return;
    version = msg.version;
    // Baseball: a free card for an open 4 that was not on the table before flies in.
    var before = {}, extras = root.querySelectorAll(".card--extra[data-card]"), i;
    for (i = 0; i < extras.length; i++) before[extras[i].getAttribute("data-card")] = true;
    var oldFelt = root.querySelector(".felt"), tallBefore = oldFelt ? oldFelt.offsetHeight : 0;
    var seatsBefore = seatWords(), winsBefore = winWords(), boardsBefore = boardWords();
    var levelBefore = levelInPlay(), phaseBefore = feltPhase(), handBefore = handKey(), madeBefore = madeWords();
    var timedOutBefore = !!root.querySelector(".panel__hint--timeout"), upBefore = upCards();
    var focused = focusKey(document.activeElement), idle = !document.activeElement || document.activeElement === document.body;
    var typed = typedAmount();
    // A card or a four picked to swap stays picked through another player's move (every swap
    // or "Done" at the table draws the table again; found by an audit: the pick vanished and
    // the next tap did something else).
    var pickedCard = selected && selected.getAttribute("data-swap");
    var pickedBoard = pickedGroup && pickedGroup.getAttribute("data-swap-group");
    root.innerHTML = msg.html;
    followRunout();
    extras = root.querySelectorAll(".card--extra[data-card]");
    for (i = 0; i < extras.length; i++) {
      if (!before[extras[i].getAttribute("data-card")]) extras[i].classList.add("card--arrived");
    }
    root.setAttribute("data-version", String(version));
    deadline = msg.deadline ? msg.deadline * 1000 : null;
    selected = pickedCard ? root.querySelector('.is-arranging [data-swap="' + pickedCard + '"]') : null;
    if (selected) { selected.classList.add("picked"); selected.setAttribute("aria-pressed", "true"); }
    pickedGroup = pickedBoard ? root.querySelector('.is-arranging [data-swap-group="' + pickedBoard + '"]') : null;
    if (pickedGroup) pickedGroup.setAttribute("aria-pressed", "true");
    tick();
    // Browsers refuse to vibrate before the page has been touched (and say so in the console).
    var touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    var acted = usePreAction(msg);  // the turn is answered at once: no buzz, chime or scroll
    keepTypedAmount(typed, msg.my_turn && !acted && phaseBefore === feltPhase());
    // A turn for a screen reader and the keyboard: one that came, or a new street or phase with
    // the player still to act (Patch-Patch's betting after their arrangement; a street they open
    // after closing the last one; found by an audit: "Your turn" was never said there).
    var turnNews = msg.my_turn && !acted && (!myTurn || phaseBefore !== feltPhase());
    if (msg.my_turn && !acted && navigator.vibrate && touched) { try { navigator.vibrate(30); } catch (e) { /* ignore */ } }
    if (msg.my_turn && !myTurn && !acted) { bringTheTableIntoView(); chime("turn"); }
    else if (msg.my_turn && myTurn && !acted) {
      // Still this player's turn, and the table grew (someone sat down): their cards may have
      // slipped under the bar.
      var newFelt = root.querySelector(".felt");
      if (newFelt && newFelt.offsetHeight > tallBefore + 4) bringTheTableIntoView();
    }
    if (msg.deadline !== warnedFor) warned = false;  // a new clock: warn again near its end
    // (What each four makes: after a swap only, not when the flops come: their cards are said.)
    var news = [blindsUp(levelBefore), newHandWords(handBefore),
      phaseBefore === "arrange" && feltPhase() === "arrange" ? madeNews(madeBefore) : ""];
    if (handKey() === handBefore) news.push(upNews(upBefore));  // a new hand: its own words above
    var timedOut = root.querySelector(".panel__hint--timeout");
    if (timedOut && !timedOutBefore) news.push(timedOut.textContent.replace(/\s+/g, " ").trim());
    announce(seatsBefore, winsBefore, boardsBefore, turnNews, msg, news);
    giveFocusBack(focused, idle, turnNews);
    myTurn = !!msg.my_turn;
    markTheTab();
    followTerms();
    fitAddChips();
    followFreeSeats();
    followMySeat();
    markChosenSeat();
    markAway();
  }

  // For a screen reader (a visually hidden live region, templates/table.html): what the other
  // players just did, read from their seats ("Bob: raise, bet 60", "Dana: folded"), the
  // winners when a hand ends, and "Your turn" with the buttons it offers. Sighted players see
  // the same on the felt; nothing here is new information.
  var announcer = document.getElementById("table-announce");
  function seatWords() {
    var out = {}, seats = root.querySelectorAll(".seat[data-user]:not(.seat--me)");
    for (var i = 0; i < seats.length; i++) {
      var s = seats[i], status = s.querySelector(".seat__status"), bet = s.querySelector(".seat__bet");
      var name = s.querySelector(".seat__name");
      if (!status || s.classList.contains("seat--acting")) continue;  // its clock: not an act
      var words = status.textContent.replace(/\s+/g, " ").trim();
      if (!words) continue;
      out[s.getAttribute("data-user")] = (name ? name.textContent.trim() : "") + ": " + words +
        (bet ? ", " + bet.textContent.replace(/\s+/g, " ").trim() : "");
    }
    return out;
  }
  function winWords() {
    var wins = root.querySelectorAll(".win, .scoop"), out = [];
    for (var i = 0; i < wins.length; i++) {
      // Patch-Patch: which board each line is about (found by an audit: three lines, no board).
      var board = wins[i].closest(".board"), title = board && board.querySelector(".board__title");
      out.push((title ? title.textContent.trim() + ": " : "") + wins[i].textContent.replace(/\s+/g, " ").trim());
    }
    return out.join(". ");
  }
  // The shared cards of each board ("Board 2: Ace of spades, ..."), by the board's title; the
  // player's own cards under a board are not read again.
  function boardWords() {
    var out = {}, boards = root.querySelectorAll(".board");
    for (var i = 0; i < boards.length; i++) {
      var title = boards[i].querySelector(".board__title"), labels = [];
      var faces = boards[i].querySelectorAll(".board__cards .card__face[aria-label], .board--single > .cards .card__face[aria-label]");
      for (var j = 0; j < faces.length; j++) labels.push(faces[j].getAttribute("aria-label"));
      if (title && labels.length) out[title.textContent.trim()] = labels.join(", ");
    }
    return out;
  }
  // The hand's latest act by another player ("Carol: call", msg.last), numbered by the acts so far
  // (msg.last_n): said when the seats no longer show it (the act ended a round, which clears them).
  var lastActN = null;
  function announce(seatsBefore, winsBefore, boardsBefore, turnCame, msg, news) {
    if (!announcer) return;
    var lines = (news || []).filter(Boolean), now = seatWords(), wins = winWords(), boards = boardWords();
    for (var user in now) if (now[user] !== seatsBefore[user]) lines.push(now[user]);
    var last = msg && msg.last, firstPicture = lastActN === null;
    if (last && msg.last_n !== lastActN && !firstPicture) {
      var who = last.slice(0, last.indexOf(":") + 1), said = false;
      for (var k = 0; k < lines.length; k++) if (lines[k].indexOf(who) === 0) said = true;
      if (!said) lines.unshift(last);
    }
    if (msg) lastActN = msg.last_n || 0;
    for (var title in boards) if (boards[title] !== boardsBefore[title]) lines.push(title + ": " + boards[title]);
    if (wins && wins !== winsBefore) lines.push(wins);
    if (turnCame) {
      var buttons = root.querySelectorAll(".panel [data-action]:not([data-action=sit_out]):not(.act--straddle):not(.act--run-twice), .panel [data-sized-go], .panel [data-draw]"), labels = [];
      for (var i = 0; i < buttons.length; i++) {
        var b = buttons[i], label = b.getAttribute("aria-label");
        if (!label) {  // the words, without the key's <kbd>
          label = "";
          for (var n = b.firstChild; n; n = n.nextSibling) if (n.nodeName !== "KBD") label += n.textContent;
        }
        label = label.replace(/\s+/g, " ").trim();
        if (label) labels.push(label);
      }
      lines.push((announcer.getAttribute("data-turn-text") || "Your turn") + (labels.length ? ": " + labels.join(", ") : ""));
    }
    if (lines.length) announcer.textContent = lines.join(". ");
  }

  // An all-in's run-out is dealt street by street by the style sheet (table.css, "run-out"). A
  // felt drawn again during it (another message of the same hand) goes on from where it was,
  // not from the first card: the seconds since this page first drew this hand's run-out.
  var runoutHand = null, runoutAt = 0;
  function followRunout() {
    if (!root.querySelector(".felt[data-runout]")) { root.style.removeProperty("--runout-elapsed"); return; }
    var hand = handKey(), now = Date.now();
    if (hand !== runoutHand) { runoutHand = hand; runoutAt = now; }
    root.style.setProperty("--runout-elapsed", ((now - runoutAt) / 1000).toFixed(3) + "s");
  }
  followRunout();

  // A seated player with no table page open anywhere ("presence" messages, by user id) is
  // marked "away" on their seat, so the others know why a clock runs down. Every picture is
  // marked again: it is drawn without it.
  var away = [];
  function markAway() {
    var seats = root.querySelectorAll(".seat[data-user]"), i;
    for (i = 0; i < seats.length; i++) {
      var seat = seats[i], gone = away.indexOf(parseInt(seat.getAttribute("data-user"), 10)) >= 0;
      var badge = seat.querySelector(".badge--away");
      seat.classList.toggle("seat--away", gone);
      if (gone && !badge) {
        badge = document.createElement("span");
        badge.className = "badge badge--away";
        badge.textContent = app.getAttribute("data-away-text") || "away";
        badge.title = app.getAttribute("data-away-title") || "";
        var slot = seat.querySelector(".seat__badges");
        if (slot) slot.insertBefore(badge, slot.firstChild); else seat.appendChild(badge);
      } else if (!gone && badge) {
        badge.parentNode.removeChild(badge);
      }
    }
  }

  // A page drawn for a seated player whose seat is gone (their chips ran out in a freeze-out, a
  // host stood them up) hides its "Leave the table" and "Add chips" and says so, with a link
  // that loads the page again (the way to sit comes with it). While a freeze-out is played
  // ("p.freezeout" on the felt) "Add chips" gives way to a line saying why, both ways live.
  function followMySeat() {
    var leave = document.querySelector("form.leave"), note = document.querySelector("[data-unseated]");
    if (!leave || !note || !root.querySelector(".seat")) return;
    var gone = !root.querySelector(".seat--me");
    var frozen = !!root.querySelector("p.freezeout");
    leave.hidden = gone;
    note.hidden = !gone || !!root.querySelector("[data-table-closed]");  // nothing to sit down at again
    // Dealt into the hand being played: leaving folds it, so the page asks first (site.js reads
    // data-confirm; found by an audit: a tap while facing a raise folded at once).
    var me = root.querySelector(".seat--me");
    if (me && me.hasAttribute("data-dealt") && !root.querySelector(".phase-over")) leave.setAttribute("data-confirm", leave.getAttribute("data-confirm-in-hand") || "");
    else leave.removeAttribute("data-confirm");
    var add = document.querySelector("form.add-chips");
    if (add) add.hidden = gone || frozen;
    var frozenNote = document.querySelector("[data-freezeout-note]");
    if (frozenNote) frozenNote.hidden = gone || !frozen;
    // What only a seated player has: the turn's sound and keys, and at a public table the chat's
    // box (found by an audit: after standing up all three stayed, and the box refused each line).
    var toggles = document.querySelectorAll("#table-sound, #table-keys");
    for (var i = 0; i < toggles.length; i++) toggles[i].closest("label").hidden = gone;
    var chatForm = document.querySelector("[data-chat-needs-seat]"), chatNote = document.querySelector("[data-chat-seat-note]");
    if (chatForm && chatNote) {
      chatForm.hidden = gone;
      chatNote.hidden = !gone;
    }
  }

  // A full table hides the way to sit and says so; the picture's empty seats bring it back the
  // moment one opens (no reload), and the "Seat" box offers only the seats still free.
  function followFreeSeats() {
    var form = document.querySelector("form[data-needs-free-seat]");
    var free = {}, empties = root.querySelectorAll(".seat--empty[data-seat]"), i;
    var note = document.querySelector("[data-table-full]");
    // A closed table's seats are all empty, and none is to be taken (found by an audit: a
    // watcher was told "A seat is open" as the host closed the table, and offered a sit form).
    if (root.querySelector("[data-table-closed]")) {
      var ways = document.querySelectorAll("form.sit:not(.add-chips), #sit, [data-table-full]");
      for (i = 0; i < ways.length; i++) ways[i].hidden = true;
      return;
    }
    if (note && root.querySelector(".seat")) note.hidden = empties.length > 0;
    if (!form) return;
    for (i = 0; i < empties.length; i++) free[empties[i].getAttribute("data-seat")] = true;
    var opened = form.hidden && empties.length > 0;
    form.hidden = empties.length === 0;
    if (opened) {  // a watcher at a full table: a seat just opened
      showToast(app.getAttribute("data-seat-open-text") || "A seat is open.", false, true);  // good news, not red
      seatOpened = true;
      markTheTab();
    } else if (form.hidden) {
      seatOpened = false;
      markTheTab();
    }
    if (seatChoice) {
      var names = seatNames();
      for (i = 0; i < seatChoice.options.length; i++) {
        var opt = seatChoice.options[i];
        if (!opt.value) continue;
        opt.disabled = !free[opt.value];
        if (names) {
          var text = seatLabel(+opt.value, names);
          if (text && opt.textContent !== text) opt.textContent = text;
        }
      }
      if (seatChoice.value && !free[seatChoice.value]) seatChoice.value = "";
    }
  }

  // Who sits where, in seat order, from the picture ("" for an empty seat); null if the picture
  // has no seats drawn yet.
  function seatNames() {
    var lis = root.querySelectorAll(".seats > li");
    if (!lis.length) return null;
    var out = [];
    for (var i = 0; i < lis.length; i++) {
      var name = lis[i].classList.contains("seat--empty") ? null : lis[i].querySelector(".seat__name");
      out.push(name ? (name.getAttribute("title") || name.textContent || "").trim() : "");
    }
    return out;
  }

  // "seat 3, after Alice": the nearest player before the seat, going round the table.
  function seatLabel(no, names) {
    var n = names.length, after = "";
    for (var k = 1; k < n && !after; k++) after = names[((no - k) % n + n) % n];
    var tpl = after ? seatChoice.getAttribute("data-label-after") : seatChoice.getAttribute("data-label");
    if (!tpl) return "";
    return tpl.replace("{n}", String(no + 1)).replace("{name}", after);
  }

  // "Check/fold", "Check" or "Call n" picked before the turn: sent when the turn comes, if it
  // still fits (a check where checking is allowed, else, for check/fold, a fold; a call only if
  // the call is still n). It is for this hand's next decision only: it goes once used, when it
  // no longer fits (a bet makes "Check" go, a raise changes "Call n"), or when the hand changes.
  // It is also this street's only, and this socket's: a page that was away (a phone's socket
  // lost) may have missed the turn it was for, which the player took on another device (found by
  // an audit: a "Check/fold" ticked on a phone folded a later street's bet after the player had
  // called from a laptop).
  var pre = null, preAmount = null, preHand = null, prePhase = null;
  function handKey() { var c = root.querySelector(".commitment code"); return c ? c.getAttribute("title") : ""; }
  function markPre() {
    var group = root.querySelector(".pre");
    if (pre && group) {  // still waiting for the turn: is the choice still on offer, as it was?
      var still = group.querySelector('[data-pre="' + pre + '"]');
      if (!still || (pre === "call" && still.getAttribute("data-amount") !== preAmount)) pre = preAmount = null;
    }
    var btns = root.querySelectorAll("[data-pre]");
    for (var i = 0; i < btns.length; i++) btns[i].setAttribute("aria-pressed", btns[i].getAttribute("data-pre") === pre ? "true" : "false");
  }
  function usePreAction(msg) {
    if (pre && (handKey() !== preHand || feltPhase() !== prePhase)) pre = preAmount = null;
    if (pre && msg.my_turn && !root.querySelector("[data-draw]")) {
      var kind = pre, amount = preAmount, check = root.querySelector(".panel .act--check"),
        fold = root.querySelector(".panel .act--fold"), call = root.querySelector(".panel .act--call");
      pre = preAmount = null;
      var sent = false;
      if (kind === "call") {
        if (call && call.getAttribute("data-amount") === amount) sent = send({ action: "call" });
      } else if (check) sent = send({ action: "check" });
      else if (kind === "check_fold" && fold) sent = send({ action: "fold" });
      markPre();
      return sent;
    }
    markPre();
    return false;
  }

  // A host may change the stakes and speed, and the game (from the next hand): the picture
  // carries the ones being played, and the page's header and buy-in boxes follow them without a
  // reload.
  function followTerms() {
    var felt = root.querySelector(".felt[data-big-blind]");
    if (!felt) return;
    var set = function (sel, text) { var el = document.querySelector(sel); if (el && text && el.textContent !== text) el.textContent = text; };
    set("[data-table-stakes]", felt.getAttribute("data-stakes"));
    set("[data-table-speed]", felt.getAttribute("data-speed"));
    set("[data-table-game]", felt.getAttribute("data-game"));  // dealer's choice
    var rulesLink = document.querySelector("[data-table-rules]"), rulesHref = felt.getAttribute("data-rules");
    if (rulesLink && rulesHref && rulesLink.getAttribute("href") !== rulesHref) rulesLink.setAttribute("href", rulesHref);
    var straddles = document.querySelector("[data-table-straddles]");  // a host allowed or stopped them
    if (straddles) straddles.hidden = felt.getAttribute("data-straddles") !== "on";
    var twice = document.querySelector("[data-table-run-twice]");  // running it twice allowed or not
    if (twice) twice.hidden = felt.getAttribute("data-run-twice") !== "on";
    var rabbit = document.querySelector("[data-table-rabbit]");  // rabbit hunting allowed or not
    if (rabbit) rabbit.hidden = felt.getAttribute("data-rabbit") !== "on";
    var bounty = document.querySelector("[data-table-seven-deuce]");  // the seven-deuce bounty, or none
    if (bounty) {
      var each = felt.getAttribute("data-seven-deuce") || "";
      bounty.hidden = !each;
      if (each) set("[data-table-seven-deuce-amount]", each);
    }
    var bb = parseInt(felt.getAttribute("data-big-blind"), 10);
    if (!(bb > 0)) return;
    if (addChips && addChips.getAttribute("data-max-bb")) {
      var old = parseInt(addChips.getAttribute("data-big-blind"), 10);
      if (old !== bb) {
        var maxBb = parseInt(addChips.getAttribute("data-max-bb"), 10);
        var buyIn = Math.round((parseInt(addChips.getAttribute("data-buy-in"), 10) || 0) / old * bb);
        addChips.setAttribute("data-big-blind", String(bb));
        addChips.setAttribute("data-high", String(maxBb * bb));
        addChips.setAttribute("data-buy-in", String(Math.min(buyIn, maxBb * bb)));
        addChips.removeAttribute("data-typed");
      }
    }
    var buy = document.getElementById("buy-in");
    if (buy && parseInt(buy.getAttribute("data-big-blind"), 10) !== bb) {
      var n = function (name) { return parseInt(buy.getAttribute(name), 10) || 0; };
      var low = n("data-min-bb") * bb, high = n("data-max-bb") * bb, want = n("data-default-bb") * bb;
      var bankroll = buy.getAttribute("data-bankroll");
      if (bankroll !== "" && bankroll !== null) want = Math.min(want, parseInt(bankroll, 10));
      buy.setAttribute("data-big-blind", String(bb));
      buy.min = String(low); buy.max = String(high);
      buy.value = String(Math.max(low, Math.min(high, want)));
      set("[data-buy-in-range]", chips(low) + "\u2013" + chips(high));
    }
  }

  // The "Add chips" box (the page's, not the picture's) follows the live stack: it offers to
  // fill the stack up to the table's most (a buy-in after going broke) and is off, saying why,
  // while the stack is at the most. An amount the player typed is kept while it still fits.
  var addChips = document.getElementById("add-chips");
  if (addChips) addChips.addEventListener("input", function () { addChips.setAttribute("data-typed", "1"); });
  function fitAddChips() {
    var me = root.querySelector(".seat--me[data-stack]");
    if (!addChips || !me) return;
    var num = function (el, name) { return parseInt(el.getAttribute(name), 10) || 0; };
    var stack = num(me, "data-stack"), bb = num(addChips, "data-big-blind");
    var room = Math.max(0, Math.min(num(addChips, "data-high") - stack, num(addChips, "data-bankroll")));
    var form = addChips.form, full = form.querySelector(".add-chips__full"), wait = form.querySelector(".add-chips__wait");
    var dealt = me.hasAttribute("data-dealt");  // in the hand being played: after it ends
    // Under the table's minimum buy-in, a stack comes back to it at least (services.table_add_chips).
    var need = Math.max(1, num(addChips, "data-low") - stack), low = form.querySelector(".add-chips__low");
    var short = room > 0 && need > room;  // the bankroll cannot bring it there
    addChips.disabled = room <= 0 || dealt || short;
    form.querySelector("button[type=submit]").disabled = room <= 0 || dealt || short;
    if (full) full.hidden = room > 0;
    if (low) low.hidden = !short;
    if (wait) wait.hidden = !dealt || room <= 0 || short;
    if (room <= 0 || short) { addChips.value = ""; addChips.removeAttribute("data-typed"); return; }
    addChips.max = String(room);
    addChips.min = String(need);
    var typed = addChips.getAttribute("data-typed") === "1", amount = parseInt(addChips.value, 10);
    if (!typed || !(amount >= need && amount <= room)) {
      addChips.value = String(stack < bb ? Math.max(need, Math.min(room, num(addChips, "data-buy-in"))) : room);
      addChips.removeAttribute("data-typed");
    }
  }

  // A phone: while betting, the bar is pinned to the bottom of the screen and can cover the
  // player's own cards. When the turn comes, scroll down just enough for the bottom of the table
  // (the cards and the bar's own place) to be in sight; a player who scrolled further down to
  // read something stays there, unless the bar is out of sight above the screen. A table taller
  // than the screen (six seats) lets its top row go out of sight rather than the player's own
  // cards; but Patch-Patch, whose hands lie under three boards that never all fit above the bar,
  // keeps the seats and pot in sight.
  var myTurn = false;
  function bringTheTableIntoView() {
    // A phone either way up: narrow, or short (turned sideways).
    if (!window.matchMedia || !window.matchMedia("(max-width: 760px), (max-height: 500px)").matches) return;
    var felt = root.querySelector(".felt");
    if (!felt) return;
    var r = felt.getBoundingClientRect();
    var by = r.bottom - window.innerHeight + 8;  // > 0: the table's foot (the bar) is under the screen
    if (by > 0) {
      if (felt.classList.contains("family-pp")) by = Math.min(by, r.top - 8);
      if (by <= 0) return;
    } else if (felt.classList.contains("family-pp") && r.top < -8) {
      // Patch-Patch with the table's top above the screen (the player scrolled down to "Done"
      // and the flop betting came): a decision needs the three boards, so back up to the
      // table's top, or as far as keeps the bar in sight (found by an audit).
      by = Math.max(r.top - 8, r.bottom - window.innerHeight + 8);
      if (by >= 0) return;
    } else {
      // Scrolled further down (the chat, the last hands): the player stays there while the bar
      // is in sight; when it is not (above the screen's top), back up until the bar sits at
      // the foot of the screen, never past the table's top.
      var panel = felt.querySelector(".panel");
      if (!panel || panel.getBoundingClientRect().top >= 0) return;
      by = Math.max(by, r.top - 8);
      if (by >= 0) return;
    }
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({ top: by, behavior: still ? "auto" : "smooth" });
  }

  // Another tab in front: the page's title says the player is to act, or that a seat opened at
  // the full table they watch ("● " before it), until the page is looked at again.
  var plainTitle = document.title, seatOpened = false;
  // A seat on a break (a clock ran out, or the player asked for one) keeps "⏸ " before the
  // title until "I'm back", in front or not: a multi-tabler sees which table is waiting for them
  // (found by an audit: after a timeout in a background tab the title went back to plain).
  function markTheTab() {
    if (!document.hidden) seatOpened = false;  // seen
    var onBreak = !!root.querySelector('[data-action="im_back"]');
    var want = (myTurn || seatOpened) && document.hidden ? "\u25CF " + plainTitle
      : onBreak ? "\u23F8 " + plainTitle : plainTitle;
    if (document.title !== want) document.title = want;
  }
  document.addEventListener("visibilitychange", markTheTab);

  function send(obj) {
    if (ended) return false;
    if (!socket || socket.readyState !== 1 || navigator.onLine === false) { showToast(app.getAttribute("data-offline-text") || "Reconnecting…"); return false; }
    obj.version = version;
    socket.send(JSON.stringify(obj));
    expectAnswer();
    return true;
  }

  // A button sent stays quiet until the table answers (found by an audit: a double tap on a
  // phone sent the action twice, and the second was refused with "The table has moved on",
  // which read as if the first had failed). A few seconds at most, whatever happens.
  var sending = 0;
  function sendOnce(obj) {
    if (sending && Date.now() - sending < 3000) return false;
    if (!send(obj)) return false;
    sending = Date.now();
    app.classList.add("sending");
    return true;
  }
  function answered() {
    if (!sending) return;
    sending = 0;
    app.classList.remove("sending");
  }

  // Keyboard and screen-reader players (found by an audit): every picture replaces the table's
  // markup, which dropped the focus to the page's body and an amount being typed back to the
  // smallest. The control that had the focus gets it back in the new picture (the same button,
  // card or box); one that is gone (the player's own action was answered) leaves the focus on
  // the table, or on the action bar when the turn comes. Focus outside the table (the chat, a
  // form) is never taken. An amount typed or picked is kept while the turn and its box last.
  var FOCUS_KEYS = ["data-size-input", "data-size-range", "data-sized-go", "data-size-preset", "data-action",
    "data-pre", "data-swap", "data-swap-group", "data-discard", "data-draw"];
  function focusKey(el) {
    if (!el || el === document.body || !root.contains(el)) return null;
    for (var i = 0; i < FOCUS_KEYS.length; i++) {
      if (!el.hasAttribute(FOCUS_KEYS[i])) continue;
      var v = el.getAttribute(FOCUS_KEYS[i]);
      return "[" + FOCUS_KEYS[i] + (v ? '="' + v.replace(/["\\]/g, "\\$&") + '"' : "") + "]";
    }
    return "";  // in the table, on nothing to find again
  }
  function giveFocusBack(key, idle, turnCame) {
    if (key === null && !(idle && turnCame)) return;
    var el = key ? root.querySelector(key) : null;
    if (el && !el.disabled && el.offsetParent !== null) { el.focus({ preventScroll: true }); return; }
    var place = (turnCame && root.querySelector(".panel")) || root.querySelector(".felt") || root;
    place.setAttribute("tabindex", "-1");
    place.focus({ preventScroll: true });
  }
  var sizeTyped = false;  // the player typed, slid or picked an amount for this turn
  function typedAmount() {
    var box = sizeTyped && root.querySelector("[data-sized]"), input = box && box.querySelector("[data-size-input]");
    return input ? { kind: box.getAttribute("data-sized"), value: input.value } : null;
  }
  function keepTypedAmount(typed, stillMine) {
    var box = typed && stillMine ? root.querySelector('[data-sized="' + typed.kind + '"]') : null;
    var input = box && box.querySelector("[data-size-input]");
    if (!input) { sizeTyped = false; return; }
    var v = /^[0-9]+$/.test(String(typed.value).trim()) ? parseInt(typed.value, 10) : NaN;
    if (v >= parseInt(input.min, 10) && v <= parseInt(input.max, 10)) setSize(box, String(v));
    else input.value = typed.value;  // half typed: left as it was, the button checks it when pressed
  }
  function feltPhase() {
    var felt = root.querySelector(".felt"), m = felt && /(?:^|\s)phase-(\S+)/.exec(felt.className);
    return m ? m[1] : "";
  }
  // A new hand, for a screen reader: "New hand. Your cards: ..." (the player's own, face up to
  // them; nothing for a watcher). Patch-Patch while arranging: what each board's four makes
  // after a swap ("Board 2: Flush").
  function newHandWords(handBefore) {
    var now = handKey();
    if (!now || now === handBefore || !announcer) return "";
    var faces = root.querySelectorAll(".seat--me .card:not(.card--back) > .card__face[aria-label], .board__mine .card__face[aria-label]");
    var seen = {}, names = [];
    for (var i = 0; i < faces.length; i++) {
      var name = faces[i].getAttribute("aria-label");
      if (!seen[name]) { seen[name] = true; names.push(name); }
    }
    if (!names.length) return "";
    return (announcer.getAttribute("data-new-hand-text") || "New hand. Your cards") + ": " + names.join(", ");
  }
  // Stud: the up cards each seat is dealt, street by street ("Bob is dealt queen of spades"; found
  // by an audit: a screen reader heard the checks and bets but never the cards).
  function upCards() {
    var out = {}, seats = root.querySelectorAll(".seat[data-user]"), i, j;
    for (i = 0; i < seats.length; i++) {
      var faces = seats[i].querySelectorAll(".seat__stud > .cards .card__face[aria-label]"), labels = [];
      for (j = 0; j < faces.length; j++) labels.push(faces[j].getAttribute("aria-label"));
      var name = seats[i].querySelector(".seat__name");
      if (labels.length) out[seats[i].getAttribute("data-user")] = { name: name ? name.textContent.trim() : "", cards: labels };
    }
    return out;
  }
  function upNews(before) {
    var now = upCards(), lines = [], tpl = (announcer && announcer.getAttribute("data-dealt-text")) || "{name} is dealt {cards}";
    for (var user in now) {
      var had = before[user] ? before[user].cards : [], got = now[user].cards;
      if (got.length <= had.length || had.join("|") !== got.slice(0, had.length).join("|")) continue;
      lines.push(tpl.replace("{name}", now[user].name).replace("{cards}", got.slice(had.length).join(", ")));
    }
    return lines.join(". ");
  }
  function madeWords() {
    var out = {}, boards = root.querySelectorAll(".board"), i;
    for (i = 0; i < boards.length; i++) {
      var title = boards[i].querySelector(".board__title"), made = boards[i].querySelector(".board__made");
      if (title && made) out[title.textContent.trim()] = made.textContent.replace(/\s+/g, " ").trim();
    }
    return out;
  }
  function madeNews(before) {
    if (!root.querySelector(".is-arranging")) return "";
    var now = madeWords(), lines = [];
    for (var title in now) if (now[title] && now[title] !== before[title]) lines.push(title + ": " + now[title]);
    return lines.join(". ");
  }

  // Blinds on a clock: when the level rises under the player's eyes, say so once ("Blinds up:
  // level 3, blinds 15/30"), in a toast and to a screen reader (the line under the pot changes
  // quietly otherwise). Not on the first picture, nor when the clock was just started.
  function levelInPlay() {
    var line = root.querySelector(".levels[data-level]");
    return line ? parseInt(line.getAttribute("data-level"), 10) || 0 : 0;
  }
  function blindsUp(before) {
    var line = root.querySelector(".levels[data-level]");
    if (!line || !before || levelInPlay() <= before) return "";
    var words = line.getAttribute("data-level-up") || "";
    if (words) showToast(words, false, true);
    return words;
  }

  function showToast(text, chat, news) {
    if (!toast) return;
    toast.textContent = text;
    toast.classList.toggle("toast--chat", !!chat);
    toast.classList.toggle("toast--news", !!news);
    toast.hidden = false;
    clearTimeout(showToast.timer);
    showToast.timer = setTimeout(function () { toast.hidden = true; }, 4000);
  }

  // "12s", "12 с", "12 ש׳": the page's own language (templates/table.html, data-seconds).
  var seconds = app.getAttribute("data-seconds") || "{n}s";
  // Tenths of a second with the language's decimal mark: Russian writes "5,7 с" (an audit).
  var decimalComma = (document.documentElement.lang || "").slice(0, 2) === "ru";
  function tenths(x) {
    var text = x.toFixed(1);
    return decimalComma ? text.replace(".", ",") : text;
  }

  var probedFor = null, pingedAt = 0;
  function tick() {
    var clocks = root.querySelectorAll("[data-clock]");
    var left = deadline ? Math.max(0, (deadline - Date.now()) / 1000) : null;
    // A quiet table is asked every few seconds whether it is still there: a socket that died
    // without the phone noticing (Wi-Fi to mobile data) otherwise showed an old table until the
    // player's own clock had nearly run out (found by an audit: the turn showed 36 s late).
    if (socket && socket.readyState === 1 && !document.hidden && !ended
        && Date.now() - heardAt > QUIET_MS && Date.now() - pingedAt > QUIET_MS) {
      pingedAt = Date.now();
      try { socket.send('{"action":"ping"}'); } catch (e) { /* the timer decides */ }
      expectAnswer(PING_ANSWER_MS);
    }
    // A clock run out some seconds ago and not a word from the table since: the table has moved
    // on (the timeout was applied) and this socket did not carry it. Ask, once per clock.
    if (deadline && probedFor !== deadline && Date.now() - deadline > 5000 && Date.now() - heardAt > 5000
        && socket && socket.readyState === 1 && !document.hidden) {
      probedFor = deadline;
      try { socket.send(JSON.stringify({ action: "snapshot" })); } catch (e) { /* the timer decides */ }
      expectAnswer();
    }
    for (var i = 0; i < clocks.length; i++) {
      clocks[i].textContent = left === null ? "" : seconds.replace("{n}", left >= 10 ? Math.ceil(left) : tenths(left));
      clocks[i].classList.toggle("urgent", left !== null && left < 6);
    }
    // Blinds on a clock: the time left in the level ("12:04"), then "from the next hand".
    var level = root.querySelector("[data-level-ends]");
    if (level) {
      var rest = Math.max(0, Math.ceil(parseInt(level.getAttribute("data-level-ends"), 10) - Date.now() / 1000));
      var clock = level.querySelector(".level-clock"), due = root.querySelector("[data-level-due]");
      if (clock) clock.textContent = Math.floor(rest / 60) + ":" + ("0" + (rest % 60)).slice(-2);
      if (due && (rest === 0) !== !due.hidden) { due.hidden = rest > 0; level.hidden = rest === 0; }
    }
    if (myTurn && left !== null && left > 0 && left <= HURRY_SECONDS && !warned) {
      warned = true;
      warnedFor = deadline / 1000;
      chime("hurry");
      if (announcer) announcer.textContent = (announcer.getAttribute("data-hurry-text") || "{n} seconds left").replace("{n}", String(Math.ceil(left)));
    }
  }
  setInterval(tick, 200);

  // Sound: a short chime (drawn by the browser, no file) when the player's turn comes, and a
  // quicker one when their own clock is down to its last seconds. On unless the player turned it
  // off (kept in this browser). Browsers play sound only after the page has been touched, so the
  // audio starts with the first tap or key; the page counts every chime it asked for
  // (data-chimes on #table-app), which is what the browser tests read.
  var HURRY_SECONDS = 5, warned = false, warnedFor = null, audio = null, soundOn = true;
  var soundBox = document.getElementById("table-sound");
  try { soundOn = window.localStorage.getItem("pp-sound") !== "off"; } catch (e) { /* private mode */ }
  if (soundBox) {
    soundBox.checked = soundOn;
    soundBox.addEventListener("change", function () {
      soundOn = soundBox.checked;
      try { window.localStorage.setItem("pp-sound", soundOn ? "on" : "off"); } catch (e) { /* ignore */ }
      if (soundOn) chime("turn");  // what it sounds like
    });
  }
  function unlockAudio() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (audio || !Ctx) return;
    try { audio = new Ctx(); } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, true);
  document.addEventListener("keydown", unlockAudio, true);
  // A page reached by a tap (sitting down reloads the page) may make sound at once: without this
  // the first turn's chime was silent until the page was touched again (found by an audit).
  if (navigator.userActivation && navigator.userActivation.hasBeenActive) unlockAudio();
  // The switch is the same in every tab of the table(s): turned off in one, off in all.
  window.addEventListener("storage", function (ev) {
    if (ev.key === "pp-sound") {
      soundOn = ev.newValue !== "off";
      if (soundBox) soundBox.checked = soundOn;
    }
  });
  function chime(kind) {
    if (!soundOn || !soundBox) return;  // only a seated player's page has the switch
    app.setAttribute("data-chimes", String((parseInt(app.getAttribute("data-chimes") || "0", 10) || 0) + 1));
    app.setAttribute("data-last-chime", kind);
    if (!audio && navigator.userActivation && navigator.userActivation.hasBeenActive) unlockAudio();
    app.setAttribute("data-audio", audio ? "made" : "none");  // for the browser tests
    if (!audio) return;
    try {
      if (audio.state === "suspended") audio.resume();
      var t = audio.currentTime, notes = kind === "hurry" ? [880, 880, 880] : [660, 990];
      for (var i = 0; i < notes.length; i++) {
        var start = t + i * 0.15, osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = notes[i];
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.13);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(start);
        osc.stop(start + 0.14);
      }
    } catch (e) { /* no sound, no harm */ }
  }

  // Choosing a seat before sitting down: a tap on an empty seat picks it in the "Seat" box
  // (the box lists the free seats too); the chosen seat stays marked across pictures.
  var seatChoice = document.getElementById("seat-choice");
  function markChosenSeat() {
    if (!seatChoice) return;
    var seats = root.querySelectorAll(".seat[data-seat]");
    for (var i = 0; i < seats.length; i++) {
      seats[i].classList.toggle("seat--chosen", seats[i].getAttribute("data-seat") === seatChoice.value);
    }
  }
  // With no box to choose in (one free seat, or a visitor not logged in), a tap on an empty seat
  // brings the way to sit into view (found by an audit: on a phone it was far below the felt and
  // the tap did nothing).
  var sitForm = document.querySelector("form.sit:not(.add-chips)") || document.getElementById("sit");
  if (seatChoice) seatChoice.addEventListener("change", markChosenSeat);
  if (seatChoice || sitForm) root.classList.add("can-choose-seat");

  root.addEventListener("click", function (ev) {
    var empty = ev.target.closest(".seat--empty[data-seat]");
    if (empty && seatChoice) {
      var no = empty.getAttribute("data-seat");
      if (seatChoice.querySelector('option[value="' + no + '"]')) {
        seatChoice.value = no;
        markChosenSeat();
        seatChoice.focus();
      }
      return;
    }
    if (empty && sitForm && !sitForm.hidden) {
      var first = sitForm.querySelector("input:not([type=hidden]), button, a");
      sitForm.scrollIntoView({block: "center"});
      if (first) first.focus({preventScroll: true});
      return;
    }
    var preBtn = ev.target.closest("[data-pre]");
    if (preBtn) {
      ev.preventDefault();
      var kind = preBtn.getAttribute("data-pre");
      pre = pre === kind ? null : kind;
      preAmount = pre ? preBtn.getAttribute("data-amount") : null;
      preHand = handKey();
      prePhase = feltPhase();
      markPre();
      return;
    }
    var btn = ev.target.closest("[data-action]");
    if (btn && !btn.disabled) {
      ev.preventDefault();
      sendOnce({ action: btn.getAttribute("data-action") });
      return;
    }
    var group = ev.target.closest("[data-swap-group]");
    if (group) {
      ev.preventDefault();
      tapGroup(group);
      return;
    }
    var card = ev.target.closest("[data-swap]");
    if (card) {
      ev.preventDefault();
      tapCard(card);
      return;
    }
    var discard = ev.target.closest("[data-discard]");
    if (discard) {
      ev.preventDefault();
      discard.setAttribute("aria-pressed", discard.getAttribute("aria-pressed") === "true" ? "false" : "true");
      drawLabel();
      return;
    }
    if (ev.target.closest("[data-draw]")) {
      ev.preventDefault();
      var picked = root.querySelectorAll('[data-discard][aria-pressed="true"]');
      var cards = [];
      for (var i = 0; i < picked.length; i++) cards.push(picked[i].getAttribute("data-discard"));
      sendOnce({ action: "draw", cards: cards });
      return;
    }
    // A quick size ("½ pot", "Pot", ...) only fills in the amount: the Bet/Raise button sends it.
    var preset = ev.target.closest("[data-size-preset]");
    if (preset) {
      ev.preventDefault();
      setSize(preset.closest("[data-sized]"), preset.getAttribute("data-size-preset"));
      sizeTyped = true;
      return;
    }
    var go = ev.target.closest("[data-sized-go]");
    if (go) {
      ev.preventDefault();
      var box = go.closest("[data-sized]"), input = box.querySelector("[data-size-input]");
      // Only a whole number of chips in range is sent (found by an audit: an empty box sent no
      // amount, which the table took as the smallest raise, and "12.5" went as 12).
      var typed = String(input.value).trim(), low = parseInt(input.min, 10), high = parseInt(input.max, 10);
      var amount = /^[0-9]+$/.test(typed) ? parseInt(typed, 10) : NaN;
      if (isNaN(amount) || amount < low || amount > high) {
        showToast((app.getAttribute("data-amount-text") || "{min}-{max}").replace("{min}", chips(low)).replace("{max}", chips(high)));
        input.focus();
        return;
      }
      sendOnce({ action: box.getAttribute("data-sized"), amount: amount });
    }
  });

  // An amount as the page's language writes it (1,500 / 1 500), as the server draws the labels.
  var grouping = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(document.documentElement.lang || undefined) : null;
  function chips(v) {
    var n = parseInt(v, 10);
    return grouping && !isNaN(n) ? grouping.format(n) : String(v);
  }

  // Bet sizing (no-limit and pot-limit): the slider, the number box, the button's amount and
  // the quick size that matches it move together.
  function setSize(box, v, from) {
    var range = box.querySelector("[data-size-range]"), num = box.querySelector("[data-size-input]");
    if (from !== range) range.value = v;
    if (from !== num) num.value = v;
    box.querySelector("[data-size-show]").textContent = chips(v);
    var allIn = box.querySelector("[data-size-allin]");  // " · all-in" while it is the whole stack
    if (allIn) allIn.hidden = String(v) !== allIn.getAttribute("data-at");
    var presets = box.querySelectorAll("[data-size-preset]");
    for (var i = 0; i < presets.length; i++) {
      presets[i].setAttribute("aria-pressed", presets[i].getAttribute("data-size-preset") === String(v) ? "true" : "false");
    }
  }
  root.addEventListener("input", function (ev) {
    var box = ev.target.closest("[data-sized]");
    if (box) { setSize(box, ev.target.value, ev.target); sizeTyped = true; }
  });
  // Enter in the amount box bets or raises it, as the button beside it does.
  root.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || !ev.target.hasAttribute || !ev.target.hasAttribute("data-size-input")) return;
    var go = ev.target.closest("[data-sized]").querySelector("[data-sized-go]");
    if (go && !go.disabled) { ev.preventDefault(); go.click(); }
  });

  // Five-card draw: the button says what it will do, "Stand pat" or "Draw 2", as cards are picked.
  function drawLabel() {
    var button = root.querySelector("[data-draw]"), label = button && button.querySelector("[data-draw-label]");
    if (!label) return;
    var n = root.querySelectorAll('[data-discard][aria-pressed="true"]').length;
    label.textContent = n ? (button.getAttribute("data-label-some") || "{n}").replace("{n}", n)
                          : button.getAttribute("data-label-none");
  }

  // Patch-Patch: ⇅ on one board, then on another, swaps the viewer's fours on them whole (one
  // "arrange" with the twelve cards in their new order, as the boards show them).
  function tapGroup(btn) {
    if (selected) { selected.classList.remove("picked"); selected.setAttribute("aria-pressed", "false"); selected = null; }
    if (pickedGroup === btn) {
      btn.setAttribute("aria-pressed", "false");
      pickedGroup = null;
      return;
    }
    if (!pickedGroup) {
      pickedGroup = btn;
      btn.setAttribute("aria-pressed", "true");
      return;
    }
    var a = parseInt(pickedGroup.getAttribute("data-swap-group"), 10) - 1;
    var b = parseInt(btn.getAttribute("data-swap-group"), 10) - 1;
    pickedGroup.setAttribute("aria-pressed", "false");
    pickedGroup = null;
    var shown = root.querySelectorAll(".boards [data-swap]"), order = [], i;
    if (shown.length !== 12) return;
    for (i = 0; i < 12; i++) order.push(shown[i].getAttribute("data-swap"));
    var swapped = order.slice();
    for (i = 0; i < 4; i++) {
      swapped[4 * a + i] = order[4 * b + i];
      swapped[4 * b + i] = order[4 * a + i];
    }
    send({ action: "arrange", order: swapped });
  }

  function tapCard(card) {
    if (pickedGroup) { pickedGroup.setAttribute("aria-pressed", "false"); pickedGroup = null; }
    if (selected && selected !== card) {
      var a = selected.getAttribute("data-swap"), b = card.getAttribute("data-swap");
      selected.classList.remove("picked");
      selected.setAttribute("aria-pressed", "false");
      selected = null;
      send({ action: "swap", cards: [a, b] });
    } else if (selected === card) {
      card.classList.remove("picked");
      card.setAttribute("aria-pressed", "false");
      selected = null;
    } else {
      selected = card;
      card.classList.add("picked");
      card.setAttribute("aria-pressed", "true");  // a screen reader hears it picked
    }
  }

  // Dragging a card onto another swaps them too.
  root.addEventListener("dragstart", function (ev) {
    var card = ev.target.closest("[data-swap]");
    if (card) ev.dataTransfer.setData("text/plain", card.getAttribute("data-swap"));
  });
  root.addEventListener("dragover", function (ev) {
    if (ev.target.closest("[data-swap]")) ev.preventDefault();
  });
  root.addEventListener("drop", function (ev) {
    var card = ev.target.closest("[data-swap]");
    var from = ev.dataTransfer.getData("text/plain");
    if (card && from && from !== card.getAttribute("data-swap")) {
      ev.preventDefault();
      send({ action: "swap", cards: [from, card.getAttribute("data-swap")] });
    }
  });

  // The table's chat: lines arrive as data and go on the page as text (never as markup). The
  // first picture after a (re)connect carries the last lines; each new line comes on its own.
  // Lines are kept by id, so a line that comes both ways shows once, in order.
  var chatBox = document.getElementById("table-chat");
  var chatList = chatBox && chatBox.querySelector("[data-chat-lines]");
  var chatLines = {};
  var me = chatBox ? chatBox.getAttribute("data-me") : "";
  var moderator = !!(chatBox && chatBox.hasAttribute("data-moderator"));
  // Whom the chat's moderators may mute: anyone but themselves and the table's hosts.
  var hosts = {}, muted = {};
  (chatBox && chatBox.getAttribute("data-hosts") || "").split(" ").forEach(function (id) { if (id) hosts[id] = true; });

  function addChat(lines, history) {
    if (!chatList || !Array.isArray(lines)) return;
    var fresh = [];
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      if (!line || typeof line.id !== "number" || chatLines[line.id]) continue;
      var li = document.createElement("li");
      li.className = "chat__line" + (String(line.user_id) === me ? " chat__line--mine" : "");
      if (String(line.user_id) === me) chatSent = null;  // taken: nothing to give back
      li.setAttribute("data-id", String(line.id));
      var who = document.createElement("bdi");
      who.className = "chat__name";
      who.textContent = String(line.name || "");
      var text = document.createElement("span");
      text.className = "chat__text";
      text.setAttribute("dir", "auto");
      text.textContent = String(line.text || "");
      li.appendChild(who);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(text);
      li.setAttribute("data-user", line.user_id == null ? "" : String(line.user_id));
      lineButtons(li);
      chatLines[line.id] = li;
      var after = null;  // the first line with a larger id: the new one goes before it
      for (var n = chatList.lastElementChild; n; n = n.previousElementSibling) {
        if (parseInt(n.getAttribute("data-id"), 10) > line.id) after = n; else break;
      }
      chatList.insertBefore(li, after);
      if (!history) fresh.push(line);
    }
    while (chatList.children.length > 100) {
      delete chatLines[chatList.firstElementChild.getAttribute("data-id")];
      chatList.removeChild(chatList.firstElementChild);
    }
    showChatEmpty();
    chatList.scrollTop = chatList.scrollHeight;
    // Someone else's new line while the chat is out of sight (a phone, scrolled to the table):
    // shown for a moment, as the table's messages are.
    var box = chatList.getBoundingClientRect();
    var inSight = box.top < window.innerHeight && box.bottom > 0;
    for (var k = 0; k < fresh.length; k++) {
      if (String(fresh[k].user_id) !== me && !inSight && !chatHidden && !ignored[String(fresh[k].user_id)]) showToast(fresh[k].name + ": " + fresh[k].text, true);
    }
  }

  // A line's buttons: "×" on the viewer's own lines (a moderator's: on every line), and "mute"
  // beside anyone a moderator may mute. Drawn again when the viewer becomes or stops being a
  // host (the host controls' refresh says so, below); the server checks again either way.
  function lineButtons(li) {
    var old = li.querySelectorAll(".chat__del, .chat__mute, .chat__ignore");
    for (var j = 0; j < old.length; j++) li.removeChild(old[j]);
    var writer = li.getAttribute("data-user") || "";
    if (me && (writer === me || moderator)) {
      var del = document.createElement("button");
      del.type = "button";
      del.className = "chat__del";
      del.setAttribute("data-chat-delete", li.getAttribute("data-id"));
      del.setAttribute("aria-label", chatBox.getAttribute("data-delete-label") || "Delete");
      del.title = del.getAttribute("aria-label");
      del.textContent = "\u00d7";
      li.appendChild(del);
    }
    // Anyone may hide another player's lines for themselves alone (this browser remembers; found
    // by an audit: at a public table nobody moderates, and "Hide the chat" hid everyone).
    if (writer && writer !== me) labelIgnore(switchButton(li, "ignore", writer));
    li.classList.toggle("chat__line--ignored", !!ignored[writer]);
    if (moderator && writer && writer !== me && !hosts[writer]) labelMute(switchButton(li, "mute", writer));
  }
  function switchButton(li, name, writer) {  // "hide" or "mute" for the line's writer
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = "chat__" + name;
    btn.setAttribute("data-chat-" + name, writer);
    li.appendChild(btn);
    return btn;
  }

  // A club member named host (or no longer one) while the page is open: the host controls'
  // refresh brings the panel (or takes it away), and the chat's powers follow it.
  document.addEventListener("htmx:afterSettle", function () {
    var panel = document.getElementById("host-panel");
    if (!panel || !chatList) return;
    var nowHost = panel.classList.contains("hostpanel");
    if (nowHost === moderator) return;
    moderator = nowHost;
    hosts = {};
    (panel.getAttribute("data-chat-hosts") || "").split(" ").forEach(function (id) { if (id) hosts[id] = true; });
    for (var n = chatList.firstElementChild; n; n = n.nextElementSibling) lineButtons(n);
  });

  var ignored = {};
  try { (window.localStorage.getItem("pp-ignore") || "").split(" ").forEach(function (id) { if (id) ignored[id] = true; }); } catch (e) { /* private mode */ }
  function labelIgnore(btn) { labelToggle(btn, "ignore", !!ignored[btn.getAttribute("data-chat-ignore")]); }
  function setIgnored(who, on) {
    if (on) ignored[who] = true; else delete ignored[who];
    try { window.localStorage.setItem("pp-ignore", Object.keys(ignored).join(" ")); } catch (e) { /* ignore */ }
    for (var n = chatList.firstElementChild; n; n = n.nextElementSibling) {
      if (n.getAttribute("data-user") !== who) continue;
      n.classList.toggle("chat__line--ignored", on);
      var b = n.querySelector("[data-chat-ignore]");
      if (b) labelIgnore(b);
    }
  }

  function labelMute(btn) { labelToggle(btn, "mute", !!muted[btn.getAttribute("data-chat-mute")]); }

  // A line's two switches, "mute" (a host's, for everyone) and "hide" (anyone's, for themselves):
  // the words and title the chat box carries for each state (data-[un]mute-label, ...).
  function labelToggle(btn, name, on) {
    var key = "data-" + (on ? "un" : "") + name;
    btn.textContent = chatBox.getAttribute(key + "-label") || (on ? "un" : "") + name;
    btn.title = chatBox.getAttribute(key + "-title") || "";
    btn.setAttribute("aria-pressed", on ? "true" : "false");
  }

  // Who is muted (``ids``: the whole list from a picture's chat; ``one``: one change).
  function setMuted(ids, one) {
    if (!chatBox) return;
    if (Array.isArray(ids)) { muted = {}; ids.forEach(function (id) { muted[String(id)] = true; }); }
    if (one && one.user_id != null) {
      if (one.muted) muted[String(one.user_id)] = true; else delete muted[String(one.user_id)];
    }
    var buttons = chatBox.querySelectorAll("[data-chat-mute]");
    for (var i = 0; i < buttons.length; i++) labelMute(buttons[i]);
    // The viewer's own box: off, saying why, while a host has them muted.
    var form = chatBox.querySelector("[data-chat-form]"), note = chatBox.querySelector("[data-chat-muted]");
    if (form && me) {
      var off = !!muted[me], controls = form.querySelectorAll("input, button");
      for (var j = 0; j < controls.length; j++) controls[j].disabled = off;
      if (note) note.hidden = !off;
    }
  }

  function showChatEmpty() {  // "Nobody has written anything yet." while the list is empty
    var empty = chatBox.querySelector("[data-chat-empty]");
    if (empty) empty.hidden = chatList.children.length > 0;
  }

  function removeChat(id) {
    var li = chatLines[id];
    if (!li) return;
    delete chatLines[id];
    if (li.parentNode) li.parentNode.removeChild(li);
    showChatEmpty();
  }

  if (chatList) {
    chatList.addEventListener("click", function (ev) {
      var hide = ev.target.closest("[data-chat-ignore]");
      if (hide) {
        ev.preventDefault();
        var whom = hide.getAttribute("data-chat-ignore");
        setIgnored(whom, !ignored[whom]);
        return;
      }
      var mute = ev.target.closest("[data-chat-mute]");
      if (mute) {
        ev.preventDefault();
        var who = mute.getAttribute("data-chat-mute");
        send({ action: "chat_mute", user_id: parseInt(who, 10), muted: !muted[who] });
        return;
      }
      var btn = ev.target.closest("[data-chat-delete]");
      if (!btn) return;
      ev.preventDefault();
      send({ action: "chat_delete", id: parseInt(btn.getAttribute("data-chat-delete"), 10) });
    });
  }

  // A player who wants no chat hides it (this browser remembers): no lines, no box, no pop-ups.
  var chatHidden = false;
  var chatToggle = chatBox && chatBox.querySelector("[data-chat-toggle]");
  function hideChat(hidden) {
    chatHidden = hidden;
    chatBox.classList.toggle("chat--hidden", hidden);
    chatToggle.setAttribute("aria-pressed", hidden ? "true" : "false");
    chatToggle.textContent = chatToggle.getAttribute(hidden ? "data-show-label" : "data-hide-label");
    var note = chatBox.querySelector("[data-chat-hidden-note]");
    if (note) note.hidden = !hidden;
    try { window.localStorage.setItem("pp-chat", hidden ? "hidden" : "shown"); } catch (e) { /* ignore */ }
    if (!hidden && chatList) chatList.scrollTop = chatList.scrollHeight;
  }
  if (chatToggle) {
    try { if (window.localStorage.getItem("pp-chat") === "hidden") hideChat(true); } catch (e) { /* ignore */ }
    chatToggle.addEventListener("click", function () { hideChat(!chatHidden); });
  }

  var chatForm = chatBox && chatBox.querySelector("[data-chat-form]");
  if (chatForm) {
    chatForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var input = chatForm.querySelector("input[name=text]");
      var text = (input.value || "").trim();
      if (!text) return;
      if (send({ action: "chat", text: text })) { input.value = ""; chatSent = { text: text, at: Date.now() }; }
    });
  }
  // A line refused (too many too fast, muted) comes back into the empty box, not lost (an audit).
  var chatSent = null;
  function chatRefused() {
    var input = chatForm && chatForm.querySelector("input[name=text]");
    if (input && chatSent && Date.now() - chatSent.at < 5000 && !input.value) input.value = chatSent.text;
    chatSent = null;
  }

  // Desktop shortcuts: the key is shown on each button (data-key). A player may turn them off
  // (kept in this browser; found by an audit: a stray "f" from speech input or a screen
  // reader's browse mode folded, WCAG 2.1.4).
  var keysOn = true, keysBox = document.getElementById("table-keys");
  try { keysOn = window.localStorage.getItem("pp-keys") !== "off"; } catch (e) { /* private mode */ }
  app.classList.toggle("keys-off", !keysOn);
  if (keysBox) {
    keysBox.checked = keysOn;
    keysBox.addEventListener("change", function () {
      keysOn = keysBox.checked;
      app.classList.toggle("keys-off", !keysOn);
      try { window.localStorage.setItem("pp-keys", keysOn ? "on" : "off"); } catch (e) { /* ignore */ }
    });
  }
  document.addEventListener("keydown", function (ev) {
    if (!keysOn) return;
    if (ev.target && /input|select|textarea/i.test(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // The letter on the key, whatever the keyboard's language (a Hebrew or Russian layout
    // sends other letters in ev.key): ev.code is "KeyF" for the F key in every layout.
    var letter = /^Key[A-Z]$/.test(ev.code || "") ? ev.code.slice(3).toLowerCase() : (ev.key || "").toLowerCase();
    var btn = root.querySelector('[data-key="' + letter + '"]');
    if (btn && !btn.disabled) { ev.preventDefault(); btn.click(); }
  });

  // "You sat down with 1000 chips." and the like: read once, then out of the way (the table
  // page is never reloaded, so a message would otherwise stay on it for the whole session).
  setTimeout(function () {
    var done = document.querySelectorAll(".flash__item:not(.flash__item--error)");
    for (var i = 0; i < done.length; i++) done[i].remove();
  }, 8000);

  // On a phone, a seated player's page opens at the table rather than the site's header: the
  // seats, the board and their own cards are what they came for (the header is a scroll up).
  // Not on a wide screen, nor where the page already moved (a link to a part of it); before the
  // first picture comes, so that a turn's own scroll (above) starts from there.
  if (document.getElementById("table-sound") && window.matchMedia("(max-width: 640px), (max-height: 500px)").matches &&
      window.scrollY < 10 && !window.location.hash) {
    (document.querySelector(".flash") || root).scrollIntoView({ block: "start" });
  }

  connect();

  // The player's other tables (templates/table.html #other-tables): each with "Your turn" when
  // it waits for them, asked every few seconds while this page is in sight, at once when it
  // comes back into sight (found by an audit: a multi-tabler on a phone, where one page is seen
  // at a time, learnt of a turn at another table from nothing but the lobby, seconds late).
  var others = document.getElementById("other-tables");
  if (others && window.fetch) {
    var otherList = others.querySelector("[data-other-list]");
    var current = others.getAttribute("data-current"), otherTimer = null;
    var drawOthers = function (rows) {
      otherList.textContent = "";
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        if (String(rows[i].id) === current) continue;
        var a = document.createElement("a");
        a.href = rows[i].url;
        a.className = "othertables__table" + (rows[i].turn ? " othertables__table--turn" : "");
        var name = document.createElement("bdi");
        name.textContent = rows[i].name;
        a.appendChild(name);
        var note = rows[i].turn ? others.getAttribute("data-turn-text") : rows[i].away ? others.getAttribute("data-away-text") : "";
        if (note) {
          var tag = document.createElement("span");
          tag.className = "othertables__note";
          tag.textContent = note;
          a.appendChild(document.createTextNode(" "));
          a.appendChild(tag);
        }
        otherList.appendChild(a);
        shown++;
      }
      others.hidden = shown === 0;
      others.setAttribute("data-turns", String(rows.filter(function (r) { return r.turn && String(r.id) !== current; }).length));
    };
    var askOthers = function () {
      clearTimeout(otherTimer);
      if (document.hidden || ended) return;
      fetch(others.getAttribute("data-url"), { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { if (data && data.tables) drawOthers(data.tables); })
        .catch(function () { /* asked again below */ })
        .then(function () { otherTimer = setTimeout(askOthers, 4000); });
    };
    document.addEventListener("visibilitychange", function () { if (!document.hidden) askOthers(); });
    askOthers();
  }
})();
