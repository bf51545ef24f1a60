/* Live pages: an element with data-poll="<url>" asks that JSON endpoint every few
   seconds. The answer's "fingerprint" says whether the page is stale (then it reloads,
   so the server renders the new state); "percent" moves a progress bar in place;
   "live": false ends the polling. */
(function () {
  "use strict";

  var INTERVAL_MS = 2000;

  function poll(node) {
    var url = node.dataset.poll;
    var fingerprint = node.dataset.fingerprint;
    var bar = node.querySelector(".progress__bar");
    var progress = node.querySelector("[role=progressbar]");
    var label = node.querySelector("[data-progress-label]");

    function tick() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (!data) { schedule(); return; }
          if (typeof data.percent === "number" && bar) {
            bar.style.width = data.percent + "%";
            if (progress) progress.setAttribute("aria-valuenow", String(data.percent));
            if (label && data.label) label.textContent = data.label;
          }
          if (fingerprint !== undefined && data.fingerprint !== fingerprint) {
            window.location.reload();
            return;
          }
          if (data.live) schedule();
        })
        .catch(schedule);
    }
    function schedule() { setTimeout(tick, INTERVAL_MS); }
    schedule();
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-poll]"), poll);
})();
