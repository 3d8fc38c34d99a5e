"""Fixtures of the language tests: compiled catalogs and an app with init_i18n wired."""

from __future__ import annotations

import pytest

from referee.web.i18n import TRANSLATIONS, compile_catalogs, init_i18n


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs():
    """The .mo files, as the install step makes them (scripts/compile_translations.py)."""
    compile_catalogs(TRANSLATIONS, strict=False)


@pytest.fixture
def i18n_app(app):
    """The test app of tests/conftest.py, with init_i18n (a no-op once create_app calls it)."""
    if "i18n" not in app.blueprints:
        init_i18n(app)

    @app.get("/_i18n_probe")
    def probe():
        from flask import render_template_string

        return render_template_string("{{ current_lang() }}|{{ _('Game') }}")

    return app


@pytest.fixture
def i18n_client(i18n_app):
    return i18n_app.test_client()
