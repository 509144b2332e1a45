"""Export: a release's playable words as files for engines and federations.

Word lists, KWG/KBWG graphs, engine packs, the referee page's offline pack, and the diff
between two editions. It reads every layer below it, and nothing reads it but the faces
and the maintainer's audit (:mod:`lexicon.audit`).
"""
