"""The compile pipeline: sources -> annotated forms -> game rules -> an immutable release.

Kept apart from the runtime library (``lexicon/``) the way ``exquisite-corpus`` is kept apart
from ``wordfreq``: only the build needs source readers, analysers and lots of memory.
"""
