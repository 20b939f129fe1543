#!/usr/bin/env python3
# Plans the next device call of scripts/cts-device-run.py: writes PLAN and
# one case file per (mode, group) of the cases that no earlier call's
# results hold.
#
#   cts-device-plan.py OUTDIR LISTDIR RAWDIR SPEC...
#     LISTDIR: the case lists of `cts-device.sh caselists` (GROUP.txt)
#     RAWDIR:  folder whose subfolders hold earlier calls' results.tsv.xz
#     SPEC:    MODE:GROUP:BATCH, in the order the work should start
import lzma, os, sys, glob
outdir, listdir, rawdir, specs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
done = set()
for f in glob.glob(os.path.join(rawdir, "*", "results.tsv.xz")):
    with lzma.open(f, "rt", errors="replace") as fh:
        for line in fh:
            p = line.split("\t", 4)
            if len(p) >= 4:
                done.add((p[0], p[2]))
os.makedirs(outdir, exist_ok=True)
for f in glob.glob(os.path.join(outdir, "*.txt*")):
    os.unlink(f)
plan = []
total = 0
for spec in specs:
    mode, group, batch = spec.split(":")
    cases = [c.strip() for c in open(os.path.join(listdir, group + ".txt")) if c.strip()]
    todo = [c for c in cases if (mode, c) not in done]
    if not todo:
        continue
    name = f"{mode}-{group}.txt.xz"
    with lzma.open(os.path.join(outdir, name), "wt", preset=9) as fh:
        fh.write("".join(c + "\n" for c in todo))
    plan.append(f"{mode} {group} {batch} {name}")
    total += len(todo)
    print(f"{mode:6} {group:28} {len(todo):7} of {len(cases):7} to run")
open(os.path.join(outdir, "plan.txt"), "w").write("\n".join(plan) + "\n")
print(f"{total} cases planned in {outdir}/plan.txt")
