"""Wrong calls and bad files from Python: the exception's type and its message, word for word
(the C side's table is tests/test_badinput.c)."""
import numpy as np
import pytest

import dhm
from conftest import run

LAST = dhm.NUM_ACTIONS - 1


@pytest.fixture(scope="module")
def files(dhm_bin, tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    (d / "pool.txt").write_text("a simple\nb random\nc simple\nd random\ne simple\n")
    run([dhm_bin, "tournament", "--pool", str(d / "pool.txt"), "--db", str(d / "run.sqlite"), "--sets", "20",
         "--games", "100", "--records", "--quiet"])
    whole = (d / "run.sqlite").read_bytes()
    (d / "half.sqlite").write_bytes(whole[:len(whole) // 2])
    (d / "nul.kifu").write_bytes(b"player a b c d e\n\0\n")
    (d / "a-dir").mkdir()
    return d, len(whole)


def vec_step(actions):
    v = dhm.VecEnv(2)
    v.reset(seed=1)
    v.step(np.array(actions))


def env_step(action):
    e = dhm.Env()
    e.reset(seed=1)
    e.step(action)


CASES = [
    # VecEnv.step called every out-of-range action "action -1"
    (lambda d: vec_step([5000, 0]), ValueError, "game 0: action 5000 is out of range (0..%d)" % LAST),
    (lambda d: vec_step([-7, 0]), ValueError, "game 0: action -7 is out of range (0..%d)" % LAST),
    (lambda d: vec_step([2 ** 40, 0]), ValueError, "game 0: action 1099511627776 is out of range (0..%d)" % LAST),
    (lambda d: env_step(2 ** 40), ValueError, "action 1099511627776 is out of range (0..%d)" % LAST),
    (lambda d: env_step(-1), ValueError, "action -1 is out of range (0..%d)" % LAST),
    # read_kifu('/tmp') returned []
    (lambda d: dhm.read_kifu(str(d / "a-dir")), IsADirectoryError, "[Errno 21] Is a directory: '{d}/a-dir'"),
    (lambda d: dhm.read_kifu(str(d / "nul.kifu")), ValueError, "{d}/nul.kifu:2: a NUL byte: not a text file"),
    (lambda d: dhm.read_kifu("/dev/zero"), ValueError, "/dev/zero:1: a NUL byte: not a text file"),
    (lambda d: dhm.read_kifu(str(d / "none")), FileNotFoundError,
     "[Errno 2] No such file or directory: '{d}/none'"),
    # describe(np.zeros(3, dtype=np.int8)) failed inside numpy
    (lambda d: dhm.describe(np.zeros(3, dtype=np.int8)), ValueError,
     "describe: an observation is an int8 array of shape (%d,), not shape (3,)" % dhm.OBS_SIZE),
    (lambda d: dhm.describe({"observation": [0] * dhm.OBS_SIZE}), ValueError,
     "describe: an observation is an int8 array of shape (%d,), not list" % dhm.OBS_SIZE),
    # a cut-short store was "not a dhm tournament database"
    (lambda d: dhm.Store(str(d / "half.sqlite")), ValueError,
     "damaged database {d}/half.sqlite: cut short ({half} of its {size} bytes; a copy that stopped early?)"),
    (lambda d: dhm.Store(str(d / "a-dir")), ValueError, "{d}/a-dir is a directory, not a dhm tournament database"),
]


@pytest.mark.parametrize("call,exc,message", CASES, ids=[c[2][:40] for c in CASES])
def test_bad_input(files, call, exc, message):
    d, size = files
    with pytest.raises(exc) as e:
        call(d)
    assert str(e.value) == message.format(d=d, half=size // 2, size=size)


def test_good_files_of_odd_shapes_still_load(files):
    d, _ = files
    assert dhm.describe(np.zeros(dhm.OBS_SIZE, dtype=np.int8))["hand"] == []
    with dhm.Store(str(d / "run.sqlite")) as st:
        assert st.run()["sets"] == 20
