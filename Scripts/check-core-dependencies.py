#!/usr/bin/env python3
"""Fails when the core library or the golden-test library would link Yams, the batch engine,
swift-snapshot-testing, swift-nio or the HTTP server (Hummingbird and its metrics, crypto and
lifecycle packages).

RasterKit and RasterKitTesting are what library and golden-test users link; the manifest reader
(Yams) and the batch engine live in RasterKitBatch, above them, and the HTTP client of the remote
cache tier (AsyncHTTPClient, and with it swift-nio) in RasterKitRemoteCache, and the HTTP server
(Hummingbird) in RasterKitServer. This checks the package's
target graph, and, when the test build has made it, a real executable that depends only on
the core product (Tests/RasterKitProbe): no symbol of Yams or RasterKitBatch may be in it.
It also keeps the plugins' tool (RasterKitAssetsTool) free of ArgumentParser and swift-nio.
"""
import json
import os
import subprocess
import sys

FORBIDDEN_TARGETS = {"RasterKitBatch", "RasterKitCLI", "RasterKitSnapshotTesting", "RasterKitRemoteCache", "RasterKitServer"}
FORBIDDEN_PRODUCTS = {"Yams", "ArgumentParser", "SnapshotTesting", "AsyncHTTPClient", "NIOCore", "NIOHTTP1", "NIOPosix",
                      "Hummingbird", "Metrics", "Prometheus", "Crypto", "ServiceLifecycle", "UnixSignals"}
CORE = ["RasterKit", "RasterKitDiff", "RasterKitTesting"]


def closure(targets, name, seen):
    if name in seen or name not in targets:
        return seen
    seen.add(name)
    for dependency in targets[name].get("target_dependencies") or []:
        closure(targets, dependency, seen)
    return seen


def main():
    description = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], check=True,
                                            capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in description["targets"]}
    problems = []
    for core in CORE:
        reachable = closure(targets, core, set())
        products = {product for name in reachable for product in targets[name].get("product_dependencies") or []}
        for bad in sorted((reachable & FORBIDDEN_TARGETS) | (products & FORBIDDEN_PRODUCTS)):
            problems.append(f"{core} depends on {bad}")
    # The plugins' tool is built by every package that applies a RasterKit plugin: batches, yes;
    # the CLI's argument parser and the HTTP client of the remote tier, never.
    reachable = closure(targets, "RasterKitAssetsTool", set())
    products = {product for name in reachable for product in targets[name].get("product_dependencies") or []}
    for bad in sorted((reachable & {"RasterKitCLI", "RasterKitRemoteCache"})
                      | (products & {"ArgumentParser", "AsyncHTTPClient", "NIOCore", "NIOHTTP1", "NIOPosix"})):
        problems.append(f"RasterKitAssetsTool (rasterkit-assets, the plugins' tool) depends on {bad}")
    probe = os.path.join(".build", "debug", "RasterKitProbe")
    if os.path.exists(probe):
        symbols = subprocess.run(["nm", "--defined-only", probe], check=True, capture_output=True, text=True).stdout
        for module, mangled in [("Yams", "4Yams"), ("RasterKitBatch", "14RasterKitBatch"), ("NIOCore", "7NIOCore"),
                                ("AsyncHTTPClient", "15AsyncHTTPClient"), ("Hummingbird", "11Hummingbird"),
                                ("RasterKitServer", "15RasterKitServer")]:
            if f"$s{mangled}" in symbols:
                problems.append(f"{probe}, which depends only on RasterKit, links {module}")
    for problem in problems:
        print(f"error: {problem}")
    print("core dependencies: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
