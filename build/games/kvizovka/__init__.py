"""Kvizovka (Serbian/Croatian): every form the sources know, judged by the rule book.

Where to start reading: :mod:`.rules` is the rule book of seed 000 as vetoes, admission
and explanations; :mod:`.analysis` judges one analysis (lemma + apertium tags), which is
where cases, verb forms and degrees are decided; :mod:`.evidence` is what the sources say
about one key (typed: :class:`.evidence.Witness`, :class:`.evidence.KeyEvidence`);
:mod:`.builder` wires them and writes one record per Cyrillic key. Source readers:
:mod:`.apertium` (the generators), :mod:`.paradigms` (hunspell forms and the slots learned
from apertium's tags), :mod:`.lists` (reviewed lists); Latin -> Cyrillic keys:
:mod:`build.games.hbs_script`.
"""

from lexicon.build.games.kvizovka.builder import KvizovkaBuilder, builder

__all__ = ["KvizovkaBuilder", "builder"]
