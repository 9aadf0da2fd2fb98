"""Numbers as gantty writes them, for the shell tests' Python checks."""


def dur(ns):
    """A duration as units_format() writes it: 4 significant digits,
    trailing zeros trimmed, the largest unit of s, ms, us that fits."""
    if ns == 0:
        return "0"
    for scale, name in ((10**9, "s"), (10**6, "ms"), (10**3, "us")):
        if ns >= scale:
            v = ns / scale
            d = 0 if v >= 1000 else 1 if v >= 100 else 2 if v >= 10 else 3
            t = "%.*f" % (d, v)
            if "." in t:
                t = t.rstrip("0").rstrip(".")
            return "%s %s" % (t, name)
    return "%d ns" % ns


def panel_strings(r):
    """What the metrics panel shows of one rank of the JSON report (its
    "ranks" entry): the strings the panel must hold whole."""
    g, gaps = r["gpu"], r["gaps"]
    want = [
        "T_exposed " + dur(g["exposed_comm_ns"]),
        "idle " + dur(g["idle_ns"]),
        "busy " + dur(g["busy_ns"]),
        "compute " + dur(g["compute_ns"]),
        "comm " + dur(g["comm_ns"]),
        "memory " + dur(g["memory_ns"]),
        "host wait " + dur(r["idle_breakdown"]["host_wait_ns"]),
    ]
    if gaps["count"]:
        want.append(": %d, total %s" % (gaps["count"], dur(gaps["total_ns"])))
        want.append("largest " + dur(gaps["largest"]["dur_ns"]))
    else:
        want.append("us: 0")
    if g["overlap_pct"] is not None:
        want.append("%.1f%% of comm" % g["overlap_pct"])
    if r["mfu"]["value"] is not None:
        want.append("MFU %.1f%%" % (100 * r["mfu"]["value"]))
    return want
