"""Hatchling build hook: the editable install imports what the wheel installs.

An editable wheel made by hatchling's exact mode maps the ``lexicon`` package to the
checkout's ``lexicon/`` folder, but would also copy the force-included folders (``build/``,
``cli/``, ``service/``, ``sources/``) into the environment, where they go stale and shadow
the checkout. This hook replaces those copies with the import hook
(``tools/checkout_imports.py``, installed as ``_lexicon_checkout.py``) and a ``.pth`` that
installs it at interpreter start. A regular wheel is left as it is.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "_lexicon_checkout"


class EditableImports(BuildHookInterface):
    """Puts the checkout's import hook, not copies of its folders, in an editable wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version != "editable":
            return
        self._scratch = Path(tempfile.mkdtemp(prefix="lexicon-editable-"))
        module = self._scratch / f"{MODULE}.py"
        shutil.copyfile(Path(self.root) / "tools" / "checkout_imports.py", module)
        pth = self._scratch / f"{MODULE}.pth"
        pth.write_text(f"import {MODULE}; {MODULE}.install({str(Path(self.root).resolve())!r})\n",
                       encoding="utf-8")
        build_data["force_include_editable"] = {str(module): f"{MODULE}.py",
                                                str(pth): f"{MODULE}.pth"}

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
