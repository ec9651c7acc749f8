#!/usr/bin/env bash
# Scenario: what `cmake --install` lays down, in a temporary root (DESTDIR):
# the command, the mount(8) helper, the manual page (which renders, and
# names every virtual file) and bash completion (subcommands, options, mount
# options, and KS.TABLE names read from a live mount).
source "$(dirname "$0")/lib.sh" "$1"
BUILD=$(realpath "$(dirname "$CELLFS")/../..")
ROOT=$WORK/root
command -v cmake >/dev/null || die "cmake is not installed"

step "cmake --install into a temporary root"
DESTDIR=$ROOT cmake --install "$BUILD" --prefix /usr/local >"$WORK/install.log" 2>&1 ||
  die "cmake --install failed: $(cat "$WORK/install.log")"
expect_exists "the command" "$ROOT/usr/local/bin/cellfs"
expect_exists "the mount helper" "$ROOT/sbin/mount.cellfs"
expect_exists "the manual page" "$ROOT/usr/local/share/man/man1/cellfs.1"
expect_exists "bash completion" "$ROOT/usr/local/share/bash-completion/completions/cellfs"

step "mount(8) through the installed helper, with no PATH (as mount(8) runs helpers)"
# The helper runs the cellfs installed in PREFIX/bin; this root's copy is put
# there, and the helper in /sbin, for the step only (when they are free).
if [[ ! -e /usr/local/bin/cellfs && -w /usr/local/bin && ! -e /sbin/mount.cellfs && -w /sbin ]]
then
  ln -s "$ROOT/usr/local/bin/cellfs" /usr/local/bin/cellfs
  ln -s "$ROOT/sbin/mount.cellfs" /sbin/mount.cellfs
  _remember_mount "$MNT"
  rc=0
  env -i /sbin/mount.cellfs "$DATA" "$MNT" -o rw,noauto || rc=$?
  if [[ $rc -eq 0 ]]; then
    pid=$(daemon_pid_of "$DATA")
    _PIDS+=("$pid")
    expect_eq "the helper's mount serves" "fuse.cellfs" "$(findmnt -n -o FSTYPE "$MNT")"
    # The daemon must have let go of DATA/LOCK before the next mount takes it.
    unmount_fs "$MNT" "$pid"
  fi
  rc2=0
  env -i PATH=/usr/bin:/bin mount -t cellfs "$DATA" "$MNT" || rc2=$?
  rm -f /usr/local/bin/cellfs /sbin/mount.cellfs
  expect_eq "the installed helper mounted with no PATH" 0 "$rc"
  expect_eq "mount -t cellfs through the installed helper" 0 "$rc2"
  if [[ $rc2 -eq 0 ]]; then
    pid=$(daemon_pid_of "$DATA")
    _PIDS+=("$pid")
    unmount_fs "$MNT" "$pid"
  fi
else
  echo "--- [$SCENARIO] (skipped: /usr/local/bin/cellfs or /sbin/mount.cellfs exists, or not writable)"
fi

step "the manual page renders without warnings and names every virtual file"
command -v groff >/dev/null || die "groff is not installed (tools/install-deps.sh: groff-base)"
page=$(groff -man -Tutf8 -ww "$ROOT/usr/local/share/man/man1/cellfs.1" 2>"$WORK/groff.err" |
  sed 's/.\x08//g')
expect_eq "groff's warnings" "" "$(cat "$WORK/groff.err")"
for name in @cql @errors @status @schema @insert @json @csv @stats @stats.json @count @ge=T @limit=N \
  @reverse @by/COLUMN/VALUE/ @where/COLUMN=VALUE/ @columns=A,B/ @ttl=S @timestamp=T @update \
  @remove @prepend @index=I @key=K @field=F user.cellfs.ttl user.cellfs.writetime \
  user.cellfs.token commit=MODE; do
  expect_contains "the page names $name" "$name" "$page"
done
expect_contains "every subcommand" "cellfs stats [--offline]" "$page"

step "bash completion: subcommands, options, mount options, tables of a mount"
complete_words() {  # complete_words WORD...: what Tab offers after the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cellfs
    printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/usr/local/share/bash-completion/completions/cellfs" "$@" |
    sort | tr '\n' ' ' | sed 's/ $//'
}
expect_eq "subcommands" "load" "$(complete_words cellfs lo)"
expect_eq "load's options" "--max-errors" "$(complete_words cellfs load --max)"
expect_eq "mount options" "commit=batch commit=group commit=periodic commit_interval_ms=" \
  "$(complete_words cellfs mount -o com)"
expect_eq "help's topics" "snapshot stats status sync" "$(complete_words cellfs help s)"
expect_eq "snapshot's actions" "restore" "$(complete_words cellfs snapshot re)"
expect_eq "snapshot's options" "--all --as" "$(complete_words cellfs snapshot clear DIR --a)"
mount_fs
mkdir "$MNT/ks"
cql "CREATE TABLE ks.users (id int PRIMARY KEY, name text)"
cql "CREATE TABLE ks.logs (id int PRIMARY KEY, line text)"
expect_eq "KS.TABLE from the mount" "ks.logs ks.users" "$(complete_words cellfs load "$MNT" ks.)"
unmount_fs
echo "PASS $SCENARIO"
