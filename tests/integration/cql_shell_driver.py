#!/usr/bin/env python3
"""Drives `cellfs cql MOUNT` through a pseudo-terminal, as a user would.

Usage: cql_shell_driver.py CELLFS MOUNT HOME OUTDIR SCRIPT

SCRIPT holds one step per line, "NAME<TAB>KEYS<TAB>PROMPT": KEYS are typed
(Python escapes: \\r is Enter, \\t Tab, \\x03 Ctrl-C, \\x04 Ctrl-D), then the
driver waits until PROMPT appears (empty: until the shell exits) and writes
what the terminal showed in between (the echo of the typed line dropped,
CR and terminal escapes removed) to OUTDIR/NAME. The first step's KEYS may
be empty (the first prompt). Exits 1, the shell killed, when a prompt does
not come (or, for an empty PROMPT, the shell does not exit) within 10 s,
after printing what was seen; writes OUTDIR/status with the shell's
exit status at the end.
"""
import codecs
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\x07")


def main():
    cellfs, mount, home, outdir, script = sys.argv[1:6]
    steps = []
    with open(script) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            name, keys, prompt = line.split("\t")
            steps.append((name, codecs.decode(keys, "unicode_escape"), prompt))

    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, HOME=home, TERM="xterm", LC_ALL="C.UTF-8")
        os.execve(cellfs, [cellfs, "cql", mount], env)
    # Wide enough that no typed line wraps.
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 250, 0, 0))

    seen = b""
    exited = False

    def read_some(deadline):
        nonlocal seen, exited
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
        if not ready:
            return
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the shell is gone
            data = b""
        if not data:
            exited = True
        seen += data

    for name, keys, prompt in steps:
        seen = b""
        if keys:
            os.write(fd, keys.encode())
        deadline = time.time() + 10
        want = prompt.encode()
        while time.time() < deadline and not exited:
            if want and want in ESCAPES.sub(b"", seen).replace(b"\r", b""):
                # Keep reading briefly: nothing should follow a prompt.
                read_some(time.time() + 0.2)
                break
            read_some(deadline)
        text = ESCAPES.sub(b"", seen).replace(b"\r", b"").decode("utf-8", "replace")
        if (want and not text.endswith(prompt)) or (not want and not exited):
            what = f"no prompt {prompt!r}" if want else "the shell did not exit"
            print(f"step {name}: {what}; the terminal showed:\n{text}")
            os.kill(pid, 9)
            sys.exit(1)
        if want:
            text = text[: -len(prompt)]
        if keys and "\n" in text:
            text = text.split("\n", 1)[1]  # the echo of what was typed
        elif keys:
            text = ""
        with open(os.path.join(outdir, name), "w") as out:
            out.write(text)

    deadline = time.time() + 10
    while not exited and time.time() < deadline:
        read_some(deadline)
    if not exited:
        print("the shell did not exit after the last step")
        os.kill(pid, 9)
        sys.exit(1)
    _, status = os.waitpid(pid, 0)
    with open(os.path.join(outdir, "status"), "w") as out:
        out.write(str(os.waitstatus_to_exitcode(status)))


if __name__ == "__main__":
    main()
