"""Runtime library: game profiles, tiles, the release store and the queries over it.

The build pipeline (``build/``) writes releases; this package only reads them, so a
service or an engine can depend on it without pulling in any source-dictionary tooling.
"""

__version__ = "0.1.0"
