#!/usr/bin/env python3
"""Print C function definitions verbatim from a file of a bare git mirror (tests/corpus/ provenance).

usage: corpus-extract.py GIT_DIR COMMIT PATH NAME...

Each NAME's definition (from the line its signature starts on to its closing brace, comments and
blank lines inside kept) is printed in the order given, separated by one blank line. A definition is
found as a line that starts with a return type and NAME followed by '(' and whose parameter list is
followed by '{' (on the same or a later line) rather than ';'. Braces inside string and character
literals and comments are skipped when matching. Exit status 1 if a NAME is not found.
"""
import re
import subprocess
import sys


def strip_literals(line, in_comment):
    """The line with comments and literals blanked (same length), and the comment state after it."""
    out = []
    i = 0
    while i < len(line):
        if in_comment:
            if line.startswith("*/", i):
                in_comment = False
                out.append("  ")
                i += 2
            else:
                out.append(" ")
                i += 1
        elif line.startswith("/*", i):
            in_comment = True
            out.append("  ")
            i += 2
        elif line.startswith("//", i):
            out.append(" " * (len(line) - i))
            break
        elif line[i] in "\"'":
            q = line[i]
            j = i + 1
            while j < len(line) and line[j] != q:
                j += 2 if line[j] == "\\" else 1
            out.append(" " * (min(j + 1, len(line)) - i))
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_comment


def find_function(lines, name):
    sig = re.compile(r"^[A-Za-z_][\w \t\*]*\b" + re.escape(name) + r"\s*\(")
    clean = []
    in_comment = False
    for line in lines:
        c, in_comment = strip_literals(line, in_comment)
        clean.append(c)
    for start, c in enumerate(clean):
        if not sig.match(c):
            continue
        # the signature ends at the first '{' or ';' after the parameter list
        depth = 0
        j = start
        found = None
        while j < len(clean) and found is None:
            for ch in clean[j]:
                if ch == "(":
                    depth += 1
                elif ch == ")":
                    depth -= 1
                elif depth == 0 and ch in "{;":
                    found = ch
                    break
            if found is None:
                j += 1
        if found != "{":
            continue
        depth = 0
        for k in range(j, len(clean)):
            depth += clean[k].count("{") - clean[k].count("}")
            if depth == 0 and "}" in clean[k]:
                return start, k
    return None


def main():
    if len(sys.argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    git_dir, commit, path = sys.argv[1:4]
    text = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = text.split("\n")
    status = 0
    first = True
    for name in sys.argv[4:]:
        span = find_function(lines, name)
        if span is None:
            sys.stderr.write(f"corpus-extract: {name} not found in {path}\n")
            status = 1
            continue
        if not first:
            print()
        first = False
        print(f"/* {path}:{span[0] + 1}-{span[1] + 1} */")
        print("\n".join(lines[span[0] : span[1] + 1]))
    return status


if __name__ == "__main__":
    sys.exit(main())
