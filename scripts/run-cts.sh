#!/bin/bash
# Runs a group of Vulkan CTS cases (a deqp-vk built outside this repository,
# never committed: see docs/) against vkmm and counts the results.
#
# usage: scripts/run-cts.sh <case-pattern | caselist-file> <strict|fast> [outdir]
#   case-pattern : e.g. 'dEQP-VK.synchronization2.implicit.*'
#   caselist-file: a file with one case name (or pattern) per line
# env:
#   DEQP_VK       the deqp-vk binary (required)
#   VKMM_ICD      ICD manifest (default: build-release/manifests/vkmm_icd.json of this repository)
#   CHUNK_TIMEOUT seconds allowed for one deqp-vk process (default 3600); on expiry the
#                 running case is recorded as Timeout and the run resumes after it
#   NFAIL         how many failing cases to list (default 10)
#   CTS_FAILS     expected non-passes (default tests/cts/vkmm-fails.txt): the
#                 summary also lists the non-passes it does not expect and the
#                 expected ones that passed
#   any VKMM_* variable is passed through (VKMM_MODE is set from the 2nd argument).
#   The CTS's timeline_semaphore.device_host group writes inputs on the host
#   and releases the work with vkSignalSemaphore alone, and reads results on
#   the host after vkWaitSemaphores alone: in strict mode run it with
#   VKMM_HOST_WRITE=before-signal VKMM_HOST_READ=after-wait (README, knobs);
#   without the second, 9-14 of its 227 cases read stale bytes, more or fewer
#   with the host threads' timing.
#
# A crash (or hang) does not end the run: the case that was running is recorded
# as Crash/Timeout and deqp-vk is restarted on the remaining cases.
# Output: <outdir>/TestResults-N.qpa, <outdir>/stdout-N.txt, <outdir>/results.tsv
# (case<TAB>status<TAB>message), <outdir>/summary.txt (also printed).
set -u
if [ $# -lt 2 ] || [ -z "${DEQP_VK:-}" ]; then sed -n 2,25p "$0"; exit 2; fi
SEL=$1; MODE=$2
case "$MODE" in strict|fast) ;; *) echo "mode must be strict or fast" >&2; exit 2;; esac
DEQP_VK=$(readlink -f "$DEQP_VK")
DEQP_DIR=$(dirname "$DEQP_VK")
top=$(cd "$(dirname "$0")/.." && pwd)
ICD=${VKMM_ICD:-$top/build-release/manifests/vkmm_icd.json}
NAME=$(basename "$SEL" | tr -c 'A-Za-z0-9_.-' '_' | sed 's/[_.]*$//' | cut -c1-80)
OUT=${3:-$PWD/cts-runs/$NAME-$MODE-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
if ! mkdir "$OUT/.lock" 2>/dev/null; then echo "$OUT is in use or already holds a run" >&2; exit 2; fi
export VK_ICD_FILENAMES=$ICD VK_DRIVER_FILES=$ICD VKMM_MODE=$MODE

COMMON=(--deqp-archive-dir="$DEQP_DIR" --deqp-log-images=disable --deqp-log-shader-sources=disable
        --deqp-shadercache-filename="$OUT/shadercache.bin" --deqp-shadercache-truncate=disable
        --deqp-watchdog=enable --deqp-crashhandler=enable)

# 1. The full list of cases.
if [ -f "$SEL" ]; then
    "$DEQP_VK" "${COMMON[@]}" --deqp-runmode=txt-caselist --deqp-caselist-file="$(readlink -f "$SEL")" \
        --deqp-caselist-export-file="$OUT/allcases.txt" > "$OUT/caselist.log" 2>&1
else
    "$DEQP_VK" "${COMMON[@]}" --deqp-runmode=txt-caselist --deqp-case="$SEL" \
        --deqp-caselist-export-file="$OUT/allcases.txt" > "$OUT/caselist.log" 2>&1
fi
grep '^TEST: ' "$OUT/allcases.txt" 2>/dev/null | sed 's/^TEST: //' > "$OUT/cases.txt"
TOTAL=$(wc -l < "$OUT/cases.txt")
if [ "$TOTAL" -eq 0 ]; then echo "no cases match $SEL (see $OUT/caselist.log)"; exit 1; fi
echo "$TOTAL cases, mode $MODE, ICD $ICD, output in $OUT"

# 2. Run, restarting after a crash or a timeout.
cp "$OUT/cases.txt" "$OUT/remaining.txt"
n=0
while [ -s "$OUT/remaining.txt" ]; do
    n=$((n+1))
    (cd "$OUT" && timeout -k 10 "${CHUNK_TIMEOUT:-3600}" "$DEQP_VK" "${COMMON[@]}" \
        --deqp-caselist-file="$OUT/remaining.txt" --deqp-log-filename="$OUT/TestResults-$n.qpa" \
        > "$OUT/stdout-$n.txt" 2>&1; exit $?) 2>/dev/null
    rc=$?
    python3 - "$OUT" "$n" "$rc" <<'EOF'
import sys, re, html, os
out, n, rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
remaining = [l.strip() for l in open(f"{out}/remaining.txt") if l.strip()]
done = {}
cur = None; body = []
def message(body, status):
    text = "\n".join(body)
    m = re.search(r'<Result StatusCode="[^"]*">(.*?)</Result>', text, re.S)
    msg = html.unescape(m.group(1)).strip() if m else ""
    if status not in ("Pass", "NotSupported"):
        # add the last logged <Text> lines that look like errors
        texts = [html.unescape(t).strip() for t in re.findall(r'<Text>(.*?)</Text>', text, re.S)]
        sig = [t for t in texts if re.search(r'SIG[A-Z]+|signal|abort', t)]
        if sig: texts = sig[:1]
        errs = [t for t in texts if re.search(r'fail|error|mismatch|expected|invalid|got|SIG', t, re.I)]
        extra = (errs or texts)[-2:]
        if extra: msg = (msg + " | " if msg else "") + " | ".join(extra)
    return re.sub(r'\s+', ' ', msg)[:400]
try:
    lines = open(f"{out}/TestResults-{n}.qpa", errors="replace").read().splitlines()
except FileNotFoundError:
    lines = []
for l in lines:
    if l.startswith("#beginTestCaseResult "):
        cur = l.split(" ", 1)[1].strip(); body = []
    elif l.startswith("#endTestCaseResult") and cur:
        m = re.search(r'<Result StatusCode="([^"]*)"', "\n".join(body))
        st = m.group(1) if m else "Unknown"
        done[cur] = (st, message(body, st)); cur = None
    elif l.startswith("#terminateTestCaseResult") and cur:
        st = l.split(" ", 1)[1].strip() if " " in l else "Crash"
        done[cur] = (st, message(body, st) or f"terminated: {st}"); cur = None
    elif cur is not None:
        body.append(l)
if cur is not None:   # the process died inside this case
    st = "Timeout" if rc in (124, 137) else "Crash"
    done[cur] = (st, message(body, st) or f"deqp-vk exit status {rc}")
with open(f"{out}/results-{n}.tsv", "w") as f:
    for c, (st, msg) in done.items():
        f.write(f"{c}\t{st}\t{msg}\n")
# the remaining list: cases after the last one that has a result
last = -1
for i, c in enumerate(remaining):
    if c in done: last = i
if last < 0:
    # nothing ran at all: record the first case as Crash so that we advance
    with open(f"{out}/results-{n}.tsv", "a") as f:
        f.write(f"{remaining[0]}\tCrash\tdeqp-vk produced no result (exit status {rc})\n")
    last = 0
with open(f"{out}/remaining.txt", "w") as f:
    f.write("".join(c + "\n" for c in remaining[last + 1:]))
EOF
done

# 3. Summary.
for i in $(seq 1 $n); do cat "$OUT/results-$i.tsv"; done > "$OUT/results.tsv"
python3 - "$OUT" "$SEL" "$MODE" "${NFAIL:-10}" "${CTS_FAILS:-$top/tests/cts/vkmm-fails.txt}" <<'EOF' | tee "$OUT/summary.txt"
import sys, collections, fnmatch, os
out, sel, mode, nfail, fails = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
rows = [l.rstrip("\n").split("\t", 2) for l in open(f"{out}/results.tsv") if l.strip()]
cnt = collections.Counter(r[1] for r in rows)
order = ["Pass", "Fail", "NotSupported", "Crash", "Timeout", "QualityWarning", "CompatibilityWarning",
         "InternalError", "ResourceError", "Waiver"]
keys = [k for k in order if k in cnt] + sorted(k for k in cnt if k not in order)
print(f"{sel} [{mode}]: {len(rows)} cases: " + ", ".join(f"{k} {cnt[k]}" for k in keys))
bad = [r for r in rows if r[1] not in ("Pass", "NotSupported", "QualityWarning", "CompatibilityWarning")]
for r in bad[:nfail]:
    print(f"  {r[1]}: {r[0]}: {r[2] if len(r) > 2 else ''}")
if len(bad) > nfail: print(f"  ... {len(bad) - nfail} more in {out}/results.tsv")
expected = []
if os.path.exists(fails):
    for line in open(fails):
        fields = line.split("#", 1)[0].strip().split(",")
        if len(fields) >= 2 and (len(fields) < 3 or fields[2] == mode):
            expected.append((fields[0], fields[1]))
def listed(case):
    return next((status for pattern, status in expected if fnmatch.fnmatchcase(case, pattern)), None)
unexpected = [r for r in bad if listed(r[0]) != r[1]]
now_passing = [r[0] for r in rows if r[1] == "Pass" and listed(r[0])]
print(f"against {os.path.basename(fails)}: {len(bad) - len(unexpected)} expected, {len(unexpected)} unexpected, "
      f"{len(now_passing)} listed but passing")
for r in unexpected[:nfail]:
    print(f"  unexpected {r[1]}: {r[0]}")
for case in now_passing[:nfail]:
    print(f"  now passing: {case}")
EOF
