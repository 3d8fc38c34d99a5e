"""The reliability tests' report: what the API state machine tried, summed at the end of the
run (tests/conftest.py prints it; with -n 2 each worker's share comes in its test reports)."""

from __future__ import annotations

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    from tests.reliability.test_stateful_api import FIGURES

    before = dict(FIGURES)
    try:
        return (yield)
    finally:
        ran = {key: FIGURES[key] - before[key] for key in FIGURES}
        if any(ran.values()):
            item.user_properties.append(("stateful API", ran))
