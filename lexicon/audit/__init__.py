"""The maintainer's audit: how good a release is, measured by looking, and how the looking
ends in a better release.

A layer of its own, above export: it reads verdicts, exports and the record format, and no
builder imports it (``tests/project/test_layout.py``), so what measures a release is never
part of what makes one.

Two of the games have no official word list and the Polish one's is licensed, so a
release's quality is known only by drawing words at random, labelling them against the rule
book and counting. The pieces, one idea each:

* :mod:`.classes`: the evidence class of a record (the stratum a draw samples and an
  estimate weighs by): the Polish grade, Kvizovka's deciding reading and source
  combination, Križemkražem's deciding rule, the reason code of a rejected word;
* :mod:`.sheets`: the labelling sheet (a TSV under ``$LEXICON_HOME/audits/GAME/``), read
  and written, and the labels it holds, which belong to words, not to verdicts;
* :mod:`.draw`: a seeded stratified sample of a release (or of a word list) as a sheet;
* :mod:`.estimate`: Wilson intervals and the class-size-weighted (stratified) estimates
  of precision, missed words and recall of any release from labelled sheets;
* :mod:`.compare`: a release against a reference list, class by class;
* :mod:`.overrides`: the labels that disagree with a release, as an overrides file for
  ``lexicon amend``.
"""
