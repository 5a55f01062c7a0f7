#!/usr/bin/env python3
"""Turns a package-benchmark JMH export into the figures RasterKit's issues ask for: each is a
ratio against a baseline measured in the same run (or, where an issue gives an absolute bound,
that bound). Usage: python3 Benchmarks/ratios.py [directory or .jmh.json file]."""
import glob, json, os, sys

UNITS = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(path):
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "*.jmh.json")), key=os.path.getmtime)
        if not files:
            sys.exit(f"no .jmh.json export in {path}; run the benchmarks with --format jmh first")
        path = files[-1]
    results = {}
    for entry in json.load(open(path)):
        # package.benchmark.<Target>.<name>, with spaces written as underscores
        name = entry["benchmark"].split(".", 3)[-1].replace("_", " ")
        metrics = dict(entry.get("secondaryMetrics", {}))
        metrics["primary"] = entry["primaryMetric"]
        results[name] = metrics
    return path, results


# The benchmarks the figure being worked out asked for, found or not: a figure some of whose
# benchmarks ran but not all is reported as missing (the JMH export drops a benchmark it cannot
# write) rather than skipped like one whose target was not run.
asked = []


def find(results, suffix):
    for name, metrics in results.items():
        if name.endswith(suffix):
            asked.append(True)
            return metrics
    asked.append(False)
    return None


# Benchmarks declared with `scalingFactor: .kilo` (StateKeys.swift) report the time of 1,000
# calls per sample; the JMH export does not say so, so their times are divided here.
SCALED = {
    "cache key: 6 state key paths of user types": 1000,
    "cache key: 6 state key paths, hand-written StateHashable (baseline)": 1000,
    "cache key: naive Mirror walk of the 6 key paths (baseline)": 1000,
    "cache key: nested user structs, collections, enum, class": 1000,
    "cache key: naive Mirror walk of the nested state (baseline)": 1000,
    "cache key: shared-reference lattice of 40 levels": 1000,
    "memory-cache hit (key + lookup + image)": 1000,
    "cached plain render (memory hit) (baseline)": 1000,
    "cached processed render (memory hit)": 1000,
}


def wall_ns(results, name, percentile="50.0"):
    metrics = find(results, name)
    if metrics is None or "Time (wall clock)" not in metrics:
        return None
    metric = metrics["Time (wall clock)"]
    scale = next((factor for suffix, factor in SCALED.items() if name.endswith(suffix)), 1)
    return metric["scorePercentiles"][percentile] * UNITS.get(metric["scoreUnit"], 1) / scale


def custom(results, name, metric):
    metrics = find(results, name)
    if metrics is None or metric not in metrics:
        return None
    return metrics[metric]["scorePercentiles"]["50.0"]


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


# (issue, what, value function, formatter, bound test, bound text)
CHECKS = [
    (2, "Canvas composite vs direct cairo (time ratio)",
     lambda r: ratio(wall_ns(r, "Canvas composite"), wall_ns(r, "cairo composite (baseline)")), "{:.3f}×", lambda v: v <= 1.05, "≤ 1.05×"),
]
for image in ["1024² opaque screen", "1024² transparent sprites"]:
    CHECKS += [
        (2, f"PNG encode {image}: cairo time ÷ RasterKit time",
         lambda r, i=image: ratio(wall_ns(r, f"cairo PNG encode: {i} (baseline)"), wall_ns(r, f"PNG encode: {i}")), "{:.2f}×", lambda v: v >= 1.0, "≥ 1.00×"),
        (2, f"PNG size {image}: RasterKit ÷ cairo",
         lambda r, i=image: ratio(custom(r, f"PNG encode: {i}", "PNG bytes"), custom(r, f"cairo PNG encode: {i} (baseline)", "PNG bytes")), "{:.3f}×", lambda v: v <= 1.02, "≤ 1.02×"),
    ]
CHECKS += [
    (15, "cache key, 6 state key paths of user types: median", lambda r: wall_ns(r, "cache key: 6 state key paths of user types"),
     "{:.0f} ns", lambda v: v <= 1000, "≤ 1000 ns"),
    (15, "cache key, 6 user-type key paths: naive Mirror walk ÷ RasterKit",
     lambda r: ratio(wall_ns(r, "cache key: naive Mirror walk of the 6 key paths (baseline)"), wall_ns(r, "cache key: 6 state key paths of user types")),
     "{:.1f}×", lambda v: v >= 20, "≥ 20×"),
    (15, "cache key, 6 key paths: automatic ÷ hand-written StateHashable",
     lambda r: ratio(wall_ns(r, "cache key: 6 state key paths of user types"), wall_ns(r, "cache key: 6 state key paths, hand-written StateHashable (baseline)")),
     "{:.2f}×", lambda v: v <= 1.5, "≤ 1.5×"),
    (15, "cache key, nested user state: naive Mirror walk ÷ RasterKit",
     lambda r: ratio(wall_ns(r, "cache key: naive Mirror walk of the nested state (baseline)"), wall_ns(r, "cache key: nested user structs, collections, enum, class")),
     "{:.1f}×", lambda v: v >= 20, "≥ 20×"),
    (40, "cache key, shared-reference lattice of 40 levels: median", lambda r: wall_ns(r, "cache key: shared-reference lattice of 40 levels"),
     "{:.0f} ns", lambda v: v <= 1_000_000, "≤ 1 ms"),
    (15, "memory-cache hits per second (one thread)",
     lambda r: None if wall_ns(r, "memory-cache hit (key + lookup + image)") is None else 1e9 / wall_ns(r, "memory-cache hit (key + lookup + image)"),
     "{:,.0f}/s", lambda v: v >= 500_000, "≥ 500,000/s"),
    (15, "memory-cache hits: 2 threads ÷ 1 thread (throughput)",
     lambda r: ratio(wall_ns(r, "memory-cache hits: 200000 on 1 thread"), wall_ns(r, "memory-cache hits: 200000 on 2 threads")),
     "{:.2f}×", lambda v: v >= 1.7, "≥ 1.7×"),
    (3, "nine-slice 1000² pt @2x: full draw time ÷ stretch time",
     lambda r: ratio(wall_ns(r, "draw at full size (baseline)"), wall_ns(r, "stretch minimum frame")), "{:.1f}×", lambda v: v >= 10, "≥ 10×"),
    (3, "nine-slice 1000² pt @2x: full-size bytes ÷ cached bytes",
     lambda r: ratio(custom(r, "draw at full size (baseline)", "cached bytes"), custom(r, "stretch minimum frame", "cached bytes")), "{:.0f}×", lambda v: v >= 100, "≥ 100×"),
    (4, "1000 requests over 100 keys ÷ ideal (serial draws ÷ cores)",
     lambda r: ratio(wall_ns(r, "1000 concurrent requests over 100 keys"),
                     None if wall_ns(r, "ideal, 100 draws serially ÷ cores (baseline)") is None
                     else wall_ns(r, "ideal, 100 draws serially ÷ cores (baseline)") / (os.cpu_count() or 1)),
     "{:.2f}×", lambda v: v <= 1.25, "≤ 1.25×"),
    (4, "coalescing cost per waiter",
     lambda r: None if wall_ns(r, "one draw, 1000 extra waiters") is None or wall_ns(r, "one draw, 0 extra waiters") is None
     else (wall_ns(r, "one draw, 1000 extra waiters") - wall_ns(r, "one draw, 0 extra waiters")) / 1000 / 1000, "{:.2f} µs", lambda v: v <= 5, "≤ 5 µs"),
    (5, "96² pt @2x icon: draw time ÷ disk hit time",
     lambda r: ratio(wall_ns(r, "draw: 96² pt @2x icon (baseline)"), wall_ns(r, "disk hit: 96² pt @2x icon (read + decode)")), "{:.1f}×", lambda v: v >= 5, "≥ 5×"),
    (5, "10,000 × 4 KiB reads: files ÷ store",
     lambda r: ratio(wall_ns(r, "files: read 10,000 × 4 KiB (baseline)"), wall_ns(r, "store: read 10,000 × 4 KiB")), "{:.2f}×", lambda v: v >= 1.3, "≥ 1.3×"),
    (5, "opening a store of 10,000 entries ÷ one of one entry",
     lambda r: ratio(wall_ns(r, "store: open and close, 10,000 entries of 4 KiB"), wall_ns(r, "store: open and close, one entry (baseline)")), "{:.2f}×", lambda v: v <= 1.5, "≤ 1.5× (independent of size)"),
    (5, "10,000 × 4 KiB writes: files ÷ store",
     lambda r: ratio(wall_ns(r, "files: write 10,000 × 4 KiB (baseline)"), wall_ns(r, "store: write 10,000 × 4 KiB")), "{:.2f}×", lambda v: v >= 1.0, "≥ 1.0× (no slower)"),
    (7, "identical 2048² images: compare time", lambda r: None if wall_ns(r, "ImageDiff: identical 2048² images") is None
     else wall_ns(r, "ImageDiff: identical 2048² images") / 1e6, "{:.2f} ms", lambda v: v <= 2, "≤ 2 ms"),
    (7, "full diff 2048²: ImageMagick compare ÷ rasterkit diff (commands)",
     lambda r: ratio(wall_ns(r, "ImageMagick compare -metric AE 2048² (baseline)"), wall_ns(r, "rasterkit diff 2048² (command, with PNG decoding)")),
     "{:.2f}×", lambda v: v >= 2, "≥ 2×"),
    (8, "showcase: cold ÷ warm", lambda r: ratio(wall_ns(r, "showcase: cold (new output folder and cache)"),
                                                  wall_ns(r, "showcase: warm (same folder and cache)")), "{:.1f}×", lambda v: v >= 10, "≥ 10×"),
    (8, "showcase: 1 job ÷ 2 jobs", lambda r: ratio(wall_ns(r, "showcase: 1 job, no cache, in memory"), wall_ns(r, "showcase: 2 jobs, no cache, in memory")),
     "{:.2f}×", lambda v: v >= 1.7, "≥ 1.7×"),
    (44, "card template, 2,000 records: cold ÷ warm into a new folder",
     lambda r: ratio(custom(r, "card template, 2,000 records: cold, then warm into a new folder", "cold ns"),
                     custom(r, "card template, 2,000 records: cold, then warm into a new folder", "warm ns")),
     "{:.1f}×", lambda v: v >= 10, "≥ 10×"),
    (45, "goldens check of the unchanged showcase: lockfile ÷ PNG goldens",
     lambda r: ratio(wall_ns(r, "goldens check showcase: lockfile, unchanged"),
                     wall_ns(r, "goldens check showcase: PNG goldens, unchanged (baseline)")), "{:.2f}×", lambda v: v <= 0.2, "≤ 0.2×"),
]

CHECKS += [
    (17, "cached processed render ÷ cached plain render (memory hits)",
     lambda r: ratio(wall_ns(r, "cached processed render (memory hit)"), wall_ns(r, "cached plain render (memory hit) (baseline)")),
     "{:.2f}×", lambda v: v <= 1.2, "≤ 1.2×"),
]
for stage in ["roundedCorners 16", "circle", "tint", "opacity 0.5", "resize to 128² pt", "crop 128² pt", "padding 16",
              "dropShadow blur 8"]:
    CHECKS.append((17, f"512² px @2x {stage}: RasterKit ÷ cairo",
                   lambda r, s=stage: ratio(wall_ns(r, f"processed: {s}"), wall_ns(r, f"cairo: {s} (baseline)")),
                   "{:.2f}×", lambda v: v <= 1.2, "≤ 1.2×"))


def paired(results, name):
    """A paired benchmark's subject ÷ baseline, from the p50s of the times taken side by side."""
    return ratio(custom(results, name, "subject ns"), custom(results, name, "baseline ns"))


CHECKS += [
    (43, "layout: a 20-child card through stacks ÷ at fixed frames (the cost of laying out)",
     lambda r: paired(r, "layout: 20-child card, through stacks vs at fixed frames"),
     "{:.3f}×", lambda v: v <= 1.10, "≤ 1.10×: laying out ≤ 10 % of drawing"),
    (43, "layout: the card with new texts each draw, through stacks ÷ at fixed frames (distinct states)",
     lambda r: paired(r, "layout: 20-child card with new texts each draw, through stacks vs at fixed frames"),
     "{:.3f}×", lambda v: v <= 1.10, "≤ 1.10×: laying out ≤ 10 % of drawing"),
    (43, "layout: memory-cache hit, laid-out card ÷ hand-placed card",
     lambda r: paired(r, "layout: memory-cache hits ×1000, laid-out card vs hand-placed card"),
     "{:.2f}×", lambda v: v <= 1.05, "≤ 1.05× (no slower)"),
    (43, "layout: measuring an auto-width chip ÷ drawing it",
     lambda r: paired(r, "layout: auto-width chip, measuring vs drawing it at its size"),
     "{:.1%}", lambda v: v <= 0.20, "≤ 20 %"),
    (43, "layout: measuring an auto-width chip never measured before ÷ drawing it (reported; not a target)",
     lambda r: paired(r, "layout: auto-width chip with a new label, measuring vs drawing it at its size"),
     "{:.1%}", lambda v: True, "nothing: reported, since each costs a Pango layout"),
]


def imagemagick_blur_ns(r):
    """ImageMagick's -blur 0x8 alone: (four blurs − none) ÷ 4, so starting convert and decoding the PNG are left out."""
    four, none = wall_ns(r, "ImageMagick read 512² PNG, 4 × -blur 0x8 (baseline)"), wall_ns(r, "ImageMagick read 512² PNG, no blur (baseline)")
    return None if four is None or none is None else (four - none) / 4


for label, name in [("radius 8 @1x (σ 8 px)", "processed: gaussianBlur radius 8 @1x (σ 8 px)"),
                    ("radius 8 @2x (σ 16 px)", "processed: gaussianBlur radius 8 @2x (σ 16 px)")]:
    CHECKS += [
        (17, f"GaussianBlur {label} on 512²: ImageMagick -blur 0x8 alone ÷ RasterKit",
         lambda r, n=name: ratio(imagemagick_blur_ns(r), wall_ns(r, n)), "{:.2f}×", lambda v: v >= 1.0, "≥ 1.00×"),
        (17, f"GaussianBlur {label} on 512²: whole convert command ÷ RasterKit",
         lambda r, n=name: ratio(wall_ns(r, "ImageMagick -blur 0x8 512² (baseline)"), wall_ns(r, n)), "{:.2f}×",
         lambda v: v >= 1.0, "≥ 1.00×"),
    ]


def svg_checks(results):
    """Issue 6's three ratios for every icon set measured."""
    sets = sorted({name.split(":")[0][4:] for name in results if name.startswith("svg ") and ":" in name})
    checks = []
    for s in sets:
        cold, warm = f"svg {s}: rasterkit svg, 200 icons × 48, 96, cold", f"svg {s}: rasterkit svg, warm"
        checks += [
            (6, f"SVG {s} cold: rsvg-convert loop ÷ rasterkit svg",
             lambda r, c=cold, s=s: ratio(wall_ns(r, f"svg {s}: rsvg-convert loop (baseline)"), wall_ns(r, c)), "{:.1f}×", lambda v: v >= 6, "≥ 6×"),
            (6, f"SVG {s} cold, in memory: rasterkit svg ÷ librsvg + PNG directly",
             lambda r, s=s: ratio(wall_ns(r, f"svg {s}: rasterkit svg, cold, in memory"),
                                  wall_ns(r, f"svg {s}: librsvg + PNG directly, 2 threads, in memory (baseline)")), "{:.2f}×",
             lambda v: v <= 1.25, "≤ 1.25×"),
            (6, f"SVG {s}: cold ÷ warm", lambda r, c=cold, w=warm: ratio(wall_ns(r, c), wall_ns(r, w)), "{:.1f}×", lambda v: v >= 10, "≥ 10×"),
        ]
    return checks


def fresh_checks(results):
    """Issue 16: warm store into a new folder ÷ cold, for every format and icon set measured."""
    subjects = sorted({name.split(":")[0] for name in results if name.startswith("fresh ")})
    checks = [
        (16, f"{subject}: cold ÷ warm store into a new folder",
         lambda r, s=subject: ratio(wall_ns(r, f"{s}: cold (new folder, new store)"), wall_ns(r, f"{s}: warm store, new folder")),
         "{:.1f}×", lambda v: v >= 10, "≥ 10×")
        for subject in subjects
    ] + [
        (16, f"{subject}: warm store into a new folder ÷ cp -r of the same files",
         lambda r, s=subject: ratio(wall_ns(r, f"{s}: warm store, new folder"), wall_ns(r, f"{s}: cp -r of the outputs into a new folder (baseline)")),
         "{:.2f}×", lambda v: v <= 1.5, "≤ 1.5× (the speed of a copy)")
        for subject in subjects
    ]
    checks += [
        (16, f"{subject}: cold ÷ warm with the store restored an hour later, into a new folder",
         lambda r, s=subject: ratio(wall_ns(r, f"{s}: cold (new folder, new store)"),
                                    wall_ns(r, f"{s}: store restored an hour later, new folder")),
         "{:.1f}×", lambda v: v >= 10, "≥ 10×")
        for subject in subjects if find(results, f"{subject}: store restored an hour later, new folder") is not None
    ]
    checks.append((16, "showcase png in memory: cold ÷ warm store into a new checkout and a new folder",
                   lambda r: ratio(wall_ns(r, "fresh showcase png in memory: cold (new folder, new store)"),
                                   wall_ns(r, "new checkout, showcase png in memory: warm store, new folder")),
                   "{:.1f}×", lambda v: v >= 10, "≥ 10×"))
    checks.append((16, "--no-cache showcase: existing folder ÷ new folder",
                   lambda r: ratio(wall_ns(r, "no-cache showcase: into an existing folder"), wall_ns(r, "no-cache showcase: into a new folder")),
                   "{:.2f}×", lambda v: v <= 1.1, "≤ 1.1×"))
    return checks


def remote_checks(results):
    """Issue 22: the showcase into a new folder with an empty local store, against a cold run."""
    cold = "remote showcase: cold (new folder, new store, no remote)"
    beside = "remote showcase: new folder, empty store, no remote (baseline beside remote down)"
    down = "remote showcase: new folder, empty store, remote down (closed port)"
    silent = "remote showcase: new folder, empty store, remote never answers (1 s timeout)"
    return [
        (22, "showcase, empty store: cold ÷ warm remote",
         lambda r: ratio(wall_ns(r, cold), wall_ns(r, "remote showcase: new folder, empty store, warm remote")),
         "{:.1f}×", lambda v: v >= 5, "≥ 5×"),
        (22, "showcase in memory, empty store: cold ÷ warm remote",
         lambda r: ratio(wall_ns(r, "remote showcase in memory: cold (new folder, new store, no remote)"),
                         wall_ns(r, "remote showcase in memory: new folder, empty store, warm remote")),
         "{:.1f}×", lambda v: v >= 5, "≥ 5×"),
        (22, "showcase, empty store: remote down ÷ no remote measured beside it",
         lambda r: ratio(wall_ns(r, down), wall_ns(r, beside)),
         "{:.2f}×", lambda v: v <= 1.2, "≤ 1.2×"),
        (22, "showcase, empty store: remote down ÷ the first cold run (an idle disk; for comparison)",
         lambda r: ratio(wall_ns(r, down), wall_ns(r, cold)),
         "{:.2f}×", lambda v: v <= 1.2, "≤ 1.2×"),
        (22, "showcase, empty store: remote never answers − no remote (seconds)",
         lambda r: None if wall_ns(r, beside) is None or wall_ns(r, silent) is None
         else (wall_ns(r, silent) - wall_ns(r, beside)) / 1e9,
         "{:.2f} s", lambda v: v <= 1.2, "≤ the 1 s timeout, once per run"),
        (22, "showcase in memory, empty store: remote never answers − no remote (seconds)",
         lambda r: difference_s(r, "remote showcase in memory: new folder, empty store, remote never answers (1 s timeout)",
                                "remote showcase in memory: new folder, empty store, no remote (baseline beside never answers)"),
         "{:.2f} s", lambda v: v <= 1.05, "≤ the 1 s timeout, once per run"),
    ]


def difference_s(results, slower, baseline):
    """The p50 of `slower` less the p50 of `baseline`, in seconds; None when either is missing."""
    a, b = wall_ns(results, slower), wall_ns(results, baseline)
    return None if a is None or b is None else (a - b) / 1e9


def main():
    path, results = load(sys.argv[1] if len(sys.argv) > 1 else "Benchmarks")
    print(f"From {path} ({len(results)} benchmarks, {os.cpu_count()} cores)\n")
    failures = 0
    for issue, what, value, fmt, ok, bound in sorted(CHECKS + svg_checks(results) + fresh_checks(results) + remote_checks(results), key=lambda c: c[0]):
        asked.clear()
        v = value(results)
        if v is None:
            if any(asked) and not all(asked):
                failures += 1
                print(f"  MISSING  #{issue}  {what}: some of its benchmarks are not in the export  (needs {bound})")
            continue
        passed = ok(v)
        failures += not passed
        print(f"  {'ok  ' if passed else 'FAIL'}  #{issue}  {what}: {fmt.format(v)}  (needs {bound})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
