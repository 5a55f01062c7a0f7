#!/usr/bin/env python3
"""Runs a test command with a time limit, and says why when it runs over.

    Scripts/test-watchdog.py SECONDS -- swift test ...

The command's output passes through unchanged. When it is still running after SECONDS, the
watchdog prints the Swift Testing tests that started and have not finished, the stack of every
thread of every process the command started (with gdb, when the machine has it), then kills them
all and exits 124. A hung CI run then fails in minutes with what it hung on, instead of running
into the CI's own limit and printing nothing useful.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import threading

STARTED = re.compile(r"^\S+ Test (.+?) started\.$")
FINISHED = re.compile(r"^\S+ Test (.+?)(?: with \d+ test cases?)? (?:passed|failed) after ")


def session_processes(session):
    """The pids of every live process in `session` (the command's own session)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the name: state, ppid, pgrp, session, ...
        if int(fields[3]) == session:
            pids.append(int(entry))
    return sorted(pids)


def describe(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: test-watchdog.py SECONDS -- COMMAND [ARGUMENT...]")
    limit = float(sys.argv[1])
    command = sys.argv[3:]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    running = {}
    lock = threading.Lock()

    def relay():
        for raw in child.stdout:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            line = raw.decode(errors="replace").rstrip("\n")
            with lock:
                if match := STARTED.match(line):
                    running[match.group(1)] = running.get(match.group(1), 0) + 1
                elif match := FINISHED.match(line):
                    name = match.group(1)
                    if running.get(name, 0) > 1:
                        running[name] -= 1
                    else:
                        running.pop(name, None)

    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    try:
        status = child.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        report(child, limit, running, lock)
        # Every process of the session: the tests start servers in process groups of their own.
        for pid in session_processes(os.getsid(child.pid)):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        child.wait()
        reader.join(timeout=10)
        sys.exit(124)
    reader.join()
    sys.exit(status)


def report(child, limit, running, lock):
    out = sys.stdout
    out.write(f"\nwatchdog: `{' '.join(sys.argv[3:])}` still ran after {limit:.0f} s\n")
    with lock:
        names = sorted(running)
    out.write(f"watchdog: {len(names)} test(s) started and not finished:\n")
    for name in names:
        out.write(f"  {name}\n")
    pids = session_processes(os.getsid(child.pid))
    gdb = shutil.which("gdb")
    for pid in pids:
        out.write(f"\nwatchdog: process {pid}: {describe(pid)[:300]}\n")
        out.flush()
        if not gdb:
            continue
        try:
            stacks = subprocess.run([gdb, "-p", str(pid), "-batch", "-nx", "-ex", "thread apply all bt 30"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
            lines = [line for line in stacks.stdout.decode(errors="replace").splitlines()
                     if line.startswith(("Thread ", "#"))]
            out.write("\n".join(lines[:2000]) + "\n")
        except subprocess.TimeoutExpired:
            out.write("watchdog: gdb did not finish\n")
    if not gdb:
        out.write("watchdog: no gdb on this machine, so no stacks\n")
    out.flush()


if __name__ == "__main__":
    main()
