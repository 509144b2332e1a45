"""Križemkražem (Slovenian crossword-scrabble): which spellings are nouns in the nominative.

Where to start reading: :mod:`.rules` is the rule book of seed 001 as vetoes, admissions
and explanations (the whole decision, in order); :mod:`.evidence` is what the sources say
about one spelling (:class:`.evidence.Candidate`); :mod:`.builder` wires the two and writes
one record per key. Data (which endings mark which case) lives in :mod:`.morph`; the
reviewed lists (pluralia tantum, nation plurals, phrases, full names) in :mod:`.lists`.
"""

from lexicon.build.games.krizemkrazem.builder import KrizemkrazemBuilder, builder
from lexicon.build.games.krizemkrazem.evidence import Inputs

__all__ = ["Inputs", "KrizemkrazemBuilder", "builder"]
