// The lobby's table list refreshes itself when the lobby websocket says something changed.
// Without JavaScript (or without the socket) the list still refreshes every 15 s through htmx,
// and the page's own link reloads it.
(function () {
  "use strict";
  if (window.ppLobbySocket) return; // the page may be swapped in by htmx more than once
  var delay = 1000;

  function list() { return document.getElementById("lobby-list"); }

  function refresh() {
    if (window.htmx && list()) window.htmx.trigger("#lobby-list", "refresh");
  }

  function connect() {
    if (window.ppLobbySocket && window.ppLobbySocket.readyState <= 1) return;  // one socket at a time
    var root = document.querySelector("[data-lobby-socket]");
    if (!root || !("WebSocket" in window)) { window.ppLobbySocket = null; return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + root.getAttribute("data-lobby-socket"));
    window.ppLobbySocket = socket;
    socket.onopen = function () {
      if (delay > 1000) refresh(); // we may have missed changes while away
      delay = 1000;
    };
    socket.onmessage = function (event) {
      var data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data && data.type === "lobby") refresh();
    };
    socket.onclose = function () {
      window.ppLobbySocket = null;
      if (!list()) return; // left the lobby: stay closed
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }

  // Leaving the lobby through an htmx swap: close the socket rather than keep it open.
  document.addEventListener("htmx:afterSettle", function () {
    if (!list() && window.ppLobbySocket) window.ppLobbySocket.close();
  });

  // Back in sight (a phone woken, a tab brought forward): the list as it is now, at once, and a
  // socket again if it was lost meanwhile.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || !list()) return;
    refresh();
    if (!window.ppLobbySocket) { delay = 1000; connect(); }
  });

  // Back and forward through the filter's choices: htmx puts back a copy of the page whose
  // menus show what the page was first drawn with, not what was chosen in it since (found by an
  // audit: "All games" over a list of Hold'em tables). The menus are set from the address, and
  // the list is asked for again, so both say the same.
  function syncFilter() {
    var form = document.querySelector(".lobbyfilter");
    if (!form || !list()) return;
    var params = new URLSearchParams(window.location.search);
    var selects = form.querySelectorAll("select[name]");
    for (var i = 0; i < selects.length; i++) selects[i].value = params.get(selects[i].name) || "";
    var query = params.toString();
    list().setAttribute("hx-get", form.getAttribute("action") + (query ? "?" + query : ""));
    if (window.htmx) window.htmx.process(list());
    refresh();
  }
  document.addEventListener("htmx:historyRestore", syncFilter);
  window.addEventListener("popstate", function () { setTimeout(syncFilter, 0); });

  connect();
})();
