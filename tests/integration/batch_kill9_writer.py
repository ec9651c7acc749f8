#!/usr/bin/env python3
# Helper of tests/integration/batch_kill9.sh: sends logged batches through
# MOUNT/@cql until the daemon is killed under it, and checks after a remount
# that every batch is stored whole or not at all.
"""Usage:
  batch_kill9_writer.py write MNT LOG FIRST_ID plain|cas   batches until the first error
  batch_kill9_writer.py check MNT LOG [LOG ...]             verify both tables after a remount

Tables: bk.a (id int, k int, v text, PRIMARY KEY (id, k)),
        bk.b (id int PRIMARY KEY, total int, note text).

A plain batch N is one BEGIN BATCH of 7 INSERTs: rows k = 0..3 of
partition N of a, one row (k = N) in each of two partitions of a that many
batches share (ids -1..-13 and -100..-104), and row N of b. A cas batch N
is BEGIN BATCH ... IF NOT EXISTS on partition N of a (conditional batches
span one partition of one table): rows k = 0..3.

The writer opens @cql, writes the batch, reads the transcript back and
closes, for each batch. It logs "S N" before the write and "A N" once the
transcript said "OK BATCH (7 statements)" (plain) or [applied] True (cas),
and stops at the first error: "E <errno name> <time in ns>". A transcript
saying anything else is logged "X N <text>" (a test failure). So at most
one batch is in flight when the daemon dies: the last "S" without its "A".

The check reads bk.a/@json and bk.b/@json and prints one line of counts;
it exits 1 when a batch is partly stored, an acknowledged batch is missing,
a value differs, or a row belongs to no batch that was sent.
"""

import errno
import json
import os
import sys
import time

PLAIN_STATEMENTS = 7
CAS_ROWS = 4
MAX_BATCHES = 200000  # the writer is meant to be stopped by the kill


def plain_rows(n):
    """The rows batch n writes: {(table, key): value}."""
    rows = {("a", (n, k)): "b%d-k%d" % (n, k) for k in range(4)}
    rows[("a", (-(1 + n % 13), n))] = "b%d-o1" % n
    rows[("a", (-(100 + n % 5), n))] = "b%d-o2" % n
    rows[("b", (n,))] = (n * 2, "batch %d" % n)
    return rows


def cas_rows(n):
    return {("a", (n, k)): "c%d-k%d" % (n, k) for k in range(CAS_ROWS)}


def statement(n, kind):
    parts = ["BEGIN BATCH"]
    if kind == "plain":
        for (table, key), value in plain_rows(n).items():
            if table == "a":
                parts.append("INSERT INTO bk.a (id, k, v) VALUES (%d, %d, '%s');" % (key + (value,)))
            else:
                parts.append("INSERT INTO bk.b (id, total, note) VALUES (%d, %d, '%s');"
                             % (key[0], value[0], value[1]))
    else:
        for i, ((_, key), value) in enumerate(cas_rows(n).items()):
            cond = " IF NOT EXISTS" if i == 0 else ""
            parts.append("INSERT INTO bk.a (id, k, v) VALUES (%d, %d, '%s')%s;" % (key + (value, cond)))
    parts.append("APPLY BATCH;")
    return "\n  ".join(parts) + "\n"


def acknowledged(text, kind):
    if kind == "plain":
        return text == "OK BATCH (%d statements)\n" % PLAIN_STATEMENTS
    return text == "OUTPUT 4\n\n [applied]\n-----------\n      True\n"


def run_batch(path, stmt):
    """Writes stmt to a fresh open of @cql; returns the transcript."""
    fd = os.open(path, os.O_RDWR)
    try:
        data = stmt.encode()
        if os.write(fd, data) != len(data):
            raise RuntimeError("short write to @cql")
        out = b""
        while True:
            chunk = os.pread(fd, 65536, len(out))
            if not chunk:
                break
            out += chunk
    finally:
        os.close(fd)
    return out.decode()


def write(mnt, log_path, first, kind):
    path = os.path.join(mnt, "@cql")
    with open(log_path, "a", buffering=1) as log:
        log.write("K %s\n" % kind)
        for n in range(first, first + MAX_BATCHES):
            log.write("S %d\n" % n)
            try:
                text = run_batch(path, statement(n, kind))
            except OSError as e:
                log.write("E %s %d\n" % (errno.errorcode.get(e.errno, str(e.errno)), time.time_ns()))
                return 0
            if not acknowledged(text, kind):
                log.write("X %d %s\n" % (n, json.dumps(text)))
                return 1
            log.write("A %d\n" % n)
    return 0


def read_log(path):
    """(kind, sent ids in order, acknowledged ids, bad transcripts)."""
    kind, sent, acked, bad = None, [], set(), []
    with open(path) as f:
        for line in f:
            tag, _, rest = line.rstrip("\n").partition(" ")
            if tag == "K":
                kind = rest
            elif tag == "S":
                sent.append(int(rest))
            elif tag == "A":
                acked.add(int(rest))
            elif tag == "X":
                bad.append(rest)
    return kind, sent, acked, bad


def read_table(mnt, table):
    rows = {}
    with open(os.path.join(mnt, "bk", table, "@json")) as f:
        for line in f:
            r = json.loads(line)
            if table == "a":
                rows[("a", (r["id"], r["k"]))] = r.get("v")
            else:
                rows[("b", (r["id"],))] = (r.get("total"), r.get("note"))
    return rows


def check(mnt, logs):
    stored = read_table(mnt, "a")
    stored.update(read_table(mnt, "b"))
    claimed = set()
    counts = dict(sent=0, acked=0, complete=0, absent=0, partial=0, lost=0, wrong=0, phantom=0)
    problems = []
    in_flight = "none"
    for index, path in enumerate(logs):
        kind, sent, acked, bad = read_log(path)
        problems += ["transcript of batch %s" % b for b in bad]
        for n in sent:
            expect = plain_rows(n) if kind == "plain" else cas_rows(n)
            claimed.update(expect)
            present = [key for key in expect if key in stored]
            wrong = [key for key in present if stored[key] != expect[key]]
            counts["sent"] += 1
            counts["acked"] += n in acked
            if wrong:
                counts["wrong"] += 1
                problems.append("batch %d: %s" % (n, ", ".join(
                    "%s%s = %r, expected %r" % (k[0], k[1], stored[k], expect[k]) for k in wrong)))
            if len(present) == len(expect):
                counts["complete"] += 1
            elif not present:
                counts["absent"] += 1
                if n in acked:
                    counts["lost"] += 1
                    problems.append("batch %d was acknowledged and is missing" % n)
            else:
                counts["partial"] += 1
                problems.append("batch %d is partly stored: %d of %d rows (%s)" % (
                    n, len(present), len(expect), ", ".join("%s%s" % k for k in present)))
            if index == len(logs) - 1 and n == sent[-1] and n not in acked:
                in_flight = ("applied" if len(present) == len(expect)
                             else "absent" if not present else "partial")
    for key in stored:
        if key not in claimed:
            counts["phantom"] += 1
            problems.append("row %s%s belongs to no batch sent" % key)
    print(" ".join("%s=%d" % kv for kv in counts.items()) + " in_flight=" + in_flight)
    for p in problems[:20]:
        print("    " + p)
    return 1 if problems else 0


def main(argv):
    if len(argv) == 6 and argv[1] == "write":
        return write(argv[2], argv[3], int(argv[4]), argv[5])
    if len(argv) >= 4 and argv[1] == "check":
        return check(argv[2], argv[3:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
