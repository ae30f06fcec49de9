"""The MMA Warriors card list: 15 fighters, 24 techniques, 3 corner cards, and the 75-card deck.

Cards are identified by a small integer id (their index in CARDS); fighters come first, so
`card_id < FIGHTER_COUNT` is the fighter test the hot loop uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Card kinds.
FIGHTER = "fighter"
STRIKE = "strike"
GROUND_AND_POUND_KIND = "ground_and_pound"
TAKEDOWN = "takedown"
SUBMISSION = "submission"
DEFENSE = "defense"
CORNER = "corner"

# Fighter styles.
STRIKER = "Striker"
GRAPPLER = "Grappler"
BALANCED = "Balanced"

STYLE_BONUS = 2  # Striker: +2 strike damage; Grappler: +2 takedown score and +2 submission damage


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    kind: str
    cost: int = 0
    damage: int = 0  # strike, takedown impact or submission base damage
    bonus: int = 0  # takedown score bonus
    reduction: int = 0  # defense cards: damage taken off the next attack
    effect: str = ""  # bleed, stagger, parry, slip, coach, training, medic
    style: str = ""  # fighters only
    striking: int = 0
    grappling: int = 0
    defense: int = 0
    stamina: int = 0

    @property
    def is_fighter(self) -> bool:
        return self.kind == FIGHTER

    def summary(self) -> str:
        """One line (under 100 characters) saying what the card does."""
        if self.kind == FIGHTER:
            return f"{self.style} · STR {self.striking} GRP {self.grappling} DEF {self.defense} STA {self.stamina}"
        head = f"{self.cost} energy · "
        if self.kind == STRIKE:
            extra = {
                "bleed": " + bleed (2 damage for 2 turns)",
                "stagger": ", opponent skips next turn",
            }.get(self.effect, "")
            return f"{head}strike, {self.damage} damage{extra}"
        if self.kind == GROUND_AND_POUND_KIND:
            return f"{head}{self.damage} damage + 3 + GRP/4, needs advantage, stays on the ground"
        if self.kind == TAKEDOWN:
            return f"{head}takedown +{self.bonus}, {self.damage} damage on success"
        if self.kind == SUBMISSION:
            return f"{head}submission, {self.damage} base damage (60% from bottom), needs ground"
        if self.kind == DEFENSE:
            counter = {"parry": ", counter 3 + STR/4", "slip": ", counter 4"}.get(self.effect, "")
            return f"{head}next attack -{self.reduction} damage{counter}"
        return (
            head
            + {
                "coach": "+1 striking, grappling, defense for good; draw 1",
                "training": "+3 striking until your next strike",
                "medic": "restore 10 stamina",
            }[self.effect]
        )


_FIGHTERS = [
    # name, style, striking, grappling, defense, stamina (RULINGS 3)
    ("Ilia Topuria", BALANCED, 9, 7, 7, 38),
    ("Islam Makhachev", GRAPPLER, 6, 10, 8, 40),
    ("Merab Dvalishvili", GRAPPLER, 6, 9, 7, 45),
    ("Khamzat Chimaev", GRAPPLER, 8, 9, 7, 38),
    ("Alexandre Pantoja", GRAPPLER, 6, 9, 7, 38),
    ("Alex Pereira", STRIKER, 10, 4, 6, 34),
    ("Alexander Volkanovski", BALANCED, 8, 8, 9, 42),
    ("Jack Della Maddalena", STRIKER, 9, 5, 6, 35),
    ("Tom Aspinall", BALANCED, 9, 7, 7, 38),
    ("Dricus Du Plessis", BALANCED, 8, 7, 7, 40),
    ("Magomed Ankalaev", BALANCED, 7, 8, 8, 40),
    ("Max Holloway", STRIKER, 9, 6, 7, 45),
    ("Belal Muhammad", GRAPPLER, 6, 9, 8, 42),
    ("Arman Tsarukyan", BALANCED, 7, 8, 7, 38),
    ("Charles Oliveira", GRAPPLER, 7, 10, 6, 36),
]

_TECHNIQUES: list[tuple[str, str, int, int, dict[str, Any]]] = [
    # name, kind, cost, damage, extra fields
    ("Quick Jab", STRIKE, 1, 3, {}),
    ("Teep Kick", STRIKE, 1, 3, {}),
    ("Leg Kick", STRIKE, 2, 4, {}),
    ("Body Shot", STRIKE, 2, 4, {}),
    ("Power Cross", STRIKE, 3, 6, {}),
    ("Cutting Elbow", STRIKE, 3, 5, {"effect": "bleed"}),
    ("Uppercut", STRIKE, 3, 6, {}),
    ("Heavy Hook", STRIKE, 4, 8, {}),
    ("Spinning Back Fist", STRIKE, 4, 7, {"effect": "stagger"}),
    ("Head Kick", STRIKE, 4, 10, {}),
    ("Ground and Pound", GROUND_AND_POUND_KIND, 2, 6, {}),
    ("Clinch", TAKEDOWN, 2, 1, {"bonus": 2}),
    ("Single Leg Takedown", TAKEDOWN, 2, 2, {"bonus": 2}),
    ("Double Leg Takedown", TAKEDOWN, 3, 3, {"bonus": 3}),
    ("Suplex", TAKEDOWN, 4, 5, {"bonus": 4}),
    ("Guillotine Choke", SUBMISSION, 3, 10, {}),
    ("Kimura", SUBMISSION, 3, 11, {}),
    ("Armbar", SUBMISSION, 4, 12, {}),
    ("Triangle Choke", SUBMISSION, 4, 13, {}),
    ("D'Arce Choke", SUBMISSION, 4, 14, {}),
    ("Rear Naked Choke", SUBMISSION, 5, 15, {}),
    ("Block", DEFENSE, 1, 0, {"reduction": 5}),
    ("Parry", DEFENSE, 2, 0, {"reduction": 3, "effect": "parry"}),
    ("Slip Counter", DEFENSE, 2, 0, {"reduction": 8, "effect": "slip"}),
]

_CORNERS = [
    ("Master Coach", 3, "coach"),
    ("Intense Training", 2, "training"),
    ("Ringside Medic", 2, "medic"),
]


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for name, style, striking, grappling, defense, stamina in _FIGHTERS:
        cards.append(
            Card(
                len(cards),
                name,
                FIGHTER,
                style=style,
                striking=striking,
                grappling=grappling,
                defense=defense,
                stamina=stamina,
            )
        )
    for name, kind, cost, damage, extra in _TECHNIQUES:
        cards.append(Card(len(cards), name, kind, cost=cost, damage=damage, **extra))
    for name, cost, effect in _CORNERS:
        cards.append(Card(len(cards), name, CORNER, cost=cost, effect=effect))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
BY_NAME: dict[str, Card] = {card.name.lower(): card for card in CARDS}
FIGHTER_COUNT = len(_FIGHTERS)

FIGHTER_COPIES, TECHNIQUE_COPIES, CORNER_COPIES = 1, 2, 4
DECK_LIST: tuple[int, ...] = tuple(
    card.id
    for card in CARDS
    for _ in range(
        FIGHTER_COPIES if card.kind == FIGHTER else CORNER_COPIES if card.kind == CORNER else TECHNIQUE_COPIES
    )
)
DECK_SIZE = len(DECK_LIST)  # 75


def card_named(name: str) -> Card:
    """The card with this name (case-insensitive); KeyError names the card when there is none."""
    try:
        return BY_NAME[name.lower()]
    except KeyError:
        raise KeyError(f"no card named {name!r}") from None


GROUND_AND_POUND = card_named("Ground and Pound").id
MASTER_COACH = card_named("Master Coach").id
INTENSE_TRAINING = card_named("Intense Training").id
RINGSIDE_MEDIC = card_named("Ringside Medic").id
