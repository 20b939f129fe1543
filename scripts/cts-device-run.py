#!/usr/bin/env python3
# The runner that scripts/cts-device.sh puts into its bundle as run.py: runs
# Vulkan CTS cases (deqp-vk) against vkmm on many cores at once, within a
# deadline, and writes one results file.  Standard library only.
#
#   run.py --out DIR --deadline SECONDS [--workers N] [--root BUNDLE] PLAN
#
# PLAN: lines "MODE GROUP BATCH CASEFILE" (CASEFILE relative to PLAN's
# folder, xz-compressed if its name ends in .xz), in the order the work should start: the cases of each line are
# dealt round-robin into batches of about BATCH cases (so that each batch
# holds a spread of the group's slow and quick cases) and the batches go
# into one queue in PLAN's order.  N workers (default: CPUs - 2) each take
# the next batch and run deqp-vk on it; when deqp-vk dies in a case, that
# case is recorded as Crash (or as the qpa's terminate status) and deqp-vk
# is started again on the batch's cases without a result.  A case that runs
# longer than --timeout-strict / --timeout-fast seconds is killed and
# recorded as Timeout.  At the deadline every deqp-vk is killed; the cases
# in progress and those not started go to DIR/unrun.tsv.
#
# Mode settings: VKMM_MODE=MODE; strict mode also VKMM_HOST_READ=after-wait
# for every case and VKMM_HOST_WRITE=before-signal for the cases under
# *.timeline_semaphore.device_host.* (both are documented knobs: the CTS
# reads results after a fence wait with no HOST_READ barrier, and that group
# writes inputs on the host and releases them with vkSignalSemaphore alone).
# VKMM_THREADS=--vkmm-threads (default 2) so that N processes do not each
# start a thread per CPU.
#
# Output in DIR:
#   results.tsv.xz  MODE GROUP CASE STATUS SECONDS MESSAGE  (tab-separated;
#                MESSAGE: deqp's result text, for non-passes with the last
#                error-looking <Text> lines of the qpa, at most 400 chars)
#   unrun.tsv.xz    MODE GROUP CASE  of the cases that have no result
#   fails.qpa.xz the qpa blocks of every case that neither passed nor was
#                NotSupported (at most --max-fail-qpa bytes before xz)
#   batches.tsv  per batch: mode group worker start end cases processes
#   summary.txt  counts per mode and group (also printed)
import argparse, collections, html, os, re, signal, subprocess, sys, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("plan")
ap.add_argument("--out", required=True)
ap.add_argument("--deadline", type=float, required=True, help="seconds from now")
ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
ap.add_argument("--timeout-strict", type=float, default=150)
ap.add_argument("--timeout-fast", type=float, default=60)
ap.add_argument("--vkmm-threads", default="2")
ap.add_argument("--max-fail-qpa", type=int, default=64 << 20)
ap.add_argument("--nice", type=int, default=0)
ap.add_argument("--work", help="scratch folder (default: OUT/work)")
ap.add_argument("--root", help="the unpacked bundle (default: this script's folder)")
args = ap.parse_args()

T0 = time.time()
DEADLINE = T0 + args.deadline
here = os.path.abspath(args.root or os.path.dirname(os.path.abspath(__file__)))
DEQP = os.path.join(here, "bin", "deqp-vk")
ARCHIVE = os.path.join(here, "data")
LIB = os.path.join(here, "lib")
out = os.path.abspath(args.out)
os.makedirs(out, exist_ok=True)
work = os.path.abspath(args.work or os.path.join(out, "work"))
os.makedirs(work, exist_ok=True)
icd = os.path.join(work, "vkmm_icd.json")
with open(icd, "w") as f:
    f.write('{"file_format_version":"1.0.1","ICD":{"library_path":"%s","api_version":"1.3.239",'
            '"is_portability_driver":false}}\n' % os.path.join(LIB, "libvkmm.so"))

# ---- the work ----
plan_dir = os.path.dirname(os.path.abspath(args.plan))
batches = []          # (mode, group, envkey, [cases])
all_cases = []        # (mode, group, case), in plan order
for line in open(args.plan):
    line = line.split("#", 1)[0].split()
    if not line:
        continue
    mode, group, bsize, cfile = line[0], line[1], int(line[2]), line[3]
    assert mode in ("strict", "fast"), mode
    cpath = os.path.join(plan_dir, cfile)
    if cpath.endswith(".xz"):
        import lzma
        cfh = lzma.open(cpath, "rt")
    else:
        cfh = open(cpath)
    cases = [c.strip() for c in cfh if c.strip()]
    all_cases += [(mode, group, c) for c in cases]
    classes = collections.OrderedDict()
    for c in cases:
        key = "hostwrite" if mode == "strict" and ".timeline_semaphore.device_host." in c else ""
        classes.setdefault(key, []).append(c)
    for key, cs in classes.items():
        nb = max(1, -(-len(cs) // bsize))
        for i in range(nb):
            batches.append((mode, group, key, cs[i::nb]))
print(f"{len(all_cases)} cases in {len(batches)} batches, {args.workers} workers, "
      f"deadline {args.deadline:.0f} s", flush=True)

lock = threading.Lock()
next_batch = 0
results = {}          # (mode, case) -> (status, seconds, message)
group_of = {(m, c): g for m, g, c in all_cases}
batch_log = []
fail_qpa = open(os.path.join(work, "fails.qpa"), "w", errors="replace")
fail_qpa_bytes = 0
stopping = False

def env_for(mode, key, wdir):
    e = dict(os.environ)
    e.update(VK_ICD_FILENAMES=icd, VK_DRIVER_FILES=icd, VK_LOADER_LAYERS_DISABLE="~implicit~",
             LD_LIBRARY_PATH=LIB, VKMM_MODE=mode, VKMM_THREADS=args.vkmm_threads)
    e.pop("VK_ADD_DRIVER_FILES", None); e.pop("VK_INSTANCE_LAYERS", None)
    if mode == "strict":
        e["VKMM_HOST_READ"] = "after-wait"
        if key == "hostwrite":
            e["VKMM_HOST_WRITE"] = "before-signal"
    return e

def qpa_message(body, status):
    text = "\n".join(body)
    m = re.search(r'<Result StatusCode="[^"]*">(.*?)</Result>', text, re.S)
    msg = html.unescape(m.group(1)).strip() if m else ""
    if status not in ("Pass", "NotSupported"):
        texts = [html.unescape(t).strip() for t in re.findall(r'<Text>(.*?)</Text>', text, re.S)]
        sig = [t for t in texts if re.search(r'SIG[A-Z]+|signal|abort', t)]
        if sig: texts = sig[:1]
        errs = [t for t in texts if re.search(r'fail|error|mismatch|expected|invalid|got|SIG', t, re.I)]
        extra = [t for t in (errs or texts)[-2:] if t != msg]
        if extra: msg = (msg + " | " if msg else "") + " | ".join(extra)
    return re.sub(r'\s+', ' ', msg)[:400]

def parse_qpa(path):
    """case -> (status or None if unfinished, message, [lines])"""
    found = {}
    try:
        lines = open(path, errors="replace").read().splitlines()
    except FileNotFoundError:
        return found
    cur = None; body = []
    for l in lines:
        if l.startswith("#beginTestCaseResult "):
            cur = l.split(" ", 1)[1].strip(); body = [l]
        elif cur is not None and l.startswith("#endTestCaseResult"):
            body.append(l)
            m = re.search(r'<Result StatusCode="([^"]*)"', "\n".join(body))
            st = m.group(1) if m else "Unknown"
            found[cur] = (st, qpa_message(body, st), body); cur = None
        elif cur is not None and l.startswith("#terminateTestCaseResult"):
            body.append(l)
            st = l.split(" ", 1)[1].strip() if " " in l else "Crash"
            found[cur] = (st, qpa_message(body, st) or f"terminated: {st}", body); cur = None
        elif cur is not None:
            body.append(l)
    if cur is not None:
        found[cur] = (None, qpa_message(body, "Crash"), body)
    return found

START_RE = re.compile(r"^Test case '(.*)'\.\.$")
RES_RE = re.compile(r"^  ([A-Za-z]+) \((.*)$")

class Worker(threading.Thread):
    def __init__(self, idx):
        super().__init__(daemon=True)
        self.idx = idx
        self.dir = os.path.join(work, f"w{idx}")
        os.makedirs(self.dir, exist_ok=True)
        self.proc = None
        self.cur = None           # (case, start time)
        self.kill_reason = None
        self.nproc = 0
        self.timeout = 1e9

    def kill(self, reason):
        p = self.proc
        if p and p.poll() is None and self.kill_reason is None:
            self.kill_reason = reason
            try: os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError: pass

    def run(self):
        global next_batch
        while True:
            with lock:
                if stopping or next_batch >= len(batches) or time.time() > DEADLINE - 3:
                    return
                b = batches[next_batch]; next_batch += 1
            try:
                self.run_batch(*b)
            except Exception as e:
                import traceback
                print(f"worker {self.idx}: batch {b[0]} {b[1]} failed: {e!r}", flush=True)
                traceback.print_exc()

    def record(self, mode, case, status, secs, msg):
        with lock:
            if (mode, case) not in results:
                results[(mode, case)] = (status, secs, msg)

    def run_batch(self, mode, group, key, cases):
        global fail_qpa_bytes
        tstart = time.time(); nproc = 0
        remaining = list(cases)
        timeout = self.timeout = args.timeout_strict if mode == "strict" else args.timeout_fast
        while remaining and not stopping:
            nproc += 1; self.nproc += 1
            n = self.nproc
            cl = os.path.join(self.dir, "cases.txt")
            with open(cl, "w") as f:
                f.write("".join(c + "\n" for c in remaining))
            qpa = os.path.join(self.dir, f"r{n}.qpa")
            cmd = [DEQP, f"--deqp-archive-dir={ARCHIVE}", "--deqp-log-images=disable",
                   "--deqp-log-shader-sources=disable",
                   f"--deqp-shadercache-filename={self.dir}/shadercache.bin", "--deqp-shadercache-truncate=disable",
                   "--deqp-watchdog=enable", f"--deqp-watchdog-total-time-limit={int(timeout) + 30}",
                   f"--deqp-watchdog-interval-time-limit={int(timeout) + 30}",
                   "--deqp-crashhandler=enable", f"--deqp-caselist-file={cl}", f"--deqp-log-filename={qpa}"]
            if args.nice:
                cmd = ["nice", "-n", str(args.nice)] + cmd
            self.kill_reason = None
            stdout_log = open(os.path.join(self.dir, f"s{n}.txt"), "w", errors="replace")
            self.proc = subprocess.Popen(cmd, cwd=self.dir, env=env_for(mode, key, self.dir),
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         start_new_session=True, errors="replace")
            got = {}
            for line in self.proc.stdout:
                stdout_log.write(line)
                line = line.rstrip("\n")
                m = START_RE.match(line)
                if m:
                    self.cur = (m.group(1), time.time()); continue
                m = RES_RE.match(line)
                if m and self.cur:
                    msg = m.group(2)
                    if msg.endswith(")"): msg = msg[:-1]
                    got[self.cur[0]] = (m.group(1), round(time.time() - self.cur[1], 3), msg)
                    self.cur = None
            rc = self.proc.wait()
            stdout_log.close()
            cur = self.cur; self.cur = None
            detail = parse_qpa(qpa)
            for case, (st, secs, msg) in got.items():
                if st not in ("Pass", "NotSupported") and case in detail and detail[case][1]:
                    msg = detail[case][1]
                self.record(mode, case, st, secs, msg)
            if cur:
                case, t = cur
                secs = round(time.time() - t, 3)
                st, msg, _ = detail.get(case, (None, "", []))
                if self.kill_reason == "deadline":
                    pass                                  # left unrun
                elif self.kill_reason == "timeout":
                    self.record(mode, case, "Timeout", secs, f"no result after {timeout:.0f} s (killed)"
                                + (f" | {msg}" if msg else ""))
                else:
                    status = st if st else ("Timeout" if rc in (124, 137) else "Crash")
                    self.record(mode, case, status, secs,
                                (msg or "") + f" | deqp-vk exit status {rc}")
                got[case] = None
            # the qpa blocks of the non-passes
            with lock:
                for case, (st, msg, body) in detail.items():
                    r = results.get((mode, case))
                    if r and r[0] not in ("Pass", "NotSupported") and fail_qpa_bytes < args.max_fail_qpa:
                        blob = f"#mode {mode}\n" + "\n".join(body) + "\n"
                        fail_qpa.write(blob); fail_qpa_bytes += len(blob)
            try: os.unlink(qpa)
            except FileNotFoundError: pass
            if self.kill_reason == "deadline":
                break
            before = len(remaining)
            remaining = [c for c in remaining if (mode, c) not in results]
            if len(remaining) == before:
                # deqp-vk ran nothing of these cases: record them so that we do not loop
                for c in remaining:
                    self.record(mode, c, "NoResult", 0.0, f"deqp-vk ran none of the batch's remaining cases (exit {rc})")
                remaining = []
        with lock:
            batch_log.append((mode, group, self.idx, round(tstart - T0, 1), round(time.time() - T0, 1),
                              len(cases), nproc))

workers = [Worker(i) for i in range(args.workers)]
for w in workers: w.start()
last_report = time.time()
while any(w.is_alive() for w in workers):
    time.sleep(0.5)
    now = time.time()
    if now >= DEADLINE:
        stopping = True
        for w in workers: w.kill("deadline")
    else:
        for w in workers:
            cur = w.cur
            if cur and now - cur[1] > w.timeout:
                w.kill("timeout")
    if now - last_report > 30:
        last_report = now
        with lock:
            done = len(results); nb = next_batch
        print(f"[{now - T0:5.0f} s] {done} results, batch {nb}/{len(batches)}", flush=True)
for w in workers: w.join()
wall = time.time() - T0
fail_qpa.close()

# ---- output ----
def open_out(name):
    """results and lists go back compressed (a device call returns files of 16 MiB at most)"""
    try:
        import lzma
        return lzma.open(os.path.join(out, name + ".xz"), "wt", preset=2)
    except ImportError:
        import gzip
        return gzip.open(os.path.join(out, name + ".gz"), "wt", compresslevel=6)
with open_out("results.tsv") as f:
    for mode, group, case in all_cases:
        r = results.get((mode, case))
        if r:
            st, secs, msg = r
            msg = re.sub(r"[\t\r\n]+", " ", msg)
            f.write(f"{mode}\t{group}\t{case}\t{st}\t{secs}\t{msg}\n")
unrun = [(m, g, c) for m, g, c in all_cases if (m, c) not in results]
with open_out("unrun.tsv") as f:
    f.write("".join(f"{m}\t{g}\t{c}\n" for m, g, c in unrun))
with open(os.path.join(out, "batches.tsv"), "w") as f:
    for b in sorted(batch_log, key=lambda b: b[3]):
        f.write("\t".join(map(str, b)) + "\n")
with open(os.path.join(work, "fails.qpa"), errors="replace") as src, open_out("fails.qpa") as dst:
    while True:
        chunk = src.read(1 << 20)
        if not chunk: break
        dst.write(chunk)
order = ["Pass", "Fail", "NotSupported", "QualityWarning", "CompatibilityWarning", "Crash", "Timeout"]
lines = [f"wall {wall:.1f} s, {args.workers} workers, {len(results)} results, {len(unrun)} unrun, "
         f"batches started {next_batch}/{len(batches)}"]
per = collections.OrderedDict()
for mode, group, case in all_cases:
    per.setdefault((mode, group), collections.Counter())
    r = results.get((mode, case))
    k = per[(mode, group)]
    if r:
        k[r[0]] += 1; k["_secs"] += r[1]
    else:
        k["_unrun"] += 1
for (mode, group), k in per.items():
    spans = [b for b in batch_log if b[0] == mode and b[1] == group]
    span = f"{min(b[3] for b in spans):.0f}-{max(b[4] for b in spans):.0f} s" if spans else "-"
    other = sum(v for s, v in k.items() if s not in order and not s.startswith("_"))
    lines.append(f"{mode:6} {group:40} " + " ".join(f"{s}={k[s]}" for s in order)
                 + f" other={other} unrun={k['_unrun']} case-seconds={k['_secs']:.0f} span={span}")
open(os.path.join(out, "summary.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines), flush=True)
