#!/usr/bin/env python3
"""train_estseq.py — trains the learned hand estimator's sequence model (players/estseq.h) on the
records of `dhm estimate --dump FILE --dump-seq FILE.seq` (tools/estnet_data.sh) and writes it
as a dhm estseq text model.

The network is the one players/estseq.c runs: the feature model of train_estnet.py, plus a GRU
over the game's events as the deciding player saw them (each event: the sum of its sparse rows
and of its cards' rows, then PyTorch's GRU), whose state at the decision is added into the
feature model's hidden layer through ws. The input embedding and the GRU's input weights are
folded into one table per event feature when written (a linear map: the same numbers). Batches
are whole games: every viewer's sequence of a game is read once, and each decision takes the
state after the events it saw. Loss, validation (1 game in 20 of the training file) and the
tables (log-loss, top-1, calibration) as train_estnet.py.

--no-features: the ablation "the sequence reader instead of the per-opponent features" (the
global features, my hand among them, stay); not written as a dhm model.
--temperature-of FILE: instead of training, fits one temperature T (logits / T) for the feature
model FILE on the validation games and prints its tables at T = 1 and at the fitted T.

Usage: train_estseq.py --train train.bin [--test NAME=FILE]... --out players/estseq.weights
       [--seed 1] [--epochs 3] [--minutes 32] [--games 8] [--lr 0.002] [--threads 1]
(FILE.seq beside every FILE.bin.) Needs Debian's python3-torch; one thread (--threads N for more).
"""
import argparse
import math
import os
import shlex
import sys
import time

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_estnet as fe  # noqa: E402  the feature model, its records and tensors

G, O, E, H, OUT = fe.G, fe.O, fe.E, fe.H, fe.OUT
S, GH, EW, D = 378, 48, 8, 64
ROW = np.dtype([("tag", "<u4"), ("idx", "<u2", (EW,)), ("cards", "<u8"), ("pad", "<u4")])
SMAGIC = b"DHMESTQ1"


class Data:
    """Feature records, the decision -> (sequence, step) map and the sequences' events."""

    def __init__(self, path):
        self.rec = fe.load(path)
        spath = path[:-4] + ".seq" if path.endswith(".bin") else path + ".seq"
        raw = fe.read_records(spath, SMAGIC, "dhm estseq record file (dhm estimate --dump-seq)", "train_estseq")
        if raw.size % ROW.itemsize:
            sys.exit(f"train_estseq: {spath}: truncated")
        rows = raw.view(ROW)
        isdec = (rows["tag"] >> 31).astype(bool)
        dec = rows[isdec]
        if len(dec) != len(self.rec):
            sys.exit(f"train_estseq: {spath}: {len(dec)} decisions for {len(self.rec)} records")
        self.dseq = (dec["tag"] & 0x7FFFFFFF).astype(np.int64)
        self.dstep = dec["idx"][:, 0].astype(np.int64)
        ev = rows[~isdec]
        order = np.argsort(ev["tag"], kind="stable")
        ev = ev[order]
        nseq = int(self.dseq.max()) + 1 if len(dec) else 0
        self.elen = np.bincount(ev["tag"].astype(np.int64), minlength=nseq)
        self.estart = np.concatenate([[0], np.cumsum(self.elen)[:-1]])
        self.eidx = ev["idx"]
        self.ecards = ev["cards"]
        g = self.rec["game"]
        cut = np.flatnonzero(np.diff(g.astype(np.int64))) + 1
        self.gstart = np.concatenate([[0], cut])
        self.gend = np.concatenate([cut, [len(g)]])
        self.ggame = g[self.gstart] if len(g) else g

    def batch(self, games):
        """Tensors for the decisions of the games numbered (by position) in `games`."""
        d = np.concatenate([np.arange(self.gstart[i], self.gend[i]) for i in games])
        seqs, local = np.unique(self.dseq[d], return_inverse=True)
        steps = self.dstep[d]
        T = max(1, int(steps.max()))
        idx = np.full((len(seqs), T, EW), S, dtype=np.int64)
        cards = np.zeros((len(seqs), T), dtype=np.uint64)
        for b, s in enumerate(seqs):
            n = min(int(self.elen[s]), T)
            a = self.estart[s]
            idx[b, :n] = self.eidx[a:a + n]
            cards[b, :n] = self.ecards[a:a + n]
        bits = np.unpackbits(cards.view(np.uint8).reshape(len(seqs), T, 8), axis=-1, bitorder="little")[..., :53]
        g, o, ow, label, allowed = fe.tensors(self.rec[d])
        return (g, o, ow, torch.from_numpy(idx), torch.from_numpy(bits.astype(np.float32)),
                torch.from_numpy(local.astype(np.int64)), torch.from_numpy(steps), label, allowed)


class SeqNet(fe.EstNet):
    def __init__(self, features=True):
        super().__init__()
        self.features = features
        self.se = nn.EmbeddingBag(S + 1, D, mode="sum", padding_idx=S)
        self.sc = nn.Linear(53, D, bias=False)
        self.gru = nn.GRU(D, GH, batch_first=True)
        self.ws = nn.Linear(GH, H, bias=False)
        nn.init.normal_(self.se.weight, 0, 0.1)
        with torch.no_grad():
            self.se.weight[-1].zero_()

    def forward(self, g, o, ow, sidx, scards, dseq, dstep):
        b = g.shape[0]
        B, T, _ = sidx.shape
        x = self.se(sidx.reshape(B * T, EW)).view(B, T, D) + self.sc(scards)
        out, _ = self.gru(x)
        hs = torch.cat([torch.zeros(B, 1, GH), out], 1)
        hd = hs[dseq, dstep]
        eg = torch.relu(self.wg(g) + self.bg)
        eo = torch.relu(self.wo(o.reshape(b * 4, fe.OW), per_sample_weights=ow.reshape(b * 4, fe.OW)) + self.bo)
        if not self.features:
            eo = torch.zeros_like(eo)
        xx = torch.cat([eg, eo.reshape(b, 4 * E)], 1)
        return self.l2(torch.relu(self.l1(xx) + self.ws(hd))).view(-1, 53, 4)


def evaluate(model, data, games, name, table=False, per=64):
    model.eval()
    t = fe.Tally()
    nd = 0
    with torch.no_grad():
        for i in range(0, len(games), per):
            g, o, ow, si, sc, ds, st, label, allowed = data.batch(games[i:i + per])
            t.add(fe.masked(model(g, o, ow, si, sc, ds, st), allowed), label, allowed)
            nd += len(label)
    model.train()
    return t.report(name, nd, table)


def write_model(model, path, header):
    sd = {k: v.detach().double().numpy() for k, v in model.state_dict().items()}
    wih, whh = sd["gru.weight_ih_l0"], sd["gru.weight_hh_l0"]          # 3GH x D, 3GH x GH
    ts = fe.feature_tensors(sd) + [
        ("si", sd["se.weight"][:S] @ wih.T), ("sc", sd["sc.weight"].T @ wih.T), ("sb", sd["gru.bias_ih_l0"][None]),
        ("hh", whh.T), ("hb", sd["gru.bias_hh_l0"][None]), ("ws", sd["ws.weight"].T)]
    fe.write_tensors(path, "dhm estseq 1", header, (G, O, E, H, OUT, S, GH), ts, ".6g")


def read_estnet(path):
    """A dhm estnet text model (train_estnet.py's) into the torch module."""
    m = fe.EstNet()
    lines = [x for x in open(path).read().split("\n") if x and not x.startswith("#")]
    assert lines[0] == "dhm estnet 1", path
    i, t = 2, {}
    while i < len(lines):
        name, r, c = lines[i].split()
        r, c = int(r), int(c)
        t[name] = np.array([[float(v) for v in lines[i + 1 + k].split()] for k in range(r)], dtype=np.float32)
        i += 1 + r
    with torch.no_grad():
        m.wg.weight[:G] = torch.from_numpy(t["wg"]); m.bg[:] = torch.from_numpy(t["bg"][0])
        m.wo.weight[:O] = torch.from_numpy(t["wo"]); m.bo[:] = torch.from_numpy(t["bo"][0])
        m.l1.weight[:] = torch.from_numpy(t["w1"].T); m.l1.bias[:] = torch.from_numpy(t["b1"][0])
        m.l2.weight[:] = torch.from_numpy(t["w2"].T); m.l2.bias[:] = torch.from_numpy(t["b2"][0])
    return m


def temperature(a, rec_va, tests):
    m = read_estnet(a.temperature_of)
    m.eval()

    def logits(rec):
        zs, ls, als = [], [], []
        with torch.no_grad():
            for i in range(0, len(rec), 4096):
                g, o, ow, label, allowed = fe.tensors(rec[i:i + 4096])
                zs.append(m(g, o, ow)); ls.append(label); als.append(allowed)
        return torch.cat(zs), torch.cat(ls), torch.cat(als)

    z, lab, al = logits(rec_va)
    mk = lab >= 0
    best = (1e9, 1.0)
    for T in np.arange(0.80, 2.001, 0.02):
        lp = fe.masked(z / float(T), al)
        nll = -lp.gather(-1, lab.clamp(min=0).unsqueeze(-1)).squeeze(-1)[mk].mean().item()
        best = min(best, (nll, float(T)))
    T = best[1]
    print(f"feature model {a.temperature_of}: temperature fitted on validation: T = {T:.2f} "
          f"(validation log-loss {best[0]:.4f})", flush=True)
    for name, rec in [("validation", rec_va)] + tests:
        z, lab, al = logits(rec)
        for tt in (1.0, T):
            t = fe.Tally()
            for i in range(0, len(z), 8192):
                t.add(fe.masked(z[i:i + 8192] / tt, al[i:i + 8192]), lab[i:i + 8192], al[i:i + 8192])
            t.report(f"{name}, T = {tt:.2f}", len(rec), table=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", action="append", default=[], help="NAME=FILE.bin (FILE.seq beside it)")
    ap.add_argument("--out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--minutes", type=float, default=32)
    ap.add_argument("--games", type=int, default=8, help="games per batch")
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--no-features", action="store_true")
    ap.add_argument("--temperature-of")
    ap.add_argument("--max-games", type=int, default=0, help="only the first N training games (a check)")
    ap.add_argument("--threads", type=int, default=1, help="torch's threads (1; the numbers differ slightly with more)")
    a = ap.parse_args()
    if a.threads < 1:
        sys.exit("train_estseq: --threads must be at least 1")
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    if a.temperature_of:
        rec = fe.load(a.train)
        tests = [(t.partition("=")[0], fe.load(t.partition("=")[2])) for t in a.test]
        temperature(a, rec[rec["game"] % 20 == 0], tests)
        return
    data = Data(a.train)
    ng = len(data.gstart) if not a.max_games else min(a.max_games, len(data.gstart))
    allg = np.arange(ng)
    va = allg[data.ggame[:ng] % 20 == 0]
    tr = allg[data.ggame[:ng] % 20 != 0]
    tests = [(t.partition("=")[0], Data(t.partition("=")[2])) for t in a.test]
    print(f"train: {len(tr)} games, validation: {len(va)} games (1 in 20)", flush=True)
    model = SeqNet(features=not a.no_features)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    steps = a.epochs * math.ceil(len(tr) / a.games)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    step = 0
    stop = False
    for ep in range(a.epochs):
        perm = rng.permutation(tr)
        run = cnt = 0.0
        for i in range(0, len(perm), a.games):
            g, o, ow, si, sc, ds, st, label, allowed = data.batch(perm[i:i + a.games])
            lp = fe.masked(model(g, o, ow, si, sc, ds, st), allowed)
            m = label >= 0
            loss = -lp.gather(-1, label.clamp(min=0).unsqueeze(-1)).squeeze(-1)[m].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step < steps - 1:
                sched.step()
            step += 1
            run += loss.item(); cnt += 1
            if step % 200 == 0 or step == 20:
                print(f"epoch {ep + 1} step {step}/{steps}: train loss {run / cnt:.4f} ({time.time() - t0:.0f} s)",
                      flush=True)
                run = cnt = 0.0
            if time.time() - t0 > a.minutes * 60:
                print(f"time limit ({a.minutes} min) reached at step {step}", flush=True)
                stop = True
                break
        evaluate(model, data, va, f"validation after epoch {ep + 1}", table=(ep + 1 == a.epochs or stop))
        if stop:
            break
    header = [f"made by: {' '.join(shlex.quote(x) for x in sys.argv)}", f"seed {a.seed}, torch {torch.__version__}",
              f"trained on {len(tr)} games for {step} steps ({time.time() - t0:.0f} s)"]
    for name, d in tests:
        ll = evaluate(model, d, np.arange(len(d.gstart)), name, table=True)
        header.append(f"held-out {name}: log-loss {ll:.4f} nats per card")
    if a.out and not a.no_features:
        write_model(model, a.out, header)
        torch.save(model.state_dict(), a.out + ".pt")
        print(f"wrote {a.out}", flush=True)


if __name__ == "__main__":
    main()
