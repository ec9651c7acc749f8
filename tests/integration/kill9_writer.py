#!/usr/bin/env python3
# Helper of tests/integration/kill9.sh: the scripted writer whose daemon is
# killed under it, the bulk chunks, and the checks of what a remount shows
# against the acknowledged writes (a model kept in a JSON state file).
"""Usage:
  kill9_writer.py write MNT STATE LOG SEED       scripted writes until the first error
  kill9_writer.py check MNT STATE LOG            verify the scripted table after a remount
  kill9_writer.py chunks DIR ROUND SEED DELAY    write the bulk chunks of a round
  kill9_writer.py bulk-check MNT STATE DIR ROUND ACKLOG
                                                 verify a round's chunks after a remount
  kill9_writer.py final STATE cells|bulk         the table in a `cellfs dump` (stdin) against
                                                 every round's acknowledged writes

The writer logs "I <op as JSON>" before each operation and "A" once it fully
succeeded (the close returned 0), and stops at the first error ("E <errno
name> <time in ns>"). So at most one operation is in flight when the daemon
dies: the last "I" without its "A". A check prints one line of counts and
exits 1 on any loss, tear or phantom.
"""

import errno
import json
import os
import random
import sys
import time

KS = "k9"
CELLS = "cells"  # (p int, c int, v text, n bigint, PRIMARY KEY (p, c))
BULK = "bulk"    # (p int, c int, a text, b bigint, d text, PRIMARY KEY (p, c))
PARTITIONS = 12
ROWS_PER_PARTITION = 40
TTL = 86400

# --- the model ----------------------------------------------------------------
# state["rows"]: "p/c" -> {"v": str|None, "n": int|None, "vttl": bool, "nttl": bool}
#   for every row whose marker (mkdir) was acknowledged.
# state["bulk"]: "round/chunk" -> {"count": rows in the chunk, "acked": bool,
#   "present": the row numbers stored (for the chunk in flight, as its check found)}.
# Values are unique: each round's writer has its own seed, part of every value.


def load_state(path):
    if not os.path.exists(path):
        return {"rows": {}, "bulk": {}}
    with open(path) as f:
        return json.load(f)


def save_state(path, state):
    with open(path + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(path + ".tmp", path)


def text_value(tag, length):
    """A value that says what it is: tag, length, then a filler derived from
    the tag, so a prefix or a mix of two values is never mistaken for one."""
    head = "%s:%d:" % (tag, length)
    filler = ("%s." % tag) * (length // (len(tag) + 1) + 1)
    return (head + filler)[:max(length, len(head))]


# --- the scripted writer ------------------------------------------------------


class Writer:
    def __init__(self, mnt, state, log, seed):
        self.table = os.path.join(mnt, KS, CELLS)
        self.rows = state["rows"]
        self.seq = 0
        self.log = log
        self.rng = random.Random(seed)
        self.seed = seed

    def next_tag(self):
        self.seq += 1
        return "s%d-%d" % (self.seed, self.seq)

    def pick_row(self, existing):
        if existing and self.rows and self.rng.random() < 0.8:
            return self.rng.choice(sorted(self.rows))
        return "%d/%d" % (self.rng.randrange(PARTITIONS), self.rng.randrange(ROWS_PER_PARTITION))

    def next_op(self):
        r = self.rng.random()
        if r < 0.12 or not self.rows:
            key = self.pick_row(existing=False)
            return {"op": "mkrow", "row": key}
        key = self.pick_row(existing=True)
        if key not in self.rows:
            return {"op": "mkrow", "row": key}
        if r < 0.45:
            # Mostly small values, some of several writes (a torn one would show).
            length = self.rng.choice([1, 5, 40, 300, 2000]) if self.rng.random() < 0.93 \
                else self.rng.choice([70000, 300000])
            return {"op": "put", "row": key, "col": "v", "ttl": False,
                    "value": text_value(self.next_tag(), length)}
        if r < 0.60:
            return {"op": "put", "row": key, "col": "n", "ttl": False, "value": self.seq_int()}
        if r < 0.72:
            col = self.rng.choice(["v", "n"])
            value = text_value(self.next_tag(), 30) if col == "v" else self.seq_int()
            return {"op": "put", "row": key, "col": col, "ttl": True, "value": value}
        if r < 0.84:
            if self.rng.random() < 0.25:
                return {"op": "json", "row": key, "set": {"n": None}}
            return {"op": "json", "row": key,
                    "set": {"v": text_value(self.next_tag(), 60), "n": self.seq_int()}}
        live = [c for c in ("v", "n") if self.rows[key][c] is not None]
        if not live:
            return {"op": "put", "row": key, "col": "n", "ttl": False, "value": self.seq_int()}
        return {"op": "rm", "row": key, "col": self.rng.choice(live)}

    def seq_int(self):
        self.seq += 1
        return self.seed * 1000000 + self.seq

    def perform(self, op):
        row_dir = os.path.join(self.table, *op["row"].split("/"))
        if op["op"] == "mkrow":
            os.makedirs(row_dir, exist_ok=True)
        elif op["op"] == "put":
            name = op["col"] + ("@ttl=%d" % TTL if op["ttl"] else "")
            write_file(os.path.join(row_dir, name), str(op["value"]).encode())
        elif op["op"] == "json":
            write_file(os.path.join(row_dir, "@json"), json.dumps(op["set"]).encode())
        elif op["op"] == "rm":
            os.unlink(os.path.join(row_dir, op["col"]))

    def run(self):
        while True:
            op = self.next_op()
            self.log.write("I " + json.dumps(op) + "\n")
            self.log.flush()
            try:
                self.perform(op)
            except OSError as e:
                # When: the script holds it against the time of the kill.
                self.log.write("E %s %d\n" % (errno.errorcode.get(e.errno, e.errno),
                                               time.time_ns()))
                self.log.flush()
                return
            self.log.write("A\n")
            self.log.flush()
            apply_op(self.rows, op)


def write_file(path, data):
    """open, write (in pieces of at most 64 KiB), close: acknowledged only when
    every call, the close included, succeeded."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view[:65536])
            view = view[n:]
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)


def apply_op(rows, op):
    key = op["row"]
    if op["op"] == "mkrow":
        rows.setdefault(key, {"v": None, "n": None, "vttl": False, "nttl": False})
    elif op["op"] == "put":
        rows[key][op["col"]] = op["value"]
        rows[key][op["col"] + "ttl"] = op["ttl"]
    elif op["op"] == "json":
        for col, value in op["set"].items():
            rows[key][col] = value
            rows[key][col + "ttl"] = False
    elif op["op"] == "rm":
        rows[key][op["col"]] = None
        rows[key][op["col"] + "ttl"] = False


def read_log(path):
    """(acknowledged ops, the op in flight or None, the writer's error or None)."""
    acked, pending, error = [], None, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("I "):
                pending = json.loads(line[2:])
            elif line == "A":
                acked.append(pending)
                pending = None
            elif line.startswith("E "):
                error = line.split()[1]
    return acked, pending, error


# --- checks -------------------------------------------------------------------


class Report:
    def __init__(self):
        self.problems = []
        self.lost = 0
        self.torn = 0

    def loss(self, message):
        self.lost += 1
        self.problems.append("LOST: " + message)

    def tear(self, message):
        self.torn += 1
        self.problems.append("TORN: " + message)

    def other(self, message):
        self.problems.append(message)

    def finish(self, counts):
        for p in self.problems[:40]:
            print("  " + p, file=sys.stderr)
        if len(self.problems) > 40:
            print("  ... %d more" % (len(self.problems) - 40), file=sys.stderr)
        counts.update({"lost": self.lost, "torn": self.torn, "problems": len(self.problems)})
        print(" ".join("%s=%s" % kv for kv in counts.items()))
        return 1 if self.problems else 0


def read_cell(path):
    """The cell's text (its read adds one newline, DESIGN.md), or None when it
    does not exist."""
    try:
        with open(path, "rb") as f:
            data = f.read().decode()
    except FileNotFoundError:
        return None
    return data[:-1] if data.endswith("\n") else data + "<no newline>"


def table_rows(path):
    """The rows of a table, partition or slice @json: (p, c) -> object."""
    rows = {}
    with open(path) as f:
        for line in f:
            obj = json.loads(line)
            rows[(obj["p"], obj["c"])] = obj
    return rows


def as_text(value):
    return None if value is None else str(value)


def check_scripted(mnt, state_path, log_path):
    state = load_state(state_path)
    rows = state["rows"]
    acked, pending, error = read_log(log_path)
    for op in acked:
        apply_op(rows, op)
    report = Report()
    table = os.path.join(mnt, KS, CELLS)
    stored = table_rows(os.path.join(table, "@json"))

    # The op in flight: its row (or cells) either fully as before or fully as
    # it would leave them. Decide which from what is stored, then hold every
    # row to the resolved model.
    outcome = "none"
    if pending is not None:
        after = json.loads(json.dumps(rows))
        apply_op(after, pending)
        key = pending["row"]
        p, c = map(int, key.split("/"))
        seen = stored.get((p, c))
        seen_cells = None if seen is None else {col: as_text(seen[col]) for col in ("v", "n")}

        def cells_of(model_rows):
            r = model_rows.get(key)
            return None if r is None else {col: as_text(r[col]) for col in ("v", "n")}

        if seen_cells == cells_of(after):
            rows[key] = after[key]
            outcome = "applied"
        elif seen_cells == cells_of(rows):
            outcome = "absent"
        else:
            report.tear("in-flight %s: row %s holds %s, neither before %s nor after %s" % (
                pending["op"], key, short(seen_cells), short(cells_of(rows)),
                short(cells_of(after))))
            outcome = "torn"

    # Every row of the model, read both from the table's @json and cell by cell.
    for key, expected in sorted(rows.items()):
        p, c = map(int, key.split("/"))
        seen = stored.get((p, c))
        if seen is None:
            report.loss("row %s (acknowledged mkdir) is missing" % key)
            continue
        row_dir = os.path.join(table, str(p), str(c))
        for col in ("v", "n"):
            want = as_text(expected[col])
            got_json = as_text(seen[col])
            got_file = read_cell(os.path.join(row_dir, col))
            for how, got in (("@json", got_json), ("file", got_file)):
                if got != want:
                    what = "row %s column %s (%s): expected %s, got %s" % (
                        key, col, how, short(want), short(got))
                    if got is not None and want is not None and not is_whole_value(got):
                        report.tear(what)
                    else:
                        report.loss(what)
            if want is not None:
                has_ttl = has_ttl_xattr(os.path.join(row_dir, col))
                if has_ttl != expected[col + "ttl"]:
                    report.loss("row %s column %s: TTL present %s, expected %s" % (
                        key, col, has_ttl, expected[col + "ttl"]))
    for (p, c) in stored:
        if "%d/%d" % (p, c) not in rows:
            report.other("PHANTOM: row %d/%d is stored but was never written" % (p, c))

    save_state(state_path, state)
    return report.finish({"acked": len(acked), "in_flight": outcome, "writer_error": error,
                          "rows": len(rows)})


def is_whole_value(text):
    """Whether a stored text is one of the writer's values, whole."""
    if text.lstrip("-").isdigit():
        return True
    head = text.split(":", 2)
    if len(head) < 3 or not head[1].isdigit():
        return False
    return text == text_value(head[0], int(head[1]))


def has_ttl_xattr(path):
    try:
        ttl = int(os.getxattr(path, "user.cellfs.ttl"))
        return 0 < ttl <= TTL
    except OSError as e:
        if e.errno == errno.ENODATA:
            return False
        raise


def short(value):
    text = repr(value)
    return text if len(text) <= 120 else text[:100] + "...(%d chars)" % len(text)


# --- bulk loads -----------------------------------------------------------------

# Chunk sizes in rows: most well under a batch (1 MiB, applied whole at close),
# some over it (several batches: each row whole, the chunk maybe not).
CHUNK_ROWS = [400, 1500, 3000, 400, 2500, 1500, 16000]
WHOLE_BATCH_ROWS = 3000  # well under 1 MiB encoded


def bulk_row(rnd, chunk, i):
    p = rnd * 1000 + chunk
    return {"p": p, "c": i, "a": "a-%d-%d-%d" % (rnd, chunk, i) + "x" * (i % 23),
            "b": (p * 1000003 + i) * 7919, "d": "d%d,%d" % (chunk, i)}


def chunk_name(rnd, chunk):
    return "r%02d-c%03d" % (rnd, chunk)


def write_chunks(directory, rnd, seed, delay_ms):
    """More chunks than the loader gets through before the kill: it stores
    up to about 300 rows a millisecond (a chunk holds 3600 on average)."""
    rng = random.Random(seed)
    names = []
    for chunk in range(20 + delay_ms // 8):
        count = rng.choice(CHUNK_ROWS)
        csv = chunk % 2 == 1
        name = chunk_name(rnd, chunk)
        path = os.path.join(directory, name + (".csv" if csv else ".jsonl"))
        with open(path, "w") as f:
            if csv:
                f.write("p,c,a,b,d\n")
            for i in range(count):
                row = bulk_row(rnd, chunk, i)
                if csv:
                    f.write('%d,%d,%s,%d,"%s"\n' % (row["p"], row["c"], row["a"], row["b"],
                                                    row["d"]))
                else:
                    # By hand, as json.dumps would (no value needs escaping): faster.
                    f.write('{"p": %d, "c": %d, "a": "%s", "b": %d, "d": "%s"}\n' % (
                        row["p"], row["c"], row["a"], row["b"], row["d"]))
        names.append("%s %d %d" % (path, chunk, count))
    print("\n".join(names))


def check_rows(report, stored, rnd, chunk, count, label):
    """How many of the chunk's rows are stored whole; torn rows reported."""
    present = 0
    for i in range(count):
        want = bulk_row(rnd, chunk, i)
        got = stored.get((want["p"], want["c"]))
        if got is None:
            continue
        if got != want:
            report.tear("%s row %d: stored %s, loaded %s" % (label, i, short(got), short(want)))
        present += 1
    return present


def check_bulk(mnt, state_path, directory, rnd, ack_path):
    state = load_state(state_path)
    table = os.path.join(mnt, KS, BULK)
    acked, started = [], []
    with open(ack_path) as f:
        for line in f:
            kind, chunk = line.split()
            if kind == "F":  # the loader's failure and its time
                continue
            (acked if kind == "A" else started).append(int(chunk))
    pending = [c for c in started if c not in acked]
    report = Report()
    counts = {"acked_chunks": len(acked), "acked_rows": 0, "in_flight": "none"}
    if len(pending) > 1:
        report.other("the loader had %d chunks in flight: %s" % (len(pending), pending))
    for chunk in acked + pending:
        count = chunk_rows(directory, rnd, chunk)
        partition = os.path.join(table, str(rnd * 1000 + chunk), "@json")
        stored = table_rows(partition) if os.path.exists(partition) else {}
        label = "round %d chunk %d (%d rows, %s)" % (
            rnd, chunk, count, "acknowledged" if chunk in acked else "in flight")
        present = check_rows(report, stored, rnd, chunk, count, label)
        numbers = sorted(k[1] for k in stored)
        if len(stored) > present:
            report.other("PHANTOM: %s: %d rows stored outside the chunk" % (
                label, len(stored) - present))
        if chunk in acked:
            counts["acked_rows"] += count
            if present != count:
                report.loss("%s: %d of %d rows present" % (label, present, count))
        elif present in (0, count):
            counts["in_flight"] = "%s(%d rows)" % ("applied" if present else "absent", count)
        else:
            counts["in_flight"] = "partial(%d/%d rows)" % (present, count)
            # Under a batch (1 MiB) the chunk is one atomic batch: all or none.
            if count <= WHOLE_BATCH_ROWS:
                report.tear("%s: %d of %d rows present, but it is one batch" % (
                    label, present, count))
            # Batches apply in order, one at a time: what is stored is a prefix.
            if numbers != list(range(present)):
                report.tear("%s: the rows stored are not a prefix of the chunk" % label)
        state["bulk"]["%d/%d" % (rnd, chunk)] = {
            "count": count, "acked": chunk in acked, "present": numbers}
    save_state(state_path, state)
    return report.finish(counts)


def chunk_rows(directory, rnd, chunk):
    for ext in (".jsonl", ".csv"):
        path = os.path.join(directory, chunk_name(rnd, chunk) + ext)
        if os.path.exists(path):
            with open(path) as f:
                return sum(1 for _ in f) - (1 if ext == ".csv" else 0)
    raise FileNotFoundError(chunk_name(rnd, chunk))


def read_dump():
    stored = {}
    for line in sys.stdin:
        obj = json.loads(line)
        stored[(obj["p"], obj["c"])] = obj
    return stored


def check_final(state_path, table):
    """After the last round, from a dump of TABLE on stdin: the scripted rows
    as the model says, or every acknowledged bulk chunk of every round whole
    and each chunk that was in flight as its round's check found it."""
    state = load_state(state_path)
    report = Report()
    stored = read_dump()
    if table == CELLS:
        for key, expected in sorted(state["rows"].items()):
            p, c = map(int, key.split("/"))
            seen = stored.pop((p, c), None)
            if seen is None:
                report.loss("row %s is missing" % key)
                continue
            for col in ("v", "n"):
                if as_text(seen[col]) != as_text(expected[col]):
                    report.loss("row %s column %s: expected %s, got %s" % (
                        key, col, short(expected[col]), short(seen[col])))
        if stored:
            report.other("PHANTOM: %d rows never written" % len(stored))
        return report.finish({"rows": len(state["rows"])})
    rows = 0
    by_partition = {}
    for p, c in stored:
        by_partition.setdefault(p, []).append(c)
    for key, chunk_state in state["bulk"].items():
        rnd, chunk = map(int, key.split("/"))
        label = "round %d chunk %d" % (rnd, chunk)
        count = chunk_state["count"]
        present = check_rows(report, stored, rnd, chunk, count, label)
        got = sorted(by_partition.get(rnd * 1000 + chunk, []))
        if chunk_state["acked"]:
            rows += count
            if present != count:
                report.loss("%s (acknowledged): %d of %d rows present" % (label, present, count))
        elif got != chunk_state["present"]:
            report.loss("%s (in flight): %d rows at its round's check, %d now" % (
                label, len(chunk_state["present"]), len(got)))
    known = {rnd * 1000 + chunk for rnd, chunk in
             (map(int, key.split("/")) for key in state["bulk"])}
    strays = sum(1 for k in stored if k[0] not in known)
    if strays:
        report.other("PHANTOM: %d rows of chunks never loaded" % strays)
    return report.finish({"acked_rows": rows, "stored_rows": len(stored)})


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "write":
        mnt, state_path, log_path, seed = argv[2], argv[3], argv[4], int(argv[5])
        with open(log_path, "w") as log:
            Writer(mnt, load_state(state_path), log, seed).run()
        return 0
    if cmd == "check":
        return check_scripted(argv[2], argv[3], argv[4])
    if cmd == "chunks":
        write_chunks(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
        return 0
    if cmd == "bulk-check":
        return check_bulk(argv[2], argv[3], argv[4], int(argv[5]), argv[6])
    if cmd == "final":
        return check_final(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
