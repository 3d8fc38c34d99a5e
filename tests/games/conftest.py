"""The acceptance tests' app: as tests/conftest.py's, with its database in memory-backed
storage when there is one (the tests write a lot; fsync on disk dominates their time)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from referee.web import create_app
from tests.conftest import migrated_copy


@pytest.fixture
def app(tmp_path, migrated_database):
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else str(tmp_path)
    folder = tempfile.mkdtemp(prefix="referee-acceptance-", dir=base)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": migrated_copy(migrated_database, Path(folder) / "referee.db"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    shutil.rmtree(folder, ignore_errors=True)
