"""What every cog shares: attachments, the GM check, error replies (the shell's, from arena.tree), embeds within
limits, progress, the executor."""

from arena.text import EmbedLimits, PlainLimits, as_written, clip, markdown_safe, plain_text
from arena.tree import UserError, answer_shown, error_reply, report_error
from cogs.common.attachments import MAX_ATTACHMENT_BYTES, defer_thinking, read_attachments, read_text_attachment
from cogs.common.checks import gm_only, is_gm, require_gm
from cogs.common.embeds import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    bold,
    fit_embed,
    hp_bar,
    hp_figure,
    lines_within,
    medal_lines,
    mention,
    seed_footer,
    tail_within,
    text_file,
)
from cogs.common.executor import run_engine, run_long_engine
from cogs.common.progress import ProgressMessage, progress_bar, show_result, told_if_stopped

__all__ = [
    "COLOR_DEFEAT",
    "COLOR_INFO",
    "COLOR_VICTORY",
    "MAX_ATTACHMENT_BYTES",
    "EmbedLimits",
    "PlainLimits",
    "ProgressMessage",
    "UserError",
    "answer_shown",
    "as_written",
    "bold",
    "clip",
    "defer_thinking",
    "error_reply",
    "fit_embed",
    "gm_only",
    "hp_bar",
    "hp_figure",
    "is_gm",
    "lines_within",
    "markdown_safe",
    "medal_lines",
    "mention",
    "plain_text",
    "progress_bar",
    "read_attachments",
    "read_text_attachment",
    "report_error",
    "require_gm",
    "run_engine",
    "run_long_engine",
    "seed_footer",
    "show_result",
    "tail_within",
    "text_file",
    "told_if_stopped",
]
