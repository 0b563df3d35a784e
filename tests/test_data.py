"""Every number copied from a source sits in data/ with a non-empty source column."""

import csv
from pathlib import Path

import pytest

from gpumodels.facts.hardware import PARAMETERS, list_gpus
from gpumodels.facts.occupancy import ComputeCapability, list_compute_capabilities

DATA = Path(__file__).resolve().parent.parent / "data"
CSVS = sorted(DATA.rglob("*.csv"))


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_there_are_tables():
    names = {p.relative_to(DATA).as_posix() for p in CSVS}
    assert {"gpus.csv", "hardware.csv", "compute_capability.csv", "published/volkov.csv"} <= names


@pytest.mark.parametrize("path", CSVS, ids=lambda p: p.relative_to(DATA).as_posix())
def test_every_row_has_a_source(path):
    rows = _rows(path)
    assert rows, f"{path} is empty"
    assert "source" in rows[0], f"{path} has no 'source' column"
    empty = [i + 2 for i, r in enumerate(rows) if not (r["source"] or "").strip()]
    assert empty == [], f"{path}: rows without a source at lines {empty}"


def test_hardware_table_is_tidy():
    rows = _rows(DATA / "hardware.csv")
    keys = [(r["gpu"], r["parameter"]) for r in rows]
    assert len(keys) == len(set(keys)), "one row per (gpu, parameter)"
    assert {r["gpu"] for r in rows} == set(list_gpus())
    for r in rows:
        attr, unit, typ = PARAMETERS[r["parameter"]]
        assert r["unit"] == unit, r
        typ(r["value"])                      # parses
        assert r["value"].strip() != "", r   # empty values are left out, not written as blanks


def test_compute_capability_table_is_complete():
    rows = _rows(DATA / "compute_capability.csv")
    keys = [(r["cc"], r["parameter"]) for r in rows]
    assert len(keys) == len(set(keys))
    params = {f.name for f in ComputeCapability.__dataclass_fields__.values()} - {"cc", "sources"}
    for cc in list_compute_capabilities():
        assert {p for c, p in keys if c == cc} == params, cc


PUBLISHED = sorted((DATA / "published").glob("*.csv"))


def test_published_values_are_unique_and_numeric():
    rows = [r for p in PUBLISHED for r in _rows(p)]
    assert {p.stem for p in PUBLISHED} == {"hong_kim", "volkov", "huang_li", "perez_piccoli", "transit"}
    assert len({r["key"] for r in rows}) == len(rows)
    for r in rows:
        float(r["value"])
        assert r["paper"] and r["quantity"] and r["unit"] and r["source"]
        assert r["context"] in list_gpus() or r["context"] == "generic", r["key"]
        assert r["status"] in ("reproduced", "outside", "not derivable", "input"), r["key"]
        if r["tolerance"]:
            assert float(r["tolerance"]) > 0 and "tolerance:" in r["note"], r["key"]


def test_each_paper_has_its_own_table():
    for p in PUBLISHED:
        assert len({r["paper"] for r in _rows(p)}) == 1, p.name


def test_inputs_and_claims_are_plain():
    """An input has no tolerance and no bound; a claim (a bound) has no tolerance."""
    for p in PUBLISHED:
        for r in _rows(p):
            if r["status"] == "input":
                assert not r["tolerance"] and not r["bound"], r["key"]
            if r["bound"]:
                assert r["bound"] in "<>" and not r["tolerance"], r["key"]


INPUT_KINDS = ("measured", "specified", "read from", "restates", "the book's reading", "chosen by the paper")


def test_every_input_says_what_it_is():
    """An input is shown and not counted; its note says why: a measurement, a
    specification, a value read from the text or another paper, a restatement of another
    row, the book's reading of words, or a parameter the paper chose."""
    for p in PUBLISHED:
        for r in _rows(p):
            if r["status"] == "input":
                assert r["note"].startswith(INPUT_KINDS), (r["key"], r["note"][:60])
