#!/usr/bin/env python3
"""Compare kcost's counts with corpus-quickcheck.py's executed ones.

usage: corpus-compare.py KCOST_OUT_DIR QUICKCHECK_TSV

KCOST_OUT_DIR is the OUT_DIR of `scripts/corpus-measure.sh KCOST OUT_DIR` (a report.json per MANIFEST
line, as N.json); QUICKCHECK_TSV the concatenated output of corpus-quickcheck.py over the MANIFEST.
Prints how many functions kcost marks exact and flagged whose FLOP total and transcendental calls
match the execution ("right") or not, then every exact function whose total, category split
(add/sub/mul/div), precision split or transcendentals differ from the execution.
"""
import collections
import glob
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    dyn = {}
    for line in open(sys.argv[2]):
        f = line.rstrip("\n").split("\t")
        if len(f) < 3 or not f[2].startswith("flops="):
            continue
        d = dict(x.split("=", 1) for x in f[2:])
        calls = {}
        for c in d["calls"].split(","):
            if c:
                k, v = c.split(":")
                calls[k] = int(v)
        cat = {c: sum(map(int, d[c].split(","))) for c in ("add", "sub", "mul", "div")}
        dyn[(f[0], f[1])] = dict(flops=int(d["flops"]), float=int(d["float"]), double=int(d["double"]),
                                 calls=calls, **cat)
    stat = collections.Counter()
    bad = []
    for jf in sorted(glob.glob(sys.argv[1] + "/*.json")):
        for fn in json.load(open(jf))["functions"]:
            tag = "exact" if fn["exact"] else "flagged"
            d = dyn.get((fn["file"], fn["name"]))
            if d is None:
                stat[tag + " (not executed)"] += 1
                continue
            kt = {k: v for k, v in fn["transcendentals"]["by_function"].items() if v}
            kp = fn["flops"]["by_precision"]
            kc = fn["flops"]["by_category"]
            right = fn["flops"]["value"] == d["flops"] and kt == d["calls"]
            stat[tag + (" right" if right else " wrong")] += 1
            split = (kp.get("float", 0) == d["float"] and kp.get("double", 0) == d["double"]
                     and all(kc.get(c, 0) == d[c] for c in ("add", "sub", "mul", "div")))
            if fn["exact"] and not (right and split):
                bad.append(f"{fn['file']} {fn['name']}: kcost {fn['flops']['value']} {kp} {kc} {kt}; executed "
                           f"{d['flops']} float {d['float']} double {d['double']} add {d['add']} sub {d['sub']} "
                           f"mul {d['mul']} div {d['div']} {d['calls']}")
    for k in sorted(stat):
        print(f"{k}: {stat[k]}")
    for b in bad:
        print(b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
