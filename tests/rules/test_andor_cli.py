"""`python -m rules andor ...` from the shell."""

from rules.__main__ import main


def test_fight_prints_its_events_as_plain_text(capsys):
    # the bot shows CRITICAL and killed in bold; a terminal shows no markdown
    stats = [
        "--stat",
        "crit_chance=50",
        "--stat",
        "attack_chance=120",
        "--stat",
        "damage_min=3",
        "--stat",
        "damage_max=3",
    ]
    assert main(["andor", "fight", "--monster", "Tiny rat", "--seed", "3", *stats]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "seed 3",
        "Round 1: your turn, 10 AP",
        "You → Tiny rat: hit (rolled 24 ≤ 83%), damage 4 (rolled 3, CRITICAL (crit roll 37 ≤ 50%));"
        " killed: +3 XP, +0 gold pieces",
        "Victory (kills: +3 XP, +0 gold pieces)",
    ]
