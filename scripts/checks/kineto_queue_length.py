#!/usr/bin/env python3
# usage: kineto_queue_length.py TRACE.json.gz
# Launch queue length per GPU stream of a single-rank Kineto trace, from the JSON alone (reference figures
# for tests/cli/tst_clistats.cpp; definition: docs/metrics.md "Streams"). ns = round(us * 1000) of the
# decimal text; +1 at the start of the cuda_runtime/cuda_driver call with the operation's correlation id,
# -1 at the kernel/gpu_memcpy/gpu_memset start (a launch after its start counts at the start); at equal
# times the -1s first. Prints per (device, stream): operations, max, time-weighted mean over [first
# change, last change], compute/communication kernel ns (communication = names starting with "nccl").
import gzip, json, sys
from decimal import Decimal
from fractions import Fraction

ev = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)['traceEvents']
ns = lambda x: int((Decimal(x) * 1000).to_integral_value())
X = [e for e in ev if e.get('ph') == 'X']
cat = lambda e: (e.get('cat') or '').lower()
launch = {}
for e in X:
    if cat(e) in ('cuda_runtime', 'cuda_driver') and (e.get('args') or {}).get('correlation'):
        launch.setdefault(e['args']['correlation'], ns(e['ts']))
streams = {}
for e in X:
    if cat(e) not in ('kernel', 'gpu_memcpy', 'gpu_memset'):
        continue
    a = e.get('args') or {}
    key = (a.get('device', 0), a.get('stream', 0))
    s = streams.setdefault(key, {'changes': [], 'ops': 0, 'compute': 0, 'comm': 0})
    start = ns(e['ts'])
    if cat(e) == 'kernel':
        d = ns(e.get('dur', 0))
        s['comm' if e['name'].lower().startswith('nccl') else 'compute'] += d
    c = a.get('correlation')
    if c in launch:
        s['ops'] += 1
        s['changes'] += [(min(launch[c], start), 1), (start, -1)]
for key in sorted(streams):
    s = streams[key]
    ch = sorted(s['changes'])
    length = mx = 0
    weighted = 0
    prev = None
    i = 0
    while i < len(ch):
        t = ch[i][0]
        if prev is not None:
            weighted += length * (t - prev)
        while i < len(ch) and ch[i][0] == t:
            length += ch[i][1]
            i += 1
        mx = max(mx, length)
        prev = t
    span = ch[-1][0] - ch[0][0] if ch else 0
    mean = Fraction(weighted, span) if span else 0
    print('device', key[0], 'stream', key[1], 'ops', s['ops'], 'max', mx, 'mean %.9f' % float(mean),
          'compute_ns', s['compute'], 'communication_ns', s['comm'])
