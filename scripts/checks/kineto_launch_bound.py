#!/usr/bin/env python3
# usage: kineto_launch_bound.py TRACE.json.gz
# Launch-bound GPU idle inside the ProfilerStep windows of a single-GPU Kineto trace, from the JSON alone
# (reference figures for tests/cli/tst_cliablation.cpp). Definitions of docs/metrics.md: ns = round(us *
# 1000) of the decimal text; step window i = [earliest GPU activity launched inside step i's CPU range,
# next step's start), the last ending at the latest end of its own work; an idle gap (>= 10 us, between
# merged kernel/memcpy/memset intervals) is launch-bound when the launch call of the first GPU activity of
# any kind (kernel, memcpy, memset; a kernel first on a tie) starting at or after the gap's end began after
# the gap began, and no DataLoader range or blocking sync call covers half of it.
import gzip, json, sys, bisect
from decimal import Decimal

ev = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)['traceEvents']
ns = lambda x: int((Decimal(x) * 1000).to_integral_value())
X = [e for e in ev if e.get('ph') == 'X']
cat = lambda e: (e.get('cat') or '').lower()
gpu = [(ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0)), (e.get('args') or {}).get('correlation', 0), cat(e))
       for e in X if cat(e) in ('kernel', 'gpu_memcpy', 'gpu_memset')]
api = {}
sync = []
for e in X:
    if cat(e) in ('cuda_runtime', 'cuda_driver'):
        s = ns(e['ts'])
        api[e['args'].get('correlation')] = s
        n = e['name']
        if 'Synchronize' in n and 'StreamWaitEvent' not in n or ('Memcpy' in n and 'Async' not in n):
            sync.append((s, s + ns(e.get('dur', 0))))
steps = sorted((ns(e['ts']), ns(e['ts']) + ns(e['dur'])) for e in X
               if e['name'].startswith('ProfilerStep#') and cat(e) in ('user_annotation', 'cpu_op'))
# drop nested duplicates
flat = []
for s in steps:
    if flat and s[0] >= flat[-1][0] and s[1] <= flat[-1][1]:
        continue
    flat.append(s)
starts, ends = [], []
for (cs, ce) in flat:
    own = [(a, b) for (a, b, c, _) in gpu if c in api and cs <= api[c] < ce]
    starts.append(min(a for a, _ in own) if own else None)
    ends.append(max(b for _, b in own) if own else None)
wins = []
for i, s in enumerate(starts):
    if s is None: continue
    nxt = next((t for t in starts[i + 1:] if t is not None), None)
    wins.append((s, nxt if nxt is not None else ends[i]))
iv = sorted((a, b) for a, b, _, _ in gpu)
order = {'kernel': 0, 'gpu_memcpy': 1, 'gpu_memset': 2}
acts = sorted((a, order[k], c) for a, b, c, k in gpu)
astarts = [a for a, _, _ in acts]
gaps = []
cur = iv[0][1]
for a, b in iv[1:]:
    if a > cur and a - cur >= 10000:
        gaps.append((cur, a))
    cur = max(cur, b)
lb = 0
for (g0, g1) in gaps:
    if not any(w0 <= g0 < w1 for w0, w1 in wins): continue
    syncns = sum(max(0, min(e, g1) - s) for s, e in sync if g0 <= s < g1)
    if 2 * syncns >= g1 - g0: continue
    k = bisect.bisect_left(astarts, g1)
    if k < len(acts) and acts[k][2] in api and api[acts[k][2]] >= g0:
        lb += g1 - g0
total = sum(w1 - w0 for w0, w1 in wins)
print('steps', len(wins), 'step_total_ns', total, 'launch_bound_ns', lb, 'share %.6f' % (lb / total))
