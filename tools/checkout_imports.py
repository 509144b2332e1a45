"""The import hook of an editable install: a checkout imports exactly what the wheel installs.

The wheel places the folders ``build/``, ``cli/``, ``service/`` and ``sources/`` inside the
``lexicon`` package (``pyproject.toml``'s force-include), so an installed distribution
claims one import name and sits beside PyPA's ``build`` without shadowing it. A checkout keeps
them at its top (the layout the project keeps). This module, installed as
``_lexicon_checkout.py`` beside a ``.pth`` that calls :func:`install` (``tools/editable.py``
writes both into the editable wheel), makes the checkout behave as the wheel does:

* ``lexicon`` is the first regular package of that name on ``sys.path`` (a checkout put there
  on purpose, or the working directory's), else the checkout this environment was installed
  from: never a stray folder of that name without ``__init__.py``, which the path finder
  would take for a namespace package;
* ``lexicon.build`` (and ``cli``, ``service``, ``sources``) is the folder of that name beside
  whichever ``lexicon`` package was imported, so a second checkout put first on ``sys.path``
  brings its own folders with it;
* a top-level ``build`` (``cli``, ``service``, ``sources``) is never a checkout's folder, even
  with the checkout as the working directory: ``python -m build`` finds PyPA's frontend, and
  ``import build`` finds nothing of the project, so no file is ever loaded as two modules.

It is plain standard library: it runs at every interpreter start of the environment.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

#: The folders beside ``lexicon/`` in a checkout that the wheel installs inside it.
BESIDE = ("build", "cli", "service", "sources")


def is_checkout(entry: str) -> bool:
    """Whether the ``sys.path`` entry ``entry`` is a checkout's root (its ``lexicon`` package
    and the build pipeline beside it), whose top-level folders must not import by their own
    names."""
    root = entry or os.getcwd()
    return (os.path.isfile(os.path.join(root, "lexicon", "__init__.py"))
            and os.path.isfile(os.path.join(root, "build", "pipeline.py")))


class _Absent(importlib.abc.Loader):
    """The loader of a top-level name that only a checkout's folder would give: importing it
    fails as a missing module does."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        raise ModuleNotFoundError(f"No module named {spec.name!r}", name=spec.name)

    def exec_module(self, module: ModuleType) -> None:  # pragma: no cover - never reached
        raise ModuleNotFoundError(f"No module named {module.__name__!r}", name=module.__name__)


class CheckoutFinder(importlib.abc.MetaPathFinder):
    """Maps ``lexicon`` and ``lexicon.<folder>`` to a checkout and keeps the folders' own
    names from importing (first on ``sys.meta_path``, so the path finder never sees them)."""

    #: the checkout this environment's editable install was made from (:func:`install`)
    root: str | None = None

    @classmethod
    def find_spec(cls, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == "lexicon" and path is None:
            found = importlib.machinery.PathFinder.find_spec(fullname, sys.path)
            if (found is not None and found.origin is not None) or cls.root is None:
                return found
            folder = os.path.join(cls.root, "lexicon")
            return importlib.util.spec_from_file_location(
                fullname, os.path.join(folder, "__init__.py"),
                submodule_search_locations=[folder])
        head, _, tail = fullname.partition(".")
        if head == "lexicon" and tail in BESIDE:
            package = sys.modules.get("lexicon")
            origin = getattr(package, "__file__", None)
            if origin is None:
                return None
            folder = os.path.join(os.path.dirname(os.path.dirname(origin)), tail)
            init = os.path.join(folder, "__init__.py")
            if not os.path.isfile(init):     # an installed wheel: its own subpackage
                return None
            return importlib.util.spec_from_file_location(
                fullname, init, submodule_search_locations=[folder])
        if fullname in BESIDE and path is None:
            elsewhere = [entry for entry in sys.path if not is_checkout(entry)]
            found = importlib.machinery.PathFinder.find_spec(fullname, elsewhere)
            return found or importlib.machinery.ModuleSpec(fullname, _Absent())
        return None

    @classmethod
    def invalidate_caches(cls) -> None:
        """Nothing is cached (``importlib.invalidate_caches`` calls this on the class)."""


def install(root: str | None = None) -> None:
    """Put :class:`CheckoutFinder` first on ``sys.meta_path`` (once), ``lexicon`` falling
    back to the checkout at ``root``."""
    CheckoutFinder.root = root
    if CheckoutFinder not in sys.meta_path:
        sys.meta_path.insert(0, CheckoutFinder)
