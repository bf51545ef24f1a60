/* The replay viewer. It reads the frames of `engine.replay_frames(log)` embedded in
   the page (json_script "replay-data") and never recomputes a rule: frame 0 is the
   deal, frame i the state after event i-1. What a play did comes with the frames
   (`effects`, the engine's words for the card's role under the game's ruleset), so
   the viewer never reads a card's rank as a rule.

   A live table (live_table.js) starts it with `ArenaReplay.start(data, {live: true})`
   and hands it each frame as the stream brings it (`extend`); a hand it may not see
   is a number, the count of its cards. */
(function () {
  "use strict";

  var C = window.ArenaCards;
  var el = C.el;
  var BASE_DELAY_MS = 800;

  var data, frames, seats, last, state, live = false, started = false;

  function $(id) { return document.getElementById(id); }

  function seatName(seat) {
    if (seat === null || seat === undefined) return "";
    var info = seats[seat];
    return info ? info.name : "seat " + seat;
  }

  /* Cards of an event that the chosen seat's view may see: in one seat's view the
     other seats' drawn cards stay hidden, as in the protocol's own events. */
  function visibleCards(event) {
    if (state.view === "all") return true;
    return String(event.seat) === state.view || (event.kind === "catch" && String(event.target) === state.view);
  }

  function appendCards(node, codes) {
    codes.forEach(function (code) { node.appendChild(C.inline(code)); });
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /* The event as a sentence, with cards drawn as cards; `effect` says what a play
     did under the game's ruleset ("skips the next player"), or is null. */
  function describe(event, node, effect) {
    var who = seatName(event.seat);
    function text(t) { node.appendChild(document.createTextNode(t)); }
    switch (event.kind) {
      case "play":
        text(who + " plays ");
        appendCards(node, event.cards || [event.card]);
        if (effect) node.appendChild(el("span", "ev-effect", " (" + effect + ")"));
        if (event.suit) { text(" and names "); node.appendChild(C.suitChip(event.suit)); }
        break;
      case "draw":
        if (!event.count) { text(who + " draws nothing (both piles are empty)"); break; }
        text(who + " draws " + plural(event.count, "card"));
        if (event.cards && visibleCards(event)) { text(": "); appendCards(node, event.cards); }
        break;
      case "take":
        text(who + " takes the attack: " + plural(event.count, "card"));
        if (event.cards && visibleCards(event)) { text(": "); appendCards(node, event.cards); }
        break;
      case "shield":
        text(who + " shields with ");
        appendCards(node, [event.card]);
        break;
      case "call":
        text(who + " calls \u201cOne Card!\u201d");
        break;
      case "pass":
        text(who + " does not catch " + seatName(event.target));
        break;
      case "catch":
        text(who + " catches " + seatName(event.target) + ", who draws " + plural(event.count, "card"));
        if (event.cards && visibleCards(event)) { text(": "); appendCards(node, event.cards); }
        break;
      case "reshuffle":
        text("The discard pile is shuffled into a new draw pile of " + plural(event.count, "card"));
        break;
      case "fault":
        node.appendChild(el("span", "ev-fault", who + " faults: " + event.reason + " (out of the game)"));
        break;
      case "skip":
        text(who + " is skipped");
        break;
      case "reverse":
        text("The direction is reversed");
        break;
      default:
        text((who ? who + ": " : "") + event.kind);
    }
    return node;
  }

  function describeFrame(frame, node) {
    node.textContent = "";
    if (frame.event) {
      describe(frame.event, node, data.effects ? data.effects[frame.index] : null);
      var why = frame.event.kind === "fault" && data.fault_sentences && data.fault_sentences[String(frame.index - 1)];
      if (why) node.appendChild(el("span", "ev-fault-detail", " \u2014 " + why));
    } else {
      node.appendChild(document.createTextNode("The deal. Lead card: "));
      node.appendChild(C.inline(frames[0].top));
    }
    if (frame.finished) {
      var w = data.result && data.result.winner;
      node.appendChild(document.createTextNode(
        " \u2014 game over" + (w !== null && w !== undefined ? ": " + seatName(w) + " wins" : "") +
        (data.result && data.result.adjudicated ? " (adjudicated at the turn limit)" : "")));
    }
  }

  /* --- the event list, built once ---------------------------------------------- */

  var eventItems = [];
  function buildEventList() {
    var list = $("events");
    list.textContent = "";
    eventItems = frames.map(function (frame) { return eventItem(frame, list); });
    document.dispatchEvent(new CustomEvent("replay:events"));
  }

  function eventItem(frame, list) {
      var item = el("li");
      item.id = "event-" + frame.index;
      var button = el("button");
      button.type = "button";
      button.dataset.frame = frame.index;
      button.appendChild(el("span", "ev-index", frame.index === 0 ? "deal" : "#" + frame.index));
      var label = el("span", "ev-text");
      describeFrame(frame, label);
      button.appendChild(label);
      if (frame.event && stderrFor(frame.event.seat, frame.index - 1).length) {
        var mark = el("span", "badge", "stderr");
        mark.title = "The bot wrote to stderr while deciding this";
        button.appendChild(mark);
      }
      button.addEventListener("click", function () { pause(); unfollow(); go(frame.index); });
      item.appendChild(button);
      list.appendChild(item);
      return item;
  }

  /* --- bot output (stderr and debug), shown only when the page carries it ------- */

  function outputEntries(seat) {
    var out = [];
    var stderr = data.stderr && data.stderr[seat];
    (stderr || []).forEach(function (entry) {
      out.push({ event: entry.event, turn: entry.turn, lines: entry.lines, kind: "stderr" });
    });
    var debug = data.debug && data.debug[seat];
    (debug || []).forEach(function (entry) {
      out.push({ event: entry.event, turn: entry.turn, lines: [entry.text], kind: "debug" });
    });
    out.sort(function (a, b) { return a.event - b.event; });
    return out;
  }

  function stderrFor(seat, eventIndex) {
    if (seat === null || seat === undefined) return [];
    return outputEntries(seat).filter(function (e) { return e.event === eventIndex; });
  }

  var outputLists = [];
  function buildBotOutput() {
    var box = $("bot-output");
    if (!box) return;
    box.textContent = "";
    outputLists = seats.map(function (info, seat) {
      var entries = outputEntries(seat);
      if (!entries.length) return null;
      var count = entries.reduce(function (n, entry) { return n + entry.lines.length; }, 0);
      // Collapsed: a flood of stderr stays one line until someone opens it.
      var details = el("details", "bot-output__seat");
      details.open = count <= 12;
      details.appendChild(el("summary", "", "Output of " + info.name + " (" + plural(count, "line") + ")"));
      box.appendChild(details);
      var list = el("ol", "log-lines");
      list.setAttribute("aria-label", "stderr and debug of " + info.name);
      entries.forEach(function (entry) {
        entry.lines.forEach(function (line) {
          var li = el("li");
          li.dataset.event = entry.event;
          // Numbered like the event list: the decision that event #n records.
          var meta = el("span", "meta", "#" + (entry.event + 1) + (entry.kind === "debug" ? " debug " : " "));
          li.appendChild(meta);
          li.appendChild(document.createTextNode(line));
          list.appendChild(li);
        });
      });
      details.appendChild(list);
      return list;
    });
    box.hidden = !outputLists.some(Boolean);
  }

  /* --- rendering one frame ------------------------------------------------------ */

  function renderSeats(frame) {
    var box = $("seats");
    box.textContent = "";
    var actor = frame.event ? frame.event.seat : null;
    frame.hands.forEach(function (hand, seat) {
      var info = seats[seat] || { name: "seat " + seat };
      var panel = el("section", "seat");
      panel.dataset.seat = seat;
      panel.setAttribute("aria-label", info.name);
      if (frame.to_act === seat) panel.classList.add("seat--to-act");
      if (hand === null) panel.classList.add("seat--faulted");
      if (actor === seat) panel.classList.add("seat--actor");
      var head = el("div", "seat__head");
      var name = el("span", "seat__name", info.name);
      head.appendChild(name);
      var meta = [];
      meta.push("seat " + seat);
      var hidden = typeof hand === "number";
      if (hand === null) meta.push("faulted");
      else meta.push(plural(hidden ? hand : hand.length, "card"));
      if (frame.to_act === seat) meta.push("to act");
      if (frame.finished && data.result && data.result.ranks) meta.push("place " + data.result.ranks[seat]);
      head.appendChild(el("span", "seat__meta", meta.join(" \u00b7 ")));
      panel.appendChild(head);
      var handNode = el("div", "hand");
      handNode.dataset.hand = seat;
      if (hidden) {
        for (var n = 0; n < hand; n++) handNode.appendChild(C.back());
        handNode.dataset.codes = "";
        handNode.dataset.count = hand;
      } else if (hand !== null) {
        var faceUp = state.view === "all" || state.view === String(seat);
        hand.forEach(function (code) {
          handNode.appendChild(faceUp ? C.card(code) : C.back());
        });
        handNode.dataset.codes = faceUp ? hand.join(" ") : "";
        handNode.dataset.count = hand.length;
      }
      panel.appendChild(handNode);
      var own = stderrFor(seat, frame.index - 1);
      if (actor === seat && own.length) {
        var lines = el("ol", "log-lines");
        lines.setAttribute("aria-label", "What " + info.name + " wrote while deciding");
        own.forEach(function (entry) {
          entry.lines.forEach(function (line) { lines.appendChild(el("li", "current", line)); });
        });
        panel.appendChild(lines);
      }
      box.appendChild(panel);
    });
  }

  function render() {
    var frame = frames[state.index];
    var table = $("table");
    table.dataset.frame = frame.index;
    $("top-card").textContent = "";
    $("top-card").appendChild(C.card(frame.top, "large"));
    $("top-card").dataset.code = frame.top;
    $("draw-pile").textContent = frame.draw_pile;
    $("state-discard").textContent = frame.discard_pile;
    $("state-turn").textContent = frame.turn;
    var suit = $("state-suit");
    suit.textContent = "";
    suit.dataset.suit = frame.suit || "";
    if (frame.suit) suit.appendChild(C.suitChip(frame.suit));
    else suit.textContent = "\u2014";
    var attack = $("state-attack");
    attack.dataset.total = frame.attack ? frame.attack.total : "";
    attack.textContent = frame.attack ? frame.attack.total + " cards (last " + frame.attack.last + ")" : "none";
    attack.className = frame.attack ? "attack" : "";
    var direction = $("state-direction");
    direction.dataset.direction = frame.direction;
    direction.textContent = frame.direction === 1 ? "\u21bb clockwise (+1)" : "\u21ba counter-clockwise (\u22121)";
    var toAct = $("state-to-act");
    toAct.dataset.seat = frame.to_act === null ? "" : frame.to_act;
    toAct.textContent = frame.to_act === null ? "\u2014" : seatName(frame.to_act);
    renderSeats(frame);
    describeFrame(frame, $("replay-status"));

    $("scrubber").value = state.index;
    $("scrubber").setAttribute("aria-valuetext", "event " + state.index + " of " + last);
    $("frame-counter").textContent = state.index + " / " + last;
    $("first").disabled = $("back").disabled = state.index === 0;
    $("forward").disabled = $("last").disabled = state.index === last;

    eventItems.forEach(function (item) { item.removeAttribute("aria-current"); });
    var current = eventItems[state.index];
    if (current) {
      current.setAttribute("aria-current", "step");
      var list = $("events");
      // Scroll the list only, never the page: the viewer must not jump while playing.
      var top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    outputLists.forEach(function (list) {
      if (!list) return;
      var first = null;
      Array.prototype.forEach.call(list.children, function (li) {
        // The lines written up to this moment: the latest decision's are current.
        var here = Number(li.dataset.event) === state.index - 1;
        li.classList.toggle("current", here);
        if (here && !first) first = li;
      });
      // Scrolled with the replay, inside its own box: the page never moves.
      if (first) list.scrollTop = Math.max(0, first.offsetTop - list.offsetTop - 8);
    });
    // For what else shows the moment (the analysis, static/web/analysis.js).
    document.dispatchEvent(new CustomEvent("replay:frame", { detail: { index: state.index } }));
  }

  /* --- navigation ---------------------------------------------------------------- */

  function go(index, options) {
    state.index = Math.max(0, Math.min(last, index));
    render();
    if (!live && (!options || options.updateHash !== false)) {
      history.replaceState(null, "", "#frame=" + state.index);
    }
  }

  /* --- a live table: frames arrive; the viewer follows them unless told not to --- */

  function setFollowing(on) {
    state.following = on;
    var button = $("jump-live");
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.classList.toggle("is-following", on);
    }
  }
  function unfollow() { if (live) setFollowing(false); }

  /* `notes`: the debug text of the user's own bots ({seat, event, text}) that came
     with these frames; the bot output panel shows them as a replay does. */
  function extend(newFrames, newEffects, notes) {
    (notes || []).forEach(function (note) {
      if (!data.debug) data.debug = seats.map(function () { return []; });
      if (data.debug[note.seat]) data.debug[note.seat].push({ event: note.event, text: note.text });
    });
    if (notes && notes.length) buildBotOutput();
    newFrames.forEach(function (frame, i) {
      frames.push(frame);
      if (data.effects) data.effects.push(newEffects ? newEffects[i] : null);
      eventItems.push(eventItem(frame, $("events")));
    });
    last = frames.length - 1;
    $("scrubber").max = last;
    if (state.following) go(last);
    else render();
  }

  /* A live game is over: its result names every hand left, so the last frame,
     seen as counts while the game was on, is shown whole. */
  function finish(result) {
    data.result = result;
    var end = frames[last];
    if (end && result && result.hands) {
      end.hands = end.hands.map(function (hand, seat) {
        return hand === null ? null : result.hands[seat];
      });
    }
    render();
  }

  function play() {
    if (state.index === last && !live) go(0);
    state.playing = true;
    $("play").textContent = "Pause";
    $("play").setAttribute("aria-pressed", "true");
    schedule();
  }

  function pause() {
    state.playing = false;
    clearTimeout(state.timer);
    $("play").textContent = "Play";
    $("play").setAttribute("aria-pressed", "false");
  }

  function schedule() {
    clearTimeout(state.timer);
    if (!state.playing) return;
    state.timer = setTimeout(function () {
      if (state.index >= last) {
        if (live) { setFollowing(true); pause(); return; }
        pause(); return;
      }
      go(state.index + 1);
      schedule();
    }, BASE_DELAY_MS / state.speed);
  }

  function toggle() { if (state.playing) pause(); else play(); }

  /* "#frame=12" is one exact state; "#turn=40" the first state of that turn. */
  function indexFromHash() {
    var match = /^#(frame|turn)=(\d+)$/.exec(location.hash);
    if (!match) return null;
    var n = Number(match[2]);
    if (match[1] === "frame") return n;
    for (var i = 0; i < frames.length; i++) if (frames[i].turn >= n) return i;
    return last;
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    var tag = target && target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && target.type !== "range")) return;
    var onRange = tag === "INPUT";
    switch (event.key) {
      case "ArrowLeft":
        if (onRange) return; // the scrubber moves itself and reports through "input"
        pause(); unfollow(); go(state.index - 1); break;
      case "ArrowRight":
        if (onRange) return;
        pause(); go(state.index + 1); break;
      case "Home":
        if (onRange) return;
        pause(); unfollow(); go(0); break;
      case "End":
        if (onRange) return;
        pause(); go(last); break;
      case " ":
      case "Spacebar":
        // A focused button already answers the space bar with a click.
        if (tag === "BUTTON") return;
        toggle(); break;
      default:
        return;
    }
    event.preventDefault();
  }

  /* (Re)start the viewer on a game's data: the page's, or each game of a live table. */
  function start(newData, options) {
    if (state && state.timer) clearTimeout(state.timer);
    data = newData;
    frames = data.frames;
    seats = data.seats;
    last = frames.length - 1;
    live = Boolean(options && options.live);
    state = { index: 0, playing: false, timer: null, speed: state ? state.speed : 1, view: "all", following: live };
    if (!data.effects) data.effects = frames.map(function () { return null; });
    $("scrubber").max = last;
    buildEventList();
    buildBotOutput();
    if (!started) { started = true; listen(); }
    if (live) { setFollowing(true); go(last); return; }
    var begin = indexFromHash();
    go(begin === null ? 0 : begin, { updateHash: begin !== null });
  }

  function listen() {
    var scrubber = $("scrubber");
    $("first").addEventListener("click", function () { pause(); unfollow(); go(0); });
    $("back").addEventListener("click", function () { pause(); unfollow(); go(state.index - 1); });
    $("forward").addEventListener("click", function () { pause(); go(state.index + 1); });
    $("last").addEventListener("click", function () { pause(); go(last); });
    $("play").addEventListener("click", toggle);
    if ($("jump-live")) $("jump-live").addEventListener("click", function () { pause(); setFollowing(true); go(last); });
    scrubber.addEventListener("input", function () { pause(); unfollow(); go(Number(scrubber.value)); });
    $("speed").addEventListener("change", function () { state.speed = Number($("speed").value) || 1; schedule(); });
    $("view").addEventListener("change", function () {
      state.view = $("view").value;
      buildEventList();
      render();
    });
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", function () {
      var index = indexFromHash();
      if (index !== null && index !== state.index) { pause(); go(index, { updateHash: false }); }
    });
    $("permalink").addEventListener("click", function (event) {
      event.preventDefault();
      var url = location.href.split("#")[0] + "#frame=" + state.index;
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url);
      history.replaceState(null, "", "#frame=" + state.index);
      $("permalink").textContent = "Link to this moment copied to the address bar";
    });
    document.documentElement.classList.add("js");
  }

  window.ArenaReplay = { start: start, extend: extend, finish: finish };
  var embedded = document.getElementById("replay-data");
  if (embedded) start(JSON.parse(embedded.textContent));
})();
