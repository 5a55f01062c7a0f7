#!/usr/bin/env python3
"""Runs a RasterKitProbe binary and compares the digests it prints with the committed table.

`make test` runs it on a probe built with the Swift runtime linked statically
(`--static-swift-stdlib`), so that keys are checked not to depend on how a binary is linked;
the Swift tests check the dynamically linked probe against the same table.

    check-known-digests.py [--static] PROBE TABLE

With --static the probe must be linked with the Swift runtime inside it (no libswiftCore.so
among the libraries it loads), so a build that quietly linked it dynamically cannot pass.
"""
import json
import subprocess
import sys


def main():
    arguments = sys.argv[1:]
    static = "--static" in arguments
    arguments = [argument for argument in arguments if argument != "--static"]
    if len(arguments) != 2:
        sys.exit("usage: check-known-digests.py [--static] PROBE TABLE")
    probe, table_path = arguments
    if static:
        libraries = subprocess.run(["ldd", probe], capture_output=True, text=True).stdout
        if "libswiftCore" in libraries:
            sys.exit(f"error: {probe} loads the Swift runtime as a shared library: it is not statically linked")
    with open(table_path) as file:
        table = json.load(file)["probe"]
    run = subprocess.run([probe, "digests"], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        sys.exit(f"error: {probe} digests exited with {run.returncode}:\n{run.stderr}")
    digests = dict(line.split(" ", 1) for line in run.stdout.splitlines() if line.count(" ") == 1)
    wrong = sorted(name for name in table if digests.get(name) != table[name])
    extra = sorted(set(digests) - set(table))
    if wrong or extra:
        for name in wrong:
            print(f"  {name}: table {table[name]}, probe {digests.get(name, 'missing')}")
        for name in extra:
            print(f"  {name}: not in the table")
        sys.exit(f"error: {probe} keys differ from {table_path} ({len(wrong) + len(extra)} of {len(table)})")
    print(f"{probe}: all {len(table)} digests match {table_path}")


if __name__ == "__main__":
    main()
