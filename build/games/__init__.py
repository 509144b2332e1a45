"""One builder per game (or language): candidate forms, their evidence, the game's rules.

Where to start reading: :mod:`build.rules` says how every game decides a word (vetoes,
admissions returning typed evidence, explanations, a last word). Then one game's package,
in this order: ``rules.py`` (its rule book: the whole decision, in the order it is made),
``evidence.py`` (what the sources say about one spelling, as typed values), ``builder.py``
(sources -> evidence -> rules -> one record per key). Data lives apart from the algorithms:
reviewed lists in ``sources/lists/``, tiles in ``lexicon/profiles/``, ending tables in the
packages' own modules (``krizemkrazem/morph.py``, ``kvizovka/analysis.py``).

* :mod:`build.games.kvizovka`: Serbian/Croatian, apertium generators + hunspell-sr/-hr;
* :mod:`build.games.krizemkrazem`: Slovenian, hunspell-sl + apertium analyser + FreeDict +
  LemmaGen;
* :mod:`build.games.polish`: Polish (osps and remik), wpolish + hunspell-pl + Morfeusz 2.
"""
