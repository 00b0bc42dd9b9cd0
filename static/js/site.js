// Small page helpers for every page. Everything here is optional: pages work without it.
(function () {
  "use strict";

  // The language switcher submits as soon as a language is picked. It returns to the page as
  // it is now: htmx may have changed the address (a new hand, a link followed) since the page
  // was rendered, so `next` is refreshed from the location just before sending.
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select || select.id !== "lang-select" || !select.form) return;
    var next = select.form.elements.namedItem("next");
    if (next) next.value = window.location.pathname + window.location.search;
    select.form.submit();
  });
})();
