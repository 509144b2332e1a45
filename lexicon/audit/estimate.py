"""How good a release is, from labelled sheets: stratified estimates with 95% intervals.

Each class *c* of the population (the release's keys, or a word list's words as the
release reads them) has a size ``N_c`` in the release being scored and ``n_c`` labelled
words in it, ``x_c`` of which the game admits (``Y`` counts 1, ``N`` 0; a doubtful ``?``
is left out, a word a referee could rule either way being no error either way, or on
request counted as one half).
Labels belong to words, so the labelled words are classified by the release scored, not
the one they were drawn from: a sheet scores any later release.

* A class's share of admissible words is ``p_c = x_c / n_c`` with the **Wilson score
  interval** at z = 1.96 (95%)::

      centre = (p + z²/2n) / (1 + z²/n)
      half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
      [centre - half, centre + half]

  Unlike the normal interval it stays inside [0, 1] and is not empty when every label
  agrees (30 of 30 right gives [0.886, 1], not [1, 1]).
* Its error rate is ``1 - p_c`` for an admitted class (wrongly admitted), ``p_c`` for a
  rejected or absent one (should have been admitted); the wrong verdicts it holds are
  estimated as ``N_c × error rate`` (interval: ``N_c ×`` the rate's interval). The classes
  are ranked by it: where the next rule pays most.
* **Precision** (admitted words the game admits) and the **missed share** (rejected words
  it admits) are stratified: ``p = Σ W_c p_c`` over the labelled classes of that side,
  ``W_c = N_c / Σ N_c``. Its interval is Wilson's at the effective sample size
  ``n_eff = p(1-p) / Σ W_c² p_c(1-p_c)/n_c`` (Kish), or the plain ``Σ n_c`` when that
  variance is 0. Classes with no label are left out and the weights renormalised;
  ``coverage`` says how much of that side the labelled classes hold.
* **Recall** (the admissible words the release admits, among those its sources offer)
  is ``A·p / (A·p + R·m)`` with ``A``, ``R`` the numbers of admitted and rejected (or
  absent) words and ``p``, ``m`` precision and missed share; its interval takes the
  bounds that make it lowest and highest (``p`` low with ``m`` high, and the reverse), so
  it is conservative.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from math import sqrt
from typing import Any

from lexicon.audit.classes import admitted, evidence_class
from lexicon.audit.sheets import Sheet, labels
from lexicon.audit.words import audited_records, lookup
from lexicon.errors import InputError
from lexicon.game.profile import Profile
from lexicon.store.release import Release

#: how a ``?`` label counts: left out of every count, or as half an admissible word
DOUBTFUL = ("out", "half")
Z = 1.959963984540054   # the 97.5% quantile of the standard normal: a two-sided 95%


def wilson(x: float, n: float, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of ``x`` successes in ``n`` (see the module doc)."""
    if n <= 0:
        return 0.0, 1.0
    p = x / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Stratum:
    cls: str
    size: int        # N_c: words of the class in the population
    n: float = 0     # labelled words
    x: float = 0     # of them, admissible (Y 1, ? 0.5)

    @property
    def share(self) -> float:
        return self.x / self.n if self.n else 0.0

    @property
    def error(self) -> tuple[float, float, float]:
        """The class's error rate and its interval (see the module doc)."""
        low, high = wilson(self.x, self.n)
        if admitted(self.cls):
            return 1 - self.share, 1 - high, 1 - low
        return self.share, low, high

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.x, self.n)
        err, elow, ehigh = self.error
        out: dict[str, Any] = {"class": self.cls, "size": self.size, "labelled": self.n}
        if self.n:
            out.update(admissible=round(self.share, 4),
                       interval=[round(low, 4), round(high, 4)],
                       error_rate=round(err, 4), error_interval=[round(elow, 4), round(ehigh, 4)],
                       wrong=round(self.size * err, 1),
                       wrong_interval=[round(self.size * elow, 1), round(self.size * ehigh, 1)])
        return out


def stratified(strata: Iterable[Stratum]) -> dict[str, Any]:
    """The size-weighted share of admissible words over ``strata`` and its interval."""
    strata = list(strata)
    total = sum(s.size for s in strata)
    labelled = [s for s in strata if s.n and s.size]
    covered = sum(s.size for s in labelled)
    out: dict[str, Any] = {"size": total, "labelled": sum(s.n for s in strata),
                           "coverage": round(covered / total, 4) if total else 0.0}
    if not covered:
        out.update(estimate=None, interval=None)
        return out
    p = sum(s.size / covered * s.share for s in labelled)
    var = sum((s.size / covered) ** 2 * s.share * (1 - s.share) / s.n for s in labelled)
    n = sum(s.n for s in labelled)
    n_eff = p * (1 - p) / var if var > 0 else n
    low, high = wilson(p * n_eff, n_eff)
    out.update(estimate=round(p, 4), interval=[round(low, 4), round(high, 4)],
               n_eff=round(n_eff, 1), _p=p, _low=low, _high=high)
    return out


def recall(admitted_size: int, precision: dict[str, Any], rejected_size: int,
           missed: dict[str, Any]) -> dict[str, Any]:
    """The estimated recall and its conservative interval (see the module doc)."""
    if precision.get("estimate") is None or missed.get("estimate") is None:
        return {"estimate": None, "interval": None}

    def of(p: float, m: float) -> float:
        found, lost = admitted_size * p, rejected_size * m
        return found / (found + lost) if found + lost else 1.0

    return {"estimate": round(of(precision["_p"], missed["_p"]), 4),
            "interval": [round(of(precision["_low"], missed["_high"]), 4),
                         round(of(precision["_high"], missed["_low"]), 4)]}


def _public(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if not k.startswith("_")}


def score(profile: Profile, release: Release, sheets: list[Sheet], *,
          population: list[str] | None = None, list_name: str = "",
          doubtful: str = "out") -> dict[str, Any]:
    """The release's precision, missed share and recall, overall and by class, from the
    sheets' labels; ``population``: a word list to weigh by instead of the release;
    ``doubtful``: a ``?`` label is left ``out`` of the counts, or counted as ``half``."""
    if doubtful not in DOUBTFUL:
        raise InputError(f"doubtful labels are counted {' or '.join(DOUBTFUL)}, not "
                         f"{doubtful!r}", detail={"doubtful": doubtful})
    vocabulary = profile.vocabulary
    sizes: Counter[str] = Counter()
    seen: set[str] = set()
    if population is None:
        for cls, _rec in audited_records(profile, release):
            sizes[cls] += 1
    else:
        for _word, key, rec in lookup(profile, release, population):
            if key is not None and key not in seen:
                seen.add(key)
                sizes[evidence_class(vocabulary, rec)] += 1
    by_key = {}
    unread = outside = 0
    label_of = labels(sheets)
    doubts = sum(r.label == "?" for r in label_of.values())
    if doubtful == "out":
        label_of = {w: r for w, r in label_of.items() if r.label != "?"}
    for word, key, rec in lookup(profile, release, label_of):
        if key is None or (rec is None and population is None):
            unread += 1      # no spelling of the game, or not in the release scored
            continue
        if population is not None and key not in seen:
            outside += 1     # labelled, but not a word of the population weighed
            continue
        by_key[key] = (evidence_class(vocabulary, rec), label_of[word].admissible)
    strata = {c: Stratum(c, n) for c, n in sizes.items()}
    for cls, value in by_key.values():
        s = strata.setdefault(cls, Stratum(cls, 0))
        s.n += 1
        s.x += value
    sides: dict[bool, list[Stratum]] = defaultdict(list)
    for s in strata.values():
        sides[admitted(s.cls)].append(s)
    precision = stratified(sides[True])
    missed = stratified(sides[False])
    ranked = sorted(strata.values(), key=lambda s: (-(s.size * s.error[0] if s.n else -1),
                                                    -s.size, s.cls))
    return {
        "game": profile.id, "release": release.id,
        "population": f"list {list_name} ({len(population):,} words)" if population is not None
        else "release",
        "sheets": [s.name for s in sheets], "labelled": len(by_key), "not_read": unread,
        "outside_population": outside,
        "doubtful": {"labels": doubts, "counted": doubtful},
        "precision": _public(precision), "missed": _public(missed),
        "recall": recall(precision["size"], precision, missed["size"], missed),
        "classes": [s.to_json() for s in ranked],
    }
