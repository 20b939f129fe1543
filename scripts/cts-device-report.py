#!/usr/bin/env python3
# Summarises the device calls of scripts/cts-device-run.py: merges every
# RAWDIR/*/results.tsv.xz, writes OUTDIR/MODE/GROUP/results.tsv (case,
# status, first message line) and unrun.txt, and prints per mode and group
# the counts, the case-seconds and the wall-clock span, the counts over the
# synchronization groups' non-graphics cases, and the non-passes that
# tests/cts/vkmm-fails.txt does not expect, grouped by message.
#
#   cts-device-report.py RAWDIR OUTDIR [FAILS] [LISTDIR]
import collections, fnmatch, glob, lzma, os, re, sys
raw, outdir = sys.argv[1], sys.argv[2]
fails = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "tests", "cts", "vkmm-fails.txt")
listdir = sys.argv[4] if len(sys.argv) > 4 else None
OK = ("Pass", "NotSupported", "QualityWarning", "CompatibilityWarning")
ORDER = ["Pass", "Fail", "NotSupported", "QualityWarning", "CompatibilityWarning", "Crash", "Timeout"]
# graphics work inside the synchronization groups (vkmm has no graphics queue)
GRAPHICS = re.compile(r"vertex|tess_control|tess_eval|geometry|fragment|draw|blit|clear_attachments|"
                      r"clear_depth_stencil|index_input|resolve|graphics")

rows = collections.OrderedDict()        # (mode, group) -> {case: (status, secs, msg)}
spans = collections.defaultdict(list)   # (mode, group) -> [(call, start, end)]
calls = sorted(glob.glob(os.path.join(raw, "*", "results.tsv.xz")))
unrun = collections.defaultdict(set)
for f in calls:
    call = os.path.basename(os.path.dirname(f))
    with lzma.open(f, "rt", errors="replace") as fh:
        for line in fh:
            p = line.rstrip("\n").split("\t", 5)
            if len(p) < 6: continue
            mode, group, case, st, secs, msg = p
            rows.setdefault((mode, group), {})[case] = (st, float(secs), msg)
    b = os.path.join(os.path.dirname(f), "batches.tsv")
    per = {}
    for line in open(b):
        mode, group, w, s, e, n, np_ = line.split("\t")
        k = (mode, group)
        lo, hi = per.get(k, (1e9, 0))
        per[k] = (min(lo, float(s)), max(hi, float(e)))
    for k, (lo, hi) in per.items():
        spans[k].append((call, lo, hi))
    u = os.path.join(os.path.dirname(f), "unrun.tsv.xz")
    with lzma.open(u, "rt") as fh:
        for line in fh:
            mode, group, case = line.rstrip("\n").split("\t")
            unrun[(mode, group)].add(case)
for k in unrun:
    unrun[k] -= set(rows.get(k, {}))

expected = []
for line in open(fails):
    fields = line.split("#", 1)[0].strip().split(",")
    if len(fields) >= 2:
        expected.append((fields[0], fields[1], fields[2] if len(fields) > 2 else None))
def listed(case, mode):
    return next((st for pat, st, m in expected if (m is None or m == mode) and fnmatch.fnmatchcase(case, pat)), None)

def counts(d):
    c = collections.Counter(v[0] for v in d.values())
    other = sum(n for s, n in c.items() if s not in ORDER)
    return c, other

print("| mode | group | cases | " + " | ".join(ORDER) + " | other | unrun | case-s | wall span (call: s) |")
print("|---|---|---|" + "---|" * (len(ORDER) + 4))
keys = sorted(set(rows) | set(unrun), key=lambda k: (k[0] != "fast", k[1]))
for k in keys:
    d = rows.get(k, {})
    c, other = counts(d)
    secs = sum(v[1] for v in d.values())
    sp = ", ".join(f"{call}: {hi - lo:.0f}" for call, lo, hi in spans.get(k, []))
    print(f"| {k[0]} | {k[1]} | {len(d) + len(unrun.get(k, ()))} | " + " | ".join(str(c[s]) for s in ORDER)
          + f" | {other} | {len(unrun.get(k, ()))} | {secs:.0f} | {sp} |")
    od = os.path.join(outdir, k[0], k[1]); os.makedirs(od, exist_ok=True)
    with open(os.path.join(od, "results.tsv"), "w") as fh:
        for case, (st, s, msg) in d.items():
            fh.write(f"{case}\t{st}\t{msg}\n")
    with open(os.path.join(od, "unrun.txt"), "w") as fh:
        fh.write("".join(c + "\n" for c in sorted(unrun.get(k, ()))))

print("\nsynchronization groups, non-graphics cases (names without " + GRAPHICS.pattern + "):")
for k in keys:
    if not k[1].startswith("synchronization"): continue
    d = {c: v for c, v in rows.get(k, {}).items() if not GRAPHICS.search(c)}
    c, other = counts(d)
    print(f"  {k[0]} {k[1]}: {len(d)} cases: " + ", ".join(f"{s} {c[s]}" for s in ORDER if c[s]) + f", other {other}")

def cause(msg):
    m = msg.split(" | ")[0]
    m = re.sub(r"0x[0-9a-fA-F]+", "#", m)
    m = re.sub(r"\d+(\.\d+)?", "#", m)
    return m[:140]
print("\nnon-passes that vkmm-fails.txt does not expect, by mode, group and cause:")
now_passing = []
for k in keys:
    d = rows.get(k, {})
    bad = [(c, v) for c, v in d.items() if v[0] not in OK and listed(c, k[0]) != v[0]]
    now_passing += [(k, c) for c, v in d.items() if v[0] == "Pass" and listed(c, k[0])]
    if not bad: continue
    print(f"\n### {k[0]} {k[1]}: {len(bad)} unexpected")
    byc = collections.OrderedDict()
    for c, v in bad:
        byc.setdefault((v[0], cause(v[2])), []).append((c, v))
    for (st, cz), items in sorted(byc.items(), key=lambda x: -len(x[1])):
        c, v = items[0]
        print(f"- {len(items)} x {st}: {cz}\n    e.g. {c}\n    msg: {v[2][:300]}")
        if len(items) > 1:
            print(f"    also {items[1][0]}")
print(f"\nlisted in vkmm-fails.txt but passing: {len(now_passing)}")
for k, c in now_passing[:40]:
    print(f"  {k[0]} {c}")
