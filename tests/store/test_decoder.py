"""A store decodes each record through its shape's decoder (:func:`recordfile.decoder`):
the shapes that inline only the word get a decoder that reads the shape once; every record
must come back as :func:`record_writer.split` was given it, whichever decoder reads it."""

from __future__ import annotations

import json
from functools import partial

from lexicon.build import record_writer

from lexicon.store import recordfile
from lexicon.store.records import Analysis, Record

RECORDS = [
    Record("kot", "kot", True, analyses=[Analysis("kot", "subst:sg:nom:m2", "morfeusz2")],
           sources=["sjp"], category="noun", evidence=["kot is listed", "grade:morfeusz"]),
    Record("kotami", "kotami", True,
           analyses=[Analysis("kot", "subst:pl:inst:m2", "morfeusz2", ("pospolita",)),
                     Analysis("kota", "subst:pl:inst:f", "morfeusz2")],
           sources=["sjp", "wpolish"], category="noun",
           evidence=["kotami: a form of kot", "kot (lemma)", "listed"]),
    Record("warszawa", "Warszawa", True, analyses=[Analysis("Warszawa", "subst", "m")],
           evidence=["Warszawa is a name"]),
    Record("љубав", "ljubav", True, analyses=[Analysis("љубав", "n.f.sg.nom", "apertium")],
           evidence=["apertium: \x01 n.f.sg.nom"]),
    Record("np", "np", False, reason_code="abbreviation",
           reason_message="np is an abbreviation (Morfeusz: brev:pun)"),
    Record("dom", "dom", True,
           analyses=[Analysis("domowisko-bardzo-dlugie", "subst:sg:nom:m3", "morfeusz2")],
           evidence=["held by \x02 and more"]),
    Record("pies", "pies", True),
]


def test_every_decoder_gives_back_the_record_split() -> None:
    fast = 0
    for rec in RECORDS:
        shape_text, own = record_writer.split(rec)
        shape = json.loads(shape_text)
        decode = recordfile.decoder(shape)
        fast += not isinstance(decode, partial)
        general = recordfile._join(rec.key, rec.valid, own, 0, shape=shape)
        assert decode(rec.key, rec.valid, own, 0) == general == rec, rec.key
        assert recordfile.join(rec.key, rec.valid, shape, own, 0) == rec
    assert 0 < fast < len(RECORDS)      # both decoders were exercised
