"""The table pages (referee mode): the tableau drawn as real tiles, two-tap logging."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("table", __name__)
