"""The reliability tests' report: what the API state machine tried, at the end of the run."""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter) -> None:
    from tests.reliability.test_stateful_api import FIGURES

    if FIGURES["machines"]:
        terminalreporter.write_line(f"stateful API: {FIGURES}")
