"""A griffe extension for the API reference: Sphinx cross-reference roles in nimlab's
docstrings (``:func:`grundy```, ``:meth:`moves```, ...) become inline code, so that the
rendered pages show ``grundy`` rather than ``:func:grundy``."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|meth|class|attr|mod|data|exc|obj|const):`~?([^`]+)`")


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`target``` to ```target``` in every docstring."""

    def on_object(self, *, obj: griffe.Object, loader: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(r"`\1`", obj.docstring.value)
