#!/usr/bin/env python3
"""Writes the call lists of RasterKit's three dlopen loaders (CCairo, CPangoLoader, CRsvgLoader):
one X-macro entry per function a loader binds, R(result, name, parameters, arguments) or
V(name, parameters, arguments), with the prototype the installed headers declare.

Each loader binds two kinds of function:
- the calls Swift makes through it, found as the symbols RasterKit's object files leave
  undefined (build first: `swift build --target RasterKit`); cairo's and fontconfig's are
  defined under their own names, Pango's under an `rk_` prefix;
- the calls the loader's own C makes, written `call_<name>(...)` in its source.

The prototypes come from the headers of Debian's -dev packages (`make deps` installs them); only
cairo's are a build dependency. Pango's and librsvg's types are renamed to the loaders' own
declarations (`PangoLayout *` is `rk_pango_layout *`, GObjects are `void *`), so building needs
none of their headers, and this script checks those declarations against the real ones. Run it
from the package root whenever Swift or a loader starts calling a function it did not call
before: the build fails with an undefined symbol until it does.
"""
import glob
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field


@dataclass
class Library:
    output: str
    macro: str
    description: str
    headers: list
    packages: list
    # Undefined symbols of RasterKit's objects this loader forwards, and the prefix they carry.
    swift_calls: str = None
    swift_prefix: str = ""
    swift_exclude: tuple = ()
    # The loader's C source, whose `call_<name>(` uses are its own calls.
    loader_source: str = None
    # Whole-word type renames, applied in order.
    types: list = field(default_factory=list)
    # The library's own prefix: its functions come first, so a file that is not the library is
    # reported by one of them (`has no rsvg_handle_…`) rather than by a GLib function.
    primary: str = ""


GOBJECT = r"(?:GObject|GInputStream|GFile|GCancellable|GError|RsvgHandle)"

LIBRARIES = [
    Library(
        output="Sources/CCairo/cairo_calls.h", macro="RK_CAIRO", description="cairo, fontconfig, pixman and FreeType",
        primary="cairo_",
        headers=["cairo/cairo.h", "cairo/cairo-pdf.h", "cairo/cairo-svg.h", "fontconfig/fontconfig.h", "pixman.h",
                 "ft2build.h", "freetype/freetype.h"],
        packages=["cairo", "fontconfig", "pixman-1", "freetype2"],
        swift_calls=r"^(cairo_|Fc)", loader_source="Sources/CCairo/cairo_loader.c",
        # FreeType's own types, for the version calls (the loader declares no FreeType header).
        types=[(r"\bFT_Library\s*\*", "void **"), (r"\bFT_Library\b", "void *"), (r"\bFT_Int\b", "int"),
               (r"\bFT_Error\b", "int")]),
    Library(
        output="Sources/CPangoLoader/include/pango_calls.h", macro="RK_PANGO", description="Pango, GObject and HarfBuzz",
        primary="pango_",
        headers=["pango/pangocairo.h", "pango/pangofc-fontmap.h", "hb.h"],
        packages=["pangocairo", "pangoft2", "harfbuzz"],
        swift_calls=r"^rk_(pango_|hb_|g_object_unref$)", swift_prefix="rk_", swift_exclude=("rk_pango_load",),
        types=[(r"\b(?:PangoFontMap|PangoFcFontMap|PangoCairoFontMap)\b", "rk_pango_font_map"),
               (r"\bPangoContext\b", "rk_pango_context"), (r"\bPangoLayout\b", "rk_pango_layout"),
               (r"\bPangoFontDescription\b", "rk_pango_font_description"), (r"\bPangoAttrList\b", "rk_pango_attr_list"),
               (r"\bPangoAttribute\b", "rk_pango_attribute"), (r"\bPangoRectangle\b", "rk_pango_rectangle"),
               (r"\bPangoWrapMode\b", "rk_pango_wrap_mode"), (r"\bPangoEllipsizeMode\b", "rk_pango_ellipsize_mode"),
               (r"\bPangoAlignment\b", "rk_pango_alignment"), (r"\bPangoDirection\b", "rk_pango_direction"),
               (r"\b(?:PangoWeight|PangoUnderline|cairo_font_type_t|gboolean|gint)\b", "int"),
               (r"\bguint16\b", "unsigned short"), (r"\bgchar\b", "char"), (r"\bgpointer\b", "void *"),
               (r"\bFcConfig\b", "struct _FcConfig"), (r"\bcairo_t\b", "struct _cairo"),
               (r"\bcairo_font_options_t\b", "struct _cairo_font_options")]),
    Library(
        output="Sources/CRsvgLoader/rsvg_calls.h", macro="RK_RSVG", description="librsvg, GIO and GLib",
        primary="rsvg_",
        headers=["librsvg/rsvg.h", "gio/gio.h"], packages=["librsvg-2.0"],
        loader_source="Sources/CRsvgLoader/rsvg_loader.c",
        types=[(GOBJECT + r"\s*\*\s*\*", "void **"), (GOBJECT + r"\s*\*", "void *"), (r"\bgpointer\b", "void *"),
               (r"\bGDestroyNotify\b", "rk_destroy_notify"), (r"\b(?:RsvgHandleFlags|gboolean)\b", "int"),
               (r"\bgssize\b", "ssize_t"), (r"\bgdouble\b", "double"), (r"\bcairo_t\s*\*", "void *"),
               (r"\bRsvgRectangle\b", "rk_rsvg_rectangle"),
               (r"\bRsvgLength\b", "rk_rsvg_length")]),
]


def undefined_symbols():
    objects = glob.glob(".build/debug/RasterKit.build/*.o")
    if not objects:
        sys.exit("no .build/debug/RasterKit.build/*.o: run `swift build --target RasterKit` first")
    # binutils' nm, or the one the Swift toolchain ships.
    nm = shutil.which("nm") or shutil.which("llvm-nm") or sys.exit("needs nm (binutils) or llvm-nm")
    listing = subprocess.run([nm, "-u", *objects], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in listing.splitlines() if line.strip()}


def in_order(library, names):
    return sorted(names, key=lambda name: (not name.startswith(library.primary), name))


def swift_calls(library, undefined):
    """The functions Swift calls through the loader, by their libraries' names."""
    if not library.swift_calls:
        return []
    return in_order(library, [symbol[len(library.swift_prefix):] for symbol in undefined
                              if re.match(library.swift_calls, symbol) and symbol not in library.swift_exclude])


def own_calls(library, swift):
    """The functions the loader's C calls itself, as `call_<name>(`."""
    if not library.loader_source:
        return []
    with open(library.loader_source) as file:
        return in_order(library, set(re.findall(r"\bcall_(\w+)\s*\(", file.read())) - set(swift))


def prototypes(library):
    flags = subprocess.run(["pkg-config", "--cflags", *library.packages], capture_output=True, text=True,
                           check=True).stdout.split()
    source = "".join(f"#include <{header}>\n" for header in library.headers)
    # The system's C compiler, or the clang the Swift toolchain ships.
    compiler = shutil.which("cc") or shutil.which("clang") or sys.exit("needs a C compiler (cc or clang)")
    text = subprocess.run([compiler, "-E", "-P", "-x", "c", *flags, "-"], input=source, capture_output=True, text=True,
                          check=True).stdout
    # GLib's headers mark declarations with attributes (deprecation, availability); drop them.
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)", "", text)
    return re.sub(r"\s+", " ", text)


def renamed(text, library):
    for pattern, replacement in library.types:
        text = re.sub(pattern, replacement, text)
    return re.sub(r"\s+", " ", text).replace("* *", "**").strip()


def entry(name, text, library):
    found = re.search(r"(?:^|[;}])\s*([^;{}]*?)\b" + name + r"\s*\(([^;]*?)\)\s*;", text)
    if not found:
        sys.exit(f"no prototype for {name} in {', '.join(library.headers)}")
    result = renamed(found.group(1).replace("extern ", ""), library)
    declared = found.group(2).strip()
    parameters = [] if declared == "void" else [re.sub(r"\*\s+(\w+)$", r"*\1", renamed(p.strip(), library))
                                                for p in declared.split(",")]
    arguments = [re.search(r"(\w+)\s*$", p).group(1) for p in parameters]
    signature = "(" + (", ".join(parameters) or "void") + ")"
    call = "(" + ", ".join(arguments) + ")"
    if result == "void":
        return f"    V({name}, {signature}, {call})"
    return f"    R({result}, {name}, {signature}, {call})"


def main():
    # --check: write nothing, and fail when a list is not what the headers and objects give.
    checking = "--check" in sys.argv[1:]
    stale = []
    undefined = undefined_symbols()
    for library in LIBRARIES:
        text = prototypes(library)
        swift = swift_calls(library, undefined)
        own = own_calls(library, swift)
        contents = (f"// Generated by Scripts/generate-loader-calls.py from the installed headers of {library.description}:\n"
                    "// every function the loader binds, as R(result, name, parameters, arguments) or\n"
                    "// V(name, parameters, arguments) for those that return nothing. Do not edit by hand.\n")
        for macro, names, what in [(f"{library.macro}_CALLS", swift, "The calls Swift makes through the loader."),
                                   (f"{library.macro}_OWN_CALLS", own, "The calls the loader makes itself (call_<name>).")]:
            lines = [entry(name, text, library) for name in names]
            contents += f"\n// {what}\n#define {macro}(R, V)" + "".join(f" \\\n{line}" for line in lines) + "\n"
        if checking:
            with open(library.output) as file:
                if file.read() != contents:
                    stale.append(library.output)
            continue
        with open(library.output, "w") as file:
            file.write(contents)
        print(f"{library.output}: {len(swift)} calls from Swift, {len(own)} of the loader's own")
    if stale:
        sys.exit("not what the headers and objects give (run Scripts/generate-loader-calls.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
