/* A match being played, in the replay viewer: the match's event stream
   (GET /api/v1/matches/<id>/events/, Server-Sent Events) brings each game's frames
   as they are played; the viewer follows them, or stays where the spectator
   stepped back to until "Live" is pressed. When the match is over the page goes
   to the replay of its last game, where every hand is face up. */
(function () {
  "use strict";

  var box = document.getElementById("live-table");
  if (!box || !window.EventSource) return;
  var status = document.getElementById("live-status");
  var gamesList = document.getElementById("live-games");
  var header = null;    // the current game's `game` event
  var pending = [];     // moves not drawn yet (a burst is drawn at once)
  var startedGame = null;
  var replays = {};
  var source = new EventSource(box.dataset.stream);
  window.ArenaLiveSource = source; // the table page listens to it too (table_seat.js)

  function say(text) { status.textContent = text; }

  function seatsOf(game) {
    return game.names.map(function (name, seat) { return { seat: seat, name: name }; });
  }

  function setViewOptions(game) {
    var select = document.getElementById("view");
    select.textContent = "";
    var all = document.createElement("option");
    all.value = "all";
    all.textContent = "every hand you may see";
    select.appendChild(all);
    game.names.forEach(function (name, seat) {
      var option = document.createElement("option");
      option.value = String(seat);
      option.textContent = name + "'s view only";
      select.appendChild(option);
    });
  }

  function setLegend(game) {
    var name = document.getElementById("ruleset-name");
    var rows = document.getElementById("ruleset-rows");
    if (!name || !rows) return;
    name.textContent = game.ruleset || "";
    rows.textContent = "";
    game.legend.forEach(function (row) {
      var li = document.createElement("li");
      li.appendChild(document.createTextNode(row.what + ": "));
      var strong = document.createElement("strong");
      strong.textContent = row.cards;
      li.appendChild(strong);
      rows.appendChild(li);
    });
  }

  /* The debug notes of the user's own bots, as the viewer keeps them. */
  function notesOf(batch) {
    var notes = [];
    batch.forEach(function (m) {
      (m.debug || []).forEach(function (note) {
        notes.push({ seat: note.seat, event: m.frame.index - 1, text: note.text });
      });
    });
    return notes;
  }

  function flush() {
    if (!pending.length || !header) return;
    var batch = pending;
    pending = [];
    if (startedGame !== header.game) {
      startedGame = header.game;
      var debug = header.names.map(function () { return []; });
      notesOf(batch).forEach(function (note) {
        if (debug[note.seat]) debug[note.seat].push({ event: note.event, text: note.text });
      });
      window.ArenaReplay.start({
        frames: batch.map(function (m) { return m.frame; }),
        effects: batch.map(function (m) { return m.effect; }),
        seats: seatsOf(header),
        debug: debug,
        result: null
      }, { live: true });
      box.dataset.game = header.game;
      return;
    }
    window.ArenaReplay.extend(
      batch.map(function (m) { return m.frame; }),
      batch.map(function (m) { return m.effect; }),
      notesOf(batch)
    );
  }

  var scheduled = false;
  function later() {
    if (scheduled) return;
    scheduled = true;
    setTimeout(function () { scheduled = false; flush(); }, 60);
  }

  source.addEventListener("game", function (event) {
    flush();
    header = JSON.parse(event.data);
    setViewOptions(header);
    setLegend(header);
    say("Game " + (header.game + 1) + " is being played: " + header.names.join(" vs ") + ".");
  });

  source.addEventListener("move", function (event) {
    pending.push(JSON.parse(event.data));
    later();
  });

  source.addEventListener("game-over", function (event) {
    flush();
    var over = JSON.parse(event.data);
    window.ArenaReplay.finish(over.result);
    if (over.replay) replays[over.game] = over.replay;
    var winner = over.result && over.result.winner;
    var name = header && winner !== null && winner !== undefined ? header.names[winner] : null;
    say("Game " + (over.game + 1) + " is over" + (name ? ": " + name + " wins." : ".") + " The next one starts in a moment.");
    if (gamesList) {
      var item = document.createElement("li");
      item.textContent = "Game " + (over.game + 1) + (name ? ": " + name + " wins" : "") + " ";
      if (over.replay) {
        var link = document.createElement("a");
        link.href = over.replay;
        link.textContent = "replay";
        item.appendChild(link);
      }
      gamesList.appendChild(item);
    }
  });

  source.addEventListener("result", function (event) {
    source.close();
    flush();
    var result = JSON.parse(event.data);
    box.dataset.state = result.state;
    var last = result.replays && result.replays.length ? result.replays[result.replays.length - 1] : null;
    say(result.state === "done" ? "The match is over; here is its last game, every hand face up." : "The match ended: " + (result.error || result.state) + ".");
    window.location.assign(last || result.url);
  });

  source.addEventListener("error", function () {
    // EventSource reconnects by itself, resuming after the last event it received.
    if (source.readyState === EventSource.CONNECTING) say("Connection lost; reconnecting…");
  });
})();
