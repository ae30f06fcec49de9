"""The fonts every chart draws its text in, so that a name is drawn as its member wrote it, in any script.

matplotlib's own DejaVu Sans draws Latin, Greek and Cyrillic; for the rest, the fonts come with the install, from
two packages pinned in requirements.txt (both under the SIL Open Font License, nothing fetched at run time):
`manimgx-fonts` (Noto Sans's faces for Arabic, Hebrew, Devanagari, Thai, Noto Sans Symbols and the monochrome
Noto Emoji, among others) and `noto-cjk-sans-otc` (Noto Sans CJK Regular: Japanese, Chinese simplified and
traditional, Korean). matplotlib falls back from one family of `FAMILIES` to the next, glyph by glyph, and lays a
line out with its libraqm (HarfBuzz shaping, the Unicode bidirectional algorithm): Arabic letters joined, Hebrew
and Arabic right to left, Devanagari's vowel signs in place. Every family of the chain costs each text drawn a
lookup (24 of them made a crosstable 40% slower to draw), so the chain holds these scripts alone; the package's
other faces are registered but not in it.

`use_chart_fonts()` registers the files with matplotlib once, on the first chart (not at import: the bot starts
without matplotlib), and makes `FAMILIES` the default; every chart calls it before it draws, but for one that gives
each text its fonts (`families_for`, as the /deck chart): that one calls `use_first_font()`, and the files are
registered when one of its texts first needs them. `drawable(text)` is a user's text as the chart will draw it:
each character no font has becomes `STAND_IN`, visibly, where matplotlib would draw an empty box and log a warning.
"""

from __future__ import annotations

import dataclasses
import threading
import unicodedata
from pathlib import Path

FAMILIES = (
    "DejaVu Sans",  # matplotlib's own: Latin, Greek, Cyrillic (the charts' look is unchanged)
    "Noto Sans CJK JP",  # its one face maps every ideograph, kana and hangul (Chinese and Korean as well)
    "Noto Sans Arabic",
    "Noto Sans Hebrew",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
    "Noto Sans Symbols",
    "Noto Emoji",
)
FONT_PACKAGES = ("manimgx_fonts", "noto_cjk_sans_otc")
STAND_IN = "\ufffd"  # the replacement character "�": DejaVu Sans draws it


def _font_files() -> list[Path]:
    from importlib.resources import files  # here: 4 ms of each start importing a chart module; the first chart needs it

    found: list[Path] = []
    for package in FONT_PACKAGES:
        folder = Path(str(files(package)))
        found += sorted(path for path in folder.iterdir() if path.suffix in (".ttf", ".otf", ".ttc"))
    return found


_registering = threading.RLock()
_drawn: frozenset[int] | None = None
_drawn_by_the_first: frozenset[int] | None = None  # the code points FAMILIES[0] draws alone


def use_first_font() -> frozenset[int]:
    """Set up what a chart needs when `FAMILIES[0]` draws all its texts (numbers, labels, a Latin title): the
    charts' glyph rendering, without registering the other fonts, which costs a process's first chart about
    40 ms (the command line's /deck run waited 30-50 ms more for it). Returns the code points `FAMILIES[0]`
    draws."""
    global _drawn_by_the_first
    with _registering:
        if _drawn_by_the_first is None:
            import matplotlib
            from matplotlib import font_manager
            from matplotlib.ft2font import FT2Font

            # Glyphs drawn as their outlines, without FreeType's autohinter fitting each to the pixel grid: a
            # quarter less time a chart (a /deck chart, 53 against 40 ms), text as soft as a browser draws it.
            matplotlib.rcParams["text.hinting"] = "no_hinting"
            path = font_manager.fontManager.findfont(  # pyright: ignore[reportUnknownMemberType]
                font_manager.FontProperties(family=FAMILIES[0]), fallback_to_default=False
            )
            _drawn_by_the_first = frozenset(FT2Font(path).get_charmap())
        return _drawn_by_the_first


def use_chart_fonts() -> frozenset[int]:
    """Register the fonts with matplotlib and make `FAMILIES` its default, once (charts are drawn in worker
    threads: the first two at once register them once). Returns the code points some font of `FAMILIES` draws."""
    global _drawn
    with _registering:
        if _drawn is None:
            _drawn = _register()
        return _drawn


def _register() -> frozenset[int]:
    import matplotlib
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    drawn = set(use_first_font())
    manager = font_manager.fontManager
    # the ignores: matplotlib's stubs type a path as PathLike without its parameter
    for path in _font_files():
        manager.addfont(path)  # pyright: ignore[reportUnknownMemberType]
    # Each of these files has one weight (a variable font is drawn at its default). A bold text (a title, a
    # header) falls back to it for the characters DejaVu Sans Bold lacks: registered as bold too, it is chosen
    # without matplotlib warning that it found no bold.
    ours = [entry for entry in manager.ttflist if entry.name in FAMILIES and entry.name != "DejaVu Sans"]
    bold = {entry.name for entry in ours if entry.weight == 700}
    manager.ttflist += [dataclasses.replace(entry, weight=700) for entry in ours if entry.name not in bold]
    # after the list's changes: findfont's cache is keyed by the rcParams, so no lookup made before is reused
    matplotlib.rcParams["font.family"] = list(FAMILIES)
    for family in FAMILIES[1:]:
        path = manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)  # pyright: ignore[reportUnknownMemberType]
        drawn.update(FT2Font(path, face_index=path.face_index).get_charmap())
    return frozenset(drawn)


def _invisible(character: str) -> bool:
    """A character laid out without a glyph of its own: a joiner, a direction mark (Unicode's format characters), a
    selector of an ideograph's form."""
    return unicodedata.category(character) == "Cf" or 0xE0100 <= ord(character) <= 0xE01EF


def _first_font_draws(*texts: str) -> bool:
    """Whether `FAMILIES[0]` alone draws every character of `texts` (the other fonts are not registered for it)."""
    first = use_first_font()
    return all(ord(character) in first for text in texts for character in text)


def families_for(*texts: str) -> list[str]:
    """The fonts to draw `texts` in: DejaVu Sans alone when it has every character of them, else `FAMILIES`.
    matplotlib looks every family of the list up for every text it lays out: for a chart whose texts are all
    Latin (numbers, labels), one family instead of eight saved a tenth of its time. The other fonts are
    registered when a text first needs them."""
    if _first_font_draws(*texts):
        return [FAMILIES[0]]
    use_chart_fonts()
    return list(FAMILIES)


def drawable(text: str) -> str:
    """`text` as a chart draws it: each character that no font of `FAMILIES` has is `STAND_IN`."""
    if _first_font_draws(text):
        return text
    drawn = use_chart_fonts()
    return "".join(character if ord(character) in drawn or _invisible(character) else STAND_IN for character in text)


__all__ = ["FAMILIES", "STAND_IN", "drawable", "families_for", "use_chart_fonts", "use_first_font"]
