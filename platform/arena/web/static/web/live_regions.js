/* Lists that change as matches start and end ("Playing now", recent results, the
   ladder's top, a bot's matches) are marked data-live-region with an id. One
   Server-Sent Events stream per page (/live/pulse/) says when something changed;
   the page then fetches itself once and swaps those regions in place. Nobody polls:
   a quiet ladder costs an open connection and nothing else. */
(function () {
  "use strict";

  var regions = document.querySelectorAll("[data-live-region][id]");
  if (!regions.length || !window.EventSource || !window.DOMParser) return;
  var busy = false;

  function refresh() {
    if (busy) return;
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        Array.prototype.forEach.call(document.querySelectorAll("[data-live-region][id]"), function (region) {
          var next = fresh.getElementById(region.id);
          if (next && next.innerHTML !== region.innerHTML) {
            region.innerHTML = next.innerHTML;
            region.dataset.refreshed = String(Date.now());
          }
        });
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }

  var source = new EventSource(document.body.dataset.pulse || "/live/pulse/");
  source.addEventListener("changed", refresh);
})();
