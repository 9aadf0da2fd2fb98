#!/bin/sh
# tests/gen.sh: checks tools/gen-trace, the synthetic FSDP2 trace generator:
# determinism, the Kineto shape of its output, the manifest's ground truth,
# --target-mb, --gzip, exit statuses, and that share/example.json.gz is what
# the generator makes today.  The checks that need python3 run last, and
# are skipped without it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# gen DIR ARGS...: runs the generator into $tmp/DIR with a manifest.
gen() {
	d=$1
	shift
	"$GEN_TRACE" --out="$tmp/$d" --manifest="$tmp/$d.manifest.json" "$@" >&2 ||
		bail "gen-trace $* exited $?"
}

# status ARGS...: prints the generator's exit status for ARGS.
status() {
	"$GEN_TRACE" "$@" >/dev/null 2>&1
	echo $?
}

# Determinism: the same seed gives the same bytes; another seed does not.
gen a
gen a2
for f in rank-0.json rank-1.json; do
	check "the same seed gives the same $f" cmp -s "$tmp/a/$f" "$tmp/a2/$f"
done
check "the same seed gives the same manifest" cmp -s "$tmp/a.manifest.json" "$tmp/a2.manifest.json"
gen b --seed=2
if cmp -s "$tmp/a/rank-0.json" "$tmp/b/rank-0.json"; then
	fail "seeds 1 and 2 gave the same rank-0.json"
else
	pass "seeds 1 and 2 give different traces"
fi

# Timestamps and durations: microseconds with exactly three decimals.
bad=$(grep -oE '"(ts|dur)": [^,]*' "$tmp/a/rank-0.json" "$tmp/a/rank-1.json" |
	grep -vE ':"(ts|dur)": [0-9]+\.[0-9]{3}$' | head -3)
if [ -z "$bad" ]; then pass "ts and dur have exactly three decimals"; else
	fail "ts/dur without exactly three decimals: $bad"; fi

# Every event object has one "ph" line: the manifest's event counts agree.
want=$(sed -n 's/.*"events": \([0-9]*\)}.*/\1/p' "$tmp/a.manifest.json" | tr '\n' ' ')
got="$(grep -c '"ph": "' "$tmp/a/rank-0.json") $(grep -c '"ph": "' "$tmp/a/rank-1.json") "
if [ "$want" = "$got" ]; then pass "the manifest's event counts are the files'"; else
	fail "manifest events '$want', files have '$got'"; fi

# The default run injects all four features.
for k in slow_step straggler_rank exposed_allgather stall; do
	if grep -q "\"$k\": null" "$tmp/a.manifest.json"; then fail "the default run lacks $k"; else
		pass "the default run injects $k"; fi
done
gen n --no-inject --ranks=1 --steps=2
for k in slow_step straggler_rank exposed_allgather stall; do
	check "--no-inject has no $k" grep -q "\"$k\": null" "$tmp/n.manifest.json"
done

# --target-mb=5: within 25% of 5 MB.
gen t --target-mb=5
size=$(wc -c <"$tmp/t/rank-0.json")
if [ "$size" -ge 3750000 ] && [ "$size" -le 6250000 ]; then pass "--target-mb=5 is within 25%"; else
	fail "--target-mb=5 gave $size bytes"; fi

# --gzip: deterministic, and gunzips to the plain bytes.
gen z --gzip
gen z2 --gzip
for r in 0 1; do
	check "--gzip writes rank-$r.json.gz" test -s "$tmp/z/rank-$r.json.gz"
	check "--gzip is deterministic (rank-$r.json.gz)" cmp -s "$tmp/z/rank-$r.json.gz" "$tmp/z2/rank-$r.json.gz"
done
ex=$top_srcdir/share/example.json.gz
if command -v gzip >/dev/null 2>&1; then
	for r in 0 1; do
		check "rank-$r.json.gz gunzips to rank-$r.json" sh -c \
		    'gzip -dc "$1" | cmp -s - "$2"' sh "$tmp/z/rank-$r.json.gz" "$tmp/a/rank-$r.json"
	done
	# The bundled example is rank 0 of the default 2-rank run.
	check "share/example.json.gz is rank 0 of the default run (else regenerate it: see tools/gen-trace.c)" \
	    sh -c 'gzip -dc "$1" | cmp -s - "$2"' sh "$ex" "$tmp/a/rank-0.json"
else
	skip "--gzip output gunzips to the plain files" "no gzip"
fi

# Exit statuses: 2 for usage errors, 1 for I/O errors, 0 for --help.
check "--ranks=0 is a usage error" test "$(status --ranks=0 --out="$tmp/u")" = 2
check "--bogus is a usage error" test "$(status --bogus=1 --out="$tmp/u")" = 2
check "a missing --out is a usage error" test "$(status --ranks=2)" = 2
check "--straggler=2 of 2 ranks is a usage error" test "$(status --straggler=2 --ranks=2 --out="$tmp/u")" = 2
: >"$tmp/file"
check "an unwritable --out is exit 1" test "$(status --out="$tmp/file/x")" = 1
check "--help exits 0" test "$(status --help)" = 0

if [ -z "$PYTHON3" ]; then
	skip "the Kineto shape and the manifest's ground truth" "python3 is needed (PYTHON3 is empty)"
	finish
fi

gen c --ranks=3 --layers=2 --kernels=11 --steps=6 --seed=7
check "the Kineto shape and the manifest's ground truth (python3)" \
    "$PYTHON3" - "$tmp/a" "$tmp/a.manifest.json" "$tmp/c" "$tmp/c.manifest.json" <<'EOF'
import decimal, json, os, re, statistics, sys
from collections import Counter, defaultdict

D = decimal.Decimal

def ns(x):
    return int(x * 1000)        # exact: x is a Decimal with 3 decimals

def die(msg):
    sys.exit('%s: %s' % (run, msg))

def check(outdir, manifest):
    man = json.load(open(manifest))
    W = man['ranks']
    ends = defaultdict(dict)
    nccl = {}
    for pr in man['per_rank']:
        r = pr['rank']
        doc = json.load(open(os.path.join(outdir, pr['file'])), parse_float=D)
        for k in ('schemaVersion', 'deviceProperties', 'distributedInfo', 'traceEvents',
                  'displayTimeUnit', 'baseTimeNanoseconds'):
            if k not in doc:
                die('no %s' % k)
        if doc['distributedInfo']['rank'] != r or doc['distributedInfo']['world_size'] != W:
            die('distributedInfo of rank %d' % r)
        ev = doc['traceEvents']
        if not isinstance(ev, list) or ev[0]['ph'] != 'M':
            die('traceEvents is not a list starting with metadata')
        phases, cats = Counter(), Counter()
        runtime, gpu, flow = {}, [], {'s': {}, 'f': {}}
        for e in ev:
            phases[e['ph']] += 1
            if e['ph'] == 'X':
                if not isinstance(e['ts'], D) or not isinstance(e['dur'], D) or e['dur'] < 0:
                    die('X event without numeric ts/dur: %s' % e['name'])
                cats[e['cat']] += 1
                if e['cat'] == 'cuda_runtime':
                    c = e['args']['correlation']
                    if c in runtime:
                        die('correlation %d twice' % c)
                    runtime[c] = e
                elif e['cat'] in ('kernel', 'gpu_memcpy', 'gpu_memset'):
                    gpu.append(e)
            elif e['ph'] in 'sf':
                flow[e['ph']][e['id']] = e
        # The manifest's counts are the file's.
        mc = pr['counts']
        if mc['events'] != len(ev) or dict(mc['X']) != {k: cats[k] for k in mc['X']} \
                or sum(mc['X'].values()) != phases['X'] \
                or any(mc[p] != phases[p] for p in 'Misf'):
            die('rank %d counts %s, file %s %s' % (r, mc, dict(phases), dict(cats)))
        # Correlation: increasing with launch time; every GPU activity has
        # its launch and both ac2g flow ends.
        order = [runtime[c]['ts'] for c in sorted(runtime)]
        if order != sorted(order):
            die('correlation ids not increasing')
        launcher = {'kernel': 'cudaLaunchKernel', 'gpu_memcpy': 'cudaMemcpyAsync',
                    'gpu_memset': 'cudaMemsetAsync'}
        streams = defaultdict(list)
        for g in gpu:
            c = g['args']['correlation']
            rt = runtime.get(c)
            if rt is None or rt['name'] != launcher[g['cat']]:
                die('%s correlation %d has no %s' % (g['cat'], c, launcher[g['cat']]))
            if g['ts'] < rt['ts'] or g['args']['External id'] != rt['args']['External id']:
                die('%s starts before its launch or has another External id' % g['name'])
            if flow['s'][c]['ts'] != rt['ts'] or flow['f'][c]['ts'] != g['ts']:
                die('ac2g flow %d' % c)
            streams[g['tid']].append((ns(g['ts']), ns(g['ts']) + ns(g['dur'])))
            if 'nccl' in g['name'].lower():
                a = g['args']
                ends[a['Seq']][r] = (ns(g['ts']) + ns(g['dur']), a['Collective name'])
        nccl[r] = sum(ns(g['dur']) for g in gpu if 'nccl' in g['name'].lower())
        for tid, iv in streams.items():
            iv.sort()
            if any(b[0] < a[1] for a, b in zip(iv, iv[1:])):
                die('kernels overlap on stream %s' % tid)
        # Step spans are the manifest's, to the nanosecond.
        steps = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'user_annotation'
                 and e['name'].startswith('ProfilerStep#')]
        spans = [(ns(e['ts']), ns(e['ts']) + ns(e['dur'])) for e in steps]
        if spans != [(s['cpu_start_ns'], s['cpu_end_ns']) for s in pr['steps']]:
            die('step spans differ from the manifest')
        # The slow step is the only outlier by the median/MAD rule (SPEC 3).
        t = [b - a for a, b in spans]
        if len(t) >= 5:
            med = statistics.median(t)
            mad = statistics.median([abs(x - med) for x in t])
            out = [pr['steps'][i]['number'] for i, x in enumerate(t)
                   if mad and (x - med) / (1.4826 * mad) > 3.5 and x > 1.1 * med]
            want = [man['slow_step']['number']] if man['slow_step'] else []
            if out != want:
                die('rank %d outliers %s, want %s' % (r, out, want))
        comp = [(ns(g['ts']), ns(g['ts']) + ns(g['dur'])) for g in gpu
                if g['cat'] == 'kernel' and 'nccl' not in g['name'].lower()]
        # Exposed all-gather: its kernel, and the time no compute hides.
        ea = man['exposed_allgather']
        if ea:
            ag = [g for g in gpu if g['args'].get('Seq') == ea['seq']]
            a, b = ns(ag[0]['ts']), ns(ag[0]['ts']) + ns(ag[0]['dur'])
            hidden = sum(max(0, min(b, y) - max(a, x)) for x, y in comp)
            if b != ea['comm_end_ns'] or (r == ea['rank'] and a != ea['comm_start_ns']) \
                    or b - a - hidden != ea['exposed_ns_by_rank'][r] \
                    or 'AllGather' not in ag[0]['name']:
                die('exposed all-gather on rank %d' % r)
            if not 1000000 <= ea['exposed_ns_by_rank'][r] <= 6000000:
                die('exposed all-gather of %d ns' % ea['exposed_ns_by_rank'][r])
        # Stall: the largest GPU idle gap of its step, at the manifest's times.
        st = man['stall']
        if st and st['rank'] == r:
            iv = sorted((ns(g['ts']), ns(g['ts']) + ns(g['dur'])) for g in gpu)
            merged = [list(iv[0])]
            for x, y in iv[1:]:
                if x <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], y)
                else:
                    merged.append([x, y])
            sm = [s for s in pr['steps'] if s['number'] == st['step']][0]
            gaps = sorted((b[0] - a[1], a[1], b[0]) for a, b in zip(merged, merged[1:])
                          if a[1] >= sm['gpu_start_ns'] and b[0] <= sm['gpu_end_ns'])
            if gaps[-1][1:] != (st['gap_start_ns'], st['gap_end_ns']) or gaps[-1][0] < 1000000 \
                    or gaps[-2][0] != st['next_largest_gap_ns'] or gaps[-2][0] * 10 > gaps[-1][0]:
                die('stall gap %s, manifest %s' % (gaps[-2:], st))
    # A collective ends at the same nanosecond on every rank.
    for seq, d in ends.items():
        if len(d) != W or len(set(d.values())) != 1:
            die('collective Seq %d: %s' % (seq, d))
    if not ends:
        die('no collectives')
    # The straggler's peers wait for it: they spend longer in NCCL kernels.
    s = man['straggler_rank']
    if s is not None and W > 1 and nccl[s] * 3 // 2 > min(v for r, v in nccl.items() if r != s):
        die('straggler %d: NCCL time by rank %s' % (s, nccl))

for run, manifest in zip(sys.argv[1::2], sys.argv[2::2]):
    check(run, manifest)
EOF
finish
