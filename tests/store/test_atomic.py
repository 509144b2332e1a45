"""The one atomic-write helper (lexicon/atomic.py): the target is the old file or the whole
new one, and a failed write leaves no temporary file behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon import atomic


def test_a_write_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "CURRENT"
    target.write_text("old\n")
    atomic.write_text(target, "new\n")
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CURRENT"]


def test_a_failed_write_keeps_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "words.txt"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), atomic.replacing(target) as tmp:
        assert tmp.parent == tmp_path          # same directory: the rename is atomic
        tmp.write_text("half of it")
        raise RuntimeError("the disk filled up")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["words.txt"]


def test_a_write_that_never_made_the_temp_fails_cleanly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError), atomic.replacing(tmp_path / "x"):
        pass                                   # nothing written: nothing to rename
    assert not list(tmp_path.iterdir())
