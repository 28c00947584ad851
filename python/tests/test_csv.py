"""Every --csv output of the dhm command (and the CSV files it writes) is one plain table:
one header row, then rows of the same width, no title lines, readable as is by
csv.DictReader and pandas.read_csv."""
import csv
import io
import json

import pytest

from conftest import run

try:
    import pandas
except ImportError:  # Debian's python3-pandas is optional
    pandas = None

POOL = "r random\ns simple\ns2 simple\np policy\nr2 random\nm mc:sims=10\n"
SMALL_POOL = "r random\ns simple\ns2 simple\np policy\nr2 random\nr3 random\n"


def check_csv(text, what):
    assert text.strip(), "%s: no output" % what
    header = next(csv.reader(io.StringIO(text)))
    assert all(h and not h.startswith("#") for h in header), "%s: header %r" % (what, header)
    assert len(set(header)) == len(header), "%s: repeated columns %r" % (what, header)
    assert all(line.strip() for line in text.splitlines()), "%s: a blank line" % what
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows, "%s: no rows" % what
    for i, r in enumerate(rows):
        assert None not in r and None not in r.values(), "%s: row %d is not as wide as the header: %r" % (what, i, r)
        assert not str(r[header[0]]).startswith("#"), "%s: a title line in row %d" % (what, i)
    if pandas is not None:
        df = pandas.read_csv(io.StringIO(text))
        assert list(df.columns) == header and len(df) == len(rows), what
    return header, rows


@pytest.fixture(scope="module")
def stores(dhm_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("csv")
    (d / "pool.txt").write_text(POOL)
    (d / "small.txt").write_text(SMALL_POOL)
    db = d / "t.sqlite"
    run([dhm_bin, "tournament", "--pool", str(d / "pool.txt"), "--db", str(db), "--sets", "8", "--games", "12",
         "--records", "--jobs", "2", "--quiet"])
    run([dhm_bin, "handstrength", "--db", str(db), "--playouts", "16", "--quiet"])
    dup = d / "dup.sqlite"
    run([dhm_bin, "tournament", "--pool", str(d / "small.txt"), "--db", str(dup), "--sets", "2", "--games", "6",
         "--duplicate", "--jobs", "2", "--quiet"])
    _, sets_csv, _ = run([dhm_bin, "records", "sets", "--db", str(db), "--csv"])
    (d / "sets.csv").write_text(sets_csv)
    return d, db, dup


def commands(d, db, dup):
    small = str(d / "small.txt")
    exp = ["--matches", "1", "--games", "2", "--sims", "4", "--jobs", "2", "--quiet", "--csv"]
    return {
        "rate": ["rate", "--db", str(db), "--csv"],
        "rate_all_tables": ["rate", "--db", str(db), "--csv", "--method", "all", "--mse", "--crosstable",
                            "--transitivity", "--los", "--bootstrap", "20"],
        "rate_file": ["rate", str(d / "sets.csv"), "--csv", "--method", "se,bt", "--mse"],
        "records_sets": ["records", "sets", "--db", str(db), "--csv"],
        "records_games": ["records", "games", "--db", str(db), "--csv"],
        "records_games_p": ["records", "games", "--db", str(db), "--csv", "--p"],
        "records_pairs": ["records", "pairs", "--db", str(dup), "--csv"],
        "errorrate": ["errorrate", "--db", str(db), "--csv", "--worlds", "2", "--bootstrap", "20", "--quiet",
                      "--players", "r,s", "--evaluator", "mc:sims=4:playout=simple"],
        "errorrate_marks": ["errorrate", "--db", str(db), "--csv", "--worlds", "2", "--bootstrap", "20", "--quiet",
                            "--players", "s", "--marks", "3", "--evaluator", "mc:sims=4:playout=simple"],
        "handstrength": ["handstrength", "--db", str(db), "--playouts", "16", "--csv", "--quiet"],
        "estimate": ["estimate", "--db", str(db), "--csv", "--worlds", "2", "--games", "3", "--est", "uniform",
                     "--est", "weights"],
        "exp_bandits": ["experiment", "bandits", *exp],
        "exp_choice": ["experiment", "choice", "--opponents", "simple", "--checkpoints", "2", *exp],
        "exp_desa": ["experiment", "desa", *exp],
        "exp_dealing_order": ["experiment", "dealing-order", *exp],
        "exp_oracle": ["experiment", "oracle", "--step", "50", *exp],
        "exp_ninja": ["experiment", "ninja", "--checkpoints", "1,2", *exp],
        "exp_errorrate": ["experiment", "errorrate", "--pool", small, "--games-per-player", "12", "--set-games", "6",
                          "--judge-games", "2", "--worlds", "2", "--evaluator", "mc:sims=4:playout=simple", "--seeds",
                          "2", "--margin-matches", "2", "--margin-games", "2", "--jobs", "2", "--quiet", "--csv"],
        "exp_rating_study": ["experiment", "rating-study", "--pool", small, "--sets", "12", "--set-games", "4",
                             "--jobs", "2", "--quiet", "--csv"],
        "exp_morita": ["experiment", "morita", "--pool", small, "--sets", "12", "--set-games", "4", "--playouts", "8",
                       "--jobs", "2", "--quiet", "--csv"],
    }


NAMES = ["rate", "rate_all_tables", "rate_file", "records_sets", "records_games", "records_games_p", "records_pairs",
         "errorrate", "errorrate_marks", "handstrength", "estimate", "exp_bandits", "exp_choice", "exp_desa",
         "exp_dealing_order", "exp_oracle", "exp_ninja", "exp_errorrate", "exp_rating_study", "exp_morita"]


@pytest.mark.parametrize("name", NAMES)
def test_every_csv_output_is_one_plain_table(dhm_bin, stores, name):
    cmd = commands(*stores)[name]
    _, out, _ = run([dhm_bin, *cmd], timeout=300)
    header, rows = check_csv(out, name)
    if name == "rate":
        assert header[:4] == ["method", "rank", "player", "rating"]
    if name == "rate_all_tables":  # the ratings and the other tables, stacked, each row naming its table
        assert header[:2] == ["table", "method"]
        # (cycles only when some triple of players beat each other in a circle)
        assert {"ratings", "mse", "crosstable", "transitivity", "los"} <= {r["table"] for r in rows}
        assert {"player_a", "player_b", "wins", "mse", "los"} <= set(header)
    if name == "errorrate_marks":
        assert {r["table"] for r in rows} == {"error_rates", "marks"}
    if name == "exp_errorrate":  # per seed, over the seeds, and the evaluator's margin, stacked
        assert {r["table"] for r in rows} == {"players", "correlations", "summary", "n_equivalence", "strongest",
                                              "margin"}
        assert {r["seed"] for r in rows if r["table"] == "players"} == {"1", "2"}
    if name == "exp_ninja":
        assert header[:2] == ["games", "matches"] and [r["games"] for r in rows] == ["1", "2"]
    if name == "exp_morita":
        assert {r["table"] for r in rows} == {"ratings", "heldout"}


def test_csv_files_written_by_options(dhm_bin, stores, tmp_path):
    d, db, dup = stores
    hist = tmp_path / "hist.csv"
    run([dhm_bin, "rate", "--db", str(db), "--method", "sts,elo-game", "--history", str(hist)])
    check_csv(hist.read_text(), "rate --history")
    vg = tmp_path / "vg.csv"
    run([dhm_bin, "experiment", "virtual-game", "--sets", "20", "--games", "20", "--hist", str(vg)])
    check_csv(vg.read_text(), "virtual-game --hist")


def test_json_is_unchanged_by_the_csv_fix(dhm_bin, stores):
    d, db, dup = stores
    _, out, _ = run([dhm_bin, "rate", "--db", str(db), "--json", "--mse"])
    assert "methods" in json.loads(out)
