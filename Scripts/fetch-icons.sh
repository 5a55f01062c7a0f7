#!/usr/bin/env bash
# Fetches real SVG icon sets from Debian's icon-theme packages, for the SVG fidelity tests and
# benchmarks. Nothing it fetches is committed.
#
#   Scripts/fetch-icons.sh [DEST]        DEST defaults to .build/icons
#
# For each set it downloads the package with `apt-get download` (no root needed once apt's
# package lists exist), extracts it, and copies up to $RASTERKIT_ICON_COUNT (default 200)
# distinct SVGs, evenly spread over the theme, into DEST/<set>/. A set already fetched is kept.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$root/.build/icons}"
count="${RASTERKIT_ICON_COUNT:-200}"

# set name, Debian package, folder inside the package to take icons from
sets=(
  "adwaita adwaita-icon-theme usr/share/icons/Adwaita/scalable"
  "breeze breeze-icon-theme usr/share/icons/breeze"
  "papirus papirus-icon-theme usr/share/icons/Papirus/48x48"
)

download() {
  local package="$1" folder="$2"
  (cd "$folder" && apt-get download "$package" >/dev/null 2>&1) && return 0
  # A fresh machine may have no package lists yet; only root can fetch them.
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null 2>&1 || true
    (cd "$folder" && apt-get download "$package" >/dev/null)
  else
    echo "fetch-icons: apt-get download $package failed (run 'sudo apt-get update' first?)" >&2
    return 1
  fi
}

mkdir -p "$dest"
for entry in "${sets[@]}"; do
  read -r name package theme <<<"$entry"
  target="$dest/$name"
  if [ -f "$target/.complete" ]; then continue; fi
  work="$(mktemp -d "$dest/.work-$name.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  download "$package" "$work"
  dpkg-deb -x "$work"/*.deb "$work/root"
  rm -rf "$target"
  mkdir -p "$target"
  # Regular files only (themes link many names to one icon), one copy of each content, in a
  # stable order, then every k-th so the selection spans the whole theme.
  find "$work/root/$theme" -type f -name '*.svg' -print0 | LC_ALL=C sort -z | xargs -0 sha1sum |
    awk '!seen[$1]++ { print $2 }' >"$work/all.txt"
  total="$(wc -l <"$work/all.txt")"
  step=$(( total > count ? total / count : 1 ))
  awk -v step="$step" -v count="$count" '(NR - 1) % step == 0 && taken < count { print; taken++ }' "$work/all.txt" |
    while read -r file; do
      relative="${file#"$work/root/$theme/"}"
      cp "$file" "$target/$(printf '%s' "$relative" | tr '/' '_')"
    done
  echo "$package $(dpkg-deb -f "$work"/*.deb Version)" >"$target/.complete"
  echo "fetch-icons: $(find "$target" -name '*.svg' | wc -l) icons from $package in $target"
  rm -rf "$work"
  trap - EXIT
done
