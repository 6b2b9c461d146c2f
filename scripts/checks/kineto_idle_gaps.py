#!/usr/bin/env python3
# usage: kineto_idle_gaps.py TRACE.json.gz  (reference figures for tests/analysis/tst_insights.cpp)
import gzip, json, sys
from decimal import Decimal, ROUND_HALF_EVEN
# Independent idle-gap totals (ns) of one Kineto trace, from the JSON's decimal text (exact): union of
# kernel/gpu_memcpy/gpu_memset intervals, ns = round(us * 1000) for ts and dur, gaps between merged
# intervals, counted when >= threshold.
mode = ROUND_HALF_EVEN
d = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)
ns = lambda x: int((Decimal(x) * 1000).to_integral_value(rounding=mode))
v = sorted((ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0))) for e in d['traceEvents']
           if e.get('ph') == 'X' and (e.get('cat') or '').lower() in ('kernel', 'gpu_memcpy', 'gpu_memset'))
lo = v[0][0]; hi = max(t for _, t in v)
for thr in (10000, 100000):
    cur = v[0][1]; n = 0; tot = 0
    for s, t in v[1:]:
        if s > cur and s - cur >= thr: n += 1; tot += s - cur
        cur = max(cur, t)
    print(thr, 'gaps', n, 'total_ns', tot, 'window_ns', hi - lo)
