import pytest

from gpumodels import published


def test_value_and_record():
    assert published.value("hk09.t3.peak_gflops.GTX280") == 933.0
    rec = published.record("v16.s5_7.blocks.kepler.3073B")
    assert rec["paper"] == "Volkov 2016" and rec["source"] == "§5.7" and rec["unit"] == "blocks/SM"


def test_unknown_key_suggests_similar():
    with pytest.raises(KeyError, match="hk09.t3.peak_gflops.GTX280"):
        published.value("hk09.t3.peak_gflops.GTX2800")


def test_compare_and_check():
    t = published.compare({"hk09.t3.peak_gflops.8800GTX": 345.6, "hk09.t3.peak_gflops.FX5600": 345.6}, rtol=1e-3)
    assert list(t["within_tolerance"]) == [True, False]
    assert t.loc[1, "difference"] == pytest.approx(345.6 - 384)
    published.check(t, expect_outside=("hk09.t3.peak_gflops.FX5600",))
    with pytest.raises(AssertionError, match="FX5600"):
        published.check(t)
    with pytest.raises(AssertionError):      # a listed exception that starts matching also fails
        published.check(t.assign(within_tolerance=True), expect_outside=("hk09.t3.peak_gflops.FX5600",))


def test_compare_rejects_bad_tolerance():
    with pytest.raises(ValueError, match="rtol"):
        published.compare({}, rtol=-1)


def test_keys_prefix():
    assert len(published.keys("v16.t2_9.")) == 20


def test_notes_markdown_lists_each_noted_row_and_escapes_markup():
    from gpumodels import scoreboard

    board = scoreboard.table("hl17.s3c.lat_var.K80", "hl17.s2b.placements")
    md = published.notes_markdown(board)
    lines = md.splitlines()
    noted = board[board.note.str.strip() != ""]
    assert len(lines) == len(noted) >= 1
    assert lines[0].startswith("* `hl17.s3c.lat_var.K80` (outside): outside, explained:")
    fake = board.iloc[:1].assign(note="a*b_c [x] <y> |z|")
    assert published.notes_markdown(fake).endswith(r"a\*b\_c \[x\] \<y\> \|z\|")
    assert published.notes_markdown(board.iloc[:1].assign(note="  ")) == ""
