#!/usr/bin/env python3
"""Counts public and open declarations without a `///` doc comment and fails above zero.

Usage: Scripts/check-doc-comments.py [--list] [folder ...]   (default: Sources)

A declaration is documented when the nearest non-attribute line above it is a `///` comment
(or the end of a `/** … */` block). Members of a public extension that conform to a protocol
(`public var description`, `public static func ==`, `public func hash(into:)`, `public init(from:)`,
`public func encode(to:)`) are exempt: their documentation is the protocol's.
"""
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open)\s+)(?:(?:final|static|class|override|nonisolated|mutating|"
    r"convenience|required|indirect|lazy|weak|unowned|dynamic|borrowing|consuming|package)\s+)*"
    r"(?:private\(set\)\s+|internal\(set\)\s+)?"
    r"(func|var|let|init|subscript|struct|class|enum|protocol|actor|typealias|case|associatedtype|extension|macro)\b")
WITNESSES = re.compile(
    r"public\s+(?:static\s+func\s+(?:==|<|~=)|var\s+(?:description|debugDescription|hashValue|errorDescription|"
    r"localizedDescription)\b|func\s+hash\(into|init\(from decoder|func\s+encode\(to encoder|"
    r"(?:nonisolated\s+)?func\s+makeIterator|var\s+(?:startIndex|endIndex)\b|func\s+index\(after|subscript\(position)")


def undocumented(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match or match.group(1) == "extension" or WITNESSES.search(line):
            continue
        above = number - 1
        while above >= 0 and lines[above].strip().startswith("@"):
            above -= 1
        previous = lines[above].strip() if above >= 0 else ""
        if previous.startswith("///") or previous.endswith("*/"):
            continue
        found.append((path, number + 1, line.strip()))
    return found


def main(arguments):
    listing = "--list" in arguments
    folders = [argument for argument in arguments if argument != "--list"] or ["Sources"]
    missing = []
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith(".swift"):
                    missing += undocumented(os.path.join(root, name))
    if listing or missing:
        for path, number, text in missing:
            print(f"{path}:{number}: undocumented public declaration: {text}")
    print(f"{len(missing)} public declaration(s) without a doc comment")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
