"""tools/paired_diverge.py: two records of the same starts (dhm play --independent, one seed)
part where the compared seat first decides differently. A record against itself never parts;
simple against random in seat 0 parts in most games at seat 0, and seat 0 gains there. The table's lead/follow is right: the first
difference is never a pass on an empty table by dhm's players (they never pass on lead).
Records that do not start alike, and missing files, are one-line errors."""
import pytest

from conftest import PYTHON, REPO, python_env, run

TOOL = str(REPO / "tools" / "paired_diverge.py")


@pytest.fixture(scope="module")
def records(dhm_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("diverge")
    out = {}
    for name, seat0, extra in (("a", "simple", []), ("b", "random", []), ("c", "simple", ["--seed", "4"]),
                               ("x", "simple", ["--class-reset", "1"])):
        path = d / (name + ".kifu")
        args = [dhm_bin, "play", "--players", seat0 + ",simple,policy,simple,policy", "--games", "80",
                "--independent", "--record", str(path), "--quiet"]
        run(args + (extra if "--seed" in extra else ["--seed", "3"] + extra))
        out[name] = str(path)
    return out


def tool(*args, ok=True):
    return run([PYTHON, TOOL] + list(args), ok=ok, env=python_env())


def test_a_record_against_itself_never_parts(records):
    _, out, _ = tool(records["a"], records["a"])
    assert out.startswith("80 pairs: 80 the same to the end, 0 first different at another seat, 0 at seat 0")


def test_simple_against_random(records):
    _, out, _ = tool(records["a"], records["b"], "--min", "1")
    first = out.split("\n")[0]
    n_seat0 = int(first.split(", ")[-1].split()[0])
    assert n_seat0 >= 60  # random differs from simple at once in most games
    nums = [int(x.split()[0]) for x in first.split(": ", 1)[1].split(", ")]
    assert sum(nums) == 80  # (another seat can differ first: a player's tie-breaks draw from its
                            # stream, which earlier games used differently)
    rows = [line.split() for line in out.split("\n")[2:] if line.strip()]
    assert rows[0][0] == "all" and float(rows[0][3]) > 0.5  # simple gains over random
    assert not any(r[0] == "lead:" and r[2] == "pass," for r in rows)  # dhm never passes on lead
    _, csv, _ = tool(records["a"], records["b"], "--csv")
    assert csv.startswith("what,games,mean_difference,se,sum\n\"all\",%d," % n_seat0)


def test_without_the_exchange_too(records):
    _, out, _ = tool(records["x"], records["x"])
    assert out.startswith("80 pairs: 80 the same to the end")


def test_bad_input(records, tmp_path):
    rc, _, err = tool(records["a"], records["c"], ok=False)
    assert rc == 1 and err.strip() == "paired_diverge.py: game 0 starts differently in the two records: not a pair"
    rc, _, err = tool(records["a"], str(tmp_path / "none.kifu"), ok=False)
    assert rc == 1 and "No such file or directory" in err and len(err.strip().split("\n")) == 1
    rc, _, err = tool(records["a"], records["x"], "--seat", "7", ok=False)
    assert rc == 2 and "--seat must be 0..4" in err
