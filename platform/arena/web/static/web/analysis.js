/* The replay's analysis (the section #analysis): at each moment what the search
   prefers, each seat's biggest mistakes, and every seat's chance to finish first
   across the game as an SVG line chart. The analysis arrives from the API while it
   runs (polled every 2 s until it is done or failed); nothing here judges a move,
   it shows what the server stored. A decision's `event` is the event its reply
   produced, so it belongs to frame event + 1 (the state after it). */
(function () {
  "use strict";

  var section = document.getElementById("analysis");
  var dataNode = document.getElementById("analysis-data");
  if (!section || !dataNode) return;

  var C = window.ArenaCards;
  var el = C.el;
  var SVG = "http://www.w3.org/2000/svg";
  var INTERVAL_MS = 2000;
  // One colour per seat, each at least 4.5:1 on white.
  var COLOURS = ["#0f6e5a", "#b3261e", "#1f4e9c", "#8a4b00", "#6b3fa0", "#00677a", "#a0306a", "#4d5a18"];

  var replay = JSON.parse(document.getElementById("replay-data").textContent);
  var seats = replay.seats;
  var lastFrame = replay.frames.length - 1;
  var analysis = JSON.parse(dataNode.textContent);
  var byFrame = {};
  var current = Number(document.getElementById("table").dataset.frame || 0);

  function $(id) { return document.getElementById(id); }
  function seatName(seat) { return seats[seat] ? seats[seat].name : "seat " + seat; }
  function percent(win) { return Math.round(100 * win) + "%"; }

  function index() {
    byFrame = {};
    analysis.decisions.forEach(function (d) {
      if (d.event !== null) byFrame[d.event + 1] = d;
    });
  }

  /* A reply as a short phrase with its cards drawn as cards. */
  function move(reply, decision) {
    var node = el("span", "analysis__move");
    if (!reply) { node.textContent = "no reply"; return node; }
    switch (reply.action) {
      case "play":
        (reply.cards || [reply.card]).forEach(function (code) { node.appendChild(C.inline(code)); });
        if (reply.suit) { node.appendChild(document.createTextNode(" naming ")); node.appendChild(C.suitChip(reply.suit)); }
        break;
      case "draw":
        node.textContent = decision.under_attack ? "taking the attack" : "drawing";
        break;
      case "catch":
        node.textContent = "catching";
        break;
      case "pass":
        node.textContent = "not catching";
        break;
      default:
        node.textContent = String(reply.action);
    }
    return node;
  }

  function verdict(frameIndex) {
    var box = $("analysis-verdict");
    box.textContent = "";
    var d = byFrame[frameIndex];
    if (!d) {
      box.dataset.decision = "";
      box.textContent = analysis.state === "done" || analysis.state === "failed"
        ? "No decision led to this moment."
        : "This moment is not analysed yet.";
      return;
    }
    box.dataset.decision = d.number;
    function text(t) { box.appendChild(document.createTextNode(t)); }
    text(seatName(d.seat) + ": ");
    if (d.preferred_win === null) {
      text("no choice but ");
      box.appendChild(move(d.preferred, d));
      return;
    }
    if (d.agrees) {
      text("the search agrees with ");
      box.appendChild(move(d.taken, d));
      text(" (win " + percent(d.preferred_win) + ")");
    } else {
      text("search prefers ");
      box.appendChild(move(d.preferred, d));
      if (d.taken_win === null) {
        text(" (win " + percent(d.preferred_win) + "); the bot's reply was no legal move");
      } else {
        text(" (win " + percent(d.taken_win) + " \u2192 " + percent(d.preferred_win) + ")");
      }
    }
    if (d.mistake) box.appendChild(el("span", "badge badge--mistake", "mistake"));
  }

  /* The mistakes beside their events, and a list per seat under the chart. */
  function markEvents() {
    Array.prototype.forEach.call(document.querySelectorAll("#events .badge--mistake"), function (b) { b.remove(); });
    analysis.decisions.forEach(function (d) {
      if (!d.mistake || d.event === null) return;
      var button = document.querySelector('#event-' + (d.event + 1) + " button");
      if (!button) return;
      var badge = el("span", "badge badge--mistake", "\u2212" + percent(d.loss));
      badge.title = "One of " + seatName(d.seat) + "'s biggest mistakes: the search's move wins " + percent(d.loss) + " more often";
      button.appendChild(badge);
    });
  }

  function mistakeList() {
    var box = $("analysis-mistakes");
    box.textContent = "";
    seats.forEach(function (info, seat) {
      var own = analysis.decisions.filter(function (d) { return d.seat === seat && d.mistake; });
      var mine = analysis.decisions.filter(function (d) { return d.seat === seat; });
      if (!mine.length) return;
      box.appendChild(el("h3", "small", "Biggest mistakes of " + info.name));
      if (!own.length) {
        box.appendChild(el("p", "small muted", "None that cost 5% or more."));
        return;
      }
      var list = el("ol", "analysis__mistake-list");
      list.dataset.seat = seat;
      own.slice().sort(function (a, b) { return b.loss - a.loss || a.number - b.number; }).forEach(function (d) {
        var li = el("li");
        var link = el("a");
        link.href = "#frame=" + (d.event + 1);
        link.dataset.frame = d.event + 1;
        link.appendChild(document.createTextNode("turn " + d.turn + ": "));
        link.appendChild(move(d.taken, d));
        link.appendChild(document.createTextNode(" instead of "));
        link.appendChild(move(d.preferred, d));
        link.appendChild(document.createTextNode(" (\u2212" + percent(d.loss) + ")"));
        li.appendChild(link);
        list.appendChild(li);
      });
      box.appendChild(list);
    });
  }

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* A decision's point on the chart: the chance after the move made; the search's
     best when the reply was no legal move; none for a forced reply (nothing was
     played out). */
  function chance(d) { return d.taken_win === null ? d.preferred_win : d.taken_win; }

  /* Every seat's chance after each of its decisions, x = the moment. */
  // Drawn at the width it is shown at, so that its text keeps its size on a phone.
  var W = 960, H = 260, LEFT = 44, RIGHT = 10, TOP = 12, BOTTOM = 24;
  function xOf(frame) { return LEFT + (W - LEFT - RIGHT) * frame / Math.max(lastFrame, 1); }
  function yOf(win) { return TOP + (H - TOP - BOTTOM) * (1 - win); }

  function chart() {
    var box = $("analysis-chart");
    box.textContent = "";
    W = Math.max(300, Math.min(960, Math.round(box.clientWidth) || 960));
    H = W < 600 ? 200 : 260;
    var root = svg("svg", { "class": "chart analysis-chart", viewBox: "0 0 " + W + " " + H, role: "img", "aria-labelledby": "analysis-chart-desc", id: "win-chart" });
    var summary = [];
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      root.appendChild(svg("line", { "class": "grid-line", x1: LEFT, x2: W - RIGHT, y1: yOf(v), y2: yOf(v) }));
      root.appendChild(svg("text", { x: LEFT - 6, y: yOf(v), dy: 4, "text-anchor": "end" }, Math.round(v * 100) + "%"));
    });
    seats.forEach(function (info, seat) {
      var own = analysis.decisions.filter(function (d) {
        return d.seat === seat && d.event !== null && chance(d) !== null;
      });
      if (!own.length) return;
      var points = own.map(function (d) {
        return xOf(d.event + 1).toFixed(1) + "," + yOf(chance(d)).toFixed(1);
      });
      root.appendChild(svg("polyline", { "class": "analysis-line", points: points.join(" "), stroke: COLOURS[seat % COLOURS.length], "data-seat": seat }));
      own.forEach(function (d) {
        if (!d.mistake) return;
        root.appendChild(svg("circle", { "class": "analysis-mistake", cx: xOf(d.event + 1), cy: yOf(chance(d)), r: 5, stroke: COLOURS[seat % COLOURS.length], "data-seat": seat, "data-frame": d.event + 1 }));
      });
      var end = own[own.length - 1];
      summary.push(info.name + " ends at " + percent(chance(end)));
    });
    root.appendChild(svg("line", { "class": "version-mark", id: "analysis-cursor", x1: xOf(current), x2: xOf(current), y1: TOP, y2: H - BOTTOM }));
    root.appendChild(svg("text", { x: LEFT, y: H - 6 }, "deal"));
    root.appendChild(svg("text", { x: W - RIGHT, y: H - 6, "text-anchor": "end" }, "end of the game"));
    root.insertBefore(svg("desc", { id: "analysis-chart-desc" },
      "Chance to finish first after each decision, " + analysis.decisions.length + " decisions analysed: " + (summary.join("; ") || "none yet") + "."), root.firstChild);
    box.appendChild(root);
    var legend = el("ul", "analysis__legend");
    seats.forEach(function (info, seat) {
      var li = el("li");
      var swatch = el("span", "analysis__swatch");
      swatch.style.background = COLOURS[seat % COLOURS.length];
      li.appendChild(swatch);
      li.appendChild(document.createTextNode(info.name));
      legend.appendChild(li);
    });
    box.appendChild(legend);
  }

  function moveCursor() {
    var cursor = $("analysis-cursor");
    if (cursor) { cursor.setAttribute("x1", xOf(current)); cursor.setAttribute("x2", xOf(current)); }
  }

  function status() {
    var node = $("analysis-status");
    node.dataset.state = analysis.state;
    section.dataset.state = analysis.state;
    var bar = $("analysis-bar");
    if (bar) {
      bar.style.width = analysis.percent + "%";
      bar.parentNode.setAttribute("aria-valuenow", String(analysis.percent));
      bar.parentNode.hidden = !(analysis.state === "queued" || analysis.state === "running");
    }
    if (analysis.state === "done") node.textContent = "Done: " + analysis.decisions_done + " decisions analysed.";
    else if (analysis.state === "failed") node.textContent = "The analysis failed: " + analysis.error;
    else if (analysis.state === "running") node.textContent = "Running: " + analysis.decisions_done + " of " + analysis.decisions_total + " decisions analysed (" + analysis.percent + "%).";
    else node.textContent = "Queued: it starts when an analysis worker is free.";
    var retry = $("analysis-retry-form");
    if (retry) retry.hidden = !analysis.stalled;
  }

  function show() {
    index();
    status();
    chart();
    mistakeList();
    markEvents();
    verdict(current);
  }

  // A stalled analysis (its worker is gone) is still polled: the sweeper sends it
  // again within a minute or so, and a request at once.
  function live() { return analysis.state === "queued" || analysis.state === "running"; }

  /* A poll asks only for the decisions it has not seen (`since`), and takes each
     seat's mistakes afresh (a later decision can be worse than a marked one). A
     run started over (another started_at) is fetched whole again. */
  function merge(data, since) {
    if (since && data.started_at === analysis.started_at) {
      var known = analysis.decisions.filter(function (d) { return d.number < since; });
      data.decisions = known.concat(data.decisions);
    } else if (since) {
      return false;
    }
    var marked = {};
    data.mistakes.forEach(function (number) { marked[number] = true; });
    data.decisions.forEach(function (d) { d.mistake = !!marked[d.number]; });
    analysis = data;
    return true;
  }

  function poll(whole) {
    setTimeout(function () {
      var done = analysis.decisions.length;
      var since = whole || !done ? 0 : analysis.decisions[done - 1].number + 1;
      var url = section.dataset.api + (since ? "?since=" + since : "");
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) {
          if (data && !merge(data, since)) { poll(true); return; }
          if (data) show();
          if (!data || live()) poll();
        })
        .catch(function () { poll(); });
    }, INTERVAL_MS);
  }

  document.addEventListener("replay:frame", function (event) {
    current = event.detail.index;
    moveCursor();
    verdict(current);
  });
  document.addEventListener("replay:events", markEvents);
  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(chart, 200);
  });

  show();
  if (live()) poll();
})();
