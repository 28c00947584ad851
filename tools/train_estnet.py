#!/usr/bin/env python3
"""train_estnet.py — trains the learned hand estimator (players/estnet.h) on the records of
`dhm estimate --dump` (tools/estnet_data.sh) and writes it as a dhm estnet text model.

The network is the one players/estnet.c runs: per sparse feature set an embedding (sum of rows,
counts for the opponents' features, + bias, ReLU; one table shared by the four opponents), the
five concatenated into a hidden layer (ReLU), then 53 x 4 logits; each card's softmax is taken
over its allowed holders only. Loss: the cross-entropy of the true holder, over the cards to be
guessed. Validation: 1 game in 20 of the training file (whole games). On every test file it
prints the log-loss (nats per card), the top-1 accuracy per card and a calibration table.

Usage: train_estnet.py --train train.bin [--test NAME=FILE]... --out players/estnet.weights
       [--seed 1] [--epochs 4] [--minutes 18] [--batch 512] [--lr 0.002] [--threads 1]
Needs Debian's python3-torch; one thread (--threads N for more).
"""
import argparse
import math
import shlex
import sys
import time

import numpy as np
import torch
import torch.nn as nn

G, O, E, H, OUT = 101, 503, 64, 128, 53 * 4
GW, OW = 24, 64
DT = np.dtype([("game", "<u4"), ("g", "<u2", (GW,)), ("o", "<u2", (4, OW)), ("ow", "u1", (4, OW)),
               ("card", "u1", (53,))])
MAGIC = b"DHMESTN1"


def read_records(path, magic, what, prog="train_estnet"):
    """The bytes after a record file's magic; a missing, unreadable or foreign file is a one-line exit."""
    try:
        with open(path, "rb") as f:
            if f.read(8) != magic:
                sys.exit(f"{prog}: {path}: not a {what}")
            return np.frombuffer(f.read(), dtype=np.uint8)
    except OSError as e:
        sys.exit(f"{prog}: {path}: {e.strerror}")


def load(path):
    raw = read_records(path, MAGIC, "dhm estnet record file (dhm estimate --dump)")
    if raw.size % DT.itemsize:
        sys.exit(f"train_estnet: {path}: truncated ({raw.size} bytes is not a whole number of records)")
    return raw.view(DT)


class EstNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.wg = nn.EmbeddingBag(G + 1, E, mode="sum", padding_idx=G)
        self.bg = nn.Parameter(torch.zeros(E))
        self.wo = nn.EmbeddingBag(O + 1, E, mode="sum", padding_idx=O)
        self.bo = nn.Parameter(torch.zeros(E))
        self.l1 = nn.Linear(5 * E, H)
        self.l2 = nn.Linear(H, OUT)
        for emb in (self.wg, self.wo):
            nn.init.normal_(emb.weight, 0, 0.1)
            with torch.no_grad():
                emb.weight[-1].zero_()

    def forward(self, g, o, ow):
        b = g.shape[0]
        eg = torch.relu(self.wg(g) + self.bg)                                          # B x E
        eo = torch.relu(self.wo(o.reshape(b * 4, OW), per_sample_weights=ow.reshape(b * 4, OW)) + self.bo)
        x = torch.cat([eg, eo.reshape(b, 4 * E)], 1)
        return self.l2(torch.relu(self.l1(x))).view(-1, 53, 4)


def tensors(rec):
    g = torch.from_numpy(rec["g"].astype(np.int64))
    o = torch.from_numpy(rec["o"].astype(np.int64))
    ow = torch.from_numpy(rec["ow"].astype(np.float32))
    card = torch.from_numpy(rec["card"].astype(np.int64))
    label = (card & 7) - 1                        # -1: not to guess
    allowed = ((card >> 3).unsqueeze(-1) >> torch.arange(4)) & 1  # B x 53 x 4
    return g, o, ow, label, allowed.bool()


def masked(z, allowed):
    """Log-probabilities of each card's holders, over the allowed ones only."""
    return torch.log_softmax(z.masked_fill(~allowed, -1e9), -1)


def masked_logp(model, g, o, ow, allowed):
    return masked(model(g, o, ow), allowed)


class Tally:
    """Log-loss and top-1 accuracy over the cards to guess; the calibration of p(card, holder)."""

    def __init__(self):
        self.nll = self.n = self.right = 0.0
        self.bins = np.linspace(0, 1, 11)
        self.psum = np.zeros(10); self.hits = np.zeros(10); self.cnt = np.zeros(10)

    def add(self, lp, label, allowed):
        m = label >= 0
        lab = label.clamp(min=0)
        self.nll -= lp.gather(-1, lab.unsqueeze(-1)).squeeze(-1)[m].sum().item()
        self.right += (lp.argmax(-1) == lab)[m].sum().item()
        self.n += m.sum().item()
        p = lp.exp()[m]                      # cards to guess x 4
        ok = allowed[m]
        truth = torch.nn.functional.one_hot(lab[m], 4).bool()
        pv = p[ok].numpy(); tv = truth[ok].numpy()
        b = np.clip(np.digitize(pv, self.bins) - 1, 0, 9)
        np.add.at(self.psum, b, pv); np.add.at(self.hits, b, tv); np.add.at(self.cnt, b, 1)

    def report(self, name, decisions, table):
        ll = self.nll / max(self.n, 1)
        print(f"{name}: {decisions} decisions, {int(self.n)} cards to guess: log-loss {ll:.4f} nats/card, "
              f"top-1 holder right {self.right / max(self.n, 1):.4f}", flush=True)
        if table:
            print(f"  calibration on {name} (allowed (card, holder) pairs by predicted probability):")
            print("  predicted bin   pairs      mean predicted  observed frequency")
            for i in range(10):
                if self.cnt[i]:
                    print(f"  {self.bins[i]:.1f}-{self.bins[i + 1]:.1f}      {int(self.cnt[i]):9d}  "
                          f"{self.psum[i] / self.cnt[i]:.3f}           {self.hits[i] / self.cnt[i]:.3f}", flush=True)
        return ll


def evaluate(model, rec, name, bs=4096, table=False):
    """log-loss and top-1 accuracy over the cards to guess; the calibration of p(card, holder)."""
    model.eval()
    t = Tally()
    with torch.no_grad():
        for i in range(0, len(rec), bs):
            g, o, ow, label, allowed = tensors(rec[i:i + bs])
            t.add(masked_logp(model, g, o, ow, allowed), label, allowed)
    model.train()
    return t.report(name, len(rec), table)


def feature_tensors(sd):
    """The feature model's eight tensors, as dhm's model files hold them, from a state dict."""
    return [("wg", sd["wg.weight"][:G]), ("bg", sd["bg"][None]), ("wo", sd["wo.weight"][:O]),
            ("bo", sd["bo"][None]), ("w1", sd["l1.weight"].T), ("b1", sd["l1.bias"][None]),
            ("w2", sd["l2.weight"].T), ("b2", sd["l2.bias"][None])]


def write_tensors(path, magic, header, shape, tensors_out, fmt):
    """A dhm text model: the magic line, the header as comments, the shape line, the tensors."""
    with open(path, "w") as f:
        f.write(f"{magic}\n")
        for line in header:
            f.write(f"# {line}\n")
        f.write("shape " + " ".join(str(x) for x in shape) + "\n")
        for name, t in tensors_out:
            f.write(f"{name} {t.shape[0]} {t.shape[1]}\n")
            for row in t:
                f.write(" ".join(format(x, fmt) for x in row) + "\n")


def write_model(model, path, header):
    sd = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    write_tensors(path, "dhm estnet 1", header, (G, O, E, H, OUT), feature_tensors(sd), ".5g")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", action="append", default=[], help="NAME=FILE, held-out records")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minutes", type=float, default=18)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--threads", type=int, default=1, help="torch's threads (1; the numbers differ slightly with more)")
    a = ap.parse_args()
    if a.threads < 1:
        sys.exit("train_estnet: --threads must be at least 1")
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    rec = load(a.train)
    val_mask = rec["game"] % 20 == 0
    tr, va = rec[~val_mask], rec[val_mask]
    tests = []
    for t in a.test:
        name, _, path = t.partition("=")
        tests.append((name, load(path)))
    print(f"train: {len(tr)} decisions, validation: {len(va)} (1 game in 20)", flush=True)
    model = EstNet()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    steps = a.epochs * math.ceil(len(tr) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps, pct_start=0.1)
    t0 = time.time()
    step = 0
    stop = False
    for ep in range(a.epochs):
        perm = rng.permutation(len(tr))
        run = cnt = 0.0
        for i in range(0, len(perm), a.batch):
            g, o, ow, label, allowed = tensors(tr[np.sort(perm[i:i + a.batch])])
            lp = masked_logp(model, g, o, ow, allowed)
            m = label >= 0
            loss = -lp.gather(-1, label.clamp(min=0).unsqueeze(-1)).squeeze(-1)[m].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step < steps - 1:
                sched.step()
            step += 1
            run += loss.item(); cnt += 1
            if step % 500 == 0:
                print(f"epoch {ep + 1} step {step}/{steps}: train loss {run / cnt:.4f} ({time.time() - t0:.0f} s)", flush=True)
                run = cnt = 0.0
            if time.time() - t0 > a.minutes * 60:
                print(f"time limit ({a.minutes} min) reached at step {step}", flush=True)
                stop = True
                break
        evaluate(model, va, f"validation after epoch {ep + 1}")
        if stop:
            break
    header = [f"made by: {' '.join(shlex.quote(x) for x in sys.argv)}", f"seed {a.seed}, torch {torch.__version__}",
              f"trained on {len(tr)} decisions for {step} steps ({time.time() - t0:.0f} s)"]
    for name, r in tests:
        ll = evaluate(model, r, name, table=True)
        header.append(f"held-out {name}: log-loss {ll:.4f} nats per card")
    write_model(model, a.out, header)
    print(f"wrote {a.out}", flush=True)


if __name__ == "__main__":
    main()
