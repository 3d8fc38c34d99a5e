"""``python -m bench``: dispatch to the benchmark asked for (see ``bench/__init__.py``)."""

from __future__ import annotations

import sys

from bench import core

if __name__ == "__main__":
    core.main(sys.argv[1:])
