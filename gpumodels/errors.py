"""The error types the package raises, one per situation.

- :class:`InputTypeError` -- an argument of the wrong type (a string where a number is needed,
  ``None`` for a parameter record). It is a ``TypeError``, and a ``ValueError`` too so that code
  catching bad input with ``except ValueError`` keeps working.
- ``ValueError`` -- an argument of the right type with a bad value (out of range, NaN).
- :class:`UnknownNameError` -- a GPU, model, table or key that is not known; the message lists the
  known names. It is both a ``KeyError`` and a ``ValueError``.
- :class:`OutsideDomainError` -- valid inputs for which a model's equations leave their domain
  (e.g. Hong & Kim's MWP below one, which would give a negative time); a ``ValueError``.
- :class:`DataError` -- a table in ``data/`` that fails its schema; the message names the file,
  the line, the column and the value. A ``ValueError``.
"""

from __future__ import annotations

from difflib import get_close_matches


class InputTypeError(TypeError, ValueError):
    """An argument of the wrong type; the message names the parameter, what it must be and what it got."""


class UnknownNameError(KeyError, ValueError):
    """A name or choice that is not known; the message lists the known ones.

    Both a ``KeyError`` (a lookup that failed) and a ``ValueError`` (a bad argument value), so
    either ``except`` catches it; printed without the quotes ``KeyError`` would add.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def unknown(what: str, name, known) -> UnknownNameError:
    """An :class:`UnknownNameError` for ``name``, listing ``known`` and the closest matches."""
    known = [str(k) for k in known]
    close = get_close_matches(name, known, n=3) if isinstance(name, str) else []
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return UnknownNameError(f"unknown {what} {name!r}{hint}; known: {', '.join(known)}")


class OutsideDomainError(ValueError):
    """The inputs are valid but the model's equations are outside their domain for them."""


class DataError(ValueError):
    """A data table that fails its schema; the message names file, line, column and value."""
