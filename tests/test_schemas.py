"""Every table in data/ has a declared schema and passes it; each class of corruption fails it,
and the message names the file, the line and the column."""

import csv
import io
import re
import shutil
from pathlib import Path

import pytest

from gpumodels.ground import data as _data, schemas
from gpumodels.ground.errors import DataError

DATA = Path(__file__).resolve().parent.parent / "data"
FILES = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*.csv"))


def test_every_file_has_a_schema_and_every_schema_a_file():
    assert set(FILES) == set(schemas.TABLES), "a table was added or deleted without its schema"


@pytest.mark.parametrize("rel", FILES)
def test_every_table_passes_its_schema(rel):
    df = schemas.validate(rel, (DATA / rel).read_text(encoding="utf-8"))
    assert len(df) > 0


def _text(rel):
    return (DATA / rel).read_text(encoding="utf-8")


def _fails(rel, text, *pieces):
    with pytest.raises(DataError) as e:
        schemas.validate(rel, text)
    msg = str(e.value)
    assert f"data/{rel}" in msg
    for p in pieces:
        assert re.search(p, msg), (p, msg)
    return msg


def _replace_line(text, startswith, new):
    lines = text.splitlines(keepends=True)
    i = next(i for i, line in enumerate(lines) if line.startswith(startswith))
    lines[i] = new(lines[i])
    return "".join(lines), i + 1


def test_negative_register_count_fails():
    rel = "compute_capability.csv"
    text, line = _replace_line(_text(rel), "7.0,registers_per_sm,", lambda s: s.replace(",65536,", ",-65536,"))
    _fails(rel, text, f"line {line}", "unit's range|positive")


def test_clock_in_mhz_in_the_ghz_row_fails():
    rel = "hardware.csv"
    text, line = _replace_line(_text(rel), "GTX680,processor_clock,", lambda s: s.replace(",1.124,", ",1124,"))
    _fails(rel, text, f"line {line}", "-?1124")


def test_duplicate_row_fails():
    rel = "volkov/table_4_1.csv"
    lines = _text(rel).splitlines(keepends=True)
    _fails(rel, "".join(lines + [lines[3]]), "gpu", "Kepler|Fermi|GT200|G80|Maxwell")


def test_changed_number_of_wrong_type_fails():
    rel = "volkov/table_4_1.csv"
    text, line = _replace_line(_text(rel), "Kepler,", lambda s: s.replace("Kepler,301,", "Kepler,3o1,"))
    _fails(rel, text, "mem_lat", "3o1")


def test_truncated_last_row_fails():
    rel = "volkov/table_4_1.csv"
    text = _text(rel).rstrip("\n")
    _fails(rel, text[: text.rindex(",")], r"line 6 has 7 fields, the header 8 \(a row cut short")


def test_unquoted_comma_fails_with_the_line():
    rel = "huang_li/k80_parameters.csv"
    text, line = _replace_line(_text(rel), "lat_row_conflict,", lambda s: s.replace('"row conflict', "row conflict")
                               .replace('open)"', "open)"))
    _fails(rel, text, f"line {line} has 7 fields")


def test_empty_source_fails():
    rel = "volkov/transactions.csv"
    rows = list(csv.reader(io.StringIO(_text(rel))))
    rows[2][rows[0].index("source")] = ""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    _fails(rel, out.getvalue(), "line 3", "source")


def test_unknown_unit_and_extra_column_fail():
    rel = "volkov/fig_4_7.csv"
    text, line = _replace_line(_text(rel), "mem_lat,", lambda s: s.replace(",cycles,", ",furlongs,"))
    _fails(rel, text, f"line {line}", "unit")
    lines = _text(rel).splitlines()
    extra = "\n".join([lines[0] + ",extra"] + [x + ",1" for x in lines[1:]]) + "\n"
    _fails(rel, extra, "extra")


def test_a_file_without_a_schema_is_refused():
    with pytest.raises(DataError, match="no schema"):
        schemas.validate("volkov/new_table.csv", "a,source\n1,x\n")


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    shutil.copytree(DATA, tmp_path / "data")
    monkeypatch.setenv("GPUMODELS_DATA", str(tmp_path / "data"))
    _data.clear_cache()
    yield tmp_path / "data"
    _data.clear_cache()


def test_loader_refuses_a_corrupted_table_naming_file_and_line(data_copy):
    path = data_copy / "volkov" / "table_4_1.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("Kepler,301,", "Kepler,-301,"), encoding="utf-8")
    with pytest.raises(DataError, match=r"data/volkov/table_4_1.csv(.|\n)*line \d+, column 'mem_lat'"):
        _data.read_rows("volkov/table_4_1.csv")


def test_loader_names_a_deleted_table(data_copy):
    (data_copy / "volkov" / "table_4_1.csv").unlink()
    with pytest.raises(DataError, match="table_4_1.csv"):
        _data.read_rows("volkov/table_4_1.csv")
    assert set(schemas.TABLES) - {p.relative_to(data_copy).as_posix() for p in data_copy.rglob("*.csv")} \
        == {"volkov/table_4_1.csv"}


def test_pandera_is_imported_only_to_check_a_table(tmp_path):
    # a process that reads tables the disk cache records as passed builds no schema
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from gpumodels import hardware\n"
        "hardware.summary()\n"
        "print('pandera' in sys.modules)\n"
    )
    env = {**os.environ, "GPUMODELS_CACHE_DIR": str(tmp_path)}
    env.pop("GPUMODELS_CACHE", None)
    env.pop("GPUMODELS_DATA", None)
    seen = [
        subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True,
            check=True,
        ).stdout.split()[-1]
        for _ in range(2)
    ]
    assert seen == ["True", "False"]  # checked by the first process, read by the next


def test_a_column_recipe_makes_one_pandera_object():
    import pandera.pandas as pa

    col = schemas.text(isin=("a", "b"))
    assert col.make() is col.make() and isinstance(col.make(), pa.Column)
    schema = schemas.schema_of("gpus.csv")
    assert isinstance(schema, pa.DataFrameSchema)
    assert list(schema.columns) == list(schemas.TABLES["gpus.csv"].columns)
