"""Sphinx configuration of the documentation under ``docs/``, Markdown read by MyST.

``tests/project/test_docs.py`` builds it with warnings as errors (``-W``, nitpicky), so a page
outside the table of contents, a link to a missing page or heading, or a code block that
does not parse fails the test run. ``docs/pending/`` holds text not yet merged into the
pages and is not built.
"""

project = "lexicon-games"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "pending", "pending/**"]
# `## Heading` anchors to link to (`page.md#heading`), checked like the pages are
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
html_theme = "alabaster"
html_title = "lexicon-games"
# console sessions and JSON with `…` (text that changes between releases) are shown, not lexed
highlight_language = "none"
nitpicky = True
