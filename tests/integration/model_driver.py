#!/usr/bin/env python3
# Model-based random testing of a live cellfs mount (run by model.sh): seeded
# random operation sequences, each step checked against an in-memory model of
# Cassandra's semantics as DESIGN.md section 5 and docs/ENGINE.md state them.
#
# Operations: cell and static writes at server time, with @timestamp= (ties
# and neighbours of known write times, older and newer than what is stored)
# and @ttl=; mkdir of rows (markers, also @ttl= and @timestamp=); rm of cells
# (also col@timestamp=); rm -r of rows and partitions; row @json writes (null
# deletes); TTL rewrites through user.cellfs.ttl; sleeps. Checks after every
# step: the touched partition's listing (names and clustering order) and the
# touched row's cells (listing, contents, user.cellfs.writetime and .ttl,
# stat); every 5 steps also the table listing (token order, user.cellfs.token),
# a random nested slice, a row's @json and a partition's @json or @csv.
#
# usage: model_driver.py MOUNTPOINT   (python3 standard library only)
# env:   CELLFS_MODEL_SEED=N     run that one seed (default: the fixed list)
#        CELLFS_MODEL_STEPS=N    steps per seed (default 150)
#        CELLFS_MODEL_MARGIN=S   seconds of slack around an expiry (default 0.1)
#        CELLFS_MODEL_FULL_LOG=1 on a mismatch, print every operation, not the last 20
#
# Time is the crux. The daemon stamps server writes with CLOCK_REALTIME
# microseconds (strictly increasing), which is also Python's time.time_ns(),
# so every server-assigned write time lies inside the wall-clock window of the
# syscall that made it. The model keeps each write time as an interval: a
# point when known exactly (explicit @timestamp=, or read back through
# user.cellfs.writetime), else the syscall's window. Windows of successive
# syscalls are disjoint, so comparisons between server times are certain;
# explicit timestamps are drawn outside every unknown window. What is still
# undecidable (an expiry within the margin of a check, an explicit time that a
# later window happened to swallow) makes the model accept either answer for
# that item only; everything else must match exactly.
#
# Row and partition deletions through rmdir take the server time, which the
# mount never shows, so a write can tie with a cell tombstone (rm
# col@timestamp=T) but not with them. Directories the daemon keeps showing
# after their last cell went (docs/FILESYSTEM.md) may answer mkdir with EEXIST
# and read an empty @json; the model tracks which ones may be kept.

import bisect
import errno
import json
import os
import random
import shlex
import struct
import sys
import time

KEYSPACE = "m"
PARTITIONS = ["a,b", "k1", "@z%"]           # names a%2Cb, k1, %40z%25
C1_VALUES = [10, 3, -2]                      # int, clustering order DESC
C2_VALUES = ["", "a", "B"]                   # text, ASC (bytes: "" < "B" < "a")
REGULAR = ["v1", "v2", "v3"]                 # text, int, bigint
STATIC = "s"                                 # static text
COLUMN_TYPE = {"s": "text", "v1": "text", "v2": "int", "v3": "bigint"}
JSON_ORDER = ["p", "c1", "c2", "s", "v1", "v2", "v3"]
DEFAULT_SEEDS = [1, 2, 3, 4]


class Mismatch(Exception):
    pass


# --- xxHash64 (the partition token) -----------------------------------------

_P1, _P2, _P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_P4, _P5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5
_M64 = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & _M64


def _round(acc, lane):
    return (_rotl((acc + lane * _P2) & _M64, 31) * _P1) & _M64


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + _P1 + _P2) & _M64, (seed + _P2) & _M64, seed, (seed - _P1) & _M64]
        while i + 32 <= n:
            for k in range(4):
                v[k] = _round(v[k], struct.unpack_from("<Q", data, i + 8 * k)[0])
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & _M64
        for k in range(4):
            h = (((h ^ _round(0, v[k])) * _P1) + _P4) & _M64
    else:
        h = (seed + _P5) & _M64
    h = (h + n) & _M64
    while i + 8 <= n:
        h ^= _round(0, struct.unpack_from("<Q", data, i)[0])
        h = (_rotl(h, 27) * _P1 + _P4) & _M64
        i += 8
    if i + 4 <= n:
        h ^= (struct.unpack_from("<I", data, i)[0] * _P1) & _M64
        h = (_rotl(h, 23) * _P2 + _P3) & _M64
        i += 4
    while i < n:
        h ^= (data[i] * _P5) & _M64
        h = (_rotl(h, 11) * _P1) & _M64
        i += 1
    h ^= h >> 33
    h = (h * _P2) & _M64
    h ^= h >> 29
    h = (h * _P3) & _M64
    return h ^ (h >> 32)


def token_of(pk):
    t = xxh64(pk.encode())
    t = t - (1 << 64) if t >= 1 << 63 else t
    return (1 << 63) - 1 if t == -(1 << 63) else t


assert xxh64(b"") == 0xEF46DB3751D8E999


# --- names and values ---------------------------------------------------------

def escape(text):
    """A text key component as a directory name component (DESIGN.md s. 2)."""
    if text == "":
        return "%-"
    out = text.replace("%", "%25").replace("/", "%2F").replace(",", "%2C")
    if out[0] in "@.":
        out = "%{:02X}".format(ord(out[0])) + out[1:]
    return out


def row_name(ck):
    return "{},{}".format(ck[0], escape(ck[1]))


def cluster_order(ck):
    return (-ck[0], ck[1].encode())


def value_bytes(col, value):
    """The serialized value, whose unsigned bytes break write-time ties."""
    kind = COLUMN_TYPE[col]
    if kind == "int":
        return struct.pack(">i", value)
    if kind == "bigint":
        return struct.pack(">q", value)
    return value.encode()


def file_text(col, value):
    return value + "\n" if COLUMN_TYPE[col] == "text" else "{}\n".format(value)


def printf_of(text):
    """A one-line shell command that prints `text`."""
    if text.endswith("\n"):
        return "printf '%s\\n' " + shlex.quote(text[:-1])
    return "printf %s " + shlex.quote(text)


# --- time intervals and three-valued logic ----------------------------------

def now_us():
    return time.time_ns() // 1000


class Tm:
    """A write time in microseconds: a point, or the window it lies in."""
    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi=None):
        self.lo, self.hi = lo, lo if hi is None else hi

    def known(self):
        return self.lo == self.hi

    def __repr__(self):
        return str(self.lo) if self.known() else "[{}..{}]".format(self.lo, self.hi)


def cmp_tm(a, b):
    """-1, 0, 1, or None when the intervals leave the order open."""
    if a.hi < b.lo:
        return -1
    if a.lo > b.hi:
        return 1
    if a.known() and b.known():
        return 0
    return None


def le_tm(a, b):
    """a <= b, three-valued."""
    if a.hi <= b.lo:
        return True
    if a.lo > b.hi:
        return False
    return None


def or3(values):
    values = list(values)
    if any(v is True for v in values):
        return True
    return False if all(v is False for v in values) else None


def and3(a, b):
    if a is False or b is False:
        return False
    return True if a is True and b is True else None


def not3(a):
    return None if a is None else not a


def expiry_of(ttl, window):
    """(earliest, latest) expiry second of a TTL written within window."""
    if not ttl:
        return None
    return (window.lo // 1_000_000 + ttl, window.hi // 1_000_000 + ttl)


def alive_at(exp, window):
    """Whether something expiring at `exp` is live through the check window."""
    if exp is None:
        return True
    if window.hi < exp[0] * 1_000_000:
        return True
    if window.lo >= exp[1] * 1_000_000:
        return False
    return None


# --- the model ----------------------------------------------------------------

class Version:
    """One write or deletion of one cell."""
    __slots__ = ("wt", "dead", "value", "vbytes", "ttl", "exp")

    def __init__(self, wt, dead, value=None, col=None, ttl=0, exp=None):
        self.wt, self.dead, self.value, self.ttl, self.exp = wt, dead, value, ttl, exp
        self.vbytes = b"" if dead else value_bytes(col, value)

    def rank(self):
        return 2 if self.dead else (1 if self.ttl else 0)


class Marker:
    __slots__ = ("wt", "ttl", "exp")

    def __init__(self, wt, ttl, exp):
        self.wt, self.ttl, self.exp = wt, ttl, exp


class Row:
    def __init__(self):
        self.markers, self.tombs, self.cells = [], [], {c: [] for c in REGULAR}


class Part:
    def __init__(self):
        self.tombs, self.static, self.rows = [], [], {}

    def row(self, ck):
        return self.rows.setdefault(ck, Row())


def supersedes(a, b):
    """Cell reconciliation (engine/store/cell.h), three-valued; True on equal cells."""
    c = cmp_tm(a.wt, b.wt)
    if c is None:
        return None
    if c:
        return c > 0
    if a.rank() != b.rank():
        return a.rank() > b.rank()
    if a.dead:
        return True  # two deletions: either one, the outcome is the same
    if a.vbytes != b.vbytes:
        return a.vbytes > b.vbytes
    ea, eb = a.exp or (0, 0), b.exp or (0, 0)
    if ea[0] > eb[1]:
        return True
    if ea[1] < eb[0]:
        return False
    if ea[0] != ea[1] or eb[0] != eb[1]:
        return None
    return a.ttl >= b.ttl


def marker_supersedes(a, b):
    """Marker reconciliation: write time, then expiring, expiry, ttl."""
    c = cmp_tm(a.wt, b.wt)
    if c is None:
        return None
    if c:
        return c > 0
    if bool(a.ttl) != bool(b.ttl):
        return bool(a.ttl)
    ea, eb = a.exp or (0, 0), b.exp or (0, 0)
    if ea[0] > eb[1]:
        return True
    if ea[1] < eb[0]:
        return False
    if ea[0] != ea[1] or eb[0] != eb[1]:
        return None
    return a.ttl >= b.ttl


def possible_winners(items, beats):
    return [v for v in items if all(beats(v, u) is not False for u in items if u is not v)]


def shadowed(wt, tombs):
    return or3(le_tm(wt, t) for t in tombs)


class Outcome:
    """What a cell may look like at a check: dead and/or live versions."""

    def __init__(self):
        self.dead, self.live = False, []

    def certain(self):
        return len(self.live) + int(self.dead) == 1

    def alive(self):
        if not self.live:
            return False
        return None if self.dead else True

    def describe(self):
        parts = ["dead"] if self.dead else []
        for v in self.live:
            parts.append("{!r} wt={} ttl={} exp={}".format(v.value, v.wt, v.ttl, v.exp))
        return " | ".join(parts)


class Stats:
    def __init__(self):
        self.checks = self.uncertain = 0
        self.events = {}  # what the runs exercised, for the summary

    def event(self, name):
        self.events[name] = self.events.get(name, 0) + 1


def cell_outcome(versions, tombs, window, stats):
    out = Outcome()
    if not versions:
        out.dead = True
        return out
    for v in possible_winners(versions, supersedes):
        if v.dead:
            out.dead = True
            continue
        alive = and3(alive_at(v.exp, window), not3(shadowed(v.wt, tombs)))
        if alive is not False:
            out.live.append(v)
        if alive is not True:
            out.dead = True
        if alive is not False and v.ttl:
            # An expired cell becomes a tombstone when the sweeper reaches it,
            # and a tombstone outranks an expiring cell of the same write
            # time: the winner of such a tie may then lose. When that happens
            # is the sweeper's business, so either answer is right.
            for u in versions:
                if (u is not v and not u.dead and u.ttl and cmp_tm(u.wt, v.wt) in (0, None)
                        and alive_at(u.exp, window) is not True):
                    out.dead = True
                    stats.event("evaluations open to a sweeper tie")
                    break
    return out


class Model:
    def __init__(self):
        self.parts = {pk: Part() for pk in PARTITIONS}
        self.unknown = []           # sorted (lo, hi) windows of unknown times
        self.maybe_kept_parts = set()
        self.maybe_kept_rows = set()

    def note_time(self, tm):
        if not tm.known():
            bisect.insort(self.unknown, (tm.lo, tm.hi))
        return tm

    def inside_unknown(self, t):
        i = bisect.bisect_right(self.unknown, (t, 1 << 62))
        return i > 0 and self.unknown[i - 1][1] >= t - 2 or (
            i < len(self.unknown) and self.unknown[i][0] <= t + 2)

    # The state of things at a check window.
    def tombs_for(self, pk, ck):
        part = self.parts[pk]
        row = part.rows.get(ck)
        return part.tombs + (row.tombs if row else [])

    def cell(self, pk, ck, col, window, stats):
        part = self.parts[pk]
        if col == STATIC:
            return cell_outcome(part.static, part.tombs, window, stats)
        row = part.rows.get(ck)
        return cell_outcome(row.cells[col] if row else [], self.tombs_for(pk, ck), window, stats)

    def row_alive(self, pk, ck, window, stats):
        row = self.parts[pk].rows.get(ck)
        if row is None:
            return False
        tombs = self.tombs_for(pk, ck)
        parts = []
        for m in possible_winners(row.markers, marker_supersedes):
            parts.append(and3(alive_at(m.exp, window), not3(shadowed(m.wt, tombs))))
        # Several possible winners (an undecided order) must agree.
        states = [parts[0] if all(p == parts[0] for p in parts) else None] if parts else []
        for col in REGULAR:
            states.append(cell_outcome(row.cells[col], tombs, window, stats).alive())
        return or3(states)

    def part_alive(self, pk, window, stats):
        states = [self.cell(pk, None, STATIC, window, stats).alive()]
        states += [self.row_alive(pk, ck, window, stats) for ck in self.parts[pk].rows]
        return or3(states)

    def rows_in_order(self, pk):
        return sorted(self.parts[pk].rows, key=cluster_order)


# --- listings against the model -----------------------------------------------

def check_listing(actual, expected, limit=None):
    """expected: [(name, True|False|None)] in order. Returns an error or None."""
    order = {name: i for i, (name, state) in enumerate(expected)}
    certain = [name for name, state in expected if state is True]
    if len(set(actual)) != len(actual):
        return "names repeat"
    for name in actual:
        if name not in order or expected[order[name]][1] is False:
            return "{!r} is listed but should not be".format(name)
    if [order[n] for n in actual] != sorted(order[n] for n in actual):
        return "the order is wrong"
    if limit is not None and len(actual) > limit:
        return "more than @limit={} names".format(limit)
    last = order[actual[-1]] if actual else -1
    full = limit is not None and len(actual) == limit
    for name in certain:
        if name not in actual and (not full or order[name] < last):
            return "{!r} is missing".format(name)
    return None


def describe_expected(expected):
    return [n if s is True else n + "?" for n, s in expected if s is not False]


# --- CSV (the fields' quoting tells null from the empty string) ----------------

def parse_csv_line(line):
    fields, i, n = [], 0, len(line)
    while True:
        if i < n and line[i] == '"':
            i += 1
            text = []
            while True:
                if i >= n:
                    raise ValueError("unterminated quote")
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        text.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                text.append(line[i])
                i += 1
            fields.append((True, "".join(text)))
        else:
            j = line.find(",", i)
            j = n if j < 0 else j
            fields.append((False, line[i:j]))
            i = j
        if i >= n:
            return fields
        if line[i] != ",":
            raise ValueError("text after a closing quote")
        i += 1


# --- the driver -----------------------------------------------------------------

class Driver:
    def __init__(self, mount, seed, steps, margin, stats):
        self.seed, self.steps, self.margin, self.stats = seed, steps, margin, stats
        self.rng = random.Random(seed)
        self.table = "s{}".format(seed).replace("-", "n")
        self.root = os.path.join(mount, KEYSPACE, self.table)
        self.mount = mount
        self.model = Model()
        self.log = []
        self.step_no = 0
        self.sleep_budget = 0.06 * steps

    # --- plumbing -------------------------------------------------------------
    def path(self, *names):
        return os.path.join(self.root, *names)

    def shell(self, *names):
        return '"$T"/' + shlex.quote("/".join(names))

    def note(self, text):
        self.log.append("[{}] {}".format(self.step_no, text))

    def fail(self, what, expected, actual):
        raise Mismatch("{}\n  expected: {}\n  actual:   {}".format(what, expected, actual))

    def check(self, ok, what, expected, actual):
        self.stats.checks += 1
        if not ok:
            self.fail(what, expected, actual)

    def window(self, t0, t1):
        slack = int(self.margin * 1_000_000)
        return Tm(t0 - slack, t1 + slack)

    @staticmethod
    def call(fn, *args):
        """(result, errno or 0, window) of one syscall."""
        t0 = now_us()
        try:
            result, err = fn(*args), 0
        except OSError as e:
            result, err = None, e.errno
        return result, err, Tm(t0, now_us())

    @staticmethod
    def write_file(path, data):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)

    @staticmethod
    def read_file(path):
        with open(path, "rb") as f:
            return f.read()

    def writetime_of(self, path):
        try:
            return int(os.getxattr(path, "user.cellfs.writetime"))
        except OSError:
            return None

    def learn_time(self, path, window, others):
        """The write time of a server-time write just made to the cell at
        `path`: exact when user.cellfs.writetime shows it, else the window."""
        wt = self.writetime_of(path)
        if wt is None or any(o.wt.known() and o.wt.lo == wt for o in others):
            self.stats.event("server write times not learned")
            return self.model.note_time(window)
        self.check(window.lo <= wt <= window.hi, "writetime of a server-time write",
                   "within the write's wall-clock window {}".format(window), wt)
        return Tm(wt)

    def err_name(self, err):
        return errno.errorcode.get(err, str(err)) if err else "ok"

    def expect_errno(self, what, err, allowed):
        self.check(err in allowed, what, " or ".join(self.err_name(e) for e in allowed),
                   self.err_name(err))

    # --- random choices ---------------------------------------------------------
    def pick_pk(self):
        return self.rng.choice(PARTITIONS)

    def pick_ck(self):
        return (self.rng.choice(C1_VALUES), self.rng.choice(C2_VALUES))

    def value_for(self, col):
        kind = COLUMN_TYPE[col]
        if kind == "int":
            return self.rng.choice([-3, -1, 0, 1, 2, 7, 2147483647, -2147483648])
        if kind == "bigint":
            return self.rng.choice([-2, 0, 1, 5, 1 << 40, -(1 << 63), (1 << 63) - 1])
        return "".join(self.rng.choice("abzA, \"é%@") for _ in range(self.rng.randint(0, 4)))

    def explicit_ts(self, near):
        """A USING TIMESTAMP value: a tie with or a neighbour of a known write
        time in `near`, or around now; never inside an unknown window."""
        known = [t.lo for t in near if t.known()]
        edges = [e for t in near if not t.known() for e in (t.lo - 1, t.hi + 1)]
        for _ in range(20):
            r = self.rng.random()
            if known and r < 0.3:
                t = self.rng.choice(known) + self.rng.choice([0, 0, -1, 1])
            elif edges and r < 0.45:
                t = self.rng.choice(edges) + self.rng.choice([0, -1, 1]) * self.rng.randint(0, 40)
            elif r < 0.8:
                t = now_us() - self.rng.randint(1, 3_000_000)
            else:
                t = now_us() + self.rng.randint(1, 1_500_000)
            if not self.model.inside_unknown(t):
                return t
        return now_us() - 10_000_000 - self.rng.randint(0, 1000)

    def suffixes(self, ttl=None, ts=None):
        parts = []
        if ttl is not None:
            parts.append("@ttl={}".format(ttl))
        if ts is not None:
            parts.append("@timestamp={}".format(ts))
        if len(parts) == 2 and self.rng.random() < 0.5:
            parts.reverse()
        return "".join(parts)

    def times_near_cell(self, pk, ck, col):
        part = self.model.parts[pk]
        if col == STATIC:
            return [v.wt for v in part.static] + part.tombs
        row = part.rows.get(ck)
        if row is None:
            return list(part.tombs)
        return [v.wt for v in row.cells[col]] + row.tombs + part.tombs

    def times_near_row(self, pk, ck):
        part = self.model.parts[pk]
        row = part.rows.get(ck)
        if row is None:
            return list(part.tombs)
        return [m.wt for m in row.markers] + row.tombs + part.tombs

    # --- directories --------------------------------------------------------------
    def mkdir_partition(self, pk):
        """mkdir P, as mkdir -p does: EEXIST is fine when P lives or is kept."""
        path = self.path(escape(pk))
        t0 = now_us()
        _, err, _ = self.call(os.mkdir, path)
        live = self.model.part_alive(pk, self.window(t0, now_us()), self.stats)
        self.note("mkdir {} -> {}".format(self.shell(escape(pk)), self.err_name(err)))
        if err == 0:
            self.model.maybe_kept_parts.add(pk)
            self.check(live is not True, "mkdir of a live partition",
                       "EEXIST", "ok ({})".format(self.shell(escape(pk))))
        else:
            kept = pk in self.model.maybe_kept_parts
            allowed = [errno.EEXIST] if live is not False or kept else []
            self.expect_errno("mkdir {}".format(self.shell(escape(pk))), err, allowed or [0])
        return err

    def mkdir_row(self, pk, ck, ttl=None, ts=None):
        """mkdir P/CK[@ttl=N][@timestamp=T]: a row marker, unless the row
        already shows (live, or kept by the daemon) and mkdir says EEXIST."""
        name = row_name(ck) + self.suffixes(ttl, ts)
        path = self.path(escape(pk), name)
        t0 = now_us()
        _, err, w = self.call(os.mkdir, path)
        live = self.model.row_alive(pk, ck, self.window(t0, now_us()), self.stats)
        self.note("mkdir {} -> {}".format(self.shell(escape(pk), name), self.err_name(err)))
        if err == 0:
            self.check(live is not True, "mkdir of a live row", "EEXIST",
                       "ok ({})".format(self.shell(escape(pk), name)))
            wt = Tm(ts) if ts is not None else self.model.note_time(w)
            self.model.parts[pk].row(ck).markers.append(
                Marker(wt, ttl or 0, expiry_of(ttl or 0, w)))
            self.stats.event("row markers")
        else:
            kept = (pk, ck) in self.model.maybe_kept_rows
            allowed = [errno.EEXIST] if live is not False or kept else []
            self.expect_errno("mkdir {}".format(self.shell(escape(pk), name)), err,
                              allowed or [0])
            if live is False:
                self.stats.event("mkdir EEXIST on a dead but kept row")
        return err

    def ensure_row(self, pk, ck):
        self.mkdir_partition(pk)
        return self.mkdir_row(pk, ck)

    # --- operations -------------------------------------------------------------------
    def op_write_cell(self, static=False, ttl=None, ts=None, mkdir=True):
        pk = self.pick_pk()
        ck = None if static else self.pick_ck()
        col = STATIC if static else self.rng.choice(REGULAR)
        if ts == "pick":
            ts = self.explicit_ts(self.times_near_cell(pk, ck, col))
        return self.write_cell(pk, ck, col, ttl, ts, mkdir)

    def write_cell(self, pk, ck, col, ttl, ts, mkdir, value=None):
        static = col == STATIC
        if mkdir:
            self.mkdir_partition(pk) if static else self.ensure_row(pk, ck)
        if value is None:
            value = self.value_for(col)
        text = file_text(col, value)
        if COLUMN_TYPE[col] == "text" and value and self.rng.random() < 0.3:
            text = value  # no newline: the same value
        dirs = [escape(pk)] if static else [escape(pk), row_name(ck)]
        name = col + self.suffixes(ttl, ts)
        path = self.path(*dirs, name)
        t0 = now_us()
        _, err, w = self.call(self.write_file, path, text.encode())
        self.note("{} > {} -> {}".format(printf_of(text), self.shell(*dirs, name),
                                         self.err_name(err)))
        if err:
            # Only a directory that does not show may refuse the write.
            # (After `rm col@timestamp=T`, `echo v > col` once failed with
            # ENOENT for entry_timeout: the kernel kept the plain name's
            # dentry. The daemon now invalidates it.)
            win = self.window(t0, now_us())
            alive = (self.model.part_alive(pk, win, self.stats) if static
                     else self.model.row_alive(pk, ck, win, self.stats))
            hint = ""
            if any(line.endswith("-> ok") and "/{}@timestamp=".format(col) in line
                   and self.shell(*dirs) in line for line in self.log):
                hint = " (this cell was deleted through {}@timestamp=: its plain name's " \
                       "entry must have been invalidated)".format(col)
            self.check(err == errno.ENOENT and alive is not True and not mkdir,
                       "write {}{}".format(self.shell(*dirs, name), hint), "ok",
                       self.err_name(err))
            return pk, ck
        others = (self.model.parts[pk].static if static
                  else self.model.parts[pk].row(ck).cells[col])
        wt = Tm(ts) if ts is not None else self.learn_time(self.path(*dirs, col), w, others)
        others.append(Version(wt, False, value, col, ttl or 0, expiry_of(ttl or 0, w)))
        self.stats.event("cell writes")
        return pk, ck

    def op_rm_cell(self, static=False, ts=None):
        pk = self.pick_pk()
        ck = None if static else self.pick_ck()
        col = STATIC if static else self.rng.choice(REGULAR)
        if ts == "pick":
            ts = self.explicit_ts(self.times_near_cell(pk, ck, col))
        dirs = [escape(pk)] if static else [escape(pk), row_name(ck)]
        name = col + self.suffixes(None, ts)
        self.unlink_cell(pk, ck, col, dirs, name, ts)
        return pk, ck

    def unlink_cell(self, pk, ck, col, dirs, name, ts=None):
        t0 = now_us()
        _, err, w = self.call(os.unlink, self.path(*dirs, name))
        self.note("rm {} -> {}".format(self.shell(*dirs, name), self.err_name(err)))
        out = self.model.cell(pk, ck, col, self.window(t0, now_us()), self.stats)
        if err:
            self.expect_errno("rm {}".format(self.shell(*dirs, name)), err,
                              [errno.ENOENT] if out.alive() is not True else [0])
            return err
        # A plain name the kernel still caches may reach the daemon for a dead
        # cell: the tombstone is written all the same, so it counts.
        if ts is not None:
            self.check(out.alive() is not False, "rm of a dead cell by a suffixed name",
                       "ENOENT", "ok")
        versions = (self.model.parts[pk].static if col == STATIC
                    else self.model.parts[pk].row(ck).cells[col])
        wt = Tm(ts) if ts is not None else self.model.note_time(w)
        versions.append(Version(wt, True))
        self.stats.event("cell tombstones")
        if col != STATIC:
            self.model.maybe_kept_rows.add((pk, ck))
        self.model.maybe_kept_parts.add(pk)
        return 0

    def rm_r_row(self, pk, ck):
        """rm -r P/CK: unlink every listed cell, then rmdir (a row tombstone).
        Returns whether the row is gone."""
        dirs = [escape(pk), row_name(ck)]
        names, err, _ = self.call(os.listdir, self.path(*dirs))
        if err:
            self.note("rm -r {} -> {} (listing)".format(self.shell(*dirs), self.err_name(err)))
            return True
        for name in names:
            self.unlink_cell(pk, ck, name, dirs, name)
        t0 = now_us()
        _, err, w = self.call(os.rmdir, self.path(*dirs))
        self.note("rmdir {} -> {}".format(self.shell(*dirs), self.err_name(err)))
        win = self.window(t0, now_us())
        row = self.model.parts[pk].rows.get(ck)
        tombs = self.model.tombs_for(pk, ck)
        has_cells = or3(cell_outcome(row.cells[c], tombs, win, self.stats).alive()
                        for c in REGULAR) if row else False
        if err == 0:
            self.check(has_cells is not True, "rmdir of a row with live cells", "ENOTEMPTY",
                       "ok ({})".format(self.shell(*dirs)))
            self.model.parts[pk].row(ck).tombs.append(self.model.note_time(w))
            self.stats.event("row tombstones")
            self.model.maybe_kept_rows.discard((pk, ck))
            self.model.maybe_kept_parts.add(pk)
            return True
        allowed = []
        if has_cells is not False:
            allowed.append(errno.ENOTEMPTY)
        if self.model.row_alive(pk, ck, win, self.stats) is not True:
            allowed.append(errno.ENOENT)
        self.expect_errno("rmdir {}".format(self.shell(*dirs)), err, allowed or [0])
        if err == errno.ENOTEMPTY:
            self.stats.event("rmdir ENOTEMPTY (a newer cell survived)")
        return err != errno.ENOTEMPTY

    def op_rm_row(self):
        pk, ck = self.pick_pk(), self.pick_ck()
        self.note("rm -r {}".format(self.shell(escape(pk), row_name(ck))))
        self.rm_r_row(pk, ck)
        return pk, ck

    def op_rm_partition(self):
        pk = self.pick_pk()
        self.note("rm -r {}".format(self.shell(escape(pk))))
        names, err, _ = self.call(os.listdir, self.path(escape(pk)))
        if err:
            self.note("  listing -> {}".format(self.err_name(err)))
            return pk, None
        emptied = True
        for name in names:
            if name == STATIC:
                self.unlink_cell(pk, None, STATIC, [escape(pk)], STATIC)
                continue
            ck = self.ck_of_name(name)
            emptied = self.rm_r_row(pk, ck) and emptied
        t0 = now_us()
        _, err, w = self.call(os.rmdir, self.path(escape(pk)))
        self.note("rmdir {} -> {}".format(self.shell(escape(pk)), self.err_name(err)))
        win = self.window(t0, now_us())
        alive = self.model.part_alive(pk, win, self.stats)
        if err == 0:
            self.check(alive is not True, "rmdir of a partition with live rows or statics",
                       "ENOTEMPTY", "ok")
            self.model.parts[pk].tombs.append(self.model.note_time(w))
            self.stats.event("partition tombstones")
            self.model.maybe_kept_parts.discard(pk)
        else:
            allowed = [errno.ENOTEMPTY] if alive is not False else []
            if alive is not True:
                allowed.append(errno.ENOENT)
            self.expect_errno("rmdir {}".format(self.shell(escape(pk))), err, allowed)
        return pk, None

    def ck_of_name(self, name):
        for ck in ((a, b) for a in C1_VALUES for b in C2_VALUES):
            if row_name(ck) == name:
                return ck
        self.fail("a listed row name", "one of the model's rows", repr(name))

    def op_mkdir(self):
        pk, ck = self.pick_pk(), self.pick_ck()
        r = self.rng.random()
        ttl = self.rng.randint(1, 3) if r < 0.4 else None
        ts = self.explicit_ts(self.times_near_row(pk, ck)) if 0.25 < r < 0.55 else None
        self.mkdir_partition(pk)
        self.mkdir_row(pk, ck, ttl, ts)
        return pk, ck

    def op_row_json(self):
        pk, ck = self.pick_pk(), self.pick_ck()
        cols = [c for c in [STATIC] + REGULAR if self.rng.random() < 0.45]
        obj = {}
        if self.rng.random() < 0.3:
            obj.update({"c1": ck[0], "c2": ck[1]})
        if self.rng.random() < 0.2:
            obj["p"] = pk
        for col in cols:
            obj[col] = None if self.rng.random() < 0.3 else self.value_for(col)
        items = list(obj.items())
        self.rng.shuffle(items)
        text = json.dumps(dict(items), ensure_ascii=self.rng.random() < 0.5)
        dirs = [escape(pk), row_name(ck)]
        t0 = now_us()

        def write():
            fd = os.open(self.path(*dirs, "@json"), os.O_WRONLY | os.O_TRUNC)
            try:
                os.write(fd, text.encode())
            finally:
                os.close(fd)
        _, err, w = self.call(write)
        self.note("{} > {} -> {}".format(printf_of(text), self.shell(*dirs, "@json"),
                                         self.err_name(err)))
        if err:
            live = self.model.row_alive(pk, ck, self.window(t0, now_us()), self.stats)
            self.expect_errno("write {}".format(self.shell(*dirs, "@json")), err,
                              [errno.ENOENT] if live is not True else [0])
            return pk, ck
        if not cols:
            return pk, ck
        part = self.model.parts[pk]
        wt = None
        for col in cols:  # one write time for the whole object
            if obj[col] is not None:
                static = col == STATIC
                others = part.static if static else part.row(ck).cells[col]
                where = dirs[:1] if static else dirs
                wt = self.learn_time(self.path(*where, col), w, others)
                break
        if wt is None:
            wt = self.model.note_time(w)
        for col in cols:
            versions = part.static if col == STATIC else part.row(ck).cells[col]
            if obj[col] is None:
                versions.append(Version(wt, True))
            else:
                versions.append(Version(wt, False, obj[col], col))
        return pk, ck

    def op_set_ttl(self):
        """setfattr -n user.cellfs.ttl (or -x): rewrite the cell's value."""
        pk = self.pick_pk()
        static = self.rng.random() < 0.2
        ck = None if static else self.pick_ck()
        col = STATIC if static else self.rng.choice(REGULAR)
        dirs = [escape(pk)] if static else [escape(pk), row_name(ck)]
        path = self.path(*dirs, col)
        ttl = self.rng.choice([0, 1, 2, 3])
        t0 = now_us()
        if ttl and self.rng.random() < 0.8:
            _, err, w = self.call(os.setxattr, path, "user.cellfs.ttl", str(ttl).encode())
            self.note("setfattr -n user.cellfs.ttl -v {} {} -> {}".format(
                ttl, self.shell(*dirs, col), self.err_name(err)))
        else:
            if ttl:
                ttl = 0
            _, err, w = self.call(os.removexattr, path, "user.cellfs.ttl")
            self.note("setfattr -x user.cellfs.ttl {} -> {}".format(self.shell(*dirs, col),
                                                                    self.err_name(err)))
        out = self.model.cell(pk, ck, col, self.window(t0, now_us()), self.stats)
        if err:
            allowed = [errno.ENOENT] if out.alive() is not True else []
            self.expect_errno("rewrite the TTL of {}".format(self.shell(*dirs, col)), err,
                              allowed or [0])
            return pk, ck
        self.check(out.alive() is not False, "rewrite the TTL of a dead cell", "ENOENT", "ok")
        versions = (self.model.parts[pk].static if static
                    else self.model.parts[pk].row(ck).cells[col])
        value = out.live[0].value
        if len({repr(v.value) for v in out.live}) != 1:
            # The model cannot tell which value was rewritten (an undecided
            # order, very rare): the cell shows it, at a time in the window.
            data, _, _ = self.call(self.read_file, path)
            wt = self.writetime_of(path)
            seen = [v.value for v in out.live if data == file_text(col, v.value).encode()]
            self.check(bool(seen) and wt is not None and w.lo <= wt <= w.hi,
                       "the rewritten value of {}".format(self.shell(*dirs, col)),
                       out.describe(), "{!r} at {}".format(data, wt))
            value = seen[0]
        wt = self.learn_time(path, w, versions)
        versions.append(Version(wt, False, value, col, ttl, expiry_of(ttl, w)))
        return pk, ck

    def op_tie(self):
        """A write that ties on write time with a known one: a cell value, a
        TTL'd value or a marker with the same @timestamp=, to exercise the
        tie rules (deletion > expiring > live, then the greater value in
        unsigned bytes, then the later expiry; for markers expiring first)."""
        win = self.window(now_us(), now_us())
        cells, markers = [], []
        for pk, part in self.model.parts.items():
            cells += [(pk, None, STATIC, v) for v in possible_winners(part.static, supersedes)]
            for ck, row in part.rows.items():
                for col in REGULAR:
                    cells += [(pk, ck, col, v)
                              for v in possible_winners(row.cells[col], supersedes)]
                if self.model.row_alive(pk, ck, win, self.stats) is False:
                    markers += [(pk, ck, m) for m in row.markers if m.wt.known()]
        cells = [c for c in cells if c[3].wt.known()]
        ttl = self.rng.choice([None, None, 1, 2, 3])
        if markers and (self.rng.random() < 0.3 or not cells):
            pk, ck, m = self.rng.choice(markers)
            self.stats.event("marker ties")
            self.mkdir_partition(pk)
            self.mkdir_row(pk, ck, None if m.ttl else ttl or 1, m.wt.lo)
            return pk, ck
        if not cells:
            return self.op_write_cell(ts="pick")
        pk, ck, col, v = self.rng.choice(cells)
        self.stats.event("cell ties")
        if not v.dead and self.rng.random() < 0.25:
            dirs = [escape(pk)] if col == STATIC else [escape(pk), row_name(ck)]
            self.unlink_cell(pk, ck, col, dirs, col + self.suffixes(None, v.wt.lo), v.wt.lo)
            return pk, ck
        same = None
        if not v.dead and self.rng.random() < (0.6 if v.ttl else 0.3):
            same = v.value  # down to the expiry and TTL tie-breakers
            if v.ttl:
                ttl = self.rng.choice([1, 2, 3])
        return self.write_cell(pk, ck, col, ttl, v.wt.lo, mkdir=True, value=same)

    def op_marker_tie(self):
        """mkdir ROW@timestamp=T@ttl=1 on a dead row, wait for the marker to
        expire, then mkdir ROW@timestamp=T again: a tie of markers, which the
        expiring one wins (the row stays dead) unless the new one expires
        later (then the row lives until it does)."""
        win = self.window(now_us(), now_us())
        dead = [(pk, ck) for pk in PARTITIONS for ck in
                ((a, b) for a in C1_VALUES for b in C2_VALUES)
                if self.model.row_alive(pk, ck, win, self.stats) is False]
        if not dead or self.sleep_budget < 2.5:
            return self.op_tie()
        pk, ck = self.rng.choice(dead)
        ts = now_us() - 1  # newer than every tombstone, older than the writes to come
        self.mkdir_partition(pk)
        if self.mkdir_row(pk, ck, 1, ts) != 0:
            return pk, ck
        marker = self.model.parts[pk].rows[ck].markers[-1]
        pause = max(0.0, (marker.exp[1] * 1_000_000 - now_us()) / 1e6 + self.margin + 0.05)
        self.sleep_budget -= pause
        self.note("sleep {:.2f}".format(pause))
        time.sleep(pause)
        self.stats.event("marker ties")
        self.mkdir_row(pk, ck, self.rng.choice([None, 3]), ts)
        return pk, ck

    def op_rm_rewrite(self):
        """Delete a live cell and write it again at once, as a script that
        replaces a value does: rm col (or col@timestamp=T), then echo > col."""
        win = self.window(now_us(), now_us())
        live = []
        for pk in PARTITIONS:
            if self.model.cell(pk, None, STATIC, win, self.stats).alive():
                live.append((pk, None, STATIC))
            for ck in self.model.rows_in_order(pk):
                live += [(pk, ck, col) for col in REGULAR
                         if self.model.cell(pk, ck, col, win, self.stats).alive()]
        if not live:
            return self.op_write_cell()
        pk, ck, col = self.rng.choice(live)
        ts = None
        if self.rng.random() < 0.7:
            near = self.times_near_cell(pk, ck, col)
            winners = [v.wt.lo for v in self.all_versions(pk, ck, col) if v.wt.known()]
            ts = max(winners) if winners and self.rng.random() < 0.5 else self.explicit_ts(near)
        dirs = [escape(pk)] if col == STATIC else [escape(pk), row_name(ck)]
        self.unlink_cell(pk, ck, col, dirs, col + self.suffixes(None, ts), ts)
        self.stats.event("deletes and rewrites")
        return self.write_cell(pk, ck, col, None, None, mkdir=True)

    def op_sleep(self):
        s = round(self.rng.uniform(0.3, 1.5), 2)
        s = min(s, max(self.sleep_budget, 0))
        self.sleep_budget -= s
        self.note("sleep {}".format(s))
        time.sleep(s)
        return self.pick_pk(), None

    OPS = [  # (weight, name)
        (16, "write"), (7, "write_ttl"), (8, "write_ts"), (3, "write_ttl_ts"),
        (3, "write_nomkdir"), (5, "static"), (2, "static_ttl"), (2, "static_ts"),
        (7, "mkdir"), (6, "rm"), (4, "rm_ts"), (2, "rm_static"), (5, "rm_row"),
        (2, "rm_partition"), (7, "json"), (3, "set_ttl"), (6, "tie"), (2, "marker_tie"), (3, "rm_rewrite"),
        (5, "sleep"),
    ]

    def run_op(self, name):
        rng = self.rng
        if name == "write":
            return self.op_write_cell()
        if name == "write_ttl":
            return self.op_write_cell(ttl=rng.randint(1, 3))
        if name == "write_ts":
            return self.op_write_cell(ts="pick")
        if name == "write_ttl_ts":
            return self.op_write_cell(ttl=rng.choice([1, 2, 3, 0]), ts="pick")
        if name == "write_nomkdir":
            return self.op_write_cell(mkdir=False, ttl=rng.choice([None, 2]))
        if name == "static":
            return self.op_write_cell(static=True)
        if name == "static_ttl":
            return self.op_write_cell(static=True, ttl=rng.randint(1, 3))
        if name == "static_ts":
            return self.op_write_cell(static=True, ts="pick")
        if name == "mkdir":
            return self.op_mkdir()
        if name == "rm":
            return self.op_rm_cell()
        if name == "rm_ts":
            return self.op_rm_cell(ts="pick")
        if name == "rm_static":
            return self.op_rm_cell(static=True, ts="pick" if rng.random() < 0.4 else None)
        if name == "rm_row":
            return self.op_rm_row()
        if name == "rm_partition":
            return self.op_rm_partition()
        if name == "json":
            return self.op_row_json()
        if name == "set_ttl":
            return self.op_set_ttl()
        if name == "tie":
            return self.op_tie()
        if name == "marker_tie":
            return self.op_marker_tie()
        if name == "rm_rewrite":
            return self.op_rm_rewrite()
        return self.op_sleep()

    # --- checks ---------------------------------------------------------------------
    def check_partition(self, pk):
        names, err, w = self.call(os.listdir, self.path(escape(pk)))
        win = self.window(w.lo, w.hi)
        expected = [(STATIC, self.model.cell(pk, None, STATIC, win, self.stats).alive())]
        expected += [(row_name(ck), self.model.row_alive(pk, ck, win, self.stats))
                     for ck in self.model.rows_in_order(pk)]
        if err == errno.ENOENT:
            names = []
        elif err:
            self.fail("ls -U {}".format(self.shell(escape(pk))), "a listing", self.err_name(err))
        self.count_uncertain(expected)
        problem = check_listing(names, expected)
        self.check(problem is None, "ls -U {}: {}".format(self.shell(escape(pk)), problem),
                   describe_expected(expected), names)

    def count_uncertain(self, expected):
        if any(state is None for _, state in expected):
            self.stats.uncertain += 1

    def check_row(self, pk, ck):
        dirs = [escape(pk), row_name(ck)]
        names, err, w = self.call(os.listdir, self.path(*dirs))
        win = self.window(w.lo, w.hi)
        outcomes = {c: self.model.cell(pk, ck, c, win, self.stats) for c in REGULAR}
        expected = [(c, outcomes[c].alive()) for c in REGULAR]
        if err == errno.ENOENT:
            names = []
        elif err:
            self.fail("ls -U {}".format(self.shell(*dirs)), "a listing", self.err_name(err))
        self.count_uncertain(expected)
        problem = check_listing(names, expected)
        self.check(problem is None, "ls -U {}: {}".format(self.shell(*dirs), problem),
                   describe_expected(expected), names)
        for col in REGULAR:
            self.check_cell(pk, ck, col, dirs)

    def check_cell(self, pk, ck, col, dirs):
        """cat, user.cellfs.writetime / .ttl and stat of one cell file."""
        path = self.path(*dirs, col)
        data, err, w = self.call(self.read_file, path)
        win = self.window(w.lo, w.hi)
        out = self.model.cell(pk, ck, col, win, self.stats)
        where = "cat {}".format(self.shell(*dirs, col))
        if not out.certain():
            self.stats.uncertain += 1
        if err:
            self.check(err == errno.ENOENT and out.dead, where, out.describe(), self.err_name(err))
            if any(v.ttl for v in self.all_versions(pk, ck, col)):
                self.stats.event("TTL'd cells read as gone")
            return
        matches = [v for v in out.live if data == file_text(col, v.value).encode()]
        self.check(bool(matches), where, out.describe(), repr(data))
        t0 = now_us()
        wt = self.writetime_of(path)
        ttl_text, ttl_err, _ = self.call(os.getxattr, path, "user.cellfs.ttl")
        st, st_err, _ = self.call(os.stat, path)
        t1 = now_us()
        if wt is None or ttl_err not in (0, errno.ENODATA) or st_err:
            # The cell died between the reads: only an expiry may do that.
            after = self.model.cell(pk, ck, col, self.window(w.lo, t1), self.stats)
            self.check(after.dead, where + " (xattrs)", "still " + after.describe(),
                       "gone: writetime {}, ttl {}, stat {}".format(
                           wt, self.err_name(ttl_err), self.err_name(st_err)))
            return
        ok_wt = [v for v in matches if v.wt.lo <= wt <= v.wt.hi]
        self.check(bool(ok_wt), where + ": user.cellfs.writetime",
                   " | ".join(str(v.wt) for v in matches), wt)
        v = ok_wt[0]
        if v.ttl:
            lo_s, hi_s = t0 // 1_000_000, t1 // 1_000_000
            allowed = {max(e - s, 0) for e in range(v.exp[0], v.exp[1] + 1)
                       for s in range(lo_s, hi_s + 1)}
            got = int(ttl_text) if ttl_text is not None else None
            self.check(got in allowed, where + ": user.cellfs.ttl", sorted(allowed), got)
        else:
            self.check(ttl_err == errno.ENODATA, where + ": user.cellfs.ttl", "no attribute",
                       ttl_text)
        self.check(st.st_size == len(data) and st.st_mtime_ns == wt * 1000,
                   where + ": stat size and mtime",
                   "size {} mtime {}".format(len(data), wt * 1000),
                   "size {} mtime {}".format(st.st_size, st.st_mtime_ns))

    def all_versions(self, pk, ck, col):
        part = self.model.parts[pk]
        if col == STATIC:
            return part.static
        return part.rows[ck].cells[col] if ck in part.rows else []

    def check_static(self, pk):
        path_dirs = [escape(pk)]
        data, err, w = self.call(self.read_file, self.path(*path_dirs, STATIC))
        out = self.model.cell(pk, None, STATIC, self.window(w.lo, w.hi), self.stats)
        where = "cat {}".format(self.shell(*path_dirs, STATIC))
        if err:
            self.check(err == errno.ENOENT and out.dead, where, out.describe(), self.err_name(err))
            return
        self.check(any(data == file_text(STATIC, v.value).encode() for v in out.live), where,
                   out.describe(), repr(data))

    def check_table(self):
        names, err, w = self.call(os.listdir, self.root)
        if err:
            self.fail("ls -U of the table", "a listing", self.err_name(err))
        win = self.window(w.lo, w.hi)
        order = sorted(PARTITIONS, key=lambda pk: (token_of(pk), pk.encode()))
        expected = [(escape(pk), self.model.part_alive(pk, win, self.stats)) for pk in order]
        self.count_uncertain(expected)
        problem = check_listing(names, expected)
        self.check(problem is None, "ls -U \"$T\": {}".format(problem),
                   describe_expected(expected), names)
        for pk in PARTITIONS:
            if escape(pk) in names:
                tok, err, _ = self.call(os.getxattr, self.path(escape(pk)), "user.cellfs.token")
                if not err:
                    self.check(int(tok) == token_of(pk), "user.cellfs.token of " + escape(pk),
                               token_of(pk), tok)

    def random_slice(self):
        """A nested slice path and its filter: (names, predicate, reverse, limit)."""
        segs, preds, reverse, limit = [], [], False, None
        for _ in range(self.rng.randint(1, 3)):
            r = self.rng.random()
            if r < 0.6:
                op = self.rng.choice(["ge", "gt", "le", "lt"])
                bound = [self.rng.choice(C1_VALUES + [0, 5, 11, -3])]
                if self.rng.random() < 0.5:
                    bound.append(self.rng.choice(C2_VALUES + ["A", "b", "Ba"]))
                name = "@{}={}".format(op, ",".join(
                    [str(bound[0])] + [escape(b) for b in bound[1:]]))
                segs.append(name)
                preds.append((op, tuple((b if i == 0 else b.encode())
                                        for i, b in enumerate(bound))))
            elif r < 0.8:
                n = self.rng.randint(1, 5)
                segs.append("@limit={}".format(n))
                limit = n if limit is None else min(limit, n)
            else:
                segs.append("@reverse")
                reverse = not reverse

        def keep(ck):
            key = (ck[0], ck[1].encode())
            for op, bound in preds:
                k = key[:len(bound)]
                if not {"ge": k >= bound, "gt": k > bound, "le": k <= bound,
                        "lt": k < bound}[op]:
                    return False
            return True
        return segs, keep, reverse, limit

    def check_slice(self):
        pk = self.pick_pk()
        segs, keep, reverse, limit = self.random_slice()
        dirs = [escape(pk)] + segs
        names, err, w = self.call(os.listdir, self.path(*dirs))
        win = self.window(w.lo, w.hi)
        rows = [ck for ck in self.model.rows_in_order(pk) if keep(ck)]
        if reverse:
            rows.reverse()
        expected = [(row_name(ck), self.model.row_alive(pk, ck, win, self.stats)) for ck in rows]
        if err == errno.ENOENT:
            # A partition that does not show has no slices either.
            alive = self.model.part_alive(pk, win, self.stats)
            self.check(alive is not True, "ls -U {}".format(self.shell(*dirs)), "a listing",
                       "ENOENT")
            return
        if err:
            self.fail("ls -U {}".format(self.shell(*dirs)), "a listing", self.err_name(err))
        self.count_uncertain(expected)
        problem = check_listing(names, expected, limit)
        self.check(problem is None, "ls -U {}: {}".format(self.shell(*dirs), problem),
                   describe_expected(expected), names)

    def row_object_ok(self, obj, pk, ck, win):
        """Whether a parsed @json/@csv row agrees with the model; ck None is
        the static-only row."""
        if list(obj) != JSON_ORDER:
            return "keys {} not {}".format(list(obj), JSON_ORDER)
        want = {"p": pk, "c1": ck[0] if ck else None, "c2": ck[1] if ck else None}
        for key, value in want.items():
            if obj[key] != value:
                return "{} is {!r}, not {!r}".format(key, obj[key], value)
        for col in [STATIC] + (REGULAR if ck else []):
            out = self.model.cell(pk, ck, col, win, self.stats)
            got = obj[col]
            if not ((got is None and out.dead) or any(got == v.value for v in out.live)):
                return "{} is {!r}, model: {}".format(col, got, out.describe())
        if not ck and any(obj[c] is not None for c in REGULAR):
            return "a static-only row with regular cells"
        return None

    def check_row_json(self):
        pk, ck = self.pick_pk(), self.pick_ck()
        dirs = [escape(pk), row_name(ck), "@json"]
        data, err, w = self.call(self.read_file, self.path(*dirs))
        win = self.window(w.lo, w.hi)
        alive = self.model.row_alive(pk, ck, win, self.stats)
        where = "cat {}".format(self.shell(*dirs))
        if err:
            self.check(err == errno.ENOENT and alive is not True, where, "a row",
                       self.err_name(err))
            return
        if data == b"":
            # A row the daemon keeps showing (docs/FILESYSTEM.md: a row whose
            # last cell was just removed) has nothing to print.
            self.check(alive is not True and (pk, ck) in self.model.maybe_kept_rows, where,
                       "the row as JSON" if alive else "ENOENT (no such row)", repr(data))
            return
        self.check(alive is not False, where, "ENOENT (no such row)", repr(data))
        try:
            obj = json.loads(data, object_pairs_hook=dict)
        except ValueError as e:
            self.fail(where, "one JSON object", "{!r} ({})".format(data, e))
        problem = self.row_object_ok(obj, pk, ck, win)
        self.check(problem is None, where + ": " + str(problem), "the model's row", repr(data))

    def check_export(self, kind):
        """A partition's @json (JSON Lines) or @csv against the model."""
        pk = self.pick_pk()
        dirs = [escape(pk), "@" + kind]
        data, err, w = self.call(self.read_file, self.path(*dirs))
        win = self.window(w.lo, w.hi)
        where = "cat {}".format(self.shell(*dirs))
        alive = self.model.part_alive(pk, win, self.stats)
        if err:
            self.check(err == errno.ENOENT and alive is not True, where, "an export",
                       self.err_name(err))
            return
        lines = data.decode().split("\n")
        self.check(lines[-1] == "", where, "text ending in a newline", repr(data[-40:]))
        lines = lines[:-1]
        if kind == "csv":
            self.check(lines[:1] == [",".join(JSON_ORDER)], where + ": header",
                       ",".join(JSON_ORDER), lines[:1])
            objs = [self.csv_object(line, where) for line in lines[1:]]
        else:
            objs = []
            for line in lines:
                try:
                    objs.append(json.loads(line, object_pairs_hook=dict))
                except ValueError as e:
                    self.fail(where, "JSON Lines", "{!r} ({})".format(line, e))
        order = self.model.rows_in_order(pk)
        expected = [(row_name(ck), self.model.row_alive(pk, ck, win, self.stats)) for ck in order]
        static_only = [o for o in objs if o.get("c1") is None and o.get("c2") is None]
        if static_only:
            self.check(len(objs) == 1 and not any(s for _, s in expected), where,
                       "a static-only line only when no row lives", repr(data))
            problem = self.row_object_ok(objs[0], pk, None, win)
            self.check(problem is None, where + ": " + str(problem), "the static row",
                       repr(data))
            self.check(self.model.cell(pk, None, STATIC, win, self.stats).alive() is not False,
                       where, "no static-only line (the static cell is dead)", repr(data))
            return
        names = []
        for obj in objs:
            ck = (obj.get("c1"), obj.get("c2"))
            if ck not in self.model.parts[pk].rows:
                self.fail(where, describe_expected(expected), repr(data))
            names.append(row_name(ck))
            problem = self.row_object_ok(obj, pk, ck, win)
            self.check(problem is None, where + ": " + str(problem), "the model's row",
                       repr(data))
        self.count_uncertain(expected)
        problem = check_listing(names, expected)
        self.check(problem is None, where + ": " + str(problem), describe_expected(expected),
                   names)
        if not objs:
            static = self.model.cell(pk, None, STATIC, win, self.stats).alive()
            self.check(static is not True, where, "a static-only line", repr(data))

    def csv_object(self, line, where):
        try:
            fields = parse_csv_line(line)
        except ValueError as e:
            self.fail(where, "CSV", "{!r} ({})".format(line, e))
        if len(fields) != len(JSON_ORDER):
            self.fail(where, "{} fields".format(len(JSON_ORDER)), repr(line))
        obj = {}
        for col, (quoted, text) in zip(JSON_ORDER, fields):
            kind = "text" if col in ("p", "c2") else COLUMN_TYPE.get(col, "int")
            if not quoted and text == "":
                obj[col] = None
            elif kind == "text":
                obj[col] = text
            else:
                try:
                    obj[col] = int(text)
                except ValueError:
                    self.fail(where, "an integer for " + col, repr(line))
        return obj

    # --- the run ------------------------------------------------------------------------
    def setup(self):
        try:
            os.mkdir(os.path.join(self.mount, KEYSPACE))
        except FileExistsError:
            pass
        stmt = ("CREATE TABLE {}.{} (p text, c1 int, c2 text, s text static, v1 text, "
                "v2 int, v3 bigint, PRIMARY KEY (p, c1, c2)) WITH CLUSTERING ORDER BY "
                "(c1 DESC, c2 ASC) AND gc_grace_seconds = 864000;").format(KEYSPACE, self.table)
        with open(os.path.join(self.mount, "@cql"), "w") as f:
            f.write(stmt)

    def run(self):
        self.setup()
        weights = [w for w, _ in self.OPS]
        names = [n for _, n in self.OPS]
        for self.step_no in range(1, self.steps + 1):
            # A generator per step: what a step does depends on its seed and
            # number only, not on how earlier steps' timing went.
            self.rng = random.Random("{}/{}".format(self.seed, self.step_no))
            name = self.rng.choices(names, weights)[0]
            if name == "sleep" and self.sleep_budget <= 0:
                name = "write"
            pk, ck = self.run_op(name)
            self.check_partition(pk)
            if ck is not None:
                self.check_row(pk, ck)
            else:
                self.check_static(pk)
            if self.step_no % 5 == 0:
                self.check_table()
                self.check_slice()
                self.check_row_json()
                self.check_export(self.rng.choice(["json", "csv"]))
        # A last look at everything.
        self.check_table()
        for pk in PARTITIONS:
            self.check_partition(pk)
            self.check_static(pk)
            for ck in self.model.rows_in_order(pk):
                self.check_row(pk, ck)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: model_driver.py MOUNTPOINT")
    mount = sys.argv[1]
    seeds = ([int(os.environ["CELLFS_MODEL_SEED"])] if os.environ.get("CELLFS_MODEL_SEED")
             else DEFAULT_SEEDS)
    steps = int(os.environ.get("CELLFS_MODEL_STEPS") or 150)
    margin = float(os.environ.get("CELLFS_MODEL_MARGIN") or 0.1)
    stats = Stats()
    failures = steps_run = 0
    start = time.monotonic()
    for seed in seeds:
        driver = Driver(mount, seed, steps, margin, stats)
        t0 = time.monotonic()
        try:
            driver.run()
            print("seed {}: {} steps ok ({:.1f} s)".format(seed, steps, time.monotonic() - t0))
        except Mismatch as e:
            failures += 1
            print("MISMATCH seed={} step={} (reproduce: CELLFS_MODEL_SEED={} CELLFS_MODEL_STEPS={})"
                  .format(seed, driver.step_no, seed, driver.step_no))
            print(e)
            print("  last operations (T=MOUNT/{}/{}):".format(KEYSPACE, driver.table))
            for line in driver.log[-20 if not os.environ.get("CELLFS_MODEL_FULL_LOG") else 0:]:
                print("    " + line)
        steps_run += driver.step_no
        sys.stdout.flush()
    print("mount model: {} seeds, {} steps, {} checks, {} mismatches "
          "({} checks allowed an undecidable expiry or order; {:.1f} s)".format(
              len(seeds), steps_run, stats.checks, failures, stats.uncertain,
              time.monotonic() - start))
    print("exercised: " + ", ".join("{} {}".format(n, k) for k, n in sorted(stats.events.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
