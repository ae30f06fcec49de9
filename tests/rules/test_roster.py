"""rules.roster: one name key, one merge and one lookup for every game whose guilds add to its roster."""

import pytest

from rules.andor.bestiary import find_monster, merged
from rules.bossfight import BUILTIN_BOSSES, find_boss, guild_roster, parse_bosses
from rules.roster import NotInRoster, find, merge, name_key


def test_names_are_keyed_ignoring_case_and_runs_of_spaces():
    assert name_key("  Frost \t Wyrm ") == name_key("frost wyrm") == "frost wyrm"


def test_an_upload_replaces_the_builtin_of_that_name_and_new_ones_follow():
    header = (
        "name,level,element,health,physical_damage,physical_penetration,physical_resistance,"
        "magical_damage,magical_penetration,magical_resistance"
    )
    uploads = parse_bosses(f"{header}\ninu  DOGEMON,9,Fire,5,1,N,N,1,N,N\nFrost Wyrm,6,Water,10,1,N,N,1,N,N\n")
    roster = guild_roster(uploads)
    assert list(roster) == [name_key(b.name) for b in BUILTIN_BOSSES] + ["frost wyrm"]
    assert roster["inu dogemon"].name == "inu DOGEMON" and roster["inu dogemon"].level == 9
    assert merge(BUILTIN_BOSSES, ()) == guild_roster(())


def test_find_takes_the_exact_name_then_the_only_one_containing_it():
    book = guild_roster(())
    assert find_boss(book, " INU   dogemon").name == "Inu Dogemon"
    assert find_boss(book, "dogemon").name == "Inu Dogemon"


def test_find_refuses_with_up_to_five_close_names_as_spelled_in_the_roster():
    with pytest.raises(NotInRoster) as missing:
        find_monster(merged([]), "Wolff")
    assert (missing.value.kind, missing.value.name, missing.value.suggestions) == ("monster", "Wolff", ["Wolf"])
    assert str(missing.value) == "there is no monster called 'Wolff'; did you mean Wolf?"
    with pytest.raises(NotInRoster) as several:
        find(merged([]), "snake", kind="monster")  # two names contain it: both offered, none chosen
    assert several.value.suggestions == ["Cave snake", "Snake master"]
    with pytest.raises(NotInRoster) as none:
        find(guild_roster(()), "Xyzzy", kind="boss")
    assert str(none.value) == "there is no boss called 'Xyzzy'" and none.value.suggestions == []
