#!/usr/bin/env python3
"""Checks gantty's loader against every trace of the real corpus.

For each file, an independent count is made here with Python's json module
(whole-document parse, exact decimals) and compared with what
`gantty --report --format=json` says it loaded:
  - the number of objects in the event array ("events"),
  - the number of X events per category ("categories"),
  - the number of GPU activities (X events of category kernel, gpu_memcpy,
    gpu_memset, case-insensitive; legacy Kernel, Memcpy, Memset),
  - the time range and the default GPU window, exactly, in nanoseconds.
Files that are not traces must fail with exit status 1 and a message naming
the file and a byte offset.  Usage: corpus_count.py GANTTY CORPUS_DIR
"""
import decimal
import gzip
import json
import os
import subprocess
import sys

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"}


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data, parse_float=decimal.Decimal)


def to_ns(v):
    if isinstance(v, bool) or not isinstance(v, (int, decimal.Decimal)):
        return None
    ns = (decimal.Decimal(v) * 1000).quantize(
        decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(ns)


def expected(doc):
    """Returns the expected counts, or None if doc is not a trace."""
    if isinstance(doc, dict):
        if not isinstance(doc.get("traceEvents"), list):
            return None
        events = doc["traceEvents"]
    elif isinstance(doc, list):
        events = doc
        if events and not any(isinstance(e, dict) and isinstance(e.get("ph"), str)
                              for e in events):
            return None
    else:
        return None
    cats = {}
    objects = 0
    gpu = 0
    lo = hi = None
    glo = ghi = None
    for e in events:
        if not isinstance(e, dict):
            continue
        objects += 1
        ph = e.get("ph")
        ts = to_ns(e.get("ts"))
        if ph not in ("X", "B", "E", "i", "I", "C") or ts is None:
            continue
        end = ts
        if ph == "X":
            cat = e.get("cat", "")
            cats[cat] = cats.get(cat, 0) + 1
            dur = to_ns(e.get("dur", 0))
            end = ts + max(dur or 0, 0)
            if isinstance(cat, str) and cat.lower() in GPU_CATS:
                gpu += 1
                glo = ts if glo is None else min(glo, ts)
                ghi = end if ghi is None else max(ghi, end)
        lo = ts if lo is None else min(lo, ts)
        hi = end if hi is None else max(hi, end)
    return {"events": objects, "categories": cats, "gpu": gpu,
            "range": (lo, hi), "window": (glo, ghi)}


def check(gantty, path):
    exp = expected(read(path))
    run = subprocess.run([gantty, "--report", "--format=json", "-q", path],
                         capture_output=True, text=True, timeout=300)
    if exp is None:
        if run.returncode != 1:
            return "not a trace, but gantty exited %d" % run.returncode
        msg = run.stderr.strip()
        if path not in msg or "byte" not in msg:
            return "unclear message: %r" % msg
        return None
    if run.returncode != 0:
        return "gantty failed (%d): %s" % (run.returncode, run.stderr.strip())
    rank = json.loads(run.stdout)["ranks"][0]
    errors = []
    if rank["events"] != exp["events"]:
        errors.append("events %d != %d" % (rank["events"], exp["events"]))
    if rank["categories"] != exp["categories"]:
        errors.append("categories %r != %r" % (rank["categories"], exp["categories"]))
    if rank["gpu_activities"] != exp["gpu"]:
        errors.append("gpu activities %d != %d" % (rank["gpu_activities"], exp["gpu"]))
    tr = rank["time_range"]
    got = (tr["start_ns"], tr["end_ns"]) if tr else (None, None)
    if got != exp["range"]:
        errors.append("time range %r != %r" % (got, exp["range"]))
    w = rank["window"]
    got = (w["start_ns"], w["end_ns"]) if w else (None, None)
    if got != exp["window"]:
        errors.append("window %r != %r" % (got, exp["window"]))
    return "; ".join(errors) or None


def main():
    gantty, corpus = sys.argv[1], sys.argv[2]
    files = []
    for root, _, names in os.walk(corpus):
        for n in names:
            if n.endswith((".json", ".json.gz", ".raw.gz")):
                files.append(os.path.join(root, n))
    files.sort()
    passed = failed = 0
    for i, path in enumerate(files, 1):
        err = check(gantty, path)
        rel = os.path.relpath(path, corpus)
        if err:
            failed += 1
            print("not ok %d - %s: %s" % (i, rel, err))
        else:
            passed += 1
            print("ok %d - %s" % (i, rel))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main())
