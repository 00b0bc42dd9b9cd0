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

  connect();
})();
