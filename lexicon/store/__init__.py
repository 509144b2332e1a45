"""The store: published releases on disk and the objects that read them.

Which releases exist and which one is current, their integrity, the record store, the
membership arrays and query indexes, the meanings file, and the catalog that opens them.
It knows the game model below it and nothing above it: no verdict is decided here.
"""
