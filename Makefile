# RasterKit — two commands on a fresh Debian machine with Swift:
#   make demo   installs missing system packages, builds, renders the showcase, says where
#   make test   installs missing system packages, builds, runs the tests (the gate CI runs)
SWIFT ?= swift
OUT ?= out/demo
# Where `swift build` puts debug products (a link SwiftPM keeps to the platform's folder).
BIN := .build/debug

# Libraries RasterKit links (libcurl's headers for `make cli`: a binary with the Swift runtime
# linked in links Foundation's URLSession, which the remote cache uses, against libcurl), the fonts it draws text with, rsvg-convert (the SVG fidelity
# tests compare against it), nginx (the remote cache tests start one with WebDAV on a
# loopback port; its own service is never started or used), wrk (the `rasterkit serve` load
# benchmark, which also starts an nginx of its own), poppler-utils (the PDF output tests read
# documents back with pdftocairo, pdffonts and pdfinfo), aapt (Android's packager: the
# nine-patch tests have it compile every .9.png) and faketime (the key tests run a process on
# dates either side of a daylight-saving switch). The Noto fonts are the documented fallback set
# for scripts and emoji DejaVu lacks (`fallbackFonts: noto`), used only when asked for.
DEBIAN_PACKAGES := libcairo2-dev libpango1.0-dev librsvg2-dev libpng-dev libfontconfig1-dev \
                   libsqlite3-dev libcurl4-openssl-dev fonts-dejavu-core librsvg2-bin libwebp-dev nginx wrk poppler-utils aapt faketime \
                   fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji

.PHONY: all deps build build-tests cli demo check test test-all test-example test-static-keys test-thread docs bench bench-serve fuzz fuzz-build clean

all: build

# Installs only what is missing; without root (and without password-less sudo) it stops and
# prints the command to run.
deps:
	@missing=""; \
	for package in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; \
	  else \
	    echo "error: these Debian packages are missing and installing them needs root:$$missing"; \
	    echo "       run: sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Every debug build here has the SnapshotTesting trait on, so the swift-snapshot-testing
# strategies and their tests are built, and one build folder serves every target: a flag that
# differs between two builds would make SwiftPM compile the package again.
TRAITS := --traits SnapshotTesting

build: deps
	$(SWIFT) build $(TRAITS)

# The rasterkit command for real use: optimised, with the Swift runtime linked in, which halves
# its start-up time (a warm incremental run is mostly start-up); and rasterkit-server beside it,
# which `rasterkit serve` runs.
cli: deps
	$(SWIFT) build -c release --product rasterkit --static-swift-stdlib
	$(SWIFT) build -c release --product rasterkit-server --static-swift-stdlib
	@echo "rasterkit: $(CURDIR)/.build/release/rasterkit (and rasterkit-server beside it)"

# Builds only what it runs: the demo and the command (not the server, the tests or the tools).
demo: deps
	$(SWIFT) build $(TRAITS) --product RasterKitDemo
	$(SWIFT) build $(TRAITS) --product rasterkit
	$(BIN)/RasterKitDemo $(OUT)
	$(BIN)/rasterkit svg Examples/icons --size 24 --size 48 --scale 1 --scale 2 --scale 3 --out $(OUT)/icons
	@echo "Icons: $(OUT)/icons"
	$(BIN)/rasterkit render Examples/showcase.yaml --out $(OUT)/showcase --contact-sheet $(OUT)/showcase-contact-sheet.png
	@echo "Showcase: $(OUT)/showcase (PNGs in light and dark, Showcase.xcassets, drawable-*/ and drawable-night-*/ nine-patches)"
	@echo "Showcase contact sheet: $(OUT)/showcase-contact-sheet.png"

# The test build: the tests and every executable they run. Built as one product rather than with
# --build-tests, which would also build the plugins' tool for the host, a second copy of
# RasterKit and Yams (about two minutes of a fresh build) that no test runs.
build-tests: deps
	$(SWIFT) build $(TRAITS) --product RasterKitPackageTests

# The everyday loop: the build and the core library's tests (RasterKitTests), nothing else.
check: build-tests
	python3 Scripts/readme-snippets.py --check
	python3 Scripts/generate-loader-calls.py --check
	$(SWIFT) test $(TRAITS) --skip-build --filter '^RasterKitTests\.'

# The gate CI runs: every test of the package (the example package's aside, see test-all) and
# the checks of the README's Swift, the doc comments and the core's dependencies. The tests run
# in about two and a half minutes on two cores; after TEST_TIME_LIMIT seconds the watchdog prints
# the tests still running and every thread's stack, and fails the run.
TEST_TIME_LIMIT ?= 600
test: deps
	python3 Scripts/check-doc-comments.py
	python3 Scripts/readme-snippets.py --check
	$(MAKE) --no-print-directory build-tests
	python3 Scripts/check-core-dependencies.py
	Scripts/test-watchdog.py $(TEST_TIME_LIMIT) -- $(SWIFT) test $(TRAITS) --skip-build --skip PluginExampleTests

# Everything before a release (about 40 minutes on two cores): the gate, then what builds
# RasterKit again in another configuration: the example package (as a user's package uses the
# plugins), the statically linked keys, the documentation, and a smoke run of the fuzzers.
test-all: test
	$(MAKE) --no-print-directory test-example
	# The release build of both executables: an optimizer crash can happen in release alone
	# (Swift 6.3 crashed on the package's Lock in the server's throwing initializers).
	$(MAKE) --no-print-directory cli
	$(MAKE) --no-print-directory test-static-keys
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=10 FUZZ_TARGETS="$(FUZZ_SMOKE_TARGETS)"

# Examples/PluginExample built as a user's package is (in .build/plugin-example, so later runs are
# incremental), with RasterKit's build-tool and command plugins.
test-example: build-tests
	$(SWIFT) test $(TRAITS) --skip-build --filter PluginExampleTests

# Cache keys must not depend on how a binary is linked: the probe built with the Swift runtime
# linked statically (as `make cli` builds rasterkit and servers are deployed) must print the
# committed digests the Swift tests check the dynamically linked one against.
# A build folder of its own: objects compiled for a statically linked product carry the static
# libraries' link directives, which SwiftPM would not recompile away for the next plain build.
test-static-keys: deps
	$(SWIFT) build --product RasterKitProbe --static-swift-stdlib --scratch-path .build-static
	python3 Scripts/check-known-digests.py --static .build-static/debug/RasterKitProbe Tests/RasterKitTests/Fixtures/known-digests.json

# DocC documentation of the library targets, with swift-docc-plugin, into .build/docs/<target>
# (static HTML); any documentation warning (an unresolved ``link``, an undocumented parameter)
# fails the build.
DOC_TARGETS := RasterKit RasterKitBatch RasterKitDiff RasterKitTesting RasterKitRemoteCache RasterKitServer

docs: deps
	@mkdir -p .build/docs
	RASTERKIT_MAINTAINER=1 $(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
	  $(foreach target,$(DOC_TARGETS),--target $(target)) --warnings-as-errors --output-path .build/docs
	@echo "Documentation: $(CURDIR)/.build/docs/<target>.doccarchive (serve a folder over HTTP to read it)"

# The whole suite under ThreadSanitizer (slow: a separate build).
test-thread: deps
	$(SWIFT) test $(TRAITS) --sanitize=thread --scratch-path .build-tsan

# Benchmarks, as ratios against baselines measured in the same run (see Benchmarks/README.md).
# The baselines need ImageMagick (`compare`) as well, the sqlite3 shell (to age a store as a
# CI cache restores it), and real icon sets from Debian's mirror.
bench: cli
	@command -v compare >/dev/null || { echo "error: the diff benchmark compares with ImageMagick: apt-get install imagemagick"; exit 1; }
	@command -v sqlite3 >/dev/null || { echo "error: the restored-store benchmarks age a store with the sqlite3 shell: apt-get install sqlite3"; exit 1; }
	Scripts/fetch-icons.sh
	cd Benchmarks && RASTERKIT_BINARY=$(CURDIR)/.build/release/rasterkit \
	  $(SWIFT) package --allow-writing-to-package-directory benchmark --format jmh
	python3 Benchmarks/ratios.py Benchmarks

# `rasterkit serve` under wrk on loopback: warm hits against nginx serving the same PNG, 304s,
# 1,000 cold keys, and 256 connections against a full render queue (Benchmarks/Serve).
bench-serve: cli
	python3 Benchmarks/Serve/serve_load.py --binary $(CURDIR)/.build/release/rasterkit

# libFuzzer with AddressSanitizer over every input a stranger can hand RasterKit (see
# Fuzz/README.md): FUZZ_SECONDS each (`make test-all` runs a 10-second smoke of all but FuzzServerRequest). New inputs
# go to Fuzz/.build/corpus, crashes to Fuzz/.build/crashes; the seeds in Fuzz/Corpus stay as
# they are. FUZZ_JOBS > 1 runs that many fuzzing processes per target at once.
FUZZ_TARGETS := FuzzSVGPathData FuzzPNGDecode FuzzManifest FuzzSVGDocument FuzzRemoteObject FuzzRunPack FuzzServerRequest
# Harnesses whose code keeps what it read in caches that live for the process (a server's
# catalog, a batch's per-thread document), which LeakSanitizer reports because it cannot follow
# Swift's tagged references: run without leak checks (see Fuzz/README.md).
FUZZ_WITHOUT_LEAK_CHECKS := FuzzRunPack FuzzServerRequest
# `make test-all`'s smoke run: every target but the server's, whose release build with
# AddressSanitizer (swift-nio, Hummingbird) would double the time the smoke takes.
FUZZ_SMOKE_TARGETS := $(filter-out FuzzServerRequest,$(FUZZ_TARGETS))
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 1

# Builds only the targets asked for, so a run without FuzzServerRequest builds no swift-nio or
# Hummingbird (the smoke run `make test-all` ends with leaves that harness to `make fuzz`).
fuzz-build: deps
	cd Fuzz && for target in $(FUZZ_TARGETS); do \
	  $(SWIFT) build -c release --product $$target -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xswiftc -enable-testing || exit 1; \
	done

# With FUZZ_JOBS > 1 libFuzzer runs that many processes, each logging to Fuzz/.build/fuzz-N.log.
FUZZ_PARALLEL = $(if $(filter 1,$(FUZZ_JOBS)),,-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS))

fuzz: fuzz-build
	@cd Fuzz/.build && mkdir -p crashes && for target in $(FUZZ_TARGETS); do \
	  mkdir -p corpus/$$target; \
	  echo "fuzzing $$target for $(FUZZ_SECONDS) s ($(FUZZ_JOBS) process(es))"; \
	  leaks=1; case " $(FUZZ_WITHOUT_LEAK_CHECKS) " in *" $$target "*) leaks=0;; esac; \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp ASAN_OPTIONS=detect_leaks=$$leaks \
	  ./release/$$target -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -detect_leaks=$$leaks $(FUZZ_PARALLEL) \
	    -print_final_stats=1 -artifact_prefix=crashes/$$target- $$([ -f ../Corpus/$$target.dict ] && echo -dict=../Corpus/$$target.dict) \
	    corpus/$$target $$([ -d ../Corpus/$$target ] && echo ../Corpus/$$target) \
	    > $$target.log 2>&1 \
	    || { tail -60 $$target.log; echo "error: $$target failed; the input is in Fuzz/.build/crashes"; exit 1; }; \
	  for log in fuzz-*.log; do [ -f "$$log" ] && mv "$$log" "$$target-$$log"; done; \
	  grep -hE "^(Done|stat::number_of_executed_units)" $$target.log $$target-fuzz-*.log 2>/dev/null | tail -$(FUZZ_JOBS); \
	done

clean:
	rm -rf .build .build-tsan .build-static out Benchmarks/.build Fuzz/.build Examples/PluginExample/.build
