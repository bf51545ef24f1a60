/* The person's seat at a table: what the table asks them (the `question` events of
   the match's stream, which live_table.js opened) shown as their hand, the legal
   cards to click, the 7's suit, the One Card call, the catch, and the clock; each
   answer POSTed to the table (POST /api/v1/tables/<id>/move/). */
(function () {
  "use strict";

  var source = window.ArenaLiveSource;
  var panel = document.getElementById("my-seat");
  if (!source || !panel) return;
  var Cards = window.ArenaCards;
  var hand = document.getElementById("seat-hand");
  var prompt = document.getElementById("seat-prompt");
  var problem = document.getElementById("seat-problem");
  var suits = document.getElementById("seat-suits");
  var callBox = document.getElementById("seat-call-box");
  var call = document.getElementById("seat-call");
  var draw = document.getElementById("seat-draw");
  var catchButton = document.getElementById("seat-catch");
  var pass = document.getElementById("seat-pass");
  var clock = document.getElementById("seat-clock");
  var seconds = document.getElementById("seat-seconds");
  var csrf = document.querySelector("#seat-leave-form [name=csrfmiddlewaretoken]").value;
  var names = [];
  var question = null;
  var chosenCard = null;
  var ticking = null;
  var sending = false;

  function show(node, visible) { node.hidden = !visible; }

  function say(text) { prompt.textContent = text; }

  function nameOf(seat) { return names[seat] || "seat " + (seat + 1); }

  function setProblem(text) {
    problem.textContent = text || "";
    show(problem, Boolean(text));
  }

  function stopClock() {
    if (ticking) clearInterval(ticking);
    ticking = null;
    show(clock, false);
  }

  function startClock(left) {
    stopClock();
    if (left === null || left === undefined) return;
    var ends = Date.now() + left * 1000;
    function tick() {
      var s = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      seconds.textContent = String(s);
      clock.classList.toggle("table-seat__clock--short", s <= 10);
    }
    tick();
    show(clock, true);
    ticking = setInterval(tick, 250);
  }

  function drawHand(message, playable) {
    hand.textContent = "";
    var legal = new Set(playable ? message.legal || [] : []);
    (message.hand || []).forEach(function (code) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "card-button" + (legal.has(code) ? " card-button--legal" : "");
      button.dataset.code = code;
      button.disabled = !legal.has(code);
      button.appendChild(Cards.card(code, "large"));
      var face = Cards.face(code);
      button.setAttribute("aria-label", (face ? face.name : code) + (legal.has(code) ? ", playable" : ""));
      button.addEventListener("click", function () { choose(code); });
      hand.appendChild(button);
    });
  }

  function idle(text) {
    question = null;
    chosenCard = null;
    panel.dataset.state = "waiting";
    stopClock();
    show(suits, false);
    show(callBox, false);
    show(catchButton, false);
    show(pass, false);
    draw.disabled = true;
    draw.textContent = "Draw";
    hand.querySelectorAll("button").forEach(function (b) { b.disabled = true; b.classList.remove("card-button--legal"); });
    if (text) say(text);
  }

  function ask(q) {
    question = q;
    chosenCard = null;
    sending = false;
    var message = q.message;
    setProblem(message.problem || "");
    startClock(q.seconds);
    show(suits, false);
    if (message.type === "catch") {
      panel.dataset.state = "catch";
      drawHand(message, false);
      show(callBox, false);
      draw.disabled = true;
      show(catchButton, true);
      show(pass, true);
      catchButton.disabled = pass.disabled = false;
      say(nameOf(message.target) + " is down to one card and did not call One Card! Catch them?");
      catchButton.focus();
      return;
    }
    panel.dataset.state = "turn";
    show(catchButton, false);
    show(pass, false);
    drawHand(message, true);
    var attack = message.attack;
    draw.disabled = false;
    draw.textContent = attack ? "Take " + attack.total : "Draw";
    show(callBox, (message.hand || []).length === 2 && (message.legal || []).length > 0);
    call.checked = false;
    var legal = message.legal || [];
    if (attack) {
      say("You are attacked for " + attack.total + " cards: " + (legal.length ? "counter with a highlighted card, or take them." : "you must take them."));
    } else {
      say(legal.length ? "Your turn: play a highlighted card, or draw." : "Your turn: nothing fits, draw a card.");
    }
  }

  function choose(code) {
    if (!question || question.message.type !== "turn" || sending) return;
    if ((question.needs_suit || []).indexOf(code) !== -1) {
      chosenCard = code;
      show(suits, true);
      say("Name the suit for your " + code.charAt(0) + ".");
      suits.querySelector("[data-suit]").focus();
      return;
    }
    send({ action: "play", card: code, call: call.checked });
  }

  function send(reply) {
    if (!question || sending) return;
    sending = true;
    reply.number = question.number;
    var url = question.answer;
    panel.dataset.state = "sent";
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(reply)
    }).then(function (response) {
      if (response.ok) {
        idle("Played. Waiting for the others…");
        return;
      }
      return response.json().then(function (body) {
        sending = false;
        panel.dataset.state = question ? question.message.type : "waiting";
        var detail = body && (body.action || body.number || body.detail || body.card || body.suit);
        setProblem(Array.isArray(detail) ? detail.join(" ") : String(detail || "That move was not taken."));
      });
    }).catch(function () {
      sending = false;
      setProblem("The move did not reach the table; try again.");
    });
  }

  suits.querySelectorAll("[data-suit]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (chosenCard) send({ action: "play", card: chosenCard, suit: button.dataset.suit, call: call.checked });
    });
  });
  document.getElementById("seat-suit-cancel").addEventListener("click", function () {
    chosenCard = null;
    show(suits, false);
  });
  draw.addEventListener("click", function () { send({ action: "draw" }); });
  catchButton.addEventListener("click", function () { send({ action: "catch" }); });
  pass.addEventListener("click", function () { send({ action: "pass" }); });

  var badge = document.getElementById("table-badge");
  source.addEventListener("game", function (event) {
    names = JSON.parse(event.data).names || [];
    if (badge) {
      badge.textContent = "Running";
      badge.className = "badge badge--running badge--live";
    }
  });
  source.addEventListener("question", function (event) {
    var q = JSON.parse(event.data);
    if (q) ask(q);
    else if (question) idle("Waiting for the others…");
  });
  source.addEventListener("game-over", function () { idle("The game is over."); });
  source.addEventListener("result", function () { idle("The table is over; here is its replay."); });
})();
