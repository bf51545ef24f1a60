"""What the replay viewer shows, read from its DOM, and what the log says it should."""

from __future__ import annotations

SHOWN_STATE = """() => {
  const byId = (id) => document.getElementById(id);
  const number = (text) => (text === "" || text === undefined ? null : Number(text));
  const codes = (hand) =>
    Array.from(hand.querySelectorAll(".card[data-code]")).map((card) => card.dataset.code);
  return {
    frame: Number(byId("table").dataset.frame),
    top: byId("top-card").querySelector(".card").dataset.code,
    suit: byId("state-suit").dataset.suit || null,
    attack: number(byId("state-attack").dataset.total),
    direction: Number(byId("state-direction").dataset.direction),
    to_act: number(byId("state-to-act").dataset.seat),
    draw_pile: Number(byId("draw-pile").textContent),
    hands: Array.from(document.querySelectorAll("[data-hand]")).map(codes),
  };
}"""


def expected_state(frame: dict) -> dict:
    return {
        "frame": frame["index"],
        "top": frame["top"],
        "suit": frame["suit"],
        "attack": frame["attack"]["total"] if frame["attack"] else None,
        "direction": frame["direction"],
        "to_act": frame["to_act"],
        "draw_pile": frame["draw_pile"],
        "hands": [hand or [] for hand in frame["hands"]],
    }
