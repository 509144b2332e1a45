"""Slovenian noun paradigms, recognised from the forms a word list attests.

Why this exists: ``hunspell-sl`` knows ~1.16M Slovenian forms but its affix flags are a
compression device, not grammar (``hiš/A`` yields *hiša hiše hiši hišo*, ``Škoti/T`` yields
*Škot*, 84k entries carry no flag at all), and the tagged analyser covers only ~7k lemmas.
What the word list *does* tell reliably is which forms exist. A Slovenian noun in the
nominative singular has a declension whose other forms are largely distinctive:

* masculine ``kamin``: *kamina, kaminu, kaminom, kaminov* (``-ov`` and ``-om`` never occur
  in adjectives, and ``-ov`` never in feminine or neuter nouns);
* feminine a-declension ``hiša``: *hišo, hišami, hišah* (``-ami``/``-ah``: nouns only);
* feminine i-declension ``stvar``/``ljubezen``: *stvarjo*/*ljubeznijo* (instrumental);
* neuter ``mesto``/``polje``: *mestom, mestu* and no ``-ov`` (which would make it a
  masculine accusative plural such as *kose*).

So for a candidate nominative we test each declension hypothesis against the attested
forms. A hypothesis is *strong* when it rests on endings that no other part of speech or
case shares; *weak* when it is only consistent with a noun (a singular-only noun such as
*bionika*, a stem extended by ``-t``/``-n``/``-j`` that could be a different word) and needs
a second opinion (the lemmatiser's self-lemma test) before it admits a word.

Accepted paradigms also run backwards: every attested form they contain is an inflected
form of that lemma, with the case(s) it stands for, which is what a rejection message says
("genitive singular (or nominative plural) of hiša").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

Has = Callable[[str], bool]

VOWELS = frozenset("aeiouAEIOU")
SOFT = ("c", "č", "j", "š", "ž")
# a fleeting e before the final consonant (group): Pavček/Pavčka, ljubezen/ljubezni,
# dober/dobra, veter/vetra, cerkev/cerkve
_FLEETING = re.compile(r"e(nj|lj|[bcčdfghjklmnprsštvzž])$")

GS = "genitive singular"
DS = "dative singular"
AS = "accusative singular"
LS = "locative singular"
IS = "instrumental singular"
NP = "nominative plural"
GP = "genitive plural"
DP = "dative plural"
AP = "accusative plural"
LP = "locative plural"
IP = "instrumental plural"
ND = "nominative/accusative dual"
DD = "dative/instrumental dual"

# ending -> cases it marks; "" is the bare stem. "O" stands for o (hard stem) or e (soft).
MASC: dict[str, tuple[str, ...]] = {
    "a": (GS, ND), "u": (DS, LS), "Om": (IS, DP), "Ov": (GP,), "Oma": (DD,),
    "ih": (LP,), "i": (NP, IP), "e": (AP,),
}
FEM_A: dict[str, tuple[str, ...]] = {
    "e": (GS, NP, AP), "i": (DS, LS, ND), "o": (AS, IS), "": (GP,), "ama": (DD,),
    "am": (DP,), "ah": (LP,), "ami": (IP,),
}
FEM_I: dict[str, tuple[str, ...]] = {
    "i": (GS, DS, LS, NP, AP, GP, ND), "jo": (IS,), "ijo": (IS,), "ima": (DD,), "ma": (DD,),
    "im": (DP,), "em": (DP,), "ih": (LP,), "eh": (LP,), "mi": (IP,), "imi": (IP,),
}
NEUT: dict[str, tuple[str, ...]] = {
    "a": (GS, NP, AP), "u": (DS, LS), "Om": (IS, DP), "": (GP,), "i": (ND, IP),
    "Oma": (DD,), "ih": (LP,),
}
# plural-only (pluralia tantum): hlače, možgani, pljuča, and plural place names (Jesenice)
PL_FEM: dict[str, tuple[str, ...]] = {"": (GP,), "am": (DP,), "ah": (LP,), "ami": (IP,)}
PL_MASC: dict[str, tuple[str, ...]] = {"Ov": (GP,), "Om": (DP,), "ih": (LP,), "e": (AP,)}
PL_NEUT: dict[str, tuple[str, ...]] = {"": (GP,), "Om": (DP,), "ih": (LP,)}
TABLES = {"masc": MASC, "fem_a": FEM_A, "fem_i": FEM_I, "neut": NEUT,
          "pl_fem": PL_FEM, "pl_masc": PL_MASC, "pl_neut": PL_NEUT}
GENDER = {"masc": "masculine", "fem_a": "feminine", "fem_i": "feminine", "neut": "neuter",
          "pl_fem": "feminine plural-only", "pl_masc": "masculine plural-only",
          "pl_neut": "neuter plural-only"}
PLURAL_ONLY = ("pl_fem", "pl_masc", "pl_neut")
#: endings that make a capitalised word look like a case form of a shorter attested word
CASE_ENDINGS = ("a", "u", "om", "em", "e", "i", "o", "ov", "ev", "ja", "ju", "jem", "ta",
                "tu", "tom", "ih", "ima", "ama", "oma", "ema", "ami", "ah", "am", "mi",
                "ega", "emu")


def fleeting(word: str) -> str | None:
    """The stem without a fleeting e (``Pavček`` -> ``Pavčk``), or None if there is none."""
    m = _FLEETING.search(word)
    if m and len(word) > 3:
        return word[: m.start()] + m.group(1)
    return None


def _ending(stem: str, ending: str) -> str:
    """Resolve the ``O`` of a table ending: ``o`` after a hard stem, ``e`` after a soft one."""
    if "O" in ending:
        return ending.replace("O", "e" if stem.endswith(SOFT) else "o")
    return ending


def is_capitalised(word: str) -> bool:
    return word[:1].isupper()


@dataclass
class Paradigm:
    """One declension hypothesis for ``lemma``: the forms found and what they stand for."""

    lemma: str
    cls: str                      # masc | fem_a | fem_i | neut
    stem: str
    strong: bool                  # rests on endings no other word class shares
    note: str = ""                # how the stem was found: "fleeting e", "stem +t", ...
    found: dict[str, tuple[str, ...]] = field(default_factory=dict)  # form -> cases
    # weak only because the word is also a genitive plural of another noun (par < para):
    # complete on its own, so a tagger that knows only the other reading does not veto it
    shadowed: bool = False

    def describe(self) -> str:
        """Short evidence text: ``masculine: kamina, kaminu, kaminom, kaminov``."""
        forms = ", ".join(list(self.found)[:4])
        note = f" ({self.note})" if self.note else ""
        return f"{GENDER[self.cls]} declension{note}: {forms}"


#: each table's endings with the ``O`` :func:`_ending` resolves already resolved, for a
#: hard stem (``"o"``) and a soft one (``"e"``): the paradigm pass tries every ending of a
#: few stems of each of ~1.2M words
_TABLE_ENDINGS = {(cls, o): tuple((ending.replace("O", o), cases)
                                  for ending, cases in table.items())
                  for cls, table in TABLES.items() for o in ("o", "e")}


def _collect(lemma: str, cls: str, stem: str, has: Has, strong: bool, note: str) -> Paradigm:
    found: dict[str, tuple[str, ...]] = {}
    for ending, cases in _TABLE_ENDINGS[cls, "e" if stem.endswith(SOFT) else "o"]:
        form = stem + ending
        if form != lemma and has(form):
            seen = found.get(form)    # two endings spelled alike: both cases, each once
            found[form] = cases if seen is None else tuple(dict.fromkeys(seen + cases))
    return Paradigm(lemma, cls, stem, strong, note, found)


def _has_any(p: Paradigm, *cases: str) -> bool:
    return any(c in cs for cs in p.found.values() for c in cases)


def noun_paradigms(word: str, has: Has) -> list[Paradigm]:
    """Every declension hypothesis under which ``word`` is a nominative singular.

    Only hypotheses with enough attested forms are returned; ``strong`` says whether the
    forms alone suffice (see the module docstring for why each test is what it is).
    """
    out: list[Paradigm] = []
    if len(word) < 2 or not word.isalpha():
        return out
    last = word[-1].lower()
    if last not in VOWELS:
        out += _masculine_consonant(word, has)
        out += _feminine_i(word, has)
    else:
        out += _masculine_vowel(word, has)
    if last == "a":
        out += _feminine_a(word, has)
    if last in ("o", "e"):
        out += _neuter(word, has)
    return out


def _masculine_consonant(word: str, has: Has) -> list[Paradigm]:
    out = []
    fl = fleeting(word)
    stems = [(word, ""), (word + "j", "stem +j")]
    if fl:
        stems.append((fl, "fleeting e"))
    # A genitive plural of a feminine (celin < celina) or neuter (mest < mesto) noun looks
    # like a masculine nominative and hunspell-sl over-generates masculine endings on some of
    # them (celinov): such a reading is only weak. (Not tested for soft-stem neuters: every
    # soft masculine has -e and -em forms itself, učitelje/učiteljem.)
    shadow = _strong_fem_a(word + "a", has) or (has(word + "o") and has(word + "om"))
    for stem, note in stems:
        p = _collect(word, "masc", stem, has, True, note)
        gen_sg = _has_any(p, GS)
        other = _has_any(p, DS, IS, DD)
        if gen_sg and other and _has_any(p, GP):
            p.strong = not shadow
            p.shadowed = shadow
            out.append(p)
        elif gen_sg and other:           # singular-only (vzgon, Kanin): needs a second opinion
            p.strong = False
            out.append(p)
    return out


def _strong_fem_a(word: str, has: Has) -> bool:
    s = word[:-1]
    return has(word) and has(s + "o") and (has(s + "ami") or has(s + "ah"))


def _feminine_a(word: str, has: Has) -> list[Paradigm]:
    p = _collect(word, "fem_a", word[:-1], has, True, "")
    if _has_any(p, IP, LP, DD) and _has_any(p, AS):
        return [p]
    if _has_any(p, AS) and _has_any(p, GS) and _has_any(p, DS):   # bionika, burja: sg only
        p.strong = False
        return [p]
    return []


def _feminine_i(word: str, has: Has) -> list[Paradigm]:
    out = []
    p = _collect(word, "fem_i", word, has, True, "")
    p.found.pop(word + "ijo", None)          # ogradijo, lepijo: 3rd plural of -iti verbs
    if (word + "jo") in p.found and (word + "i") in p.found:
        out.append(p)
    fl = fleeting(word)
    if fl:
        q = _collect(word, "fem_i", fl, has, False, "fleeting e")
        q.found.pop(fl + "jo", None)
        if (fl + "ijo") in q.found and (fl + "i") in q.found:
            out.append(q)                    # ljubezen, misel, cerkev; weak: temen/temnijo
    return out


def _neuter(word: str, has: Has) -> list[Paradigm]:
    out = []
    stem = word[:-1]
    soft = stem.endswith(SOFT)
    # hard stems take -o (mesto), soft stems -e (polje): a hard-stem -e word is a plural
    # (govorile) or a case form, not a neuter nominative
    if (word.endswith("o") and not soft) or (word.endswith("e") and soft):
        p = _collect(word, "neut", stem, has, True, "")
        if _has_any(p, IS) and _has_any(p, DS) and not has(stem + _ending(stem, "Ov")):
            out.append(p)
    # extended stems: ime/imena, dekle/dekleta, telo/telesa. Weak: banke+t is banket.
    for ext, note in ((word + "n", "stem +n"), (word + "t", "stem +t"),
                      (stem + "es", "stem +es")):
        if has(ext) and has(ext + "ov") and (not has(ext + "ovega") or has(ext + "e")):
            continue     # banke+t is banket, kade+t kadet (kadete); jagnjet+ov a possessive
        if note == "stem +t" and is_capitalised(word):
            continue                         # Tone/Toneta: a masculine name, see below
        p = _collect(word, "neut", ext, has, False, note)
        if len([f for f in (ext + "a", ext + "u", ext + "om") if f in p.found]) >= 2:
            out.append(p)
    return out


def _masculine_vowel(word: str, has: Has) -> list[Paradigm]:
    """Marko/Marka, Luka/Luke, bienale/bienala, taksi/taksija, Tone/Toneta (the last via
    ``_neuter``'s +t).

    A masculine in -e (*bienale*, *četrtfinale*, *finale*: -a, -u, -om) drops its vowel
    only when neither the bare stem nor the stem + -o is a word: beside an attested *kamin*,
    *kamine* is its accusative plural and *kamina*, *kaminu* are *kamin*'s own forms;
    beside *Ionesco*, *Ionesce* is *Ionesco*'s."""
    out = []
    for stem, strong, note in ((word[:-1], False, "final vowel dropped"),
                               (word + "j", True, "stem +j"), (word + "t", False, "stem +t")):
        if note == "final vowel dropped" and not (word.endswith(("o", "a")) or (
                word.endswith("e") and not has(stem) and not has(stem + "o"))):
            continue                         # Marko/Marka, Luka/Luke; -i takes +j
        if note == "stem +j" and has(stem):
            continue                         # narašča+j is naraščaj, a different noun
        if note == "stem +t" and (not is_capitalised(word) or (has(stem) and has(stem + "ov"))):
            continue                         # Tone/Toneta; lower-case dekle is neuter
        p = _collect(word, "masc", stem, has, strong, note)
        if _has_any(p, GS) and _has_any(p, DS, IS):
            out.append(p)
    return out


def plural_only(word: str, has: Has, *, ignore_singular: bool = False) -> Paradigm | None:
    """``word`` as the nominative of a plurale tantum: plural case forms, no singular ones.

    Why this is reliable: hunspell-sl lists whole paradigms, so a feminine noun whose
    ``-ah``/``-am``/``-ami`` forms exist but whose ``-a``/``-o``/``-i`` singular forms do
    not is plural-only (hlače, škarje, počitnice; and plural place names, Jesenice,
    Podstenje, whose genitive *Podstenj* would otherwise pass for a name). Measured on all
    1.16M forms: ~640 feminine, ~290 masculine, ~15 neuter words, nearly all real pluralia
    tantum. The one systematic miss, the s-stem plural *čudesa* of *čudo*, is excluded.

    ``ignore_singular``: the singular forms do not veto (a plural place name beside a
    homonymous singular, *Fužine* beside the village *Fužina*; the caller brings the
    second opinion).
    """
    if len(word) < 4 or not word.isalpha():
        return None
    s = word[:-1]
    last = word[-1]
    if last == "e":
        p = _collect(word, "pl_fem", s, has, True, "")
        if _has_any(p, LP) and _has_any(p, DP, IP) and (ignore_singular or not any(
                has(s + e) for e in ("a", "o", "i"))):
            return p
    elif last == "i":
        p = _collect(word, "pl_masc", s, has, True, "")
        if _has_any(p, LP) and _has_any(p, GP) and _has_any(p, DP) and (
                ignore_singular or not any(has(s + e) for e in ("a", "u"))):
            return p
    elif last == "a":
        if s.endswith("es") and has(s[:-2] + "o"):
            return None                      # čudesa, telesa: plurals of čudo, telo
        p = _collect(word, "pl_neut", s, has, True, "")
        if _has_any(p, LP) and _has_any(p, DP) and (ignore_singular or not any(
                has(s + e) for e in ("o", "e", "u", "ah"))):
            return p
    return None


def adjective_forms(word: str, has: Has) -> list[str]:
    """Attested adjective case forms of ``word`` read as an adjective lemma (zelen -> zelenega).

    ``-ega``/``-emu`` belong to adjectives, pronouns and ordinal numerals only.
    """
    stems = {word}
    fl = fleeting(word)
    if fl:
        stems.add(fl)
    if word[-1:] in ("i", "a", "o", "e"):
        # hrvaški/hrvašk-ega; and a form of another adjective: zelena, Prešernova
        stems.add(word[:-1])
    return sorted(s + e for s in stems for e in ("ega", "emu") if len(s) > 1 and has(s + e))


def verb_forms(word: str, has: Has) -> list[str]:
    """Attested past participles of ``word`` read as an infinitive (delati -> delal)."""
    if word.endswith("ti"):
        base = word[:-2]
        return [base + e for e in ("l", "la", "li") if has(base + e)]
    if word.endswith("či"):
        base = word[:-2]
        return [base + e for e in ("kel", "kla", "gel", "gla") if has(base + e)]
    return []


def possessive(word: str, adj: Iterable[str]) -> bool:
    """A capitalised adjective in -ov/-ev/-in is a possessive one (Prešernov, Prešernova,
    Marijin): its attested ``-ega`` form shows the stem."""
    return is_capitalised(word) and any(f[:-3].endswith(("ov", "ev", "in")) for f in adj)


def describe_cases(cases: Iterable[str]) -> str:
    """``("genitive singular", "nominative plural")`` -> ``genitive singular (or nominative
    plural)``: the first reading, then the others, as in a referee's answer."""
    cs = list(dict.fromkeys(cases))
    if not cs:
        return "an inflected form"
    if len(cs) == 1:
        return cs[0]
    return f"{cs[0]} (or {', '.join(cs[1:])})"
