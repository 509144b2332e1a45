"""Engine and referee queries over a release: patterns, jokers, anagrams, hooks, prefixes.

The pattern language and its bounded matcher, the trie walks that find keys, and the work
budget that keeps a broad query from running away. Built on the layers below.
"""
