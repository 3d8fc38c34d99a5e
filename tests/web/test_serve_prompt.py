"""The owner PIN offered once on the console at a first start of ``python -m referee.serve``."""

from __future__ import annotations

import io

from referee.serve import ask_owner_pin
from referee.web.service import OWNER_KEY, owner_pin_hash, pin_matches


class Console(io.StringIO):
    """A fake terminal: what the owner types, line by line."""

    def isatty(self) -> bool:
        return True


def stored(app):
    with app.app_context():
        return owner_pin_hash()


def test_a_non_terminal_is_never_asked(app):
    out = io.StringIO()
    assert ask_owner_pin(app, io.StringIO("2468\n"), out) is False
    assert out.getvalue() == ""
    assert stored(app) is None


def test_the_console_sets_the_owner_pin_once(app):
    out = io.StringIO()
    assert ask_owner_pin(app, Console("12\n2468\n"), out) is True
    assert "4 to 12 digits" in out.getvalue()
    assert pin_matches(stored(app), "2468")
    # a PIN is set: the next start asks nothing
    again = io.StringIO()
    assert ask_owner_pin(app, Console("9999\n"), again) is False
    assert again.getvalue() == ""
    assert pin_matches(stored(app), "2468")


def test_enter_skips(app):
    out = io.StringIO()
    assert ask_owner_pin(app, Console("\n"), out) is False
    assert "/owner" in out.getvalue()
    assert stored(app) is None


def test_no_prompt_skips_even_at_a_terminal(app, monkeypatch):
    import referee.serve as serve_module

    asked = []
    monkeypatch.setattr(serve_module, "create_app", lambda: app)
    monkeypatch.setattr(serve_module, "ask_owner_pin", lambda *a, **k: asked.append(a))
    monkeypatch.setattr(serve_module, "serve", lambda *a, **k: None)
    monkeypatch.setattr(serve_module, "shut_down", lambda _app: None)
    serve_module.main(["--no-prompt"])
    assert asked == []
    serve_module.main([])
    assert len(asked) == 1
    assert OWNER_KEY == "owner_pin_hash"
