#!/usr/bin/env python3
"""List the functions a corpus file defines and their integer parameters (to choose MANIFEST sizes).

usage: corpus-params.py FILE [CLANG FLAGS...]

Parses FILE with `clang-19 -Xclang -ast-dump=json -fsyntax-only` and prints, for every function
defined in FILE itself (not in its headers), one line: `name: p1 p2 ...`, its parameters of integer
type (int, long, size_t, BLASLONG, const int..., and enums, which kcost takes as sizes too;
not pointers).
"""
import json
import os
import subprocess
import sys

INTEGER = {
    "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
    "unsigned", "long", "unsigned long", "long long", "unsigned long long", "size_t", "BLASLONG",
    "ptrdiff_t", "int32_t", "int64_t", "uint32_t", "uint64_t", "opus_int32",
}


def is_integer(param, typedefs):
    t = param.get("type", {})
    q = t.get("desugaredQualType", t.get("qualType", ""))
    q = q.replace("const ", "").replace("volatile ", "").strip()
    seen = set()
    while q in typedefs and q not in seen and q not in INTEGER:
        seen.add(q)
        q = typedefs[q].replace("const ", "").replace("volatile ", "").strip()
    # an enum is an integer parameter to kcost too (a size that needs a value)
    return q in INTEGER or q.startswith("enum ")


def main():
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    path = sys.argv[1]
    out = subprocess.run(
        ["clang-19", "-Xclang", "-ast-dump=json", "-fsyntax-only", "-w", *sys.argv[2:], path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ast = json.loads(out)
    real = os.path.realpath(path)
    typedefs = {
        d["name"]: d.get("type", {}).get("qualType", "")
        for d in ast.get("inner", [])
        if d.get("kind") == "TypedefDecl" and "name" in d
    }
    current = None
    for decl in ast.get("inner", []):
        loc = decl.get("loc", {})
        # clang omits the file when it is the previous declaration's
        f = loc.get("file") or loc.get("expansionLoc", {}).get("file")
        if f:
            current = os.path.realpath(f)
        if decl.get("kind") != "FunctionDecl" or current != real:
            continue
        inner = decl.get("inner", [])
        if not any(x.get("kind") == "CompoundStmt" for x in inner):
            continue
        params = [p["name"] for p in inner if p.get("kind") == "ParmVarDecl" and is_integer(p, typedefs)]
        print(f"{decl['name']}: {' '.join(params)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
