"""The Flask extensions the app factory initialises and the blueprints use."""

from __future__ import annotations

from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
compress = Compress()
