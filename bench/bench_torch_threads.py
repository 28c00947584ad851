"""The PyTorch example's thread defaults with one core busy (make bench; needs make python and
Debian's python3-torch, else it says "skipped").

python/examples/torch_agent.py eval is timed by the wall clock with another process spinning on
one core all along: at its defaults (--threads auto), with --threads 1, and with --threads 2 (the
old default, which made torch's spinning threads wait for a descheduled one). A tiny network is
trained first (a few seconds); each eval plays the same games. Runs are interleaved (round 1 of
each, then round 2, ...) and each figure is the median over ROUNDS rounds.

  torch_eval_default_s    eval at its defaults
  torch_eval_threads1_s   eval --threads 1
  torch_eval_threads2_s   eval --threads 2
  ratio_default_vs_threads1, and its goal: the defaults within 2x of --threads 1

Environment: DHM_BENCH_GAMES (1000 games an eval), DHM_BENCH_ROUNDS (3).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "python", "examples", "torch_agent.py")
GAMES = int(os.environ.get("DHM_BENCH_GAMES", "1000"))
ROUNDS = int(os.environ.get("DHM_BENCH_ROUNDS", "3"))


def run(args):
    """Runs the example; its wall time in seconds (exit status checked)."""
    t = time.perf_counter()
    p = subprocess.run([sys.executable, EXAMPLE] + args, capture_output=True, text=True)
    if p.returncode:
        sys.exit("bench_torch_threads: torch_agent.py %s failed (exit %d): %s"
                 % (" ".join(args), p.returncode, (p.stderr.strip().splitlines() or ["?"])[-1]))
    return time.perf_counter() - t


def main():
    try:
        import torch  # noqa: F401
    except ImportError:
        print("%-48s %12s (no torch for %s: make deps-torch)" % ("torch_eval_default_s", "skipped", sys.executable))
        return
    with tempfile.TemporaryDirectory() as tmp:
        weights = os.path.join(tmp, "tiny.pt")
        run(["train", "--steps", "2000", "--imitate", "2000", "--imitate-epochs", "1", "--n", "16", "--rollout", "4",
             "--threads", "1", "--out", weights])
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            time.sleep(2)  # let the spinner show in the load average, as another job would
            ev = ["eval", "--weights", weights, "--games", str(GAMES), "--opponents", "simple"]
            times = {"default": [], "threads1": [], "threads2": []}
            for _ in range(ROUNDS):
                times["default"].append(run(ev))
                times["threads1"].append(run(ev + ["--threads", "1"]))
                times["threads2"].append(run(ev + ["--threads", "2"]))
        finally:
            busy.kill()
            busy.wait()
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in ("default", "threads1", "threads2"):
        print("%-48s %12.2f s (median of %d, wall clock, %d games, one core busy; runs %s)"
              % ("torch_eval_%s_s" % k, med[k], ROUNDS, GAMES, ", ".join("%.2f" % t for t in times[k])))
    ratio = med["default"] / med["threads1"]
    print("%-48s %12.2f x (eval at its defaults / eval --threads 1)" % ("ratio_default_vs_threads1", ratio))
    print("%-48s %12s (goal: within 2 x of --threads 1 with one core busy)"
          % ("ratio_default_vs_threads1_goal", "met" if ratio <= 2 else "NOT MET"))


if __name__ == "__main__":
    main()
