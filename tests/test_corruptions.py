"""Single-file corruptions of data/ that used to be accepted (and silently changed
published numbers) or failed unclearly: each is refused with a DataError naming the
file, the line or key, and the rule. A CSV saved with a byte-order mark is accepted.

Each test corrupts one file of a private copy of data/ (``GPUMODELS_DATA``), restores it
afterwards and clears every cache that could hold a table read from it.
"""

import csv
import importlib
import io
import re
import shutil
from pathlib import Path

import pytest

from gpumodels.facts import hardware, param_sets, published
from gpumodels.ground import data as _data
from gpumodels.ground.errors import DataError

# the modules, not the functions their packages export under the same names
analysis = importlib.import_module("gpumodels.papers.huang_li.analysis")
transit_machine = importlib.import_module("gpumodels.papers.transit.machine")
volkov_parameters = importlib.import_module("gpumodels.papers.volkov.parameters")

DATA = Path(__file__).resolve().parent.parent / "data"

_CACHES = (
    published._rows,
    hardware._gpus,
    hardware._index,
    transit_machine._machines,
    param_sets._table_4_1,
    param_sets.params,
    analysis._k80_rows,
    analysis._placement_traffic,
)


def _clear():
    _data.clear_cache()
    for c in _CACHES:
        c.cache_clear()


@pytest.fixture(scope="module")
def copy_dir(tmp_path_factory):
    dest = tmp_path_factory.mktemp("corrupt") / "data"
    shutil.copytree(DATA, dest)
    return dest


@pytest.fixture
def data(copy_dir, monkeypatch):
    """The copy of data/, in use; every file a test writes is restored afterwards."""
    saved: dict[Path, bytes] = {}

    class Data:
        root = copy_dir

        def text(self, rel):
            return (copy_dir / rel).read_text(encoding="utf-8")

        def write(self, rel, text, encoding="utf-8"):
            path = copy_dir / rel
            saved.setdefault(path, path.read_bytes())
            path.write_text(text, encoding=encoding)

        def replace_line(self, rel, startswith, old, new):
            """Replace ``old`` by ``new`` in the line starting with ``startswith``;
            the line number (the header is line 1)."""
            lines = self.text(rel).splitlines(keepends=True)
            i = next(i for i, s in enumerate(lines) if s.startswith(startswith))
            assert old in lines[i], (old, lines[i])
            lines[i] = lines[i].replace(old, new, 1)
            self.write(rel, "".join(lines))
            return i + 1

        def delete_line(self, rel, startswith):
            lines = self.text(rel).splitlines(keepends=True)
            i = next(i for i, s in enumerate(lines) if s.startswith(startswith))
            self.write(rel, "".join(lines[:i] + lines[i + 1 :]))
            return i + 1

    monkeypatch.setenv("GPUMODELS_DATA", str(copy_dir))
    _clear()
    yield Data()
    for path, content in saved.items():
        path.write_bytes(content)
    _clear()


def _refused(call, *pieces):
    """``call()`` raises DataError whose message matches every regex of ``pieces``."""
    with pytest.raises(DataError) as e:
        call()
    msg = str(e.value)
    for p in pieces:
        assert re.search(p, msg), (p, msg)
    return msg


def _rewrite(text, change):
    """The CSV ``text`` with each row (a dict) passed through ``change``."""
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    for r in rows:
        change(r)
    out = io.StringIO(newline="")
    w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


# ---- every current row passes every new rule


RULED = (
    "transit/machines.csv",
    "hardware.csv",
    "huang_li/k80_parameters.csv",
    "published/huang_li.csv",
    "volkov/table_4_1.csv",
    "volkov/table_6_5.csv",
    *(f"published/{n}.csv" for n in ("hong_kim", "volkov", "perez_piccoli", "transit")),
)


@pytest.mark.parametrize("rel", RULED)
def test_the_committed_tables_pass_the_new_rules(data, rel):
    assert len(_data.read_rows(rel)) > 0


# ---- 1. Transit's machine points


def test_transit_R_typed_a_thousand_times_too_large_is_refused(data):
    rel = "transit/machines.csv"
    line = data.replace_line(rel, "C2075,SP,R,", ",8.93,", ",8930,")
    _refused(
        lambda: _data.read_rows(rel),
        re.escape(f"data/{rel}"),
        f"line {line}",
        "'R'",
        r"plausible range \[1, 100\]",
    )


@pytest.mark.parametrize(
    ("start", "old", "new"),
    [
        ("GTX690,SP,k_delta,", ",2048,", ",20480,"),
        ("C2075,SP,pi_height,", ",24.8,", ",2480,"),
        ("C2075,DP,M,", ",384,", ",3.84,"),
    ],
)
def test_other_transit_parameters_out_of_range_are_refused(data, start, old, new):
    rel = "transit/machines.csv"
    line = data.replace_line(rel, start, old, new)
    _refused(lambda: _data.read_rows(rel), f"line {line}", "plausible range")


def test_transit_R_in_range_but_inconsistent_between_precisions_is_refused(data):
    rel = "transit/machines.csv"
    data.replace_line(rel, "GTX690,DP,R,", ",18.86,", ",88.6,")
    _refused(lambda: _data.read_rows(rel), r"R\(DP\)/R\(SP\)", "GTX690")


def test_a_missing_transit_coordinate_names_the_key(data):
    rel = "transit/machines.csv"
    data.delete_line(rel, "C2075,SP,R,")
    _refused(
        lambda: transit_machine.machine("C2075", "SP"),
        re.escape(f"data/{rel}"),
        "gpu='C2075', precision='SP', parameter='R'",
        "required",
    )


# ---- 2. hardware: clocks and bandwidths


@pytest.mark.parametrize(
    ("start", "old", "new", "rule"),
    [
        ("GTX680,processor_clock,", ",1.124,", ",0.1124,", r"range \[0.5, 3\]"),
        ("K20,processor_clock,", ",0.706,", ",7.06,", r"range \[0.5, 3\]"),
        ("GTX690,base_clock,", ",0.915,", ",0.0915,", "plausible range"),
        ("GTS250,graphics_clock,", ",740,", ",74,", "plausible range"),
        ("GTX470,memory_clock,", ",1674,", ",167.4,", "plausible range"),
        ("GTX680,pin_bandwidth,", ",192.3,", ",19.23,", "BANDWIDTH_BY_CC_MAJOR"),
        ("GTX680,pin_bandwidth,", ",192.3,", ",1923,", "BANDWIDTH_BY_CC_MAJOR"),
        ("GTX280,pin_bandwidth,", ",141.7,", ",14.17,", "BANDWIDTH_BY_CC_MAJOR"),
        ("GH200,pin_bandwidth,", ",4000,", ",400,", "BANDWIDTH_BY_CC_MAJOR"),
        ("P100,pin_bandwidth,", ",732,", ",7320,", "per pin|BANDWIDTH"),
        ("L40,memory_bus_width,", ",384,", ",3840,", "per pin"),
        ("C2050,memory_bus_width,", ",384,", ",3840,", "per pin"),
        ("A100,memory_clock,", ",1215,", ",1400,", r"2 x memory_clock"),
        ("GTX690,base_clock,", ",0.915,", ",1.915,", "base_clock <= processor_clock"),
    ],
)
def test_hardware_clock_and_bandwidth_typos_are_refused(data, start, old, new, rule):
    line = data.replace_line("hardware.csv", start, old, new)
    gpu = start.split(",")[0]
    msg = _refused(lambda: _data.read_rows("hardware.csv"), "data/hardware.csv", rule)
    assert f"line {line}" in msg and gpu in msg, msg


def test_gtx680_clock_a_tenth_fails_where_the_models_read_it(data):
    data.replace_line("hardware.csv", "GTX680,processor_clock,", ",1.124,", ",0.1124,")
    _refused(lambda: hardware.get_gpu("GTX680"), "data/hardware.csv", "processor_clock")
    _refused(lambda: param_sets.params("Kepler"), "data/hardware.csv")


def test_a_missing_compute_capability_names_the_gpu(data):
    data.delete_line("hardware.csv", "GTX680,compute_capability,")
    _refused(
        lambda: hardware.get_gpu("GTX680"),
        "data/hardware.csv",
        "gpu='GTX680', parameter='compute_capability'",
    )


def test_a_gpu_deleted_from_gpus_csv_is_named(data):
    data.delete_line("gpus.csv", "P100,")
    _refused(
        lambda: hardware.get_gpu("GTX680"),
        "data/hardware.csv",
        "data/gpus.csv",
        "'P100'",
    )


# ---- 3. Huang & Li's K80 latencies


def test_k80_latency_a_thousandth_is_refused(data):
    rel = "huang_li/k80_parameters.csv"
    line = data.replace_line(rel, "lat_row_hit,", ",352,", ",0.352,")
    _refused(
        lambda: _data.read_rows(rel),
        re.escape(f"data/{rel}"),
        f"line {line}",
        "lat_row_hit",
        r"plausible range \[50, 5000\]",
    )


def test_k80_latencies_out_of_order_are_refused(data):
    rel = "huang_li/k80_parameters.csv"
    data.replace_line(rel, "lat_row_miss,", ",742,", ",1742,")
    _refused(lambda: _data.read_rows(rel), "lat_row_miss", "hit < miss < conflict")


def test_published_k80_latency_disagreeing_with_the_parameters_is_refused(data):
    rel = "published/huang_li.csv"
    line = data.replace_line(rel, "hl17.s3c2.lat_hit.K80,", ",352,", ",0.352,")
    _refused(
        lambda: published.value("hl17.s3c2.lat_hit.K80"),
        re.escape(f"data/{rel}"),
        re.escape("data/huang_li/k80_parameters.csv"),
        f"line {line}",
        "lat_row_hit",
        "a printed input equals the parameter",
    )


def test_a_missing_k80_parameter_names_the_key(data):
    rel = "huang_li/k80_parameters.csv"
    data.delete_line(rel, "shmem_lat,")
    _refused(
        lambda: analysis._k80_rows(), re.escape(f"data/{rel}"), "parameter='shmem_lat'"
    )


# ---- 4. Volkov's Table 6.5


@pytest.mark.parametrize(
    ("x", "y", "rule"),
    [("a", "b", "larger than b and c"), ("a", "c", "larger than b and c"),
     ("b", "c", "c > b")],
)
def test_swapped_table_6_5_columns_are_refused(data, x, y, rule):
    rel = "volkov/table_6_5.csv"

    def swap(r):
        r[x], r[y] = r[y], r[x]

    data.write(rel, _rewrite(data.text(rel), swap))
    _refused(
        lambda: _data.read_rows(rel),
        re.escape(f"data/{rel}"),
        "line 2 ",
        "G80 table_6_5",
        rule,
    )


@pytest.mark.parametrize(("term", "line", "rule"), [("1", "line 7 ", "0.9 x peak < c"),
                                                     ("2", "line 8 ", "c <= 2 x peak")])
def test_swapped_b_and_c_in_the_two_term_g80_fit_are_refused(data, term, line, rule):
    """The refined G80 fit has b > c in its second term, so the one-term rule c > b
    cannot catch a swap there; the bounds on c against Table 6.4's peak do."""
    rel = "volkov/table_6_5.csv"

    def swap(r):
        if r["variant"] == "two_term" and r["term"] == term:
            r["b"], r["c"] = r["c"], r["b"]

    data.write(rel, _rewrite(data.text(rel), swap))
    _refused(lambda: _data.read_rows(rel), re.escape(f"data/{rel}"), line, "two_term",
             re.escape(rule))


def test_table_6_5_c_below_the_peak_is_refused(data):
    rel = "volkov/table_6_5.csv"
    line = data.replace_line(rel, "Kepler,table_6_5,", ",170,", ",150,")
    _refused(
        lambda: param_sets.params("Kepler"),
        re.escape(f"data/{rel}"),
        "chapter6_metrics",
        f"line {line}",
        r"1 x peak < c",
    )


def test_table_6_5_a_far_from_the_unloaded_latency_is_refused(data):
    rel = "volkov/table_6_5.csv"
    line = data.replace_line(rel, "Maxwell,table_6_5,", ",372,", ",572,")
    _refused(
        lambda: _data.read_rows(rel),
        "table_4_1",
        f"line {line}",
        "within 15 % of the unloaded latency",
    )


# ---- 5. published tables: a deleted row


@pytest.mark.parametrize("name", ["volkov", "transit"])
def test_a_deleted_published_row_is_an_error(data, name):
    rel = f"published/{name}.csv"
    rows = data.text(rel).splitlines(keepends=True)
    n = len(rows) - 1
    data.write(rel, "".join(rows[:5] + rows[6:]))
    _refused(
        lambda: published.rows(),
        re.escape(f"data/{rel}"),
        f"has {n - 1} rows, expected {n}",
        "PUBLISHED_ROWS",
    )


# ---- 6. missing columns and keys


def test_a_missing_column_is_named(data):
    rel = "volkov/table_4_1.csv"

    def drop(r):
        del r["mem_lat"]

    data.write(rel, _rewrite(data.text(rel), drop))
    _refused(
        lambda: param_sets.params("Kepler"),
        re.escape(f"data/{rel}"),
        r"line 1 \(header\)",
        "'mem_lat' missing",
    )


@pytest.mark.parametrize(
    ("rel", "start", "key"),
    [
        ("volkov/table_4_1.csv", "Kepler,", "gpu='Kepler'"),
        ("volkov/table_6_5.csv", "Fermi,table_6_5,", "'Fermi', variant='table_6_5'"),
        ("volkov/transactions.csv", "Maxwell,", "gpu='Maxwell'"),
    ],
)
def test_a_missing_volkov_row_names_the_key(data, rel, start, key):
    data.delete_line(rel, start)
    _refused(
        lambda: param_sets.params("Kepler") and _data.read_rows(rel),
        re.escape(f"data/{rel}"),
        re.escape(key),
        "required",
    )


def test_a_missing_chapter6_cell_names_the_key(data):
    rel = "volkov/chapter6_metrics.csv"
    data.delete_line(rel, "Kepler,6.4,peak,")
    _refused(
        lambda: volkov_parameters.table("6.4"),
        re.escape(f"data/{rel}"),
        "gpu='Kepler', table='6.4', column='peak'",
    )


# ---- 7. a byte-order mark (as Excel writes) is accepted


@pytest.mark.parametrize(
    "rel", ["volkov/table_4_1.csv", "hardware.csv", "published/volkov.csv"]
)
def test_a_byte_order_mark_is_accepted(data, rel):
    before = _data.read_rows(rel)
    _clear()
    data.write(rel, data.text(rel), encoding="utf-8-sig")
    assert (data.root / rel).read_bytes().startswith(b"\xef\xbb\xbf")
    assert _data.read_rows(rel) == before
    assert list(_data.read_frame(rel).columns) == list(before[0])
    assert param_sets.params("Kepler").mem_lat == 301.0
    assert hardware.get_gpu("GTX680").clock_ghz == 1.124
