"""Export: a release's playable words as files for engines and federations.

Word lists, KWG/KBWG graphs, engine packs, and the diff between two editions. The top
layer of the runtime: it reads everything below and nothing reads it but the faces.
"""
