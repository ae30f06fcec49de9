"""What a party fight shows: its one message (the sign-up, then the fight) and the call of the member whose turn
begins."""

from __future__ import annotations

import discord

from cogs.andor.items import party_button, party_target_select
from cogs.andor.render import STATUS_COLORS
from cogs.common import (
    COLOR_INFO,
    EmbedLimits,
    bold,
    clip,
    fit_embed,
    hp_bar,
    markdown_safe,
    mention,
    seed_footer,
    tail_within,
)
from rules.andor.models import FLEE_CHANCE, Monster
from rules.andor.party import ATTACK, FLEE, MAX_MEMBERS, MIN_MEMBERS, POTION, PartyMember, PartyState, legal_actions
from rules.andor.party_simulate import PartyOdds
from rules.andor.party_text import describe_party_event
from rules.andor.text import percent
from rules.text import plural
from storage.andor import FightStatus
from storage.andor_party import Party, PartyMemberRow, PartyStatus

RESULTS = {
    PartyStatus.WON: "🏆 **Victory for the party!**",
    PartyStatus.LOST: "💀 **The party is defeated.** The knocked out lose 30% of their level's XP.",
    PartyStatus.FLED: "🏃 **The party left the fight.** Everyone keeps what they gained.",
    PartyStatus.DRAW: "🤝 **A draw:** 20 rounds without damage.",
    PartyStatus.LAPSED: "⌛ **The sign-up closed** without a fight.",
}
MEMBER_MARKS = {"knocked_out": "💀 knocked out", "fled": "🏃 fled", "removed": "🚪 left"}


def monster_title(monster: Monster, count: int) -> str:
    return markdown_safe(monster.name) + (f" ×{count}" if count > 1 else "")


def party_title(party: Party) -> str:
    return f"⚔️ Party vs {monster_title(party.monster, party.monster_count)}"


def party_link(party: Party) -> str:
    return f"https://discord.com/channels/{party.guild_id}/{party.channel_id}/{party.message_id}"


def time_left(deadline: float) -> str:
    """Discord's relative time, which counts down in every reader's client."""
    return f"<t:{int(deadline)}:R>"


def party_embed(party: Party) -> discord.Embed:
    """The party's message: its sign-up, its fight as it goes, or how it ended."""
    if party.state is None:
        return signup_embed(party)
    return fight_embed(party, party.state)


def signup_embed(party: Party) -> discord.Embed:
    lines = [f"{i}. {mention(m.user_id)}" for i, m in enumerate(party.members, 1)]
    if party.status == PartyStatus.SIGNUP:
        head = (
            f"{mention(party.opener_id)} opens a party fight: {MIN_MEMBERS} to {MAX_MEMBERS} members, each with their "
            f"own character. **Join**, then the opener presses **Start**. With fewer than {MIN_MEMBERS} the sign-up "
            f"closes {time_left(party.deadline)}."
        )
    else:
        head = RESULTS[party.status]
    embed = discord.Embed(title=party_title(party), description=head, color=STATUS_COLORS[FightStatus.LIVE])
    embed.add_field(name=f"Members ({len(party.members)}/{MAX_MEMBERS})", value="\n".join(lines) or "-", inline=False)
    embed.set_footer(text=seed_footer(party.seed, f"party #{party.id}"))
    return fit_embed(embed)


def member_line(party: Party, state: PartyState, index: int, row: PartyMemberRow | None) -> str:
    member = state.members[index]
    fighter = member.fighter
    live = party.status == PartyStatus.LIVE
    turn = live and index == state.turn
    line = f"{'▶️ ' if turn else ''}{mention(member.user_id)} HP {hp_bar(fighter.hp, fighter.max_hp, 10)}"
    if member.standing and live:
        ap = state.ap_left if turn else fighter.ap
        line += f" · AP {ap}/{fighter.ap} · 🧪 {fighter.potions}"
    if member.status in MEMBER_MARKS:
        line += f" · {MEMBER_MARKS[member.status]}"
    if row is not None and row.xp_change is not None:
        line += f" · {row.xp_change:+} XP, +{plural(member.gold_gained, 'gold piece')}"
    elif member.xp_gained or member.gold_gained:
        line += f" · +{member.xp_gained} XP, +{member.gold_gained} gold so far"
    return line


def fight_embed(party: Party, state: PartyState) -> discord.Embed:
    rows = {m.user_id: m for m in party.members}
    head: list[str] = [] if party.status == PartyStatus.LIVE else [RESULTS[party.status]]
    head += [member_line(party, state, i, rows.get(m.user_id)) for i, m in enumerate(state.members)]
    if party.status == PartyStatus.LIVE:
        head.append(f"\n**{markdown_safe(state.current.fighter.name)}'s turn**, ends {time_left(party.deadline)}.")
    feed = [describe_party_event(e, markdown_safe, bold) for e in state.feed]
    description = "\n".join(head) + "\n\n**Latest**\n"
    description += tail_within(feed, EmbedLimits.DESCRIPTION - len(description) - 10)
    embed = discord.Embed(
        title=party_title(party), description=description, color=STATUS_COLORS[FightStatus(_fight_status(party))]
    )
    for index, monster in enumerate(state.monsters):
        aimed = party.status == PartyStatus.LIVE and index == state.target and monster.alive
        embed.add_field(
            name=f"{'🎯 ' if aimed and len(state.monsters) > 1 else ''}{markdown_safe(monster.name)}",
            value=hp_bar(monster.hp, monster.max_hp, 10) if monster.alive else "☠️ defeated",
            inline=True,
        )
    embed.set_footer(text=seed_footer(party.seed, f"round {state.round}", f"party #{party.id}"))
    return fit_embed(embed)


def _fight_status(party: Party) -> str:
    return FightStatus.LIVE if party.status in (PartyStatus.SIGNUP, PartyStatus.LAPSED) else party.status.value


def party_view(party: Party) -> discord.ui.View:
    """The sign-up's Join, Leave and Start; the fight's buttons for the member whose turn it is; none once over."""
    view = discord.ui.View(timeout=None)
    if party.status == PartyStatus.SIGNUP:
        full = len(party.members) >= MAX_MEMBERS
        view.add_item(
            party_button(party.id, party.version, "join", "Join", discord.ButtonStyle.success, enabled=not full)
        )
        view.add_item(party_button(party.id, party.version, "leave", "Leave", discord.ButtonStyle.secondary))
        ready = len(party.members) >= MIN_MEMBERS
        view.add_item(
            party_button(party.id, party.version, "start", "Start", discord.ButtonStyle.primary, enabled=ready)
        )
    elif party.status == PartyStatus.LIVE and party.state is not None:
        _fight_items(view, party, party.state)
    return view


def _fight_items(view: discord.ui.View, party: Party, state: PartyState) -> None:
    legal = legal_actions(state, state.turn)
    living = [(i, m) for i, m in enumerate(state.monsters) if m.alive]
    if len(living) > 1:
        options = [
            discord.SelectOption(
                label=clip(f"{m.name} ({m.hp}/{m.max_hp} HP)", 100), value=str(i), default=i == state.target
            )
            for i, m in living
        ]
        view.add_item(party_target_select(party.id, party.version, options))
    member: PartyMember = state.current
    target = state.monsters[state.target]
    for action, label, style, enabled in (
        ("attack", clip(f"Attack {target.name}", 80), discord.ButtonStyle.danger, ATTACK in legal),
        ("potion", f"Potion ({member.fighter.potions})", discord.ButtonStyle.success, POTION in legal),
        ("flee", f"Flee ({FLEE_CHANCE}%)", discord.ButtonStyle.secondary, FLEE in legal),
        ("end", "End turn", discord.ButtonStyle.primary, True),
    ):
        view.add_item(party_button(party.id, party.version, action, label, style, enabled=enabled))


def ping_text(party: Party, state: PartyState) -> str:
    """The call of the member whose turn begins: it mentions them alone."""
    return (
        f"{mention(state.current.user_id)}, your turn in the party fight against "
        f"{monster_title(party.monster, party.monster_count)}: {party_link(party)} (ends {time_left(party.deadline)})"
    )


def party_odds_embed(odds: PartyOdds, user_ids: list[int], monsters: str) -> discord.Embed:
    """/andor simulate members:…: the party's win rate, rounds, and each member's chance to be knocked out."""
    fights = odds.fights
    embed = discord.Embed(
        title=f"🎲 Party of {len(user_ids)} vs {monsters}",
        description=f"{plural(fights, 'fight')} played by the AI with each member's character.",
        color=COLOR_INFO,
    )
    drawn = f"{odds.draws:,}" + (f"; undecided {odds.undecided:,}" if odds.undecided else "")
    for name, value in [
        ("Win rate", f"{percent(odds.wins, fights)} ({odds.wins:,} won)"),
        ("Lost", f"{percent(odds.losses, fights)} ({odds.losses:,})"),
        ("Drawn", drawn),
        ("Mean rounds", f"{odds.mean_rounds:.2f}"),
    ]:
        embed.add_field(name=name, value=value, inline=True)
    knocked = [f"{mention(u)}: {percent(k, fights)}" for u, k in zip(user_ids, odds.knock_outs, strict=True)]
    embed.add_field(name="Knocked out", value="\n".join(knocked), inline=False)
    embed.set_footer(text=seed_footer(odds.seed, "potion at half HP, attack the weakest, never flee"))
    return fit_embed(embed)


def elsewhere_text(channel_id: int, message_id: int | None, guild: int, *, party: bool) -> str:
    """Said privately to a member who fights already: where."""
    what = "a party fight" if party else "a fight"
    where = f"https://discord.com/channels/{guild}/{channel_id}/{message_id}" if message_id else f"<#{channel_id}>"
    return f"You are already in {what}: {where}. Finish it (or flee) before another."
