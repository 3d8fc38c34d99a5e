"""The API tests write as much as the game tests: they use the same app, its database in
memory-backed storage when there is one."""

from tests.games.conftest import app  # noqa: F401
