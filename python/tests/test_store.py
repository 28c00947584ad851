"""The results store from Python, and dhm.rate equal to `dhm rate`."""
import csv
import io

import pytest

import dhm
from conftest import run

try:
    import pandas
except ImportError:
    pandas = None


@pytest.fixture(scope="module")
def db(dhm_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("store")
    (d / "pool.txt").write_text("r random\ns simple\ns2 simple\np policy\nr2 random\nr3 random\n")
    path = d / "t.sqlite"
    run([dhm_bin, "tournament", "--pool", str(d / "pool.txt"), "--db", str(path), "--sets", "12", "--games", "20",
         "--jobs", "2", "--quiet"])
    return path


def cli_rows(dhm_bin, *args):
    _, out, _ = run([dhm_bin, *args])
    return list(csv.DictReader(io.StringIO(out)))


def test_sets_and_games_equal_the_records_command(dhm_bin, db):
    with dhm.Store(str(db)) as st:
        sets = st.sets()
        games = st.games()
        assert [p["name"] for p in st.players()] == ["r", "s", "s2", "p", "r2", "r3"]
        run_info = st.run()
        assert run_info["sets"] == 12 and run_info["games"] == 20 and run_info["seed"] == 1
    want = cli_rows(dhm_bin, "records", "sets", "--db", str(db), "--csv")
    assert [(r["player"], r["points"]) for r in sets] == [(w["player"], int(w["points"])) for w in want]
    assert [r["set"] for r in sets] == [int(w["set"]) for w in want]
    want_g = cli_rows(dhm_bin, "records", "games", "--db", str(db), "--csv")
    assert [(r["player"], r["rank"]) for r in games] == [(w["player"], int(w["rank"])) for w in want_g]
    for k in range(12):  # a set's points are its games' points
        for p in {r["player"] for r in sets if r["set"] == k}:
            pts = next(r["points"] for r in sets if r["set"] == k and r["player"] == p)
            assert pts == sum(g["points"] for g in games if g["set"] == k and g["player"] == p)


def same_ratings(got, want):
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        assert g["method"] == w["method"] and g["player"] == w["player"] and g["rank"] == int(w["rank"])
        for k in ("rating", "uncertainty", "ci_low", "ci_high", "h2h_win_pct"):
            assert (g[k] is None) == (w[k] == "") and (g[k] is None or g[k] == pytest.approx(float(w[k]), abs=1e-4))
        assert g["bound"] == w["bound"] and g["uncertainty_kind"] == w["uncertainty_kind"]


@pytest.mark.parametrize("methods", ["sts", "se,sg,sg2,bt,pl,melo", "elo-game,bt"])
def test_rate_equals_dhm_rate(dhm_bin, db, methods):
    want = cli_rows(dhm_bin, "rate", "--db", str(db), "--method", methods, "--csv", "--bootstrap", "30")
    same_ratings(dhm.rate(str(db), methods=methods, bootstrap=30), want)
    with dhm.Store(str(db)) as st:
        same_ratings(st.ratings(methods, bootstrap=30), want)


def test_rate_rows_and_options(dhm_bin, db, tmp_path):
    _, text, _ = run([dhm_bin, "records", "sets", "--db", str(db), "--csv"])
    (tmp_path / "sets.csv").write_text(text)
    rows = list(csv.DictReader(io.StringIO(text)))
    want = cli_rows(dhm_bin, "rate", str(tmp_path / "sets.csv"), "--method", "se,bt", "--csv", "--init", "1000",
                    "--k", "16", "--order", "seq", "--anchor", "s=1200")
    same_ratings(dhm.rate(rows, methods="se,bt", init=1000, k=16, sequential=1, anchor="s=1200"), want)
    if pandas is not None:
        df = dhm.rate(pandas.DataFrame(rows), methods=["se", "bt"], init=1000, k=16, sequential=1,
                      anchor=("s", 1200), as_frame=True)
        assert list(df["player"]) == [w["player"] for w in want]
        with dhm.Store(str(db)) as st:
            assert len(st.sets(as_frame=True)) == 60 and len(st.games(as_frame=True)) == 12 * 20 * 5


def test_clear_errors(db, tmp_path):
    with pytest.raises(ValueError):
        dhm.Store(str(tmp_path / "missing.sqlite"))
    (tmp_path / "junk.sqlite").write_bytes(b"not a database" * 100)
    with pytest.raises(ValueError):
        dhm.Store(str(tmp_path / "junk.sqlite"))
    with pytest.raises(ValueError, match="unknown method"):
        dhm.rate(str(db), methods="nope")
    with pytest.raises(ValueError, match="needs per-game"):
        dhm.rate([{"set": 1, "player": x, "points": 3} for x in "abcde"], methods="elo-game")
    with pytest.raises(ValueError, match="five distinct|5 players|players"):
        dhm.rate([{"set": 1, "player": x, "points": 3} for x in "abcd"])
    with pytest.raises(ValueError, match="row 0"):
        dhm.rate([{"x": 1}])
    st = dhm.Store(str(db))
    st.close()
    with pytest.raises(ValueError, match="closed"):
        st.sets()
