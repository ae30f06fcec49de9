"""deploy/grafana/arena-dashboard.json and deploy/prometheus/alerts.yml against the bot's real /metrics: every
metric a panel or an alert queries is one the bot serves, so a renamed metric fails here, not on a dark graph."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from prometheus_client.parser import text_string_to_metric_families

from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot
from tests.cogs.test_observability import get, port_of
from tests.ops.conftest import DEPLOY
from tests.ops.test_alerts import PROMETHEUS, run

DASHBOARD = DEPLOY / "grafana" / "arena-dashboard.json"
# The metrics Arena serves: its own and prometheus-client's process and platform collectors. `up` and the
# like are Prometheus's own, and are not looked for in the bot's /metrics.
OURS = re.compile(r"\b(?:arena|process|python)_[a-zA-Z0-9_:]*")
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
# Grafana's variables, as Prometheus would see them once Grafana has put in their values.
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$instance": ".*"}


def dashboard() -> dict:
    return json.loads(DASHBOARD.read_text())


def panels() -> list[dict]:
    return [panel for panel in dashboard()["panels"] if panel["type"] != "row"]


def dashboard_queries() -> list[str]:
    queries = [target["expr"] for panel in panels() for target in panel["targets"]]
    return queries + [variable["definition"] for variable in dashboard()["templating"]["list"]]


def alert_queries() -> list[str]:
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


def metrics_in(query: str) -> set[str]:
    return set(OURS.findall(QUOTED.sub('""', query)))  # a label's value is no metric


def served_names(exposition: str) -> set[str]:
    """Every series name /metrics serves, a labelled metric with no series yet included (its HELP and TYPE)."""
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "info": ("_info",)}
    names: set[str] = set()
    for family in text_string_to_metric_families(exposition):
        names.update(family.name + suffix for suffix in suffixes.get(family.type, ("",)))
        names.update(sample.name for sample in family.samples)
    return names


async def test_every_metric_the_dashboard_and_the_alerts_query_is_served(tmp_path):
    fake, settings = FakeDiscord(), make_settings(tmp_path / "arena.sqlite3", metrics_port=0)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        await h.run("andor fight", h.alice, monster="Wolf", seed=1)  # an interaction, an engine job, a transaction
        status, exposition = await get(port_of(h), "/metrics")
    finally:
        await h.bot.close()
    assert status == 200
    served = served_names(exposition)
    for query in dashboard_queries() + alert_queries():
        assert metrics_in(query) - served == set(), query
    # and the check sees something: the process's memory, the gateway, Discord's answers are all queried
    queried = set().union(*map(metrics_in, dashboard_queries()))
    assert {"process_resident_memory_bytes", "arena_gateway_connected", "arena_discord_requests_total"} <= queried


def test_the_panels_an_operator_opens_first_are_there():
    queried = {metric for query in dashboard_queries() for metric in metrics_in(query)}
    assert queried >= {
        "arena_interactions_total",  # by game and outcome, and the error ratio
        "arena_interaction_first_response_seconds_bucket",
        "arena_gateway_connected",
        "arena_database_seconds_bucket",
        "arena_database_errors_total",
        "arena_engine_jobs_queued",
        "arena_discord_requests_total",
        "process_resident_memory_bytes",
    }


def test_the_dashboard_is_importable_into_grafana():
    board = dashboard()
    # Grafana's import asks for the data source its __inputs name, and puts it where ${DS_PROMETHEUS} stands.
    assert [source["name"] for source in board["__inputs"]] == ["DS_PROMETHEUS"]
    assert board["id"] is None and board["uid"] and board["title"] == "Arena"
    ids = [panel["id"] for panel in board["panels"]]
    assert len(ids) == len(set(ids))
    for panel in panels():
        assert panel["title"] and panel["description"] and panel["targets"], panel["id"]
        sources = [panel["datasource"]] + [target["datasource"] for target in panel["targets"]]
        assert all(source == {"type": "prometheus", "uid": "${DS_PROMETHEUS}"} for source in sources), panel["title"]
        position = panel["gridPos"]
        assert position["x"] + position["w"] <= 24, panel["title"]  # Grafana's grid is 24 columns wide


def test_every_dashboard_query_is_valid_promql(promtool, tmp_path: Path):
    """promtool parses each query as a recording rule's (with Grafana's variables as Grafana puts them in)."""
    rules = []
    for number, query in enumerate(q for q in dashboard_queries() if not q.startswith("label_values(")):
        for variable, value in GRAFANA_VARIABLES.items():
            query = query.replace(variable, value)
        rules.append({"record": f"arena_dashboard:panel_{number}", "expr": query})
    (tmp_path / "dashboard.yml").write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    done = run(promtool, "check", "rules", str(tmp_path / "dashboard.yml"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"SUCCESS: {len(rules)} rules found" in done.stdout
