#!/bin/sh
# gzip inflated by ISA-L gives exactly what zlib alone gives (the
# reference, GANTTY_ZLIB_ONLY=1): the report, every warning, the byte a
# message names and the exit status, on one thread and with the inflater
# thread, for gzip files whole, at three levels, in several members with
# every optional header field, and cut short, corrupted and followed by
# junk at many places (a member that ISA-L cannot finish is inflated again
# by zlib from its start).  Skipped when gantty is built without ISA-L.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

"$GANTTY" --version | grep -q 'ISA-L' ||
	skip_all "gantty is built without ISA-L (libisal-dev)"
[ -n "${PYTHON3:-}" ] || skip_all "python3 is needed to write the gzip files"

"$GEN_TRACE" --ranks=1 --seed=5 --target-mb=2 --out="$tmp/gen" >/dev/null ||
	bail "gen-trace failed"
"$PYTHON3" - "$tmp/gen/rank-0.json" "$tmp/gz" <<'PY' || bail "writing the gzip files failed"
import gzip, os, struct, sys, zlib
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
data = open(src, 'rb').read()

def member(payload, level=6, name=None, extra=None, comment=None, hcrc=False):
    flags = (0x10 if comment else 0) | (0x08 if name else 0) | \
            (0x04 if extra else 0) | (0x02 if hcrc else 0)
    head = b'\x1f\x8b\x08' + bytes([flags]) + b'\0\0\0\0\0\x03'
    if extra:
        head += struct.pack('<H', len(extra)) + extra
    if name:
        head += name + b'\0'
    if comment:
        head += comment + b'\0'
    if hcrc:
        head += struct.pack('<H', zlib.crc32(head) & 0xffff)
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = c.compress(payload) + c.flush()
    return head + body + struct.pack('<II', zlib.crc32(payload), len(payload) & 0xffffffff)

def put(name, b):
    open(os.path.join(out, name + '.json.gz'), 'wb').write(b)

whole = member(data)
for lvl in (0, 1, 9):
    put('level%d' % lvl, member(data, lvl))
put('whole', whole)
third = len(data) // 3
parts = [data[:third], data[third:2 * third], data[2 * third:]]
three = b''.join(member(p) for p in parts)
put('three-members', three)
put('header-fields', b''.join([
    member(parts[0], name=b'rank-0.json', extra=b'ab\x04\0wxyz'),
    member(b''),
    member(parts[1], comment=b'a comment', hcrc=True),
    member(parts[2], 1, name=b'x', extra=b'', comment=b'y', hcrc=True)]))
put('junk-after', three + b'junk after the members')
# a small trace with junk after it, ending as a trailer would (its size,
# so that a chunk is placed inside the data): the reader before the chunk
# inflates it all, to the junk, as the chunk does; counted once
small = b'{"traceEvents": [' + b',\n'.join(
    b'{"ph": "X", "cat": "cpu_op", "name": "op%d", "pid": 1, "tid": 1, '
    b'"ts": %d, "dur": 5}' % (i, 10 * i) for i in range(40)) + b']}\n'
put('small-junk-after', member(small) + b'junk after the member' * 20 +
    struct.pack('<I', len(small)))
put('zeros-after', whole + b'\0' * 3000)
put('magic-after', whole + b'\x1f\x8b')
# cut short and corrupted at places spread over the file, in the header,
# the deflate data and the trailer, in the first and a later member
n = len(three)
places = sorted(set([1, 5, 10, 11, 12, 30, 100, len(whole) - 8,
                     len(whole) - 4, len(whole) - 1] +
                    [n * k // 23 for k in range(1, 23)] + [n - 8, n - 5, n - 1]))
for p in places:
    src_b = three if p < n else whole
    put('cut-%d' % p, src_b[:p])
    b = bytearray(src_b)
    b[p] ^= 0x55
    put('flip-%d' % p, bytes(b))
    put('zeroed-%d' % p, bytes(b[:p]) + b'\0' * 64 + bytes(src_b[p + 64:]))
# a bad CRC and a bad length in the trailer
b = bytearray(whole); b[-8] ^= 1; put('bad-crc', bytes(b))
b = bytearray(whole); b[-1] ^= 1; put('bad-isize', bytes(b))
PY

# same NAME A B: passes when the two outputs are the same, else shows the diff
same() {
	if [ "$2" = "$3" ]; then pass "$1"; else
		fail "$1"
		printf '%s\n' "$2" >"$tmp/a"
		printf '%s\n' "$3" >"$tmp/b"
		diff "$tmp/a" "$tmp/b" | head -n 20 | sed 's/^/# /'
	fi
}

nfiles=0
for f in "$tmp"/gz/*.json.gz; do
	nfiles=$((nfiles + 1))
	for th in 1 2; do
		a=$(GANTTY_ZLIB_ONLY=1 GANTTY_LOAD_THREADS=$th "$GANTTY" --report \
		    --format=json --no-cache "$f" 2>&1; echo "rc=$?")
		b=$(GANTTY_LOAD_THREADS=$th "$GANTTY" --report --format=json \
		    --no-cache "$f" 2>&1; echo "rc=$?")
		same "$(basename "$f"), $th thread(s): ISA-L reads what zlib reads" "$a" "$b"
		[ "$th" = 1 ] || continue
		# in two chunks at once (chunks.c), where ISA-L inflates: the same
		c=$(GANTTY_LOAD_THREADS=2 GANTTY_SPLIT_MIN=1 "$GANTTY" --report \
		    --format=json --no-cache "$f" 2>&1; echo "rc=$?")
		same "$(basename "$f"), two chunks: what one reader reads" "$b" "$c"
	done
done
[ "$nfiles" -gt 100 ] && pass "$nfiles gzip files compared" || fail "only $nfiles gzip files"

# The checks have teeth: whole files load complete, damaged ones do not.
"$GANTTY" --report --format=json --no-cache "$tmp/gz/three-members.json.gz" >"$tmp/out" 2>"$tmp/err"
file_has "$tmp/out" '"stopped": null' "three members load to the end"
"$GANTTY" --report --format=json --no-cache "$tmp/gz/bad-crc.json.gz" >"$tmp/out" 2>"$tmp/err"
file_has "$tmp/out" '"corrupt_gzip": 1,' "a bad CRC is counted as corrupt data"
finish
