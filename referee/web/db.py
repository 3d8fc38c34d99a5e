"""The request's store (a pooled SQLite connection) on ``g``, given back at teardown."""

from __future__ import annotations

from flask import current_app, g

from referee.store import Store


def get_store() -> Store:
    if "store" not in g:
        g.store = current_app.extensions["referee.stores"].acquire()
    store: Store = g.store
    return store


def close_store(_error: BaseException | None = None) -> None:
    store = g.pop("store", None)
    if store is not None:
        current_app.extensions["referee.stores"].release(store)
