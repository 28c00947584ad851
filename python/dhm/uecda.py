"""A Python agent as a UECda client (protocol 20070): it joins `dhm serve`, a `dhm tournament`
(pool line: NAME exec: {python} -m dhm.uecda --agent module:Class -h {host} -p {port} -n {name}),
a `dhm sprt`, or any UECda server, and plays until the server ends the match.

    $PY -m dhm.uecda --agent module:Class [-h HOST] [-p PORT] [-n NAME] [--arg KEY=VALUE]...

($PY: the interpreter `make python` built the package for, PY=$(sh tools/pick_python.sh).)

The agent is Class(**args): its act(observation) gets the same dict as Env.observe
({"observation": int8[OBS_SIZE], "action_mask": bool[NUM_ACTIONS]}) and returns an action
index; game_end(me, classes, reward), if it has one, is called after every game. module may
also be a file: path/to/agent.py:Class. The binding keeps the game state from the server's
tables and does the rules: an action outside the mask, or an exception in the agent, ends the
client with exit status 1 and the reason on stderr.

Exit status: 0 the match was played to its end, 1 an error (connection, protocol, agent),
2 bad options.
"""

import argparse
import importlib
import importlib.util
import os
import sys

from . import _dhm

USAGE = """usage: {python} -m dhm.uecda --agent MODULE:CLASS [-h HOST] [-p PORT] [-n NAME] [options]

Plays a Python agent as a UECda client (protocol 20070) until the server ends the match.

  --agent MODULE:CLASS  the agent class (MODULE may be a path to a .py file); it is made as
                        CLASS(**args) and asked act(observation) -> action for every decision
  --arg KEY=VALUE       an argument for CLASS (a string; repeatable)
  -h, --host HOST       server host (127.0.0.1)
  -p, --port PORT       server port (42485)
  -n, --name NAME       name sent to the server (default: CLASS; the server keeps 9 characters)
  --seed S              seed given to the agent as the keyword argument seed (when it takes one)
  --timeout MS          give up if the server is silent this long (off)
  --quiet               no per-game lines on stderr
  --help                this help
"""


def load_agent_class(spec):
    """'module:Class' or 'path/to/file.py:Class' -> the class."""
    mod, sep, cls = spec.rpartition(":")
    if not sep or not mod or not cls:
        raise ValueError("--agent %r: expected MODULE:CLASS" % spec)
    if mod.endswith(".py") or os.sep in mod:
        if not os.path.isfile(mod):
            raise ValueError("--agent: no file %s" % mod)
        name = "dhm_agent_" + os.path.splitext(os.path.basename(mod))[0]
        loader = importlib.util.spec_from_file_location(name, mod)
        module = importlib.util.module_from_spec(loader)
        sys.modules[name] = module
        loader.loader.exec_module(module)
    else:
        module = importlib.import_module(mod)
    try:
        return getattr(module, cls)
    except AttributeError:
        raise ValueError("--agent: %s has no %s" % (mod, cls)) from None


def make_agent(spec, args, seed=None):
    cls = load_agent_class(spec)
    kwargs = dict(args)
    if seed is not None:
        import inspect

        try:
            params = inspect.signature(cls).parameters
        except (TypeError, ValueError):
            params = {}
        if "seed" in params or any(p.kind == p.VAR_KEYWORD for p in params.values()):
            kwargs.setdefault("seed", seed)
    return cls(**kwargs)


def _parser():
    p = argparse.ArgumentParser(prog=sys.executable + " -m dhm.uecda", add_help=False)
    p.add_argument("--agent")
    p.add_argument("--arg", action="append", default=[])
    p.add_argument("-h", "--host", default="127.0.0.1")
    p.add_argument("-p", "--port", type=int, default=42485)
    p.add_argument("-n", "--name")
    p.add_argument("--seed", type=int)
    p.add_argument("--timeout", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--help", action="store_true")
    return p


def _fail(msg, status):
    print("dhm.uecda: %s" % msg, file=sys.stderr)
    return status


def main(argv=None):
    p = _parser()
    try:
        a, rest = p.parse_known_args(argv)
    except SystemExit:
        return 2
    if a.help:
        sys.stdout.write(USAGE.replace("{python}", sys.executable))
        return 0
    if rest:
        return _fail("unexpected argument %r (try --help)" % rest[0], 2)
    if not a.agent:
        return _fail("--agent MODULE:CLASS is required (try --help)", 2)
    if not 1 <= a.port <= 65535:
        return _fail("--port %d: from 1 to 65535" % a.port, 2)
    if a.timeout < 0:
        return _fail("--timeout: milliseconds >= 0", 2)
    kwargs = {}
    for kv in a.arg:
        k, sep, v = kv.partition("=")
        if not sep or not k:
            return _fail("--arg %r: expected KEY=VALUE" % kv, 2)
        kwargs[k] = v
    try:
        agent = make_agent(a.agent, kwargs, a.seed)
    except Exception as e:  # the agent's own module or constructor failed
        return _fail("cannot make the agent %s: %s: %s" % (a.agent, type(e).__name__, e), 2)
    name = a.name or a.agent.rpartition(":")[2]
    try:
        res = _dhm.client_run(agent, a.host, a.port, name, timeout_ms=a.timeout, log=not a.quiet)
    except ConnectionError as e:
        return _fail(str(e), 1)
    except Exception as e:
        import traceback

        traceback.print_exc()
        return _fail("the agent failed: %s: %s" % (type(e).__name__, e), 1)
    if not a.quiet:
        print("dhm.uecda: player %d, %d games, points %s (as this client saw the games)"
              % (res["me"], res["games"], " ".join(map(str, res["points"]))), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
