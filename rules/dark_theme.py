"""The colours of the charts drawn for Discord: its dark theme, so a picture sits in an embed as part of it."""

BACKGROUND = "#2b2d31"  # Discord's dark embed
TEXT = "#dbdee1"
MUTED = "#949ba4"
GRID = "#3f4147"
WIN = "#57f287"  # Discord's green
LOSS = "#ed4245"  # Discord's red
