# RasterKit — two commands on a fresh Debian machine with Swift:
#   make demo   installs missing system packages, builds, renders the showcase, says where
#   make test   installs missing system packages, builds, runs every test
SWIFT ?= swift
OUT ?= out/demo

# Libraries RasterKit links, the fonts it draws text with, and rsvg-convert (the SVG fidelity
# tests compare against it).
DEBIAN_PACKAGES := libcairo2-dev libpango1.0-dev librsvg2-dev libpng-dev libfontconfig1-dev \
                   libsqlite3-dev fonts-dejavu-core librsvg2-bin

.PHONY: all deps build cli demo test test-thread bench clean

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

build: deps
	$(SWIFT) build

# The rasterkit command for real use: optimised, with the Swift runtime linked in, which halves
# its start-up time (a warm incremental run is mostly start-up).
cli: deps
	$(SWIFT) build -c release --product rasterkit --static-swift-stdlib
	@echo "rasterkit: $(CURDIR)/.build/release/rasterkit"

demo: build
	$(SWIFT) run --skip-build RasterKitDemo $(OUT)
	$(SWIFT) run --skip-build rasterkit svg Examples/icons --size 24 --size 48 --scale 1 --scale 2 --scale 3 --out $(OUT)/icons
	@echo "Icons: $(OUT)/icons"
	$(SWIFT) run --skip-build rasterkit render Examples/showcase.yaml --out $(OUT)/showcase --contact-sheet $(OUT)/showcase-contact-sheet.png
	@echo "Showcase: $(OUT)/showcase (PNGs, Showcase.xcassets, drawable-*/ nine-patches)"
	@echo "Showcase contact sheet: $(OUT)/showcase-contact-sheet.png"

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The whole suite under ThreadSanitizer (slow: a separate build).
test-thread: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# Benchmarks, as ratios against baselines measured in the same run (see Benchmarks/README.md).
# The baselines need ImageMagick (`compare`) as well, and real icon sets from Debian's mirror.
bench: cli
	@command -v compare >/dev/null || { echo "error: the diff benchmark compares with ImageMagick: apt-get install imagemagick"; exit 1; }
	Scripts/fetch-icons.sh
	cd Benchmarks && RASTERKIT_BINARY=$(CURDIR)/.build/release/rasterkit \
	  $(SWIFT) package --allow-writing-to-package-directory benchmark --format jmh
	python3 Benchmarks/ratios.py Benchmarks

clean:
	rm -rf .build .build-tsan out Benchmarks/.build
