"""Spec files (the NNAPI test-generator ``.mod.py`` language) -> generated test modules.

The spec language, the variations and the jinja2 templates arrive with the
[generator] issue; this package is where they live.
"""
