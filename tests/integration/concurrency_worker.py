#!/usr/bin/env python3
# The processes of tests/integration/concurrency.sh: writers, readers and a
# bulk loader that work the same partitions of a live mount at once, and the
# final check of what they were acknowledged. Python 3 standard library only.
"""Usage: concurrency_worker.py setup MOUNT
       concurrency_worker.py writer|bulk|reader ID MOUNT STATE_DIR SECONDS
       concurrency_worker.py verify MOUNT STATE_DIR SECONDS [LABEL]

Each writer and the bulk loader append one line per acknowledged row
creation to STATE_DIR/acks.ID (after the mkdir, @insert close or @json close
returned), which readers read before each listing: every row a listing must
show. At the end each worker writes STATE_DIR/result.ID (JSON): its counts
and what it was last acknowledged, which `verify` checks against the mount;
it prints the run's figures (LABEL "after remount": the check alone) and
exits 1 on any lost update, torn value, inconsistent listing or error.
"""

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time

KEYSPACE = "conc"
PARTITIONS = 3          # rows/0 .. rows/2: the partitions every writer shares
COUNTER_PARTITIONS = 2  # hits/0/n, hits/1/n
TORN_CELLS = ("torn/0/0/v", "torn/0/0/b", "torn/1/0/v")  # text, blob, text
INITIAL_COUNTER = 1
MAX_VALUE = 200 * 1024


def row_key(writer, seq):
    """A clustering key of the writer's own: int, ascending with seq."""
    return writer * 1_000_000 + seq


# ---- self-checking values ------------------------------------------------

def make_value(writer, seq, size, rng, binary):
    """b"wW:sS:pSIZE:" + SIZE bytes of payload + sha1 hex of all before it."""
    head = b"w%d:s%d:p%d:" % (writer, seq, size)
    if binary:
        payload = rng.randbytes(size)
    else:
        alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789 -_"
        payload = bytes(rng.choice(alphabet) for _ in range(min(size, 64)))
        payload = (payload * (size // max(len(payload), 1) + 1))[:size]
    body = head + payload
    return body + hashlib.sha1(body).hexdigest().encode()


def value_ok(data):
    """Whether DATA is one complete value of make_value (text read back
    with its added newline taken off by the caller)."""
    if len(data) < 41 or not data.startswith(b"w"):
        return False
    body, digest = data[:-40], data[-40:]
    return hashlib.sha1(body).hexdigest().encode() == digest


def torn_kind(data):
    """How a value that is not one complete value went wrong."""
    if not data:
        return "empty"
    head = re.match(rb"w\d+:s\d+:p(\d+):", data)
    if head:
        want = head.end() + int(head.group(1)) + 40
        if len(data) != want:
            return "%d bytes where its header says %d" % (len(data), want)
    return "mixed content"


def value_size(rng):
    """Log-uniform from 10 B to 200 KiB: mostly small, some many pages."""
    return int(10 * (MAX_VALUE / 10) ** rng.random())


# ---- file helpers ----------------------------------------------------------

def write_file(path, data, chunk=None):
    """open(O_WRONLY|O_TRUNC) + write(s) + close: raises OSError when the
    close (the store) fails, as a shell would report it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        step = chunk or len(data) or 1
        for at in range(0, len(data), step):
            piece = data[at:at + step]
            if os.write(fd, piece) != len(piece):
                raise OSError("short write to %s" % path)
    finally:
        os.close(fd)


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def text_of(data):
    """A text cell as read: one trailing newline is the file's, not the value's."""
    return data[:-1] if data.endswith(b"\n") else data


class Stats:
    def __init__(self, role, ident):
        self.role = role
        self.ident = ident
        self.writes = 0
        self.reads = 0
        self.listings = 0
        self.lost = 0
        self.torn = 0
        self.inconsistent = 0
        self.errors = []

    def error(self, what):
        if len(self.errors) < 20:
            self.errors.append(what)
            print("concurrency_worker %s %d: %s" % (self.role, self.ident, what),
                  file=sys.stderr, flush=True)

    def as_dict(self):
        return dict(role=self.role, id=self.ident, writes=self.writes, reads=self.reads,
                    listings=self.listings, lost=self.lost, torn=self.torn,
                    inconsistent=self.inconsistent, errors=self.errors)


class AckLog:
    """Appends acknowledged row creations "P C" to STATE_DIR/acks.ID."""

    def __init__(self, state_dir, ident):
        self.file = open(os.path.join(state_dir, "acks.%d" % ident), "a", buffering=1)

    def row(self, partition, key):
        self.file.write("%d %d\n" % (partition, key))


# ---- writers -----------------------------------------------------------------

class Writer:
    def __init__(self, ident, mount, state_dir):
        self.ident = ident
        self.root = os.path.join(mount, KEYSPACE)
        self.rng = random.Random(ident)
        self.stats = Stats("writer", ident)
        self.acks = AckLog(state_dir, ident)
        self.seq = 0
        self.cells = {}    # "rows/P/C/v" -> last acknowledged text
        self.own_rows = []
        self.counters = [0] * COUNTER_PARTITIONS  # acknowledged sums
        self.torn = {}     # torn cell -> last acknowledged value (hex of bytes)

    def path(self, relative):
        return os.path.join(self.root, relative)

    def attempt(self, what, action):
        try:
            action()
            self.stats.writes += 1
            return True
        except OSError as e:
            self.stats.error("%s: %s" % (what, e))
            return False

    def new_row(self):
        self.seq += 1
        partition = self.rng.randrange(PARTITIONS)
        key = row_key(self.ident, self.seq)
        row = "rows/%d/%d" % (partition, key)
        if not self.attempt("mkdir " + row, lambda: os.mkdir(self.path(row))):
            return
        self.acks.row(partition, key)
        self.own_rows.append(row)
        self.write_cell(row + "/v")

    def write_cell(self, cell):
        self.seq += 1
        text = "w%d-s%d-%08x" % (self.ident, self.seq, self.rng.getrandbits(32))
        if self.attempt("write " + cell, lambda: write_file(self.path(cell), text.encode())):
            self.cells[cell] = text
            if self.rng.random() < 0.3:  # read your own acknowledged write
                self.check_own(cell)

    def check_own(self, cell):
        try:
            got = text_of(read_file(self.path(cell))).decode()
            self.stats.reads += 1
        except OSError as e:
            self.stats.error("read back %s: %s" % (cell, e))
            return
        if got != self.cells[cell]:
            self.stats.lost += 1
            self.stats.error("read back %s: %r, acknowledged %r" % (cell, got, self.cells[cell]))

    def add_to_counter(self):
        partition = self.rng.randrange(COUNTER_PARTITIONS)
        delta = self.rng.randint(-50, 100)
        cell = "hits/%d/n" % partition
        if self.attempt("add to " + cell, lambda: write_file(self.path(cell), b"%d\n" % delta)):
            self.counters[partition] += delta

    def overwrite_torn(self):
        cell = self.rng.choice(TORN_CELLS)
        self.seq += 1
        value = make_value(self.ident, self.seq, value_size(self.rng), self.rng,
                           binary=cell.endswith("/b"))
        chunk = self.rng.choice([None, 4096, 65536])
        if self.attempt("write " + cell, lambda: write_file(self.path(cell), value, chunk)):
            self.torn[cell] = hashlib.sha1(value).hexdigest()

    def step(self):
        r = self.rng.random()
        if r < 0.25 or not self.own_rows:
            self.new_row()
        elif r < 0.45:
            self.write_cell(self.rng.choice(self.own_rows) + "/v")
        elif r < 0.70:
            self.add_to_counter()
        else:
            self.overwrite_torn()

    def run(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.step()
        return dict(self.stats.as_dict(), cells=self.cells, counters=self.counters,
                    torn_last=self.torn, rows=self.own_rows)


class BulkLoader(Writer):
    """@insert batches of new rows and @json writes of its own rows, while
    the writers write cells in the same partitions."""

    def __init__(self, ident, mount, state_dir):
        super().__init__(ident, mount, state_dir)
        self.stats.role = "bulk"
        self.bulk_rows = 0

    def insert_batch(self):
        lines, rows = [], []
        for _ in range(self.rng.randint(20, 200)):
            self.seq += 1
            partition = self.rng.randrange(PARTITIONS)
            key = row_key(self.ident, self.seq)
            text = "bulk-s%d-%08x" % (self.seq, self.rng.getrandbits(32))
            lines.append(json.dumps({"p": partition, "c": key, "v": text}))
            rows.append((partition, key, text))
        data = ("\n".join(lines) + "\n").encode()
        if not self.attempt("@insert of %d rows" % len(rows),
                            lambda: write_file(self.path("rows/@insert"), data, 8192)):
            return
        for partition, key, text in rows:
            self.acks.row(partition, key)
            row = "rows/%d/%d" % (partition, key)
            self.own_rows.append(row)
            self.cells[row + "/v"] = text
        self.bulk_rows += len(rows)

    def write_row_json(self):
        row = self.rng.choice(self.own_rows)
        self.seq += 1
        text = "json-s%d-%08x" % (self.seq, self.rng.getrandbits(32))
        body = json.dumps({"v": text}).encode()
        if self.attempt("write %s/@json" % row,
                        lambda: write_file(self.path(row + "/@json"), body)):
            self.cells[row + "/v"] = text
            if self.rng.random() < 0.3:
                self.check_own(row + "/v")

    def step(self):
        if not self.own_rows or self.rng.random() < 0.3:
            self.insert_batch()
            time.sleep(0.02)  # a mix, not a flood: the cell writers get their turns
        else:
            self.write_row_json()

    def run(self, seconds):
        result = super().run(seconds)
        result["bulk_rows"] = self.bulk_rows
        return result


# ---- readers ---------------------------------------------------------------

class Reader:
    def __init__(self, ident, mount, state_dir):
        self.ident = ident
        self.root = os.path.join(mount, KEYSPACE)
        self.state_dir = state_dir
        self.rng = random.Random(1000 + ident)
        self.stats = Stats("reader", ident)
        self.ack_offsets = {}
        self.acked = [set() for _ in range(PARTITIONS)]

    def refresh_acks(self):
        """Reads the complete lines the ack logs gained since last time."""
        for name in os.listdir(self.state_dir):
            if not name.startswith("acks."):
                continue
            path = os.path.join(self.state_dir, name)
            with open(path, "rb") as f:
                f.seek(self.ack_offsets.get(name, 0))
                data = f.read()
            end = data.rfind(b"\n") + 1  # a line still being written waits
            self.ack_offsets[name] = self.ack_offsets.get(name, 0) + end
            for line in data[:end].splitlines():
                partition, key = line.split()
                self.acked[int(partition)].add(int(key))

    def list_names(self, path):
        if self.rng.random() < 0.1:
            out = subprocess.run(["ls", "-U", "--", path], capture_output=True, timeout=60)
            if out.returncode != 0:
                raise OSError("ls -U %s: %s" % (path, out.stderr.decode(errors="replace").strip()))
            return out.stdout.decode().split()
        return os.listdir(path)

    def check_listing(self):
        partition = self.rng.randrange(PARTITIONS)
        path = os.path.join(self.root, "rows", str(partition))
        lower = None
        if self.rng.random() < 0.2:  # a slice: the same rules within its bound
            lower = row_key(self.rng.randrange(8), 0)
            path = os.path.join(path, "@ge=%d" % lower)
        self.refresh_acks()
        must = {k for k in self.acked[partition] if lower is None or k >= lower}
        try:
            names = self.list_names(path)
        except OSError as e:
            self.stats.error("listing %s: %s" % (path, e))
            return
        self.stats.listings += 1
        keys = [int(n) for n in names]
        problems = []
        if len(set(keys)) != len(keys):
            problems.append("%d duplicate names" % (len(keys) - len(set(keys))))
        if any(a >= b for a, b in zip(keys, keys[1:])):
            problems.append("not in clustering order")
        if lower is not None and any(k < lower for k in keys):
            problems.append("rows below the slice's bound")
        missing = must - set(keys)
        if missing:
            problems.append("%d acknowledged rows missing, e.g. %s" % (len(missing), sorted(missing)[:5]))
        if problems:
            self.stats.inconsistent += 1
            self.stats.error("listing of %s (%d names): %s" % (path, len(keys), "; ".join(problems)))

    def check_partition_json(self):
        """@json of a partition: one snapshot, rows in clustering order, once each."""
        partition = self.rng.randrange(PARTITIONS)
        path = os.path.join(self.root, "rows", str(partition), "@json")
        self.refresh_acks()
        must = set(self.acked[partition])
        try:
            rows = [json.loads(line) for line in read_file(path).splitlines()]
        except (OSError, ValueError) as e:
            self.stats.error("reading %s: %s" % (path, e))
            return
        self.stats.listings += 1
        keys = [row["c"] for row in rows]
        problems = []
        if any(a >= b for a, b in zip(keys, keys[1:])):
            problems.append("rows out of order or repeated")
        if any(row["p"] != partition for row in rows):
            problems.append("rows of another partition")
        missing = must - set(keys)
        if missing:
            problems.append("%d acknowledged rows missing, e.g. %s" % (len(missing), sorted(missing)[:5]))
        if problems:
            self.stats.inconsistent += 1
            self.stats.error("%s (%d rows): %s" % (path, len(rows), "; ".join(problems)))

    def check_torn(self):
        cell = self.rng.choice(TORN_CELLS)
        path = os.path.join(self.root, cell)
        try:
            if self.rng.random() < 0.1:
                out = subprocess.run(["cat", "--", path], capture_output=True, timeout=60)
                if out.returncode != 0:
                    raise OSError(out.stderr.decode(errors="replace").strip())
                data = out.stdout
            else:
                data = read_file(path)
        except OSError as e:
            self.stats.error("reading %s: %s" % (cell, e))
            return
        self.stats.reads += 1
        if not cell.endswith("/b"):
            data = text_of(data)
        # Each open must read one whole stored value: cells are direct_io, so
        # a writer's O_TRUNC open or unflushed writes never reach a reader.
        if not value_ok(data):
            self.stats.torn += 1
            self.stats.error("torn read of %s: %s; starts %r, ends %r"
                             % (cell, torn_kind(data), data[:24], data[-44:]))

    def run(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r = self.rng.random()
            if r < 0.55:
                self.check_torn()
            elif r < 0.9:
                self.check_listing()
            else:
                self.check_partition_json()
        return self.stats.as_dict()


# ---- the final check -----------------------------------------------------------

def load_results(state_dir):
    results = []
    for name in sorted(os.listdir(state_dir)):
        if name.startswith("result.") and not name.endswith(".tmp"):
            with open(os.path.join(state_dir, name)) as f:
                results.append(json.load(f))
    return results


def verify(mount, results):
    """Every acknowledged cell holds its last acknowledged value, each
    counter the sum of acknowledged increments, each torn cell the last value
    some writer was acknowledged, and each partition lists exactly the rows
    whose creation was acknowledged (plus the setup's row 0)."""
    root = os.path.join(mount, KEYSPACE)
    stats = Stats("verify", 0)
    writers = [r for r in results if "cells" in r]
    exported = {}  # "rows/P/C/v" -> v, from each partition's @json
    for partition in range(PARTITIONS):
        for line in read_file(os.path.join(root, "rows/%d/@json" % partition)).splitlines():
            row = json.loads(line)
            exported["rows/%d/%d/v" % (row["p"], row["c"])] = row["v"]
    for r in writers:
        for cell, text in r["cells"].items():
            problems = []
            if exported.get(cell) != text:
                problems.append("@json shows %r" % exported.get(cell))
            if r["role"] != "bulk":  # the bulk rows are tens of thousands: @json checks them
                try:
                    got = text_of(read_file(os.path.join(root, cell))).decode()
                except OSError as e:
                    got = "<%s>" % e
                stats.reads += 1
                if got != text:
                    problems.append("the file holds %r" % got)
            if problems:
                stats.lost += 1
                stats.error("%s: last acknowledged %r, %s" % (cell, text, ", ".join(problems)))
    for partition in range(COUNTER_PARTITIONS):
        want = INITIAL_COUNTER + sum(r["counters"][partition] for r in writers)
        got = text_of(read_file(os.path.join(root, "hits/%d/n" % partition))).decode()
        stats.reads += 1
        if got != str(want):
            stats.lost += 1
            stats.error("hits/%d/n is %s; acknowledged increments sum to %d" % (partition, got, want))
    for cell in TORN_CELLS:
        data = read_file(os.path.join(root, cell))
        stats.reads += 1
        if not cell.endswith("/b"):
            data = text_of(data)
        lasts = {r["torn_last"][cell] for r in writers if cell in r["torn_last"]}
        if not value_ok(data):
            stats.torn += 1
            stats.error("%s holds a torn value (%d bytes)" % (cell, len(data)))
        elif lasts and hashlib.sha1(data).hexdigest() not in lasts:
            stats.lost += 1
            stats.error("%s holds %r..., no writer's last acknowledged value" % (cell, data[:20]))
    for partition in range(PARTITIONS):
        want = {0}
        for r in writers:
            want |= {int(row.split("/")[2]) for row in r["rows"] if row.split("/")[1] == str(partition)}
        names = os.listdir(os.path.join(root, "rows", str(partition)))
        stats.listings += 1
        keys = [int(n) for n in names]
        if keys != sorted(want):
            stats.inconsistent += 1
            stats.error("rows/%d lists %d rows (%d missing, %d extra, ordered %s); %d acknowledged"
                        % (partition, len(keys), len(want - set(keys)), len(set(keys) - want),
                           keys == sorted(keys), len(want)))
    return stats.as_dict()


def report(mount, state_dir, seconds, label):
    results = load_results(state_dir)
    check = verify(mount, results)
    workers = results if not label else []
    roles = [r["role"] for r in results]
    total = {key: sum(r[key] for r in workers + [check])
             for key in ("lost", "torn", "inconsistent")}
    errors = sum((r["errors"] for r in workers + [check]), [])
    if label:
        print("concurrency %s: %d cells read, %d listings checked, %d lost, %d torn, %d inconsistent"
              % (label, check["reads"], check["listings"], total["lost"], total["torn"],
                 total["inconsistent"]))
    else:
        print("concurrency: %d writers, %d readers, %g s, %d writes, %d reads, "
              "%d listings checked, %d lost, %d torn, %d inconsistent"
              % (roles.count("writer"), roles.count("reader"), seconds,
                 sum(r["writes"] for r in workers), sum(r["reads"] for r in workers),
                 sum(r["listings"] for r in workers), total["lost"], total["torn"],
                 total["inconsistent"]))
        for r in results:
            if r["role"] == "bulk":
                print("concurrency: bulk loader: %d rows by @insert, %d writes in all"
                      % (r["bulk_rows"], r["writes"]))
    for error in check["errors"]:  # the workers printed theirs as they went
        print("  " + error)
    return 1 if errors or any(total.values()) else 0


def setup(mount):
    """The shared partitions: row 0 in each (so each partition exists),
    counters at INITIAL_COUNTER, a valid value in each torn cell."""
    root = os.path.join(mount, KEYSPACE)
    for partition in range(PARTITIONS):
        os.makedirs(os.path.join(root, "rows", str(partition), "0"))
    for partition in range(COUNTER_PARTITIONS):
        os.mkdir(os.path.join(root, "hits", str(partition)))
        write_file(os.path.join(root, "hits/%d/n" % partition), b"%d\n" % INITIAL_COUNTER)
    rng = random.Random(0)
    for cell in TORN_CELLS:
        os.makedirs(os.path.dirname(os.path.join(root, cell)), exist_ok=True)
        write_file(os.path.join(root, cell), make_value(0, 0, 100, rng, cell.endswith("/b")))


def main(argv):
    role = argv[1]
    if role == "setup":
        setup(argv[2])
        return 0
    if role == "verify":
        return report(argv[2], argv[3], float(argv[4]), argv[5] if len(argv) > 5 else "")
    ident, mount, state_dir, seconds = int(argv[2]), argv[3], argv[4], float(argv[5])
    kinds = {"writer": Writer, "bulk": BulkLoader, "reader": Reader}
    worker = kinds[role](ident, mount, state_dir)
    result = worker.run(seconds)
    name = os.path.join(state_dir, "result.%s.%d" % (role, ident))
    with open(name + ".tmp", "w") as f:
        json.dump(result, f)
    os.rename(name + ".tmp", name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
