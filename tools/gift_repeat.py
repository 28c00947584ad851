#!/usr/bin/env python3
"""gift_repeat.py — how far any model can agree with KleinBlauw's gifts, and how far dhm's do
(tools/gift_repeat.sh records the runs). KleinBlauw draws its gift from a softmax over its
change policy's scores, so the same hand does not always get the same gift: R runs of one
seed on dhm serve --independent deal every game alike, and the R gifts of each rich player's
hand are R draws from KleinBlauw's distribution for that hand. Prints, over the hands seen in
every run: how often two runs give the same gift; the share of the most frequent gift (the
best any fixed choice can agree, measured on the same draws: a little above the truth for few
runs) and the same predicted from the other R-1 runs (a little below); and, with the
tools/gift_pick helper, how often the gift model's and the rich policy's exchange weights' first
choice equals a run's gift and equals the most frequent gift (where one is most frequent).
usage: tools/gift_repeat.py RUNS_DIR [GIFT_PICK WEIGHTS]"""
import collections
import glob
import itertools
import re
import subprocess
import sys


def games(path):
    g = {}
    for line in open(path):
        line = line.strip()
        if line.startswith('game '):
            g = {'id': int(line.split()[1])}
        for key in ('class', 'changed', 'original'):
            if line.startswith(key + ' '):
                rest = line[len(key) + 1:]
                if key == 'class':
                    g[key] = [int(x) for x in rest.split()]
                else:
                    g[key] = [tuple(sorted(x.split())) for x in re.findall(r'\{([^}]*)\}', rest)]
        if line.startswith('result'):
            yield g


if len(sys.argv) not in (2, 4):
    sys.exit(__doc__.split('\n')[-1])
runs = sorted(glob.glob(sys.argv[1] + '/r*/kleinblauw/games.kifu'))
if len(runs) < 2:
    sys.exit('gift_repeat.py: fewer than two runs under ' + sys.argv[1])
by = collections.defaultdict(list)
for r in runs:
    for g in games(r):
        if 'class' not in g or len(g.get('changed', [])) < 5:
            continue
        for p, c in enumerate(g['class']):
            if c in (0, 1):  # the daifugo (gives 2) and the fugo (gives 1)
                hand = tuple(sorted(g['original'][p] + g['changed'][p]))
                by[(g['id'], c, hand)].append(g['changed'][p])
R = len(runs)
keys = [k for k, v in by.items() if len(v) == R]
full = [by[k] for k in keys]
pairs = sum(sum(a == b for a, b in itertools.combinations(v, 2)) / (R * (R - 1) / 2) for v in full) / len(full)
mode = sum(collections.Counter(v).most_common(1)[0][1] / R for v in full) / len(full)
loo = 0
for v in full:
    for i in range(R):
        cnt = collections.Counter(v[:i] + v[i + 1:])
        top = cnt.most_common(1)[0][1]
        modes = [k for k, n in cnt.items() if n == top]
        loo += (v[i] in modes) / len(modes) / R
loo /= len(full)
print(f'{R} runs of KleinBlauw, {len(full)} rich hands seen in every run')
print(f'  two runs give the same gift                              {pairs:.3f}')
print(f'  the most frequent gift\'s share (the best fixed choice)   {mode:.3f}')
print(f'  ... predicted from the other {R - 1} runs                     {loo:.3f}')
if len(sys.argv) == 4:
    inp = ''.join(f'{2 - k[1]} {" ".join(k[2])}\n' for k in keys)
    out = subprocess.run([sys.argv[2], sys.argv[3]], input=inp, capture_output=True, text=True, check=True)
    picks = out.stdout.split('\n')
    for which, name in ((0, 'the gift model (' + sys.argv[3] + ')'), (1, 'the rich policy\'s exchange weights')):
        agree = mode_agree = nmode = 0
        for k, line in zip(keys, picks):
            g = tuple(sorted(line.split('|')[which].split()))
            v = by[k]
            agree += sum(x == g for x in v) / R
            cnt = collections.Counter(v).most_common()
            if len(cnt) == 1 or cnt[0][1] > cnt[1][1]:
                nmode += 1
                mode_agree += g == cnt[0][0]
        print(f'{name}: its first choice is a run\'s gift {agree / len(keys):.3f}, '
              f'the most frequent gift {mode_agree / nmode:.3f} ({nmode} hands with one most frequent)')
