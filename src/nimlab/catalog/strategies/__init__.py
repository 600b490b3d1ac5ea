"""Constructive strategies, one module per game family (see :mod:`nimlab.solvers.strategy`)."""
