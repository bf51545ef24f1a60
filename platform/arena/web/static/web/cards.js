/* Cards drawn as cards in the browser: the same markup as the `{% card %}` template
   tag (arena/web/templatetags/arena_cards.py), so both look alike. */
(function (global) {
  "use strict";

  var RANK_LABELS = { T: "10" };
  var RANK_NAMES = {
    A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
    8: "Eight", 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King"
  };
  var SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var JOKERS = { BJ: "Black joker", CJ: "Colour joker" };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function face(code) {
    if (JOKERS[code]) {
      return { code: code, label: "", symbol: "\u2605", red: code === "CJ", name: JOKERS[code], joker: true };
    }
    var rank = code.charAt(0), suit = code.charAt(1);
    if (code.length !== 2 || !RANK_NAMES[rank] || !SUIT_SYMBOLS[suit]) return null;
    return {
      code: code, label: RANK_LABELS[rank] || rank, symbol: SUIT_SYMBOLS[suit],
      red: suit === "H" || suit === "D", name: RANK_NAMES[rank] + " of " + SUIT_NAMES[suit], joker: false
    };
  }

  function corner(f, bottom) {
    var node = el("span", "card__corner" + (bottom ? " card__corner--bottom" : ""), f.label);
    node.appendChild(el("span", "", f.symbol));
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  /* One card; `size` is "", "small" or "large". */
  function card(code, size) {
    var f = face(code);
    if (!f) return el("span", "card-code", code);
    var node = el("span", "card" + (f.red ? " card--red" : "") + (f.joker ? " card--joker" : "") + (size ? " card--" + size : ""));
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", f.name);
    node.setAttribute("title", f.name);
    node.dataset.code = f.code;
    node.appendChild(corner(f, false));
    var pip = el("span", "card__pip", f.joker ? "JOKER" : f.symbol);
    pip.setAttribute("aria-hidden", "true");
    node.appendChild(pip);
    node.appendChild(corner(f, true));
    return node;
  }

  /* A card inside a sentence: "10♥" in the card's colour, named for screen readers. */
  function inline(code) {
    var f = face(code);
    if (!f) return el("span", "card-code", code);
    var node = el("span", "card-inline" + (f.red ? " card-inline--red" : ""), f.joker ? "\u2605 " + (f.red ? "colour" : "black") + " joker" : f.label + f.symbol);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", f.name);
    node.dataset.code = f.code;
    return node;
  }

  /* A face-down card: what one seat's view shows of another seat's hand. */
  function back(size) {
    var node = el("span", "card card--back" + (size ? " card--" + size : ""));
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function suitChip(suit) {
    var red = suit === "H" || suit === "D";
    var node = el("span", "suit-chip" + (red ? " suit-chip--red" : ""), SUIT_SYMBOLS[suit] || suit);
    node.setAttribute("aria-label", SUIT_NAMES[suit] || suit);
    node.dataset.suit = suit;
    return node;
  }

  global.ArenaCards = { card: card, inline: inline, back: back, face: face, suitChip: suitChip, el: el, SUIT_NAMES: SUIT_NAMES };
})(window);
