#!/usr/bin/env python3
"""paired_diverge.py — where two paired runs first part, and what it cost.

Reads the two kifu records of a paired comparison (bench/ladder.sh -q ... --keep DIR keeps them
as DIR/FIELD:A/games.kifu and DIR/FIELD:B/games.kifu): game i of A and game i of B start alike
(dhm serve --independent) and follow the same moves until some player first decides
differently. For the games whose first difference is the compared seat's own decision, it
prints that seat's points in A minus B (5 daifugo ... 1 daihinmin), grouped by what differed:
pass against play, and whether the seat led or followed with the shapes of the two melds.
Mean +- SE over those games.

Usage: paired_diverge.py A.kifu B.kifu [--seat P] [--min N] [--csv]
Run it with an interpreter that has numpy (/usr/bin/python3 on Debian) after `make python`.
"""
import argparse
import collections
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'build', 'python'))


def shape(text):
    """The meld's shape from its kifu text: pass, joker, single, group2..4, seq."""
    if text == 'p':
        return 'pass'
    if text == 'jk':
        return 'joker'
    suits, ranks = text.split('-', 1)
    if len(suits) > 1:
        return 'group%d' % len(suits)
    return 'seq' if len(ranks) > 1 else 'single'


def ncards(text):
    """How many cards a meld's kifu text holds ('p': none; 'cs-a(c)': two; 'h-4(5)6': three)."""
    if text == 'p':
        return 0
    if '-' not in text:
        return 1  # the joker alone
    suits, ranks = text.split('-', 1)
    return len(suits) if len(suits) > 1 else len(ranks.replace('(', '').replace(')', ''))


def table_empty_before(plays, k, counts):
    """Whether the table is empty when plays[k] is made: the trick clears once every player
    still holding cards has passed in it, the last meld's player included (a player who passed
    stays passed until the clear; ../shared/spec/uecda.md 3.5), at once after an 8, and after
    the spade 3 on a lone joker."""
    left = list(counts)
    empty, passed, last = True, set(), None
    for j in range(k):
        who, _, text = plays[j]
        if text == 'p':
            passed.add(who)
        else:
            on_joker = not empty and last == 'jk'
            left[who] -= ncards(text)
            empty, last = False, text
            if ('-' in text and '8' in text.split('-', 1)[1]) or (on_joker and text == 's-3'):
                empty, passed = True, set()  # an 8 cuts; the spade 3 on a lone joker clears too
                continue
        if not empty and all(q in passed or left[q] <= 0 for q in range(5)):
            empty, passed = True, set()
    return empty


def first_difference(pa, pb):
    k = 0
    while k < len(pa) and k < len(pb) and pa[k][2] == pb[k][2]:
        k += 1
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('a', help="run A's kifu record (the -p player's run)")
    ap.add_argument('b', help="run B's kifu record (the -q player's run)")
    ap.add_argument('--seat', type=int, default=0, help='the compared player number (0)')
    ap.add_argument('--min', type=int, default=20, help='rows with fewer games are left out (20)')
    ap.add_argument('--csv', action='store_true', help='CSV instead of the table')
    o = ap.parse_args()
    if not 0 <= o.seat <= 4:
        ap.error('--seat must be 0..4')
    try:
        import dhm
    except ImportError as e:
        sys.exit('paired_diverge.py: cannot import dhm (%s): run `make python` and use /usr/bin/python3' % e)
    try:
        A, B = dhm.read_kifu(o.a), dhm.read_kifu(o.b)
    except (OSError, ValueError) as e:
        sys.exit('paired_diverge.py: %s' % e)
    if len(A) != len(B):
        sys.exit('paired_diverge.py: %s has %d games, %s has %d: not a pair' % (o.a, len(A), o.b, len(B)))
    stats = collections.defaultdict(lambda: [0, 0.0, 0.0])
    same = other = 0
    for i, (a, b) in enumerate(zip(A, B)):
        if a['dealt'] != b['dealt'] or a['seats'] != b['seats']:
            sys.exit('paired_diverge.py: game %d starts differently in the two records: not a pair' % i)
        pa, pb = a['plays'], b['plays']
        k = first_difference(pa, pb)
        if k == len(pa) and k == len(pb):
            same += 1
            continue
        if k >= len(pa) or k >= len(pb) or pa[k][0] != o.seat:
            other += 1
            continue
        lead = table_empty_before(pa, k, [len(h) for h in a['dealt']])
        d = (5 - a['result'][o.seat]) - (5 - b['result'][o.seat])
        ta, tb = pa[k][2], pb[k][2]
        keys = ['all',
                'A %s, B %s' % ('passes' if ta == 'p' else 'plays', 'passes' if tb == 'p' else 'plays'),
                '%s: A %s, B %s' % ('lead' if lead else 'follow', shape(ta), shape(tb))]
        for key in keys:
            s = stats[key]
            s[0] += 1
            s[1] += d
            s[2] += d * d
    rows = []
    for key, (n, s, s2) in stats.items():
        if n < o.min and key != 'all':
            continue
        m = s / n
        se = math.sqrt(max(s2 / n - m * m, 0) / (n - 1)) if n > 1 else float('nan')
        rows.append((key, n, m, se, s))
    rows.sort(key=lambda r: (r[0] != 'all', r[4]))
    if o.csv:
        print('what,games,mean_difference,se,sum')
        for key, n, m, se, s in rows:
            print('"%s",%d,%.4f,%.4f,%.0f' % (key, n, m, se, s))
        return
    print('%d pairs: %d the same to the end, %d first different at another seat, %d at seat %d'
          % (len(A), same, other, stats['all'][0], o.seat))
    print("seat %d's points, A - B, in the games whose first difference is its decision (mean +- SE over games):" % o.seat)
    for key, n, m, se, s in rows:
        print('  %-40s %6d games  %+.3f +- %.3f  sum %+.0f' % (key, n, m, se, s))


if __name__ == '__main__':
    main()
