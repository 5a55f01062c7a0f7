#!/usr/bin/env python3
"""Fails when the core library or the golden-test library would link Yams, the batch engine,
swift-snapshot-testing, swift-nio or the HTTP server (Hummingbird and its metrics and
lifecycle packages), or when the `rasterkit` command would link the HTTP server or swift-nio.

RasterKit and RasterKitTesting are what library and golden-test users link; the manifest reader
(Yams) and the batch engine live in RasterKitBatch, above them, and the HTTP server
(Hummingbird, swift-nio) in RasterKitServer, which only `rasterkit-server` links: `rasterkit`
reaches the remote cache through Foundation's URLSession. This checks the package's target
graph, and, when the test build has made them, real executables: the probe that depends only on
the core product (Tests/RasterKitProbe), in which no symbol of Yams or RasterKitBatch may be,
and `rasterkit`, in which none of swift-nio, BoringSSL or Hummingbird may be. It also keeps the
plugins' tool (RasterKitAssetsTool) free of the CLI, the remote cache and the server.
"""
import json
import os
import subprocess
import sys

FORBIDDEN_TARGETS = {"RasterKitBatch", "RasterKitCLI", "RasterKitSnapshotTesting", "RasterKitRemoteCache", "RasterKitServer"}
SERVER_PRODUCTS = {"NIOCore", "NIOHTTP1", "NIOPosix", "Hummingbird", "HummingbirdCore", "Metrics", "Prometheus",
                   "ServiceLifecycle", "UnixSignals"}
FORBIDDEN_PRODUCTS = {"Yams", "ArgumentParser", "SnapshotTesting"} | SERVER_PRODUCTS
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
    # The plugins' tool is built by every package that applies a RasterKit plugin: batches and
    # ArgumentParser (the one command-line reader), yes; the CLI and the remote tier's HTTP client, never.
    reachable = closure(targets, "RasterKitAssetsTool", set())
    products = {product for name in reachable for product in targets[name].get("product_dependencies") or []}
    for bad in sorted((reachable & {"RasterKitCLI", "RasterKitRemoteCache"})
                      | (products & SERVER_PRODUCTS)):
        problems.append(f"RasterKitAssetsTool (rasterkit-assets, the plugins' tool) depends on {bad}")
    # `rasterkit` is what a batch or golden-test user builds: the server is an executable of its own.
    reachable = closure(targets, "RasterKitCLI", set())
    products = {product for name in reachable for product in targets[name].get("product_dependencies") or []}
    for bad in sorted((reachable & {"RasterKitServer", "RasterKitServerTool"}) | (products & SERVER_PRODUCTS)):
        problems.append(f"RasterKitCLI (rasterkit) depends on {bad}")
    probe = os.path.join(".build", "debug", "RasterKitProbe")
    if os.path.exists(probe):
        symbols = subprocess.run(["nm", "--defined-only", probe], check=True, capture_output=True, text=True).stdout
        for module, mangled in [("Yams", "4Yams"), ("RasterKitBatch", "14RasterKitBatch"), ("NIOCore", "7NIOCore"),
                                ("Hummingbird", "11Hummingbird"), ("RasterKitServer", "15RasterKitServer")]:
            if f"$s{mangled}" in symbols:
                problems.append(f"{probe}, which depends only on RasterKit, links {module}")
    command = os.path.join(".build", "debug", "rasterkit")
    if os.path.exists(command):
        symbols = subprocess.run(["nm", command], check=True, capture_output=True, text=True).stdout
        for module, marker in [("swift-nio", "7NIOCore"), ("swift-nio", "CNIOPosix"), ("BoringSSL", "BoringSSL"),
                               ("Hummingbird", "11Hummingbird"), ("RasterKitServer", "15RasterKitServer")]:
            if marker in symbols:
                problems.append(f"{command} links {module}")
    for problem in problems:
        print(f"error: {problem}")
    print("core dependencies: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
