"""Maintainer tools: measurements over real releases, run by hand or by make targets."""
