"""What every cog shares: attachments, the GM check, error replies, embeds within limits, progress, the executor."""

from cogs.common.attachments import MAX_ATTACHMENT_BYTES, defer_thinking, read_attachments, read_text_attachment
from cogs.common.checks import gm_only, is_gm, require_gm
from cogs.common.embeds import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    bold,
    clip,
    fit_embed,
    hp_bar,
    hp_figure,
    lines_within,
    markdown_safe,
    medal_lines,
    mention,
    seed_footer,
    tail_within,
    text_file,
)
from cogs.common.errors import ArenaTree, UserError, answer_shown, error_reply, report_error, told_if_stopped
from cogs.common.executor import run_engine, run_long_engine
from cogs.common.progress import ProgressMessage, progress_bar, show_result

__all__ = [
    "COLOR_DEFEAT",
    "COLOR_INFO",
    "COLOR_VICTORY",
    "MAX_ATTACHMENT_BYTES",
    "ArenaTree",
    "EmbedLimits",
    "ProgressMessage",
    "UserError",
    "answer_shown",
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
