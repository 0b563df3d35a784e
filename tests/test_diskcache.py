"""The disk cache shared by the processes of a checkout (gpumodels.ground.diskcache):
a result is stored once and read back, its key names the function, the arguments and
the fingerprint of the code and data, and it is off where it must be."""

import os

import pytest

from gpumodels.ground import diskcache
from gpumodels.ground.errors import InputTypeError


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUMODELS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("GPUMODELS_CACHE", raising=False)
    monkeypatch.delenv("GPUMODELS_DATA", raising=False)
    return tmp_path


def _counted():
    calls = []

    def square(x):
        calls.append(x)
        return {"x": x, "square": x * x}

    return square, calls


def test_a_result_is_computed_once_and_read_back_by_another_wrapper(folder):
    square, calls = _counted()
    first = diskcache.persistent(square)
    assert first(3) == {"x": 3, "square": 9}
    assert len(list(folder.glob("*/*.pkl"))) == 1
    again = diskcache.persistent(square)  # as another process would wrap it
    assert again(3) == {"x": 3, "square": 9}
    assert calls == [3]
    assert again(4)["square"] == 16 and calls == [3, 4]
    assert len(list(folder.glob("*/*.pkl"))) == 2


def test_a_new_fingerprint_misses_the_old_entry_and_prunes_it(folder, monkeypatch):
    square, calls = _counted()
    cached = diskcache.persistent(square)
    cached(5)
    (old,) = [p for p in folder.iterdir() if p.is_dir()]
    assert old.name == diskcache.fingerprint()
    # what the cache did not make stays, even where it looks like the cache's
    (folder / "notes.txt").write_text("not the cache's")
    (folder / "results.pkl").write_bytes(b"not the cache's either")
    (folder / "projects").mkdir()
    (folder / "0123456789abcdef").mkdir()  # hex, but not a fingerprint's 20 digits
    new = "0123456789abcdef0123"
    monkeypatch.setattr(diskcache, "fingerprint", lambda: new)
    cached(5)
    assert calls == [5, 5]
    # the new fingerprint's first write removed the old fingerprint's subfolder only
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["0123456789abcdef", new, "notes.txt", "projects", "results.pkl"]
    cached(6)  # a later write under the same fingerprint removes nothing
    assert len(list((folder / new).glob("*.pkl"))) == 2


def test_off_switches_compute_every_time(folder, monkeypatch):
    square, calls = _counted()
    cached = diskcache.persistent(square)
    with diskcache.disabled():
        assert diskcache.cache_dir() is None
        cached(2)
        cached(2)
    assert os.environ.get("GPUMODELS_CACHE") is None  # restored
    monkeypatch.setenv("GPUMODELS_DATA", str(folder))  # a private copy of data/
    assert diskcache.cache_dir() is None
    cached(2)
    assert calls == [2, 2, 2] and not list(folder.glob("**/*.pkl"))


def test_an_unreadable_entry_is_computed_again(folder):
    square, calls = _counted()
    cached = diskcache.persistent(square)
    cached(7)
    (entry,) = folder.glob("*/*.pkl")
    entry.write_bytes(b"not a pickle")
    assert cached(7)["square"] == 49 and calls == [7, 7]
    assert diskcache.persistent(square)(7)["square"] == 49 and calls == [7, 7]


def test_the_checkout_default_and_the_fingerprint():
    assert diskcache.cache_dir() is None or diskcache.cache_dir().name == "cache"
    fp = diskcache.fingerprint()
    assert len(fp) == 20 and int(fp, 16) >= 0


def test_a_non_function_is_refused():
    with pytest.raises(InputTypeError, match="fn must be a function"):
        diskcache.persistent(42)


def test_the_fingerprint_follows_the_data(tmp_path, monkeypatch):
    import shutil

    from gpumodels.ground.data import data_dir

    copy = tmp_path / "data"
    shutil.copytree(str(data_dir()), copy)
    monkeypatch.setenv("GPUMODELS_DATA", str(copy))
    raw = diskcache.fingerprint.__wrapped__  # not the once-per-process value
    same = raw()
    (copy / "gpus.csv").write_text((copy / "gpus.csv").read_text() + "\n")
    assert raw() != same


def test_a_table_that_passed_is_not_checked_again_and_a_failure_is_not_kept(
    folder, monkeypatch
):
    from gpumodels.ground import data
    from gpumodels.ground.errors import DataError

    checked = []
    real = data.validate

    def counted(relpath, text):
        checked.append(relpath)
        return real(relpath, text)

    monkeypatch.setattr(data, "validate", counted)
    gpus = data.read_text("gpus.csv")
    assert data._passes("gpus.csv", gpus) is True
    assert data._passes("gpus.csv", gpus) is True  # read back: checked once
    assert checked == ["gpus.csv"]
    assert len(list(folder.rglob("passes-*.pkl"))) == 1
    # the entry is keyed on the text: a table rewritten since is checked again
    assert data._passes("gpus.csv", gpus + "\n") is True
    assert checked == ["gpus.csv", "gpus.csv"]

    def fails(relpath, text):
        raise DataError(f"data/{relpath}: line 2, column 'x': made-up failure")

    monkeypatch.setattr(data, "validate", fails)
    table = data.read_text("volkov/table_4_1.csv")
    with pytest.raises(DataError, match="made-up failure"):
        data._passes("volkov/table_4_1.csv", table)
    assert len(list(folder.rglob("passes-*.pkl"))) == 2  # the failure left nothing
    # where the cache is off (another data folder, as the corruption tests use), every
    # read is checked
    monkeypatch.setenv("GPUMODELS_CACHE", "off")
    with pytest.raises(DataError, match="made-up failure"):
        data._passes("gpus.csv", gpus)
