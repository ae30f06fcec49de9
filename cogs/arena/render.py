"""The profile embed: one field per game with what it stores of the member, and where to see more."""

from __future__ import annotations

import discord

from cogs.arena.items import FORGET, GAME, KEEP, ForgetButton
from cogs.common import COLOR_DEFEAT, COLOR_INFO, fit_embed, markdown_safe
from cogs.common.web_links import server_path
from cogs.deck.render import measured
from rules.text import format_number, noun_for, plural
from storage.andor_tables import AndorProfile
from storage.bossfight import RaidTotals
from storage.deck import DeckProfile
from storage.guild_settings import GuildSettings
from storage.member_data import FORMER_MEMBER_NAME, LiveGames, MemberData
from storage.mma import MmaProfile
from storage.profile import Profile
from storage.tables import ProfilePart

NAME_LIMIT = 40
SEE_MORE = (
    "`/mma stats` · `/mma leaderboard` · `/bossfight status` · `/bossfight history` · "
    "`/andor character show` · `/deck optimize`"
)
START_WITH = "`/mma ai`, `/mma challenge`, `/bossfight attack`, `/andor fight` or `/deck optimize`"


def mma_text(profile: MmaProfile) -> str:
    rating, tallies = profile.rating, profile.matches
    overall, ai = tallies.overall, tallies.against_ai
    if rating.games:
        rated = (
            f"Rating **{rating.text_with_deviation()}** after {plural(rating.games, 'rated match', 'rated matches')}"
        )
    else:
        rated = "Not rated yet: a match between two members rates both"
    if not overall.played:
        return f"{rated}\nNo finished matches yet."
    return (
        f"{rated}\n**{overall.wins:,}** {noun_for(overall.wins, 'win')} · **{overall.losses:,}** "
        f"{noun_for(overall.losses, 'loss', 'losses')} · **{overall.draws:,}** {noun_for(overall.draws, 'draw')}; "
        f"against the AI {ai.wins}–{ai.losses}"
    )


def raid_text(raids: RaidTotals) -> str:
    if not raids.attacks:
        return "No attacks yet."
    return (
        f"**{format_number(round(raids.damage, 2))}** damage dealt in {plural(raids.attacks, 'attack')} "
        f"over {plural(raids.raids, 'raid')}\n"
        f"**{raids.bosses_felled:,}** {noun_for(raids.bosses_felled, 'boss', 'bosses')} felled (final blows) · "
        f"knocked out {plural(raids.knockouts, 'time')}"
    )


def andor_text(profile: AndorProfile) -> str:
    c, fights = profile.character, profile.fights
    parties = profile.parties
    if c is None and not fights.fights and not parties.fought:
        return "No character or fights yet."
    lines: list[str] = []
    if c is None:
        lines.append("No character stored (reset): the next fight starts a level 1 one.")
    else:
        lines.append(
            f"Level **{c.level}** ({c.xp}/{c.xp_to_next_level} XP) · **{c.gold:,}** gold · "
            f"**{c.potions}** {noun_for(c.potions, 'potion')}"
        )
    if fights.fights:
        ends = [
            (fights.ends.wins, "won"),
            (fights.ends.losses, "lost"),
            (fights.fled, "fled"),
            (fights.ends.draws, "drawn"),
        ]
        lines.append(
            f"**{fights.kills:,}** {noun_for(fights.kills, 'kill')} in {plural(fights.fights, 'fight')}: "
            + ", ".join(f"{count:,} {how}" for count, how in ends if count)
        )
    else:
        lines.append("No fights yet.")
    if parties.fought:
        lines.append(f"**{parties.fought:,}** {noun_for(parties.fought, 'party fight')}: the party won {parties.won:,}")
    return "\n".join(lines)


def deck_text(profile: DeckProfile) -> str:
    best = profile.best
    if best is None:
        return "No optimization yet."
    opponent = "a random deck from the seed" if best.opponent_file is None else markdown_safe(best.opponent_file)
    iterations = (
        f"{best.iterations:,}"
        if best.iterations_done == best.iterations
        else f"{best.iterations_done:,}/{best.iterations:,}"
    )
    return (
        f"Best winrate {measured(best.score, bold=True)}\n"
        f"against {opponent} · seed {best.seed} · {iterations} {noun_for(best.iterations, 'iteration')} × "
        f"{plural(best.games, 'game')}"
    )


def part_field(part: ProfilePart) -> tuple[str, str]:
    """A game's part of the profile (storage/tables.py, `Tables.profile`) as its field: name and text."""
    match part:
        case MmaProfile():
            return "🥊 MMA Warriors", mma_text(part)
        case RaidTotals():
            return "🐉 Boss raids", raid_text(part)
        case AndorProfile():
            return "🗺️ Andor's Trail", andor_text(part)
        case DeckProfile():
            return "🃏 Deck optimizer", deck_text(part)
        case _:
            raise TypeError(f"no profile field words {type(part).__name__}")


def profile_embed(display_name: str, profile: Profile) -> discord.Embed:
    """The member's profile; `display_name` as they typed it (escaped here)."""
    name = markdown_safe(display_name, NAME_LIMIT)
    embed = discord.Embed(title=f"🏟️ {name} in this server", color=COLOR_INFO)
    if profile.empty:
        embed.description = f"{name} has not played here yet. Every game is one command away: {START_WITH}."
    for part in profile.parts:
        name, value = part_field(part)
        embed.add_field(name=name, value=value, inline=False)
    embed.add_field(name="See more", value=SEE_MORE, inline=False)
    return fit_embed(embed)


def gm_role_text(settings: GuildSettings, default_role: str | None) -> str:
    """Who counts as a game master here: the server's role (a mention: Discord shows its name, and embeds never
    ping), else the bot's GM_ROLE by name, else Manage Server alone."""
    if settings.gm_role_id is not None:
        return f"<@&{settings.gm_role_id}> (set for this server)"
    if default_role:
        return f"**{markdown_safe(default_role)}** (by name: the bot's default, GM_ROLE, as this server set none)"
    return "None set: only members with Manage Server (the bot has no default GM_ROLE)"


def web_pages_text(settings: GuildSettings, base_url: str | None, guild_id: int) -> str:
    """Whether the server's pages are on the web, and where."""
    if not settings.web_pages:
        return "Off: `/arena-settings web_pages:True` turns them on (members can still hide their own)"
    if base_url is None:
        return "On, but the bot has no WEB_BASE_URL: its owner has not said where its pages are served"
    return f"On: {base_url}{server_path(guild_id)}"


def settings_embed(
    settings: GuildSettings,
    default_role: str | None,
    done: str | None = None,
    base_url: str | None = None,
    guild_id: int = 0,
) -> discord.Embed:
    """The server's settings; `done` says what the command just changed."""
    embed = discord.Embed(title="⚙️ Arena settings in this server", description=done, color=COLOR_INFO)
    embed.add_field(name="Game-master role", value=gm_role_text(settings, default_role), inline=False)
    embed.add_field(name="Andor party turn", value=f"{settings.party_turn_seconds} s", inline=False)
    embed.add_field(name="Web pages", value=web_pages_text(settings, base_url, guild_id), inline=False)
    channel = settings.world_boss_channel_id
    embed.add_field(
        name="World-boss channel",
        value=f"<#{channel}>: world bosses are announced and fought there" if channel else "None: not taking part",
        inline=False,
    )
    embed.set_footer(text="Members with Manage Server are always game masters.")
    return fit_embed(embed)


MY_DATA_FILE = "arena-my-data.json"
LIVE_GAME_WAYS = "a match's Concede button, a fight's Flee, or decline the challenge"  # every refusal gives them
KEPT_FOR_OTHERS = (
    "Matches, raids and battles you shared stay for the others, with you shown as "
    f'"{FORMER_MEMBER_NAME}", and the rating changes your matches gave your opponents stand.'
)


def stored_lines(data: MemberData) -> str:
    return "\n".join(f"- {label}: **{count:,}**" for label, count in data.counts())


def my_data_summary(data: MemberData) -> str:
    """The message beside /arena my-data's file."""
    if data.empty:
        return "Arena keeps nothing about you in this server."
    rows = sum(count for _, count in data.counts())
    return (
        f"📦 Everything Arena keeps about you in this server, {plural(rows, 'row')} in `{MY_DATA_FILE}`:\n"
        f"{stored_lines(data)}\nRows you share with others (a match, a battle) are in it whole. "
        "`/arena forget-me` erases yours."
    )


def live_games_text(live: LiveGames) -> str:
    """The refusal: the member's games going on, counted as each game declares them (storage/tables.py, Going),
    and the ways to end them."""
    going = [(kind, count) for _, kind, count in live.going if count]
    ways = "; ".join([LIVE_GAME_WAYS, *(kind.advice for kind, _ in going if kind.advice)])
    return (
        f"You have {' and '.join(plural(count, kind.noun, kind.nouns) for kind, count in going)} going in this "
        f"server, so nothing was erased: finish them first ({ways}), then run `/arena forget-me` again."
    )


def forget_embed(data: MemberData) -> discord.Embed:
    """The confirmation: what would be erased, and what stays for the others."""
    embed = discord.Embed(
        title="🗑️ Erase what Arena keeps about you in this server?",
        description=(
            f"{stored_lines(data)}\n\nYour rating, records, character, saved deck, results and uploads are deleted "
            f"(bosses and monsters you uploaded leave this server's roster). {KEPT_FOR_OTHERS} "
            "This cannot be undone; `/arena my-data` gives you a copy first."
        ),
        color=COLOR_DEFEAT,
    )
    return fit_embed(embed)


def forget_view(user_id: int, fingerprint: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        ForgetButton.make(
            GAME, user_id, fingerprint, FORGET, label="Erase my data here", style=discord.ButtonStyle.danger
        )
    )
    view.add_item(ForgetButton.make(GAME, user_id, fingerprint, KEEP, label="Keep it"))
    return view


def erased_embed(erased: MemberData) -> discord.Embed:
    embed = discord.Embed(
        title="✅ Erased what Arena kept about you in this server",
        description=f"{stored_lines(erased)}\n\n{KEPT_FOR_OTHERS}",
        color=COLOR_INFO,
    )
    return fit_embed(embed)
