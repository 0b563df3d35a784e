"""Fig. 2 of Huang & Li (2017): the addressing instructions counted from its SASS
listings.

``data/huang_li/fig2_sass.csv`` holds the four panels of Fig. 2 line by line, as the
seed text prints them (vecAdd with a and b in global, texture, constant and shared
memory). §III-B counts "the numbers of instructions required to calculate the address
of a 1D-array element": 2, 0, 1, 1 for G, T, C, S. :func:`addressing_count` counts them
from the listing instead of reading them: it follows the data flow from the register
that holds the element index (named in the listing's comments, the ``index_register``
column) to the address operand of the load, and counts every instruction on the way.
An instruction that does not read the index, or anything computed from it, is not
counted, such as the ``MOV32I R5, 0x4`` that materialises the element size in panel
(a).

Two losses of the extraction are explicit, not papered over:

* a panel without a load instruction (the seed keeps no SASS line of panel (b) and
  only the comment of panel (c)'s load) is counted by the forward slice of the index
  alone (``AddressingCount.load_listed`` is False);
* panel (d) repeats panel (c)'s constant-memory code where the caption puts shared
  memory, so its count raises :class:`~gpumodels.ground.errors.DataError` and the
  shared-memory count is not derivable from the seed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import pandas as pd

from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import DataError, InputTypeError, UnknownNameError
from gpumodels.ground.validate import check_flag, check_int
from gpumodels.papers.huang_li._checks import check_kind, check_str

PANELS = ("a", "b", "c", "d")
"""Fig. 2's panels, in the caption's order."""

_OPCODE = re.compile(r"^(?P<op>[A-Z][A-Z0-9]*(?:\.[A-Z0-9]+)*)\s+(?P<args>[^;/]*)")
_REGISTER = re.compile(r"\bR(\d+)\b")
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_LOADS = ("LD", "LDG", "LDC", "LDS", "LDL", "TEX", "TLD", "TLDS", "TEXS")
"""SASS opcodes (before the first ``.``) that load from memory."""

# the memory space a listing's CUDA code declares its arrays in
_DECLARES = (("texture<", "T"), ("_constant__", "C"), ("_shared__", "S"))


@dataclass(frozen=True)
class Instruction:
    """One SASS instruction of a listing: ``text`` as printed (without its comment and
    ``;``), ``opcode``, the registers it writes (``dest``) and reads (``sources``), and
    for a load the registers of its address operand (``address``, empty otherwise)."""

    text: str
    opcode: str
    dest: frozenset[str]
    sources: frozenset[str]
    address: frozenset[str]

    def __post_init__(self):
        check_str("Instruction.text", self.text)
        check_str("Instruction.opcode", self.opcode, empty=False)
        for k in ("dest", "sources", "address"):
            v = check_kind(
                f"Instruction.{k}", getattr(self, k), frozenset, "a frozenset of names"
            )
            for r in v:
                check_str(f"Instruction.{k} item", r)

    @property
    def is_load(self) -> bool:
        return self.opcode.split(".")[0] in _LOADS


def parse(text: str) -> Instruction | None:
    """The SASS instruction on a listing line, or None for CUDA code and comments.

    The first operand is the destination. A load's address operand is the bracketed
    one; ``.E`` (Kepler's 64-bit address) makes ``[Rn]`` the register pair Rn, Rn+1.

    >>> ins = parse("IMAD.HI.X R7, R3, R5, c[0x0][0x24]")
    >>> ins.opcode, sorted(ins.dest), sorted(ins.sources)
    ('IMAD.HI.X', ['R7'], ['R3', 'R5'])
    >>> sorted(parse("LD.E R2, [R6]; //load a").address)
    ['R6', 'R7']
    >>> parse("v[id] = a[id] + b[id]:") is None
    True
    """
    check_str("text", text)
    m = _OPCODE.match(text.strip())
    if m is None:
        return None
    op = m["op"]
    operands = [o.strip() for o in m["args"].split(",") if o.strip()]
    if not operands:
        return None
    dest = frozenset(f"R{n}" for n in _REGISTER.findall(operands[0]))
    sources = frozenset(f"R{n}" for o in operands[1:] for n in _REGISTER.findall(o))
    address: frozenset[str] = frozenset()
    if op.split(".")[0] in _LOADS:
        regs = [
            int(n)
            for o in operands[1:]
            for inner in _BRACKETS.findall(o)
            for n in _REGISTER.findall(inner)
        ]
        if "E" in op.split(".")[1:]:
            regs += [r + 1 for r in regs]
        address = frozenset(f"R{n}" for n in regs)
        sources = sources | address
    bare = text.split("//")[0].strip().rstrip(";").rstrip()
    return Instruction(bare, op, dest, sources, address)


@cache
def _rows() -> tuple[dict[str, str], ...]:
    return read_rows("huang_li/fig2_sass.csv")


def listing(panel: str) -> list[dict[str, str]]:
    """The lines of one panel of Fig. 2 (rows of ``data/huang_li/fig2_sass.csv``)."""
    if panel not in PANELS:
        raise UnknownNameError(
            f"panel must be one of {', '.join(PANELS)}, got {panel!r}"
        )
    return [dict(r) for r in _rows() if r["panel"] == panel]


def declared_space(panel: str) -> str:
    """The memory the panel's CUDA code declares a and b in (G, T, C or S): a
    ``texture<`` reference, a ``__constant__`` or ``__shared__`` array, else global."""
    text = " ".join(r["text"] for r in listing(panel))
    for token, space in _DECLARES:
        if token in text:
            return space
    return "G"


@dataclass(frozen=True)
class AddressingCount:
    """The addressing instructions of a listing: ``count`` of ``instructions`` (their
    text), the ``index_register`` followed, and ``load_listed`` (False when the
    listing has no load whose address the slice could be checked against)."""

    panel: str
    space: str
    index_register: str
    count: int
    instructions: tuple[str, ...]
    load_listed: bool

    def __post_init__(self):
        for k in ("panel", "space", "index_register"):
            check_str(f"AddressingCount.{k}", getattr(self, k))
        check_kind(
            "AddressingCount.instructions",
            self.instructions,
            tuple,
            "a tuple of instruction texts",
        )
        for t in self.instructions:
            check_str("AddressingCount.instructions item", t)
        check_int("AddressingCount.count", self.count, 0)
        if self.count != len(self.instructions):
            raise ValueError(
                f"AddressingCount.count must equal the number of instructions "
                f"({len(self.instructions)}), got {self.count}"
            )
        check_flag("AddressingCount.load_listed", self.load_listed)


def count_listing(
    lines, index_register: str, panel: str = "", space: str = ""
) -> AddressingCount:
    """Count the instructions of a SASS listing that turn the element index into the
    load's address.

    Forward slice: every instruction that reads ``index_register``, or a register
    written by such an instruction, up to the first load whose address operand reads
    one of them; then, if such a load is listed, only the slice's instructions that its
    address depends on are kept (backward slice). Lines that are not SASS (CUDA code,
    comments) are skipped. Without a load the count is the forward slice.

    >>> lines = ["MOV32I R5, 0x4;", "SHL R4, R1, 0x2;", "LDS R2, [R4];"]
    >>> count_listing(lines, "R1").count
    1
    """
    check_str("index_register", index_register)
    check_str("panel", panel)
    check_str("space", space)
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Iterable):
        raise InputTypeError(
            f"lines must be a sequence of listing lines (strings), got "
            f"{type(lines).__name__} {lines!r:.60}"
        )
    lines = [check_str(f"lines[{i}]", t) for i, t in enumerate(lines)]
    if index_register and not _REGISTER.fullmatch(index_register):
        raise ValueError(
            f"index_register must name a register such as 'R3', got {index_register!r}"
        )
    sass = [i for i in (parse(t) for t in lines) if i is not None]
    tainted = {index_register} if index_register else set()
    slice_: list[Instruction] = []
    load: Instruction | None = None
    for ins in sass:
        if ins.is_load:
            if ins.address & tainted:
                load = ins
                break
            continue
        if ins.sources & tainted:
            slice_.append(ins)
            tainted |= ins.dest
    if load is not None:
        needed = set(load.address)
        kept = []
        for ins in reversed(slice_):
            if ins.dest & needed:
                kept.append(ins)
                needed |= ins.sources
        slice_ = kept[::-1]
    return AddressingCount(
        panel=panel,
        space=space,
        index_register=index_register,
        count=len(slice_),
        instructions=tuple(i.text for i in slice_),
        load_listed=load is not None,
    )


def addressing_count(panel: str) -> AddressingCount:
    """:func:`count_listing` on one panel of Fig. 2, following the register its
    comments name as the index (``index_register`` of the data).

    A panel whose CUDA code declares another memory than its caption raises
    ``DataError`` (panel (d) of the seed), as does a panel with SASS lines but no
    index register.

    >>> c = addressing_count("a")
    >>> c.count, c.instructions
    (2, ('IMAD R6.cc, R3, R5, c[0x0][0x20]', 'IMAD.HI.X R7, R3, R5, c[0x0][0x24]'))
    """
    rows = listing(panel)
    caption = rows[0]["caption"]
    code = declared_space(panel)
    if code != caption:
        raise DataError(
            f"Fig. 2 panel {panel!r} is captioned {caption} but its listing declares "
            f"a and b in {code} memory: the seed lost this panel's listing, so its "
            "addressing instructions cannot be counted"
        )
    index = {r["index_register"] for r in rows if r["index_register"]}
    has_sass = any(parse(r["text"]) is not None for r in rows)
    if len(index) > 1 or (has_sass and not index):
        raise DataError(
            f"Fig. 2 panel {panel!r}: exactly one index_register must say which "
            f"register holds the element index, got {sorted(index) or 'none'}"
        )
    return count_listing(
        [r["text"] for r in rows], next(iter(index), ""), panel=panel, space=caption
    )


def addressing_counts() -> dict[str, int]:
    """``{space: count}`` for every panel whose listing survived (G, T, C; not S)."""
    out = {}
    for p in PANELS:
        try:
            c = addressing_count(p)
        except DataError:
            continue
        out[c.space] = c.count
    return out


def table():
    """One row per panel: caption, memory the code declares, index register, counted
    instructions, count, whether the load is listed (the chapter's Fig. 2 table)."""
    rows = []
    for p in PANELS:
        code = declared_space(p)
        caption = listing(p)[0]["caption"]
        try:
            c = addressing_count(p)
            counted = "; ".join(c.instructions) or "(none)"
            count: float = c.count
            load = "yes" if c.load_listed else "no"
            reg = c.index_register or "(no SASS line)"
        except DataError:
            counted, count, load, reg = "listing lost", float("nan"), "", ""
        rows.append(
            {
                "panel": p,
                "caption": caption,
                "code declares": code,
                "index register": reg,
                "addressing instructions": counted,
                "count": count,
                "load listed": load,
            }
        )
    return pd.DataFrame(rows).set_index("panel")
