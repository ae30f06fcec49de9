"""The offline Discord: a fake of Discord's HTTP API that holds the bot to Discord's limits and its OpenAPI
description (fake_discord, discord_limits, api_schema over the vendored discord_api_spec/), and the harness
that drives the real bot through it (harness). The tests and the benchmarks both run the bot on it; it is not
part of the bot. How to use it: tests/README.md."""
