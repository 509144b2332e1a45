"""The game model: each game's rules as data and what follows from them alone.

Profiles (alphabet, tiles, values, counts, admissible categories), typed input cleaning
(and the lines of the overrides file a maintainer types), spelling into tiles, play rules
and scores, reason codes and their glosses, the word shapes of a language that the diffs
of editions classify by. Nothing here reads a release: this layer is
the rule book, and every other layer builds on it.
"""
