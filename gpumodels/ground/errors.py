"""The error types the package raises, one per situation.

- :class:`InputTypeError` -- an argument of the wrong type (a string where a number is
  needed, ``None`` for a parameter record). It is a ``TypeError``, and a ``ValueError``
  too so that code catching bad input with ``except ValueError`` keeps working.
- :class:`OutOfRangeError` -- an argument of the right type with a bad value (out of
  range, NaN, infinite, too large); a ``ValueError``. The checks of
  :mod:`gpumodels.ground.validate` raise it; a few model-specific checks raise a plain
  ``ValueError`` that names the argument.
- :class:`UnknownNameError` -- a GPU, model, table or key that is not known; the message
  lists the known names. It is both a ``KeyError`` and a ``ValueError``.
- :class:`OutsideDomainError` -- valid inputs for which a model's equations leave their
  domain (e.g. Hong & Kim's MWP below one, which would give a negative time); a
  ``ValueError``.
- :class:`DataError` -- a table in ``data/`` that fails its schema (the message names
  the file, the line, the column and the value), or a table or record passed as an
  argument that lacks required columns or keys (the message names the argument). A
  ``ValueError``.
"""

from __future__ import annotations


class InputTypeError(TypeError, ValueError):
    """An argument of the wrong type; the message names the parameter, what it must be
    and what it got."""


class OutOfRangeError(ValueError):
    """An argument of the right type whose value is outside the allowed range (or NaN,
    infinite, too large); the message names the parameter, the range and the value."""


class UnknownNameError(KeyError, ValueError):
    """A name or choice that is not known; the message lists the known ones.

    Both a ``KeyError`` (a lookup that failed) and a ``ValueError`` (a bad argument
    value), so either ``except`` catches it; printed without the quotes ``KeyError``
    would add.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class OutsideDomainError(ValueError):
    """The inputs are valid but
    the model's equations are outside their domain for them."""


class DataError(ValueError):
    """A data table that fails its schema (the message names file, line, column and
    value), or a table or record argument lacking required columns or keys."""
