"""``python -m bench``: the report (bench/report.py), or the photo reading's measure with
``python -m bench vision [FOLDER]`` (bench/vision.py)."""

from __future__ import annotations

import sys

from bench import report, vision

if __name__ == "__main__":
    if sys.argv[1:2] == ["vision"]:
        vision.main(sys.argv[2:])
    else:
        report.main(sys.argv[1:])
