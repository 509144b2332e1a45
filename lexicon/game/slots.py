"""The paradigm slot a Polish form's Morfeusz tags fill, among the slots generated from SGJP.

The word lists leave the neuter 1st/2nd person past, the conditional and negated gerunds
out by policy while OSPS carries them, so the Polish builder generates those slots
(``GENERATED_SLOTS`` in ``build/games/osps/evidence.py``) and the audit classes a
generated form by the slot it fills (:mod:`lexicon.audit.classes`): one reading of
the tags, for both.
"""

from __future__ import annotations


def generated_slot(tags: str) -> str | None:
    """``praet:sg:n``, ``cond`` or ``ger:neg`` for tags of such a slot, else None."""
    parts = tags.split(":")
    if parts[0] == "praet" and parts[1:3] == ["sg", "n"]:
        return "praet:sg:n"
    if parts[0] == "cond":
        return "cond"
    if parts[0] == "ger" and parts[-1] == "neg":
        return "ger:neg"
    return None
