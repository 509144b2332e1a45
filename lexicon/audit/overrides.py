"""A review ends in a release: the labels that disagree with a release, as the overrides
file ``lexicon amend GAME --overrides FILE`` takes (``word  add|remove  reason``).

A word labelled ``Y`` that the release rejects (or lacks) is added; one labelled ``N``
that it admits is removed; a doubtful ``?`` changes nothing. The reason a referee will
read names the sheet, the reviewer and the date of the review, and the reviewer's note.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from lexicon import atomic
from lexicon.audit.sheets import SUFFIX, Sheet, SheetError, cell, directory
from lexicon.audit.words import lookup
from lexicon.game import overrides
from lexicon.game.profile import Profile
from lexicon.store.release import Release


def disagreements(profile: Profile, release: Release, sheet: Sheet, *,
                  reviewer: str | None = None, date: str | None = None
                  ) -> list[tuple[str, str, str]]:
    """``(word, add|remove, reason)`` for each label the release disagrees with."""
    who = cell(reviewer or sheet.meta.get("reviewer", ""))
    if not who:
        raise SheetError(f"{sheet.name}: who reviewed it? give --reviewer (or fill the "
                         "sheet's '# reviewer:' line)", detail={"sheet": sheet.name})
    when = (cell(date or sheet.meta.get("reviewed", ""))
            or dt.datetime.now(dt.UTC).date().isoformat())
    rows = {r.word: r for r in sheet.labelled() if r.label in ("Y", "N")}
    out = []
    for word, key, rec in lookup(profile, release, rows):
        if key is None:
            continue             # not a spelling of the game: amend could not take it
        r = rows[word]
        admits = rec is not None and rec.valid
        if (r.label == "Y") == admits:
            continue
        reason = f"audit {sheet.name}: reviewed by {who} on {when}"
        if r.note:
            reason += f": {r.note}"
        out.append((word, "add" if r.label == "Y" else "remove", reason))
    return out


def write(root: Path, profile: Profile, release: Release, sheet: Sheet, *,
          reviewer: str | None = None, date: str | None = None,
          output: Path | None = None) -> dict[str, Any]:
    """Write the overrides file (default: beside the sheet's game's sheets, named for the
    sheet) and say what it holds."""
    lines = disagreements(profile, release, sheet, reviewer=reviewer, date=date)
    path = output or directory(root, profile.id) / f"{sheet.name}.overrides{SUFFIX}"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = overrides.comment(f"overrides from audit sheet {sheet.name} against {release.id}: "
                             f"`lexicon amend {profile.id} --overrides {path}`")
    text += "".join(overrides.line(w, a, r) for w, a, r in lines)
    atomic.write_text(path, text)
    return {"game": profile.id, "release": release.id, "sheet": sheet.name,
            "overrides": str(path), "add": sum(a == "add" for _, a, _ in lines),
            "remove": sum(a == "remove" for _, a, _ in lines),
            "labelled": len(sheet.labelled())}
