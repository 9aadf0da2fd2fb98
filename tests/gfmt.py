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
