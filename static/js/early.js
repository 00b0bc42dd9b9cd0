// Read before the page is drawn (a plain script in the head, not deferred): choices kept in this
// browser that change how the page looks, so that nothing flickers. The four-colour deck: see
// site.js, which turns it on and off.
try { if (window.localStorage.getItem("pp-deck") === "four") document.documentElement.classList.add("deck-four"); } catch (e) { /* private mode */ }
