"""``python -m bench``: dispatch to the benchmark asked for (see ``bench/__init__.py``)."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["vision"]:
        from bench import vision

        vision.main(sys.argv[2:])
    else:
        from bench import core

        core.main(sys.argv[1:])
