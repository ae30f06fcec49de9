"""The feed line of every kind of event the MMA engine makes, as the players read it in the action feed."""

from __future__ import annotations

from rules.mma.ai import choose_action
from rules.mma.cards import card_named
from rules.mma.engine import apply_in_place, new_game, replay_rng
from rules.mma.state import NO_ONE, OVER, EndReason, Event
from rules.mma.text import describe, shared_fighters

# The first line of each kind in the AI's match against itself from seed 32 (a match with every kind in it),
# the card played and the damage marked <so>.
FIRST_LINE_OF_EACH_KIND = {
    "deploy": "Ann sends in <Dricus Du Plessis> (40 stamina)",
    "turn": "— Ann, turn 1: 8 energy",
    "draw": "Ann draws (69 left in deck)",
    "strike": "Ann: <Heavy Hook> hits Max Holloway for <9> (8 card + 8 STR − 7 DEF = 9) → stamina 36",
    "end_turn": None,
    "takedown": "Bob: <Clinch> stuffed (50% + 10% × (8 − 7) = 60%; rolled 81, needs under 60)",
    "coach": "Ann: <Master Coach>, +1 striking, grappling and defense for good (now +1)",
    "submission": (
        "Bob: <Armbar> on Dricus Du Plessis for <7> "
        "(base 7 from bottom (60% of 12) + 6 GRP − 8 GRP = 5 → at least 7) → stamina 0"
    ),
    "knockout": "💥 <KO!> Dricus Du Plessis is out; Ann loses 20 health (80 left)",
    "medic": "Bob: <Ringside Medic>, +10 stamina → 19",
    "stagger": "Khamzat Chimaev is staggered: Ann skips the next turn",
    "staggered": "Khamzat Chimaev is staggered: Ann skips this turn",
    "guard": "Ann readies <Parry>",
    "counter": "Bob's <Slip Counter> counters for <4> → attacker stamina 21",
    "training": "Bob: <Intense Training>, +3 striking waiting for the next strike",
    "bleeding": "Charles Oliveira is cut: bleeds 2 a turn for 2 turns",
    "bleed": "Charles Oliveira bleeds for 2 (1 tick left) → stamina 13",
    "skip_draw": "Ann skips the draw",
    "draw_failed": "Bob cannot draw: only fighters left in the deck and two already in hand",
    "over": "🏁 Draw — Judges' decision",
}


def test_every_kind_of_event_has_its_line():
    state, events = new_game(32)
    first: dict[str, str | None] = {}

    def read(events: list[Event]) -> None:
        for event in events:
            if event.kind not in first:
                first[event.kind] = describe(event, ("Ann", "Bob"), shared_fighters(state), "<{}>".format)

    read(events)
    while state.phase != OVER:
        read(apply_in_place(state, choose_action(state, state.to_move, replay_rng(state)), replay_rng(state)))
    assert first == FIRST_LINE_OF_EACH_KIND


def test_the_lines_a_seeded_match_leaves_out():
    block, parry, jab = (card_named(name).id for name in ("Block", "Parry", "Quick Jab"))
    lines = [
        describe(event, ("Ann", "Bob"))
        for event in (
            Event("guard", 1, parry, {"replaced": block, "energy": 3}),
            Event("draw", 0, jab, {"discarded": block, "fighters_skipped": 1, "deck": 40}),
            Event("over", 1, NO_ONE, {"reason": EndReason.DECK_OUT}),
            Event("mystery", 0),  # a kind without a line of its own is named as it is
        )
    ]
    assert lines == [
        "Bob readies Parry (replaces Block)",
        "Ann draws (40 left in deck); 1 fighter passed under the deck; full hand: discards the oldest card, Block",
        "🏆 Bob wins — Deck Out",
        "Ann: mystery",
    ]
