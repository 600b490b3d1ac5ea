"""Closed forms of the papers as plain functions over Python ints, one module per family.

Pure Python, imported by the catalog's rulesets (their ``closed_*`` hooks); this package
imports nothing of nimlab but :mod:`nimlab.core`.
"""
