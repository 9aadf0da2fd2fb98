#!/usr/bin/env python3
"""An independent second computation of gantty's window metrics.

For each trace file given, this parses the JSON with Python (exact decimals),
takes the GPU activity (X events of category kernel / gpu_memcpy /
gpu_memset, case-insensitive), classifies it (nccl/rccl in a kernel name:
comm; memcpy/memset: memory; other kernels: compute), groups it by device
(args.device, else pid), and computes for the default window (first activity
start to last activity end) the union lengths by sorting and sweeping:
busy, idle, compute, comm, memory, overlap and exposed comm.  It then runs
`gantty --report --format=json` on the file and compares, to the nanosecond.

Usage: metrics_check.py GANTTY FILE...   Prints TAP-like lines and
"N passed, N failed"; exits 1 on any mismatch.
"""
import decimal
import gzip
import json
import subprocess
import sys

KINDS = {"kernel": "k", "gpu_memcpy": "m", "gpu_memset": "m",
         "memcpy": "m", "memset": "m"}


def ns(v):
    d = decimal.Decimal(v) * 1000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def union(iv):
    """Sorted disjoint union of [s, e) pairs (empty ones dropped)."""
    out = []
    for s, e in sorted(i for i in iv if i[1] > i[0]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(u):
    return sum(e - s for s, e in u)


def intersect(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append([s, e])
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def expected(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    doc = json.loads(data, parse_float=decimal.Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    per_dev = {}
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        kind = KINDS.get(str(e.get("cat", "")).lower())
        if kind is None or "ts" not in e:
            continue
        s = ns(e["ts"])
        end = s + max(ns(e.get("dur", 0)), 0)
        args = e.get("args") or {}
        dev = args.get("device", e.get("pid"))
        name = str(e.get("name", "")).lower()
        cls = "memory" if kind == "m" else (
            "comm" if ("nccl" in name or "rccl" in name) else "compute")
        d = per_dev.setdefault(int(dev), {"compute": [], "comm": [], "memory": [],
                                          "lo": s, "hi": end})
        d[cls].append((s, end))
        d["lo"], d["hi"] = min(d["lo"], s), max(d["hi"], end)
    out = {}
    for dev, d in per_dev.items():
        comp, comm, mem = union(d["compute"]), union(d["comm"]), union(d["memory"])
        busy = length(union(d["compute"] + d["comm"] + d["memory"]))
        overlap = length(intersect(comm, comp))
        out[dev] = {"window": (d["lo"], d["hi"]), "busy_ns": busy,
                    "idle_ns": d["hi"] - d["lo"] - busy,
                    "compute_ns": length(comp), "comm_ns": length(comm),
                    "memory_ns": length(mem), "overlap_ns": overlap,
                    "exposed_comm_ns": length(comm) - overlap}
    return out


def main():
    gantty, files = sys.argv[1], sys.argv[2:]
    passed = failed = 0
    for path in files:
        exp = expected(path)
        run = subprocess.run([gantty, "--report", "--format=json", "-q", path],
                             capture_output=True, text=True, timeout=600)
        got = {}
        if run.returncode == 0:
            for r in json.loads(run.stdout)["ranks"]:
                if r["device"] is not None:
                    got[r["device"]] = r
        for dev in sorted(set(exp) | set(got)):
            errs = []
            if dev not in got or dev not in exp:
                errs.append("device %s only in %s" % (dev, "gantty" if dev in got else "python"))
            else:
                g, e = got[dev], exp[dev]
                if (g["window"]["start_ns"], g["window"]["end_ns"]) != e["window"]:
                    errs.append("window %r != %r" % (g["window"], e["window"]))
                for k in ("busy_ns", "idle_ns", "compute_ns", "comm_ns",
                          "memory_ns", "overlap_ns", "exposed_comm_ns"):
                    if g["gpu"][k] != e[k]:
                        errs.append("%s %d != %d" % (k, g["gpu"][k], e[k]))
            if errs:
                failed += 1
                print("not ok - %s device %s: %s" % (path, dev, "; ".join(errs)))
            else:
                passed += 1
                print("ok - %s device %s" % (path, dev))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
