#!/usr/bin/env python3
"""commjob.py OUT [--slow-pair=K] [--busbw=G] [--ranks=N] [--seed=S]: writes a small
multi-rank Kineto job whose collectives have known message sizes and
durations, for tests/comm.sh, and OUT/manifest.json with what every
collective moved, computed here independently of gantty:

    bytes = max(In msg nelems, Out msg nelems) x dtype size
    algbw = bytes / duration (GB/s = bytes per ns), busbw = algbw x factor
    (nccl-tests: all-reduce 2(n-1)/n, all-gather, reduce-scatter (n-1)/n)

Every rank: 8 H100 SXM GPUs in deviceProperties (one node), 4 steps; per
step a compute kernel, then collectives launched inside record_param_comms
(whose args carry the sizes; the kernels carry none, as in Kineto traces
without the kernel-side copy): a world all-reduce, a world all-gather, and
an all-reduce within each rank pair {2i, 2i+1} (process groups "pair-i").
Ranks arrive at random times; a collective ends on every member at the
latest start plus its transfer time, bytes x factor / 300 GB/s (--busbw).
With --slow-pair=K the collectives of pair K take 4x longer (a slow link).
"""
import json
import os
import random
import sys

FACTOR = {"allreduce": lambda n: 2.0 * (n - 1) / n,
          "_allgather_base": lambda n: (n - 1) / n}
SIZE = {"BFloat16": 2, "Float": 4}


def main():
    out = sys.argv[1]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[2:])
    nranks = int(opts.get("ranks", 8))
    slow = int(opts.get("slow-pair", -1))
    rng = random.Random(int(opts.get("seed", 1)))
    busbw = float(opts.get("busbw", 300))      # GB/s, bytes per ns
    os.makedirs(out, exist_ok=True)
    events = {r: [] for r in range(nranks)}
    corr = {r: 1 for r in range(nranks)}
    seq = {}
    manifest = {"collectives": [], "slow_ranks": [2 * slow, 2 * slow + 1]
                if slow >= 0 else []}
    t = 1_000_000_000                           # ns, on every rank's clock

    def us(ns):
        return "%d.%03d" % (ns // 1000, ns % 1000)

    def x(r, cat, name, pid, tid, ts, dur, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
             "ts": "@%s@" % us(ts), "dur": "@%s@" % us(dur)}
        if args is not None:
            e["args"] = args
        events[r].append(e)

    def collective(members, group, coll, dtype, nelems, slow_factor):
        n = len(members)
        seq[group] = seq.get(group, 0) + 1
        if coll == "_allgather_base":
            in_n, out_n = nelems // n, nelems
        else:
            in_n, out_n = nelems, nelems
        nbytes = max(in_n, out_n) * SIZE[dtype]
        f = FACTOR[coll](n)
        xfer = int(nbytes * f / busbw) * slow_factor
        starts = {r: base[r] + rng.randrange(0, 200_000) for r in members}
        last = max(starts.values())
        for r in members:
            c = corr[r]
            corr[r] += 1
            launch = starts[r] - 20_000
            x(r, "cpu_op", "record_param_comms", 1000 + r, 1, launch - 1000,
              5000, {"Collective name": coll, "In msg nelems": in_n,
                     "Out msg nelems": out_n, "Group size": n, "dtype": dtype,
                     "Process Group Name": group, "Seq": seq[group]})
            x(r, "cuda_runtime", "cudaLaunchKernel", 1000 + r, 1, launch, 2000,
              {"correlation": c})
            name = ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"
                    if coll == "allreduce" else "ncclDevKernel_Generic")
            dur = last + xfer - starts[r]
            x(r, "kernel", name + "(ncclDevKernelArgsStorage<4096ul>)", r, 20,
              starts[r], dur, {"device": r, "stream": 20, "correlation": c})
            algbw = nbytes / dur
            manifest["collectives"].append({
                "rank": r, "type": "all_reduce" if coll == "allreduce" else "all_gather",
                "group": group, "seq": seq[group], "start_ns": starts[r],
                "end_ns": starts[r] + dur, "bytes": nbytes, "group_size": n,
                "algbw_gbps": algbw, "busbw_gbps": algbw * f,
                "link_busbw_gbps": nbytes * f / (starts[r] + dur - last)})
            base[r] = starts[r] + dur + 10_000

    base = {r: t for r in range(nranks)}
    for step in range(4):
        s0 = max(base.values())
        for r in range(nranks):
            base[r] = s0 + 50_000
            c = corr[r]
            corr[r] += 1
            x(r, "cuda_runtime", "cudaLaunchKernel", 1000 + r, 1, s0 + 10_000,
              2000, {"correlation": c})
            x(r, "kernel", "sm90_xmma_gemm_bf16bf16_bf16f32", r, 7, s0 + 40_000,
              400_000, {"device": r, "stream": 7, "correlation": c})
            base[r] = s0 + 450_000
        collective(list(range(nranks)), "0", "allreduce", "BFloat16",
                   32 << 20, 1)
        collective(list(range(nranks)), "0", "_allgather_base", "Float",
                   16 << 20, 1)
        for i in range(nranks // 2):
            collective([2 * i, 2 * i + 1], "pair-%d" % i, "allreduce",
                       "BFloat16", 16 << 20, 4 if i == slow else 1)
        s1 = max(base.values()) + 10_000
        for r in range(nranks):
            x(r, "user_annotation", "ProfilerStep#%d" % step, 1000 + r, 1,
              s0, s1 - s0)
        t = s1
    for r in range(nranks):
        doc = {"deviceProperties": [{"id": d, "name": "NVIDIA H100 80GB HBM3",
                                     "totalGlobalMem": 85029158912,
                                     "computeMajor": 9, "computeMinor": 0,
                                     "numSms": 132} for d in range(8)],
               "distributedInfo": {"backend": "nccl", "rank": r,
                                   "world_size": nranks},
               "traceEvents": events[r]}
        text = json.dumps(doc, indent=0)
        # times as exact decimal microseconds, not through a float
        text = text.replace('"@', "").replace('@"', "")
        with open(os.path.join(out, "rank-%d.json" % r), "w") as fh:
            fh.write(text)
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(manifest, fh)


main()
