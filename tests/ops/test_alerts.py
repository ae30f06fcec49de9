"""deploy/prometheus/alerts.yml, as Prometheus projects test theirs: promtool checks the rules and runs their unit
tests (alerts.test.yml: series that fire each alert and series that must not)."""

from __future__ import annotations

import subprocess

from tests.ops.conftest import DEPLOY

PROMETHEUS = DEPLOY / "prometheus"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=PROMETHEUS, capture_output=True, text=True, timeout=120)


def test_the_alert_rules_are_valid(promtool):
    done = run(promtool, "check", "rules", "alerts.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 10 rules found" in done.stdout


def test_the_alerts_fire_on_their_test_series_and_only_there(promtool):
    done = run(promtool, "test", "rules", "alerts.test.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_every_alert_has_a_unit_test_that_fires_it():
    import yaml

    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    alerts = {rule["alert"] for group in rules["groups"] for rule in group["rules"]}
    tests = yaml.safe_load((PROMETHEUS / "alerts.test.yml").read_text())
    fired = {
        case["alertname"] for test in tests["tests"] for case in test.get("alert_rule_test", []) if case["exp_alerts"]
    }
    assert fired == alerts


def test_the_example_prometheus_configuration_is_valid_and_loads_the_rules(promtool):
    done = run(promtool, "check", "config", "prometheus.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 10 rules found" in done.stdout
