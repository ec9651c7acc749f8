#!/usr/bin/env bash
# Scenario: tree walkers. python3 os.walk over a few hundred rows (and one
# wide partition) sees every entry once, in the engine's order, and can open
# every listed name; find agrees; a listing survives changes made while it
# is being read.
source "$(dirname "$0")/lib.sh" "$1"
export LC_ALL=C

mount_fs
mkdir "$MNT/mon"
cql "CREATE TABLE mon.metrics (host text, minute int, cpu double, mem bigint, site text static,
     PRIMARY KEY (host, minute))"
cql "CREATE TABLE mon.hosts (host text PRIMARY KEY, rack text)"
M=$MNT/mon/metrics
HOSTS=10
ROWS=40

step "write $HOSTS partitions x $ROWS rows with the shell"
for h in $(seq 1 $HOSTS); do
  paths=()
  for m in $(seq 1 $ROWS); do paths+=("$M/host$h/$m"); done
  mkdir -p "${paths[@]}"
  echo "dc$((h % 2))" > "$M/host$h/site"
  for m in $(seq 1 $ROWS); do
    echo "0.$m" > "$M/host$h/$m/cpu"
    echo "$((m * 1024))" > "$M/host$h/$m/mem"
  done
  mkdir "$MNT/mon/hosts/host$h"
  echo "r$h" > "$MNT/mon/hosts/host$h/rack"
done

step "a wide partition of 1200 rows (written with python)"
python3 - "$M/wide" <<'PY'
import os, sys
base = sys.argv[1]
os.mkdir(base)
for m in range(1200):
    os.mkdir(os.path.join(base, str(m)))
    with open(os.path.join(base, str(m), "mem"), "w") as f:
        f.write(f"{m}\n")
PY
expect_eq "ls -U of the wide partition lists every row" 1200 "$(ls -U "$M/wide" | wc -l)"
expect_eq "ls -U of the wide partition in int order" "$(seq 0 1199)" "$(ls -U "$M/wide")"

step "os.walk: counts, order, and every name opens"
python3 - "$MNT" "$HOSTS" "$ROWS" > "$WORK/walk.out" <<'PY' || fail "os.walk checks failed: $(cat "$WORK/walk.out")"
import os, sys
mnt, hosts, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
errors = []
dirs = files = 0
seen = set()
for root, dirnames, filenames in os.walk(mnt):
    rel = os.path.relpath(root, mnt)
    if rel in seen:
        errors.append(f"directory walked twice: {rel}")
    seen.add(rel)
    dirs += len(dirnames)
    files += len(filenames)
    for name in dirnames + filenames:
        if name.startswith("@"):
            errors.append(f"virtual name listed: {rel}/{name}")
    for name in filenames:
        try:
            with open(os.path.join(root, name), "rb") as f:
                if not f.read():
                    errors.append(f"empty read: {rel}/{name}")
        except OSError as e:
            errors.append(f"cannot open listed file {rel}/{name}: {e}")
    for name in dirnames:
        try:
            os.listdir(os.path.join(root, name))
        except OSError as e:
            errors.append(f"cannot list listed directory {rel}/{name}: {e}")
    parts = rel.split(os.sep)
    if len(parts) == 3 and parts[:2] == ["mon", "metrics"]:   # a partition
        want = [str(m) for m in range(1200)] if parts[2] == "wide" else \
               ["site"] + [str(m) for m in range(1, rows + 1)]
        got = filenames + dirnames if parts[2] != "wide" else dirnames
        if parts[2] != "wide" and os.listdir(root) != want:
            errors.append(f"{rel}: listing order {os.listdir(root)[:5]}... != {want[:5]}...")
        if parts[2] == "wide" and dirnames != want:
            errors.append(f"{rel}: wide partition rows out of order or missing ({len(dirnames)})")
# root: mon; mon: 2 tables; metrics: hosts+1 partitions; hosts: hosts partitions;
# rows: hosts*rows + 1200
want_dirs = 1 + 2 + (hosts + 1) + hosts + hosts * rows + 1200
want_files = hosts * (1 + rows * 2) + 1200 + hosts
if dirs != want_dirs:
    errors.append(f"directories: {dirs} != {want_dirs}")
if files != want_files:
    errors.append(f"files: {files} != {want_files}")
print(f"{dirs} directories, {files} files")
for e in errors[:20]:
    print(e)
sys.exit(1 if errors else 0)
PY
expect_eq "os.walk totals" "$((3 + HOSTS + 1 + HOSTS + HOSTS * ROWS + 1200)) directories, $((HOSTS * (1 + ROWS * 2) + 1200 + HOSTS)) files" \
  "$(cat "$WORK/walk.out")"

step "find agrees with os.walk"
expect_eq "find -type f" "$((HOSTS * (1 + ROWS * 2) + 1200 + HOSTS))" "$(find "$MNT" -type f | wc -l)"
expect_eq "find -type d" "$((1 + 3 + HOSTS + 1 + HOSTS + HOSTS * ROWS + 1200))" \
  "$(find "$MNT" -type d | wc -l)"
expect_eq "find -name cpu" "$((HOSTS * ROWS))" "$(find "$M" -name cpu | wc -l)"
expect_eq "find order within a partition" "$(seq 1 $ROWS | sed "s|^|$M/host3/|")" \
  "$(find "$M/host3" -mindepth 1 -maxdepth 1 -type d)"
expect_eq "grep -r over the tree" "$HOSTS" "$(grep -rl '^0\.17$' "$M" | wc -l)"
expect_eq "cat of a glob (names sorted; doubles canonical)" \
  "$(seq 1 $ROWS | sort | python3 -c 'import sys
for m in sys.stdin: print(repr(float("0." + m.strip())))')" "$(cat "$M"/host7/*/cpu)"
expect_eq "du does not fail" 0 "$(du -s "$M" >/dev/null 2>&1; echo $?)"

step "a listing read while rows come and go"
python3 - "$M/wide" > "$WORK/churn.out" <<'PY' || fail "listing under churn: $(cat "$WORK/churn.out")"
import os, shutil, sys
base = sys.argv[1]
seen = []
removed = {str(m) for m in range(600, 620)}
with os.scandir(base) as it:
    for i, entry in enumerate(it):
        seen.append(entry.name)
        if i == 300:
            for name in removed:
                shutil.rmtree(os.path.join(base, name))
            for m in range(5000, 5020):
                os.mkdir(os.path.join(base, str(m)))
                with open(os.path.join(base, str(m), "mem"), "w") as f:
                    f.write("1\n")
errors = []
if len(seen) != len(set(seen)):
    errors.append(f"{len(seen) - len(set(seen))} names listed twice")
steady = [str(m) for m in range(1200) if str(m) not in removed]
missing = [n for n in steady if n not in set(seen)]
if missing:
    errors.append(f"rows present throughout but not listed: {missing[:10]}")
order = [n for n in seen if n in set(steady)]
if order != steady:
    errors.append("rows out of clustering order")
after = os.listdir(base)
if len(after) != 1200 - 20 + 20 or any(n in after for n in removed):
    errors.append(f"listing after the churn: {len(after)} rows")
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
expect_eq "wide partition after the churn" 1200 "$(ls -U "$M/wide" | wc -l)"
