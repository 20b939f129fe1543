#!/usr/bin/env python3
"""Litmus tests -> Vulkan compute programs (GLSL) and their outcome tables.

Sources:
  * tests/litmus/khronos/*.test: the litmus tests of the Vulkan memory
    model's Alloy formalisation, KhronosGroup/Vulkan-MemoryModel
    (alloy/tests/, commit 3a8b358), (c) 2017-2019 Khronos Group, licensed
    under Creative Commons Attribution 4.0 (http://creativecommons.org/licenses/by/4.0/).
    The files are copied unchanged; this script translates those a compute
    shader can express and says why it skips the others.
  * CLASSIC below: the classic shapes (MP, SB, LB, CoRR, CoWW, 2+2W, IRIW)
    written in the same syntax, in plain, relaxed-atomic, release/acquire,
    fence and legacy-coherent variants, between workgroups and inside one
    workgroup (buffer and shared memory).

The syntax is the one alloy/litmus.cpp reads (see its header comment):
NEWWG/NEWSG/NEWTHREAD, instructions such as "st.atom.rel.scopewg.sc0.semsc0
y = 1", and lines "SATISFIABLE|NOSOLUTION <predicate>" over the outcome the
instruction values describe (a load "= v" reads v).  Two directives of ours:
"FINAL x = v" (the value of x after the dispatch is part of the outcome) and
"LEGACY" (spell the program in GLSL450's memory model: coherent,
memoryBarrierBuffer(), ...).

Each test becomes a shader running N independent instances at different
addresses; every outcome (the values the loads read, plus FINAL values) is
classified:
  forbidden   NOSOLUTION consistent[X] for the stated outcome; or, for a
              program the source says is race-free when its stated values are
              read (NOSOLUTION ... #dr>0), a non-atomic read that does not see
              the value every sequentially consistent execution with those
              values gives it (a race-free read sees the write that happens
              before it); or, for single-location tests whose accesses are all
              atomic and mutually in scope, any outcome no sequentially
              consistent execution gives (coherence is SC per location).
  allowed     the outcome of some sequentially consistent execution (SC), or
              the stated outcome of a SATISFIABLE line ("weak" when not SC), or
              any outcome matching a racy stated outcome (#dr>0: a racy read
              may see either write).
  unclassified the rest: the source says nothing (never a failure).
Usage: litmus_gen.py --list | --out DIR
"""
import itertools
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KHRONOS_DIR = os.path.join(HERE, "khronos")
KHRONOS_CREDIT = ("KhronosGroup/Vulkan-MemoryModel alloy/tests (commit 3a8b358), "
                  "(c) 2017-2019 Khronos Group, CC BY 4.0")
INSTANCES = 256          # instances of the test per dispatch
SLOT = 16                # lanes per role slot (>= the largest subgroup size, 16)


class Skip(Exception):
    pass


# ---------------------------------------------------------------- parsing

class Op:
    def __init__(self, text, tokens, var, value, value2, inst):
        self.text = text
        self.t = tokens
        self.var = var
        self.value = value
        self.value2 = value2
        self.inst = inst      # control barrier instance
        self.load_index = None

    def has(self, *names):
        return any(n in self.t for n in names)

    @property
    def kind(self):
        if self.has("cbar"):
            return "cbar"
        if self.has("membar"):
            return "membar"
        if self.has("avdevice", "visdevice"):
            return "domain"
        if self.has("rmw") or (self.has("st") and self.has("ld")):
            return "rmw"
        if self.has("st"):
            return "st"
        if self.has("ld"):
            return "ld"
        raise Skip("unknown instruction '%s'" % self.text)

    @property
    def atomic(self):
        return self.has("atom", "rmw")

    def scope(self):
        for s in ("scopesg", "scopewg", "scopeqf", "scopedev"):
            if s in self.t:
                return s
        return None

    def sc(self):
        return "sc1" if "sc1" in self.t else "sc0"


class Thread:
    def __init__(self, qf, wg, sg, number):
        self.qf, self.wg, self.sg, self.number = qf, wg, sg, number
        self.ops = []


class Test:
    def __init__(self, name, source, text):
        self.name = name
        self.source = source
        self.threads = []
        self.lines = []      # (verdict, nochains, predicate)
        self.finals = []     # (var, value or None)
        self.legacy = False
        self.ssw = False
        self.sloc = []
        self.comments = []
        self.text = text
        self.parse(text)

    def parse(self, text):
        qf = wg = sg = -1
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("//"):
                c = line[2:].strip()
                if c and not c.startswith(("Copyright", "Creative Commons", "http://creativecommons")):
                    self.comments.append(c)
                continue
            if not line:
                continue
            if line.startswith(("SATISFIABLE", "NOSOLUTION")):
                words = line.split(None, 1)
                rest = words[1] if len(words) > 1 else ""
                nochains = rest.startswith("NOCHAINS")
                if nochains:
                    rest = rest[len("NOCHAINS"):].strip()
                self.lines.append((words[0], nochains, rest.replace(" ", "")))
                continue
            if line.startswith("SSW"):
                self.ssw = True
                continue
            if line.startswith("SLOC"):
                self.sloc.append(line.split()[1:])
                continue
            if line == "LEGACY":
                self.legacy = True
                continue
            if line.startswith("FINAL"):
                m = re.match(r"FINAL\s+(\w+)(?:\s*=\s*(\d+))?$", line)
                if not m:
                    raise ValueError("%s: bad FINAL line" % self.name)
                self.finals.append((m.group(1), int(m.group(2)) if m.group(2) else None))
                continue
            if line.startswith("NEWQF"):
                qf += 1
                wg = sg = -1
                continue
            if line.startswith("NEWWG"):
                wg += 1
                sg = -1
                continue
            if line.startswith("NEWSG"):
                sg += 1
                continue
            if line.startswith("NEWTHREAD"):
                parts = line.split()
                n = int(parts[1]) if len(parts) > 1 else (self.threads[-1].number + 1 if self.threads else 0)
                self.threads.append(Thread(max(qf, 0), max(wg, 0), max(sg, 0), n))
                continue
            m = re.match(r"([\w.]+)(?:\s+([A-Za-z_]\w*))?(?:\s*=\s*(\d+)(?:\s+(\d+))?)?(?:\s+(\d+))?\s*$", line)
            if not m:
                raise ValueError("%s: cannot parse '%s'" % (self.name, line))
            if not self.threads:
                raise ValueError("%s: instruction before NEWTHREAD" % self.name)
            tokens = set(m.group(1).split("."))
            value = int(m.group(3)) if m.group(3) else None
            value2 = int(m.group(4)) if m.group(4) else None
            inst = int(m.group(5)) if m.group(5) else None
            self.threads[-1].ops.append(Op(line, tokens, m.group(2), value, value2, inst))
        # "cbar.scopewg 1": the instance number parses as a variable-less value
        for th in self.threads:
            for op in th.ops:
                if op.kind == "cbar" and op.inst is None:
                    m = re.search(r"\s(\d+)\s*$", op.text)
                    op.inst = int(m.group(1)) if m else None
        k = 0
        for th in self.threads:
            for op in th.ops:
                if op.kind in ("ld", "rmw"):
                    op.load_index = k
                    k += 1
        self.nloads = k

    # Variables in order of first appearance.
    def variables(self):
        seen = []
        for th in self.threads:
            for op in th.ops:
                if op.var and op.var not in seen:
                    seen.append(op.var)
        for v, _ in self.finals:
            if v not in seen:
                seen.append(v)
        return seen


# ------------------------------------------------------ expressibility

# Qualifier classes of non-atomic accesses: one binding (one reference) each.
def access_class(op):
    if op.has("av", "vis"):
        return "coh_" + {"scopesg": "sg", "scopewg": "wg", "scopeqf": "qf", "scopedev": "dev"}[op.scope()]
    if op.has("nonpriv"):
        return "nonpriv"
    return "plain"


BINDINGS = {"plain": 1, "nonpriv": 2, "coh_sg": 3, "coh_wg": 4, "coh_qf": 5, "coh_dev": 6}
FINAL_BINDING = 7  # the copies of shared FINALs
VMM_QUALIFIER = {"plain": "", "nonpriv": "nonprivate ", "coh_sg": "subgroupcoherent ",
                 "coh_wg": "workgroupcoherent ", "coh_qf": "queuefamilycoherent ", "coh_dev": "devicecoherent "}


def analyse(test):
    """Checks that a compute shader can express the test; sets the layout."""
    if test.ssw or any(op.kind == "domain" for th in test.threads for op in th.ops):
        raise Skip("system-synchronizes-with (SSW) and device-domain operations happen between commands "
                   "(API dependencies), not inside one dispatch: the sync suite (tests/sync/) covers them")
    if len({th.qf for th in test.threads}) > 1:
        raise Skip("invocations of two queue families cannot share one dispatch")
    if test.sloc:
        raise Skip("SLOC aliases locations of different storage classes (a StorageBuffer and a Workgroup "
                   "variable cannot alias)")
    if test.nloads == 0 and not test.finals:
        raise Skip("nothing to observe: no load reads a value")
    for th in test.threads:
        for op in th.ops:
            if op.kind == "cbar" and op.scope() in ("scopeqf", "scopedev"):
                raise Skip("OpControlBarrier with Device/QueueFamily execution scope is not allowed in compute "
                           "shaders (VUID-StandaloneSpirv-None-04636)")
            if op.kind in ("ld", "st", "rmw") and op.atomic and not op.scope():
                raise Skip("atomic without scope")
    # Layout: workgroups, subgroups (slots of SLOT lanes), threads per subgroup.
    wgs = sorted({th.wg for th in test.threads})
    test.nwg = len(wgs)
    slots = {}
    for th in test.threads:
        slots.setdefault((th.wg, th.sg), []).append(th)
    test.tps = max(len(v) for v in slots.values())
    if test.tps > 2:
        raise Skip("more than two invocations in one subgroup")
    test.nslots = max(th.sg for th in test.threads) + 1
    if test.nslots > 4:
        raise Skip("more than four subgroups in one workgroup")
    for th in test.threads:
        th.t = slots[(th.wg, th.sg)].index(th)
    # Storage: sc0 is buffer memory; sc1 is Workgroup (shared) memory when one
    # workgroup holds every access to it, else buffer memory too when no
    # instruction's semantics name only one of the two classes.
    sc1_wgs = {th.wg for th in test.threads for op in th.ops if op.var and op.sc() == "sc1"}
    test.sc1_shared = len(sc1_wgs) == 1
    test.sc1_merged = len(sc1_wgs) > 1
    if len(sc1_wgs) > 1:
        for th in test.threads:
            for op in th.ops:
                if ("semsc0" in op.t) != ("semsc1" in op.t) and (op.has("acq", "rel")):
                    raise Skip("storage class 1 is used by several workgroups (so it cannot be Workgroup "
                               "memory) and the semantics tell the two classes apart")
    # One reference per qualifier: each non-atomic access goes through the
    # binding of its own class (a buffer variable accessed with two
    # qualifiers is reached through two bindings of the same memory, as a
    # shader aliases it); atomics through the variable's first class.
    test.var_class = {}
    test.var_classes = {}
    test.var_shared = {}
    for v in test.variables():
        classes = set()
        scs = set()
        for th in test.threads:
            for op in th.ops:
                if op.var == v:
                    scs.add(op.sc())
                    if not op.atomic:
                        classes.add(access_class(op))
        if len(scs) > 1:
            raise Skip("variable %s is accessed as two storage classes" % v)
        shared = scs == {"sc1"} and test.sc1_shared
        if len(classes) > 1 and shared:
            raise Skip("shared variable %s is accessed with two qualifiers (%s); GLSL declares a shared variable "
                       "once" % (v, ", ".join(sorted(classes))))
        test.var_shared[v] = shared
        test.var_classes[v] = sorted(classes) or ["plain"]
        test.var_class[v] = test.var_classes[v][0]
        if test.legacy and any(c not in ("plain", "coh_dev") for c in test.var_classes[v]):
            raise Skip("legacy GLSL has only coherent (device scope) and plain")
    # Control barriers: executed by every thread of the workgroup (subgroup).
    for wg in wgs:
        members = [th for th in test.threads if th.wg == wg]
        seqs = [[op.inst for op in th.ops if op.kind == "cbar"] for th in members]
        if any(s != seqs[0] for s in seqs):
            raise Skip("a control barrier that not every invocation of its workgroup executes")
    test.J = SLOT // test.tps
    test.G = INSTANCES // test.J
    test.N = INSTANCES


# ------------------------------------------------ sequential consistency

def deltas(test):
    """atomicAdd deltas of the RMWs (the translation writes read + delta)."""
    for th in test.threads:
        for op in th.ops:
            if op.kind == "rmw":
                if op.value is None or op.value2 is None:
                    raise Skip("RMW without read and write values")
                op.delta = op.value2 - op.value
                if op.delta < 0:
                    raise Skip("RMW writing less than it reads")


def sc_outcomes(test):
    """Every outcome of a sequentially consistent interleaving."""
    threads = test.threads
    variables = test.variables()
    participants = {}
    for i, th in enumerate(threads):
        for op in th.ops:
            if op.kind == "cbar":
                participants.setdefault(op.inst, set()).add(i)
    results = set()
    seen = set()

    def step(pcs, mem, reads):
        key = (pcs, mem, reads)
        if key in seen:
            return
        seen.add(key)
        done = True
        for i, th in enumerate(threads):
            if pcs[i] >= len(th.ops):
                continue
            done = False
            op = th.ops[pcs[i]]
            nxt = pcs[:i] + (pcs[i] + 1,) + pcs[i + 1:]
            if op.kind == "cbar":
                # Everybody in the instance must be at it; then all pass together.
                ps = participants[op.inst]
                if all(pcs[p] < len(threads[p].ops) and threads[p].ops[pcs[p]].kind == "cbar"
                       and threads[p].ops[pcs[p]].inst == op.inst for p in ps):
                    nxt = tuple(pc + 1 if p in ps else pc for p, pc in enumerate(pcs))
                    step(nxt, mem, reads)
                continue
            if op.kind in ("membar", "domain"):
                step(nxt, mem, reads)
                continue
            vi = variables.index(op.var)
            if op.kind == "st":
                step(nxt, mem[:vi] + (op.value,) + mem[vi + 1:], reads)
            elif op.kind == "ld":
                step(nxt, mem, reads + ((op.load_index, mem[vi]),))
            else:
                step(nxt, mem[:vi] + (mem[vi] + op.delta,) + mem[vi + 1:], reads + ((op.load_index, mem[vi]),))
        if done:
            r = dict(reads)
            out = tuple(r[k] for k in range(test.nloads))
            out += tuple(mem[variables.index(v)] for v, _ in test.finals)
            results.add(out)

    sys.setrecursionlimit(10000)
    step(tuple(0 for _ in threads), tuple(0 for _ in variables), ())
    return results


def domains(test):
    """Values each outcome slot can hold: 0 and what is stored there."""
    variables = test.variables()
    stored = {v: {0} for v in variables}
    for th in test.threads:
        for op in th.ops:
            if op.kind == "st":
                stored[op.var].add(op.value)
    rmws = {v: [op.delta for th in test.threads for op in th.ops if op.kind == "rmw" and op.var == v]
            for v in variables}
    for v in variables:
        for _ in rmws[v]:
            stored[v] |= {x + d for x in stored[v] for d in rmws[v]}
    slots = []
    for th in test.threads:
        for op in th.ops:
            if op.kind in ("ld", "rmw"):
                slots.append(sorted(stored[op.var]))
    for v, _ in test.finals:
        slots.append(sorted(stored[v]))
    return slots


def stated(test):
    """The outcome the instruction values describe: {slot: value}."""
    s = {}
    for th in test.threads:
        for op in th.ops:
            if op.kind in ("ld", "rmw") and op.value is not None:
                s[op.load_index] = op.value
    for k, (v, value) in enumerate(test.finals):
        if value is not None:
            s[test.nloads + k] = value
    return s


def coherence_test(test):
    """Single location, every access atomic, all in each other's scope."""
    ops = [op for th in test.threads for op in th.ops if op.kind in ("ld", "st", "rmw")]
    if len({op.var for op in ops}) != 1 or not all(op.atomic for op in ops):
        return False
    wgs = {th.wg for th in test.threads}
    sgs = {(th.wg, th.sg) for th in test.threads}
    for op in ops:
        s = op.scope()
        if s == "scopewg" and len(wgs) > 1 or s == "scopesg" and len(sgs) > 1:
            return False
    return True


def classify(test):
    deltas(test)
    sc = sc_outcomes(test)
    slots = domains(test)
    o = stated(test)
    lines = [(v, p) for v, nochains, p in test.lines if not nochains and "#rs" not in p]
    forbid_stated = any(v == "NOSOLUTION" and p == "consistent[X]" for v, p in lines)
    race_free = any(v == "NOSOLUTION" and p in ("consistent[X]&&#dr>0", "#dr>0") for v, p in lines)
    racy = any((v == "SATISFIABLE" and "#dr>0" in p) or (v == "NOSOLUTION" and p == "consistent[X]&&#dr=0")
               for v, p in lines)
    allow_stated = any(v == "SATISFIABLE" for v, p in lines)
    coherence = coherence_test(test)
    test.racy = racy
    test.race_free = race_free and not racy
    # The synchronizing part of the stated outcome: what atomics read (and
    # FINAL values).  Given it, a race-free program's non-atomic reads are
    # determined (the write that happens before them), and a racy one's are
    # not (a racy read may see the old value or the new).
    atomic_slots = {op.load_index for th in test.threads for op in th.ops if op.kind in ("ld", "rmw") and op.atomic}
    o_sync = {k: v for k, v in o.items() if k in atomic_slots or k >= test.nloads}
    derived = {}
    if test.race_free:
        matching = [out for out in sc if all(out[k] == v for k, v in o_sync.items())]
        nonatomic = [op.load_index for th in test.threads for op in th.ops if op.kind == "ld" and not op.atomic]
        for k in nonatomic:
            values = {out[k] for out in matching}
            if len(values) == 1:
                derived[k] = values.pop()
    test.derived = derived
    table = []
    for out in itertools.product(*slots):
        matches = all(out[k] == v for k, v in o.items())
        matches_sync = all(out[k] == v for k, v in o_sync.items())
        verdict, why = "unclassified", "the source says nothing of it"
        if out in sc:
            verdict, why = "allowed", "SC"
        elif matches_sync and racy:
            verdict, why = "allowed", "weak: racy (#dr>0), a racy read may see either write"
        elif matches and allow_stated and all(out[k] == v for k, v in derived.items()):
            verdict, why = "allowed", "weak: the source's SATISFIABLE outcome"
        forbidden = None
        if matches and forbid_stated:
            forbidden = "the source's NOSOLUTION outcome"
        elif matches_sync and any(out[k] != v for k, v in derived.items()):
            bad = [k for k, v in derived.items() if out[k] != v]
            forbidden = "race-free (the source: no execution with a data race), so %s must read %d" % (
                describe_slots(test)[bad[0]], derived[bad[0]])
        elif coherence and out not in sc:
            forbidden = "coherence: one location, all atomic and in scope, so SC per location"
        if forbidden:
            if verdict == "allowed":
                raise ValueError("%s: outcome %s both %s and forbidden (%s)" % (test.name, out, why, forbidden))
            verdict, why = "forbidden", forbidden
        table.append((out, verdict, why, out in sc))
    if len(table) > 128 or len(slots) > 8:
        raise Skip("more than 128 outcomes or 8 observed values (the runner's limits)")
    test.table = table
    test.sc = sc


# ------------------------------------------------------------- shaders

SCOPE = {"scopesg": "gl_ScopeSubgroup", "scopewg": "gl_ScopeWorkgroup", "scopeqf": "gl_ScopeQueueFamily",
         "scopedev": "gl_ScopeDevice"}


def storage(test, op):
    parts = []
    if "semsc0" in op.t:
        parts.append("gl_StorageSemanticsBuffer")
    if "semsc1" in op.t:
        # Storage class 1 is Workgroup memory, or buffer memory merged with
        # class 0 when several workgroups use it; a test that never uses it
        # only names it in semantics: Workgroup memory, a class it does not
        # touch.
        parts.append("gl_StorageSemanticsBuffer" if test.sc1_merged else "gl_StorageSemanticsShared")
    parts = sorted(set(parts))
    return " | ".join(parts) if parts else "0"


def semantics(op):
    if op.has("acq") and op.has("rel"):
        s = ["gl_SemanticsAcquireRelease"]
    elif op.has("acq"):
        s = ["gl_SemanticsAcquire"]
    elif op.has("rel"):
        s = ["gl_SemanticsRelease"]
    else:
        return None
    if op.has("semav"):
        s.append("gl_SemanticsMakeAvailable")
    if op.has("semvis"):
        s.append("gl_SemanticsMakeVisible")
    return " | ".join(s)


def ref(test, var, idx_instance, idx_local, cls=None):
    variables = test.variables()
    if test.var_shared[var]:
        shared = [v for v in variables if test.var_shared[v]]
        return "sm[%du + %s]" % (shared.index(var) * test.J, idx_local)
    cls = cls or test.var_class[var]
    return "mem_%s.m[%du + %s]" % (cls, variables.index(var) * test.N, idx_instance)


def legacy_barrier(op):
    sems = {"semsc0", "semsc1"} & op.t
    if op.kind == "membar":
        if op.scope() == "scopedev" and sems == {"semsc0"} and op.has("acq") and op.has("rel"):
            return "memoryBarrierBuffer();"
        if op.scope() == "scopewg" and sems == {"semsc1"} and op.has("acq") and op.has("rel"):
            return "memoryBarrierShared();"
    if op.kind == "cbar" and op.scope() == "scopewg" and op.has("acq") and op.has("rel") and sems == {"semsc1"}:
        return "barrier();"
    raise Skip("no legacy GLSL spelling for '%s'" % op.text)


def emit_op(test, op, out):
    if op.kind in ("membar", "cbar"):
        if test.legacy:
            return legacy_barrier(op)
        sem = semantics(op)
        scope = SCOPE[op.scope()]
        if op.kind == "membar":
            return "memoryBarrier(%s, %s, %s);" % (scope, storage(test, op), sem)
        if sem is None:
            return "controlBarrier(%s, %s, 0, 0);" % (scope, scope)
        return "controlBarrier(%s, %s, %s, %s);" % (scope, scope, storage(test, op), sem)
    r = ref(test, op.var, "inst", "ji", None if op.atomic else access_class(op))
    if op.atomic:
        scope = SCOPE[op.scope()]
        sem = semantics(op)
        st, se = (storage(test, op), sem) if sem else ("0", "0")
        if test.legacy and sem:
            raise Skip("legacy variant with an ordered atomic")
        if op.kind == "st":
            return "atomicStore(%s, %du, %s, %s, %s);" % (r, op.value, scope, st, se)
        if op.kind == "ld":
            return "res.r[base + %du] = atomicLoad(%s, %s, %s, %s);" % (op.load_index, r, scope, st, se)
        return "res.r[base + %du] = atomicAdd(%s, %du, %s, %s, %s);" % (op.load_index, r, op.delta, scope, st, se)
    if op.kind == "st":
        return "%s = %du;" % (r, op.value)
    if op.kind == "ld":
        return "res.r[base + %du] = %s;" % (op.load_index, r)
    raise Skip("non-atomic RMW")


def describe_slots(test):
    names = []
    for i, th in enumerate(test.threads):
        for op in th.ops:
            if op.kind in ("ld", "rmw"):
                names.append("T%d:%s" % (i, op.var))
    for v, _ in test.finals:
        names.append("final:%s" % v)
    return names


def shader(test):
    nres = test.nloads
    variables = test.variables()
    shared = [v for v in variables if test.var_shared[v]]
    classes = sorted({c for v in variables if not test.var_shared[v] for c in test.var_classes[v]})
    ls = SLOT * test.nslots
    lines = ["#version 450"]
    if not test.legacy:
        lines.append("#pragma use_vulkan_memory_model")
    lines += ["#extension GL_KHR_memory_scope_semantics : require",
              "// Generated by tests/litmus/litmus_gen.py; do not edit.",
              "// Litmus test %s (%s)." % (test.name, test.credit)]
    for c in test.comments:
        lines.append("//   " + c)
    for th_i, th in enumerate(test.threads):
        lines.append("// T%d (workgroup %d, subgroup %d): %s" % (th_i, th.wg, th.sg, "; ".join(op.text for op in th.ops)))
    for v, p in [(v, p) for v, _, p in test.lines]:
        lines.append("// %s %s" % (v, p))
    lines += ["layout(local_size_x = %d) in;" % ls,
              "layout(set = 0, binding = 0) buffer Results { uint r[]; } res;"]
    for c in classes:
        q = ("coherent " if c == "coh_dev" else "") if test.legacy else VMM_QUALIFIER[c]
        lines.append("layout(set = 0, binding = %d) %sbuffer Mem_%s { uint m[]; } mem_%s;" % (BINDINGS[c], q, c, c))
    if any(test.var_shared[v] for v, _ in test.finals):
        # The host reads FINALs in the memory buffer (every binding but the
        # results' is bound to it).
        lines.append("layout(set = 0, binding = %d) buffer Mem_final { uint m[]; } mem_final;" % FINAL_BINDING)
    if shared:
        lines.append("shared uint sm[%d];" % (len(shared) * test.J))
    lines += ["void main()", "{",
              "    uint li = gl_LocalInvocationIndex;",
              "    uint slot = li / %du;" % SLOT,
              "    uint j = (li %% %du) / %du;" % (SLOT, test.tps),
              "    uint t = li %% %du;" % test.tps,
              "    uint w = gl_WorkGroupID.x %% %du;" % test.nwg,
              "    uint g = gl_WorkGroupID.x / %du;" % test.nwg]
    if shared:
        lines += ["    for (uint k = li; k < %du; k += %du)" % (len(shared) * test.J, ls), "        sm[k] = 0u;"]
    # Every invocation starts together (and sees the zeroed shared memory).
    lines.append("    barrier();" if test.legacy or shared else
                 "    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);")
    wgs = sorted({th.wg for th in test.threads})
    for wi, wg in enumerate(wgs):
        members = [(i, th) for i, th in enumerate(test.threads) if th.wg == wg]
        lines.append("    if (w == %du) {" % wi)
        # Instance of this invocation: a bijection per workgroup and slot, so
        # that instances pair invocations of different workgroup/lane numbers.
        lines.append("        uint gi = (g * %du + %du) %% %du;" % ((2 * wi + 1) % test.G or 1, 3 * wi, test.G))
        phases = max(len([op for op in th.ops if op.kind == "cbar"]) for _, th in members) + 1
        cursors = {i: 0 for i, _ in members}
        for phase in range(phases):
            barrier = None
            for i, th in members:
                body = []
                while cursors[i] < len(th.ops) and th.ops[cursors[i]].kind != "cbar":
                    body.append(emit_op(test, th.ops[cursors[i]], None))
                    cursors[i] += 1
                if cursors[i] < len(th.ops):
                    barrier = th.ops[cursors[i]]
                    cursors[i] += 1
                if not body:
                    continue
                c = (2 * (th.sg + wi) + 1) % test.J or 1
                d = 5 * th.sg + wi
                lines.append("        if (slot == %du && t == %du) {" % (th.sg, th.t))
                lines.append("            uint ji = (j * %du + %du) %% %du;" % (c, d, test.J))
                lines.append("            uint inst = gi * %du + ji;" % test.J)
                lines.append("            uint base = inst * %du;" % max(nres, 1))
                lines.append("            // T%d" % i)
                for b in body:
                    lines.append("            " + b)
                lines.append("        }")
            if barrier is not None:
                lines.append("        " + emit_op(test, barrier, None))
        lines.append("    }")
    lines += final_copies(test, shared, ls)
    lines.append("}")
    return "\n".join(lines) + "\n"


def final_copies(test, shared, ls):
    """A FINAL of a shared variable: after a control barrier (every store
    performed), the workgroup copies its instances of the variable to the
    variable's place in the memory buffer, where the host reads FINALs.  A
    shared variable is used by one workgroup, so its instances are those
    of the workgroup's group."""
    finals = [v for v, _ in test.finals if test.var_shared[v]]
    if not finals:
        return []
    variables = test.variables()
    lines = ["    barrier();", "    uint fi = g %% %du; // gi of workgroup 0" % test.G,
             "    for (uint k = li; k < %du; k += %du) {" % (test.J, ls)]
    for v in finals:
        lines.append("        mem_final.m[%du + fi * %du + k] = sm[%du + k];" %
                     (variables.index(v) * test.N, test.J, shared.index(v) * test.J))
    lines.append("    }")
    return lines


# --------------------------------------------------------- the classics

# Placements: between workgroups (device scope), inside one workgroup in
# different subgroups on buffer memory and on shared memory (workgroup scope).
PLACEMENTS = {
    "inter": dict(sep="NEWWG\nNEWSG\nNEWTHREAD", sc="sc0", sem="semsc0", scope="scopedev"),
    "intra_buf": dict(sep="NEWSG\nNEWTHREAD", sc="sc0", sem="semsc0", scope="scopewg"),
    "intra_shm": dict(sep="NEWSG\nNEWTHREAD", sc="sc1", sem="semsc1", scope="scopewg"),
}

# Instruction spellings per variant.
def spell(variant, p):
    sc, sem, scope = p["sc"], p["sem"], p["scope"]
    fence_scope = scope
    plain_st = "st.%s" % sc
    plain_ld = "ld.%s" % sc
    rx_st = "st.atom.%s.%s" % (scope, sc)
    rx_ld = "ld.atom.%s.%s" % (scope, sc)
    return {
        "plain": dict(dst=plain_st, dld=plain_ld, fst=plain_st, fld=plain_ld, rel="", acq=""),
        "relaxed": dict(dst=rx_st, dld=rx_ld, fst=rx_st, fld=rx_ld, rel="", acq=""),
        "relacq": dict(dst="st.av.%s.%s" % (scope, sc), dld="ld.vis.%s.%s" % (scope, sc),
                       fst="st.atom.rel.%s.%s.%s" % (scope, sc, sem), fld="ld.atom.acq.%s.%s.%s" % (scope, sc, sem),
                       rel="", acq=""),
        "fence": dict(dst="st.av.%s.%s" % (scope, sc), dld="ld.vis.%s.%s" % (scope, sc), fst=rx_st, fld=rx_ld,
                      rel="membar.rel.%s.%s\n" % (fence_scope, sem), acq="membar.acq.%s.%s\n" % (fence_scope, sem)),
        # GLSL450: coherent data (device scope), memoryBarrierBuffer() /
        # memoryBarrierShared() (acquire-release fences), relaxed atomic flag.
        "coherent": dict(dst="st.av.scopedev.%s" % sc, dld="ld.vis.scopedev.%s" % sc, fst=rx_st, fld=rx_ld,
                         rel=("membar.acq.rel.scopedev.semsc0\n" if sc == "sc0" else "membar.acq.rel.scopewg.semsc1\n"),
                         acq=("membar.acq.rel.scopedev.semsc0\n" if sc == "sc0" else "membar.acq.rel.scopewg.semsc1\n")),
    }[variant]


def classic_tests():
    """(name, text) of every classic test."""
    out = []

    def add(name, threads, tail, variant, placement):
        p = PLACEMENTS[placement]
        body = []
        for k, th in enumerate(threads):
            body.append(("NEWWG\nNEWSG\nNEWTHREAD" if k == 0 else p["sep"]) + "\n" + th)
        text = ("// classic %s, %s variant, %s\n" % (name.split("_")[0], variant, placement) +
                ("LEGACY\n" if variant == "coherent" else "") + "\n".join(body) + "\n" + tail + "\n")
        out.append(("%s_%s_%s" % (name, variant, placement), text))

    for placement in PLACEMENTS:
        p = PLACEMENTS[placement]
        for variant in ("plain", "relaxed", "relacq", "fence", "coherent"):
            s = spell(variant, p)
            racy = variant == "plain"
            # MP: data then flag; the reader sees the flag, then reads the data.
            mp = ["%s x = 1\n%s%s y = 1" % (s["dst"], s["rel"], s["fst"]),
                  "%s y = 1\n%s%s x = 0" % (s["fld"], s["acq"], s["dld"])]
            if racy:
                tail = "SATISFIABLE consistent[X] && #dr>0"
            elif variant == "relaxed":
                tail = "SATISFIABLE consistent[X] && #dr=0"
            else:
                tail = "NOSOLUTION consistent[X]"
            add("MP", mp, tail, variant, placement)
            if variant == "coherent":
                continue
            # SB: allowed in every variant (the Vulkan model has no SC fence).
            sb = ["%s x = 1\n%s%s y = 0" % (s["fst"], s["rel"] and "membar.acq.rel.%s.%s\n" % (p["scope"], p["sem"]),
                                             s["fld"]),
                  "%s y = 1\n%s%s x = 0" % (s["fst"], s["rel"] and "membar.acq.rel.%s.%s\n" % (p["scope"], p["sem"]),
                                             s["fld"])]
            add("SB", sb, "SATISFIABLE consistent[X] && #dr%s0" % (">" if racy else "="), variant, placement)
            # LB: reads from the other's later write; release/acquire forbid it.
            lb = ["%s y = 1\n%s%s x = 1" % (s["fld"], s["acq"] and "membar.acq.rel.%s.%s\n" % (p["scope"], p["sem"]),
                                             s["fst"]),
                  "%s x = 1\n%s%s y = 1" % (s["fld"], s["acq"] and "membar.acq.rel.%s.%s\n" % (p["scope"], p["sem"]),
                                             s["fst"])]
            if racy:
                tail = "SATISFIABLE consistent[X] && #dr>0"
            elif variant == "relaxed":
                tail = "SATISFIABLE consistent[X] && #dr=0"
            else:
                tail = "NOSOLUTION consistent[X]"
            add("LB", lb, tail, variant, placement)
            if variant in ("relaxed", "plain"):
                # CoRR: a reader may not see x go back from 1 to 0.
                corr = ["%s x = 1" % s["fst"], "%s x = 1\n%s x = 0" % (s["fld"], s["fld"])]
                add("CoRR", corr, "SATISFIABLE consistent[X] && #dr>0" if racy else "NOSOLUTION consistent[X]",
                    variant, placement)
            if variant == "relaxed":
                # CoWW: two writes of one invocation, seen by another; x ends at 2.
                coww = ["%s x = 1\n%s x = 2" % (s["fst"], s["fst"]), "%s x = 2\n%s x = 1" % (s["fld"], s["fld"])]
                add("CoWW", coww, "FINAL x\nNOSOLUTION consistent[X]", variant, placement)
            if variant in ("relaxed", "relacq") or (variant == "plain" and p["sc"] == "sc0"):
                # 2+2W: each location ends with the value written first.
                # Not with plain stores to shared memory: of two racing
                # writes there strict mode keeps the first on every seed
                # (the bug manifests), and an invocation's two plain stores
                # run with no scheduling point between them, so x and y
                # keep the same invocation's value.
                w = ["%s x = 1\n%s y = 2" % (s["fst"], s["fst"]), "%s y = 1\n%s x = 2" % (s["fst"], s["fst"])]
                add("2+2W", w, "FINAL x = 1\nFINAL y = 1\nSATISFIABLE consistent[X] && #dr%s0" % (">" if racy else "="),
                    variant, placement)
            if variant in ("relaxed", "relacq"):
                # IRIW: two readers see two independent writes in opposite orders.
                iriw = ["%s x = 1" % s["fst"], "%s y = 1" % s["fst"],
                        "%s x = 1\n%s y = 0" % (s["fld"], s["fld"]), "%s y = 1\n%s x = 0" % (s["fld"], s["fld"])]
                add("IRIW", iriw, "SATISFIABLE consistent[X] && #dr=0", variant, placement)
    return out


# --------------------------------------------------------------- output

def load_tests():
    tests, skipped = [], []
    for f in sorted(os.listdir(KHRONOS_DIR)):
        if not f.endswith(".test"):
            continue
        with open(os.path.join(KHRONOS_DIR, f)) as fh:
            text = fh.read()
        t = Test("khr_" + f[:-5], "khronos", text)
        t.credit = "from " + KHRONOS_CREDIT + ", " + f
        tests.append(t)
    for name, text in classic_tests():
        t = Test(re.sub(r"[^A-Za-z0-9_]", "_", name.replace("2+2W", "2p2W")), "classic", text)
        t.credit = "classic shape, vkmm"
        tests.append(t)
    ok = []
    for t in tests:
        try:
            analyse(t)
            classify(t)
            shader(t)
            ok.append(t)
        except Skip as e:
            skipped.append((t, str(e)))
    return ok, skipped


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def header(tests):
    out = ["/* Generated by tests/litmus/litmus_gen.py from tests/litmus/khronos/ (the .test files)",
           " * (" + KHRONOS_CREDIT + ") and the classic shapes; do not edit. */",
           "#pragma once", "#include \"litmus.h\"", ""]
    for i, t in enumerate(tests):
        nslots = t.nloads + len(t.finals)
        values = ", ".join("%du" % v for out, _, _, _ in t.table for v in out)
        out.append("static const uint32_t litmus_values_%d[] = { %s };" % (i, values or "0"))
        out.append("static const struct litmus_outcome litmus_outcomes_%d[] = {" % i)
        for k, (o, verdict, why, sc) in enumerate(t.table):
            out.append("    { litmus_values_%d + %d, LITMUS_%s, %s, %s }," % (
                i, k * nslots, verdict.upper(), "true" if sc else "false", c_string(why)))
        out.append("};")
        names = describe_slots(t)
        out.append("static const char *const litmus_slots_%d[] = { %s };" % (i, ", ".join(c_string(n) for n in names)))
        variables = t.variables()
        finals = ", ".join("%du" % (variables.index(v) * t.N) for v, _ in t.finals) or "0"
        out.append("static const uint32_t litmus_finals_%d[] = { %s };" % (i, finals))
    out.append("static const struct litmus_test litmus_tests[] = {")
    for i, t in enumerate(tests):
        out.append("    { %s, %s, %s, %du, %du, %du, %du, %du, %du, %s, %s, litmus_slots_%d, litmus_finals_%d, "
                   "litmus_outcomes_%d, %du }," % (
                       c_string(t.name), c_string(t.source), c_string(t.credit), t.N, t.G * t.nwg, SLOT * t.nslots,
                       len(t.variables()), t.nloads, len(t.finals), "true" if t.racy else "false",
                       "true" if t.race_free else "false", i, i, i, len(t.table)))
    out.append("};")
    out.append("#define LITMUS_TEST_COUNT %d" % len(tests))
    return "\n".join(out) + "\n"


def main(argv):
    tests, skipped = load_tests()
    if len(argv) >= 2 and argv[1] == "--list":
        print(";".join(t.name for t in tests))
        return 0
    if len(argv) < 3 or argv[1] != "--out":
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    out = argv[2]
    os.makedirs(out, exist_ok=True)
    for t in tests:
        path = os.path.join(out, t.name + ".comp")
        text = shader(t)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as fh:
                fh.write(text)
    with open(os.path.join(out, "litmus_table.h"), "w") as fh:
        fh.write(header(tests))
    with open(os.path.join(out, "litmus_skipped.txt"), "w") as fh:
        for t, why in skipped:
            fh.write("%s: %s\n" % (t.name, why))
    with open(os.path.join(out, "litmus_expected.txt"), "w") as fh:
        for t in tests:
            fh.write("%s (%s)\n" % (t.name, t.credit))
            fh.write("  slots: %s\n" % " ".join(describe_slots(t)))
            for o, verdict, why, sc in t.table:
                if verdict != "allowed" or not sc:
                    fh.write("  %s %s: %s\n" % (",".join(map(str, o)), verdict, why))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
