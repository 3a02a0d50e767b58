#!/usr/bin/env python3
"""A quick dynamic cross-check of kcost's FLOP counts on the corpus (not the ground-truth checker).

usage: corpus-quickcheck.py CORPUS_DIR MANIFEST_LINE OUT_DIR

Compiles a driver that #includes the MANIFEST line's file to LLVM IR at -O0 (clang-19,
-ffp-contract=off), inserts a counter call after every fadd/fsub/fmul/fdiv (by precision; an
llvm.fmuladd or fma as one mul and one add, as kcost counts the source) and after every call of a libm
function kcost counts as a transcendental (not when all its arguments are constants, which kcost does
not count either), runs each function of the file once in a child process and prints one line per
function: file, name, the counts. Each integer (or enum) parameter gets its MANIFEST value, each
floating-point scalar 0.5, each pointer a buffer of 16 MiB (the pointer in its middle, so negative
offsets stay inside) filled with 0.75 (floating) or 1 (integer). A function with a pointer-to-pointer
or a structure parameter is skipped. When the link fails on a function of another file of the same
directory, that file is linked in (uninstrumented: the callee's FLOPs are not counted).
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

RUNTIME = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* counters: op kind (0 add,1 sub,2 mul,3 div) x precision (0 float, 1 double, 2 long double) */
unsigned long long kq_ops[4][3];
unsigned long long kq_calls[64];
void kq_op(int op, int prec) { kq_ops[op][prec]++; }
void kq_call(int id) { kq_calls[id]++; }
void kq_reset(void) { memset(kq_ops, 0, sizeof kq_ops); memset(kq_calls, 0, sizeof kq_calls); }
extern const char *kq_names[];
void kq_print(const char *fn)
{
	unsigned long long tot = 0;
	for (int o = 0; o < 4; o++)
		for (int p = 0; p < 3; p++)
			tot += kq_ops[o][p];
	printf("%s\tflops=%llu\tadd=%llu,%llu\tsub=%llu,%llu\tmul=%llu,%llu\tdiv=%llu,%llu\tfloat=%llu\tdouble=%llu\tcalls=", fn, tot,
	       kq_ops[0][0], kq_ops[0][1], kq_ops[1][0], kq_ops[1][1], kq_ops[2][0], kq_ops[2][1], kq_ops[3][0], kq_ops[3][1],
	       kq_ops[0][0] + kq_ops[1][0] + kq_ops[2][0] + kq_ops[3][0], kq_ops[0][1] + kq_ops[1][1] + kq_ops[2][1] + kq_ops[3][1]);
	for (int i = 0; kq_names[i]; i++)
		if (kq_calls[i])
			printf("%s:%llu,", kq_names[i], kq_calls[i]);
	printf("\n");
	fflush(stdout);
}
"""

NAMES = []
for b in ("exp exp2 expm1 log log2 log10 log1p pow sqrt cbrt sin cos tan asin acos atan atan2 sinh cosh "
          "tanh asinh acosh atanh erf erfc tgamma lgamma hypot").split():
    NAMES += [b, b + "f", b + "l"]
NAME_ID = {n: i for i, n in enumerate(NAMES)}
INTS = {"char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int", "unsigned",
        "long", "unsigned long", "long long", "unsigned long long", "size_t", "ptrdiff_t", "int32_t",
        "int64_t", "uint32_t", "uint64_t", "int16_t", "uint16_t", "int8_t", "uint8_t", "short int"}
FLOATS = {"float", "double", "long double"}


def strip(q):
    q = re.sub(r"\b(const|volatile|restrict|__restrict|__restrict__)\b", "", q)
    return re.sub(r"\s+", " ", q).strip()


def resolve(q, typedefs):
    q = strip(q)
    seen = set()
    while q in typedefs and q not in seen:
        seen.add(q)
        q = strip(typedefs[q])
    return q


def main():
    corpus, line, out = sys.argv[1], sys.argv[2], sys.argv[3]
    file = line.split()[0]
    rest = line[len(file):]
    if " -- " in rest:
        sizes_s, flags_s = rest.split(" -- ", 1)
    else:
        sizes_s, flags_s = rest, ""
    sizes = dict(s.split("=", 1) for s in sizes_s.split())
    flags = shlex.split(flags_s)
    os.makedirs(out, exist_ok=True)
    os.chdir(corpus)
    ast = json.loads(subprocess.run(["clang-19", "-Xclang", "-ast-dump=json", "-fsyntax-only", "-w", *flags, file],
                                    check=True, capture_output=True, text=True).stdout)
    typedefs = {}
    for d in ast.get("inner", []):
        if d.get("kind") == "TypedefDecl" and "name" in d:
            typedefs[d["name"]] = d.get("type", {}).get("qualType", "")
        if d.get("kind") in ("RecordDecl",) and d.get("name"):
            pass
    real = os.path.realpath(file)
    cur = None
    funcs = []
    for d in ast.get("inner", []):
        loc = d.get("loc", {})
        f = loc.get("file") or loc.get("expansionLoc", {}).get("file")
        if f:
            cur = os.path.realpath(f)
        if d.get("kind") != "FunctionDecl" or cur != real:
            continue
        inner = d.get("inner", [])
        if not any(x.get("kind") == "CompoundStmt" for x in inner):
            continue
        params = [p for p in inner if p.get("kind") == "ParmVarDecl"]
        funcs.append((d["name"], params))
    cases = []
    skipped = {}
    for idx, (name, params) in enumerate(funcs):
        decls, args, ok = [], [], True
        for k, p in enumerate(params):
            t = p.get("type", {})
            q = resolve(t.get("desugaredQualType", t.get("qualType", "")), typedefs)
            pname = p.get("name", f"p{k}")
            if q in INTS or q.startswith("enum ") or q in typedefs and resolve(q, typedefs).startswith("enum"):
                v = sizes.get(pname, "0")
                args.append(f"({v})")
            elif q in FLOATS:
                args.append("0.5")
            elif "*" in q or "[" in q:
                if q.count("*") + q.count("[") > 1 and "(*" not in q:
                    ok = False
                    skipped[name] = f"parameter {pname}: {q}"
                    break
                base = resolve(re.sub(r"\(\*\s*\)|\*|\[[^\]]*\]", "", q).strip(), typedefs)
                if "double" in base:
                    fill = "double"
                elif base in INTS or base.startswith("enum"):
                    fill = "int" if base not in ("char", "signed char", "unsigned char", "int8_t", "uint8_t") else "char"
                    if base in ("long", "unsigned long", "long long", "size_t", "int64_t", "uint64_t"):
                        fill = "long"
                    if base in ("short", "unsigned short", "int16_t", "uint16_t"):
                        fill = "short"
                else:
                    fill = "float"
                decls.append(f"void *b{k} = kq_buf(\"{fill}\");")
                args.append(f"(void *)b{k}")
            else:
                ok = False
                skipped[name] = f"parameter {pname}: {q}"
                break
        if ok:
            cases.append((idx, name, decls, args))
    drv = [f'#include "{os.path.join(corpus, file)}"', "#include <sys/mman.h>", "#include <string.h>",
           "#include <stdlib.h>", "void kq_reset(void); void kq_print(const char *);",
           "const char *kq_names[] = {" + ", ".join(f'"{n}"' for n in NAMES) + ", 0};",
           "#define KQ_HALF (8u << 20)",
           "static void *kq_buf(const char *kind) {",
           "  char *m = mmap(0, 2 * KQ_HALF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);",
           "  char *p = m + KQ_HALF; size_t n = KQ_HALF;",
           "  if (!strcmp(kind, \"double\")) { double *d = (double *)m; for (size_t i = 0; i < 2 * n / 8; i++) d[i] = 0.75; }",
           "  else if (!strcmp(kind, \"float\")) { float *d = (float *)m; for (size_t i = 0; i < 2 * n / 4; i++) d[i] = 0.75f; }",
           "  else if (!strcmp(kind, \"long\")) { long *d = (long *)m; for (size_t i = 0; i < 2 * n / 8; i++) d[i] = 1; }",
           "  else if (!strcmp(kind, \"short\")) { short *d = (short *)m; for (size_t i = 0; i < 2 * n / 2; i++) d[i] = 1; }",
           "  else if (!strcmp(kind, \"char\")) { memset(m, 1, 2 * n); }",
           "  else { int *d = (int *)m; for (size_t i = 0; i < 2 * n / 4; i++) d[i] = 1; }",
           "  return p; }",
           "int main(int argc, char **argv) { int which = atoi(argv[1]); switch (which) {"]
    for idx, name, decls, args in cases:
        drv.append(f"case {idx}: {{ {' '.join(decls)} kq_reset(); {name}({', '.join(args)}); kq_print(\"{name}\"); break; }}")
    drv.append("} return 0; }")
    with open(os.path.join(out, "drv.c"), "w") as fh:
        fh.write("\n".join(drv) + "\n")
    ll = os.path.join(out, "drv.ll")
    r = subprocess.run(["clang-19", "-O0", "-ffp-contract=off", "-w", "-S", "-emit-llvm", *flags, "-o", ll,
                        os.path.join(out, "drv.c")], capture_output=True, text=True)
    if r.returncode:
        print("COMPILE-FAIL", file, r.stderr[:500])
        return 1
    ops = {"fadd": 0, "fsub": 1, "fmul": 2, "fdiv": 3}
    precs = {"float": 0, "double": 1, "x86_fp80": 2}
    res = []
    opre = re.compile(r"^\s+%\S+ = (fadd|fsub|fmul|fdiv)\b(?:\s+\w+)*?\s+(float|double|x86_fp80)\s")
    callre = re.compile(r"\bcall\b.*?@(\w+)\(")
    for l in open(ll):
        res.append(l)
        m = opre.match(l)
        if m:
            res.append(f"  call void @kq_op(i32 {ops[m.group(1)]}, i32 {precs[m.group(2)]})\n")
            continue
        m = re.search(r"call (float|double|x86_fp80) @(llvm\.fmuladd|llvm\.fma|fmaf?l?)\b", l)
        if m:
            res.append(f"  call void @kq_op(i32 2, i32 {precs[m.group(1)]})\n")
            res.append(f"  call void @kq_op(i32 0, i32 {precs[m.group(1)]})\n")
            continue
        m = callre.search(l)
        args_s = l[m.end():] if m else ""
        if m and m.group(1) in NAME_ID and not l.lstrip().startswith("declare") and "%" in args_s.split(")")[0]:
            res.append(f"  call void @kq_call(i32 {NAME_ID[m.group(1)]})\n")
    res.append("declare void @kq_op(i32, i32)\ndeclare void @kq_call(i32)\n")
    with open(os.path.join(out, "drv.inst.ll"), "w") as fh:
        fh.writelines(res)
    exe = os.path.join(out, "drv")
    rt = os.path.join(out, "rt.c")
    with open(rt, "w") as fh:
        fh.write(RUNTIME)
    extra = []
    for _ in range(3):
        r = subprocess.run(["clang-19", "-O0", "-w", "-o", exe, os.path.join(out, "drv.inst.ll"), rt, *extra,
                            *flags, "-lm"], capture_output=True, text=True)
        if not r.returncode:
            break
        missing = set(re.findall(r"undefined reference to `(\w+)'", r.stderr))
        d = os.path.dirname(file)
        more = [os.path.join(d, s) for s in sorted(os.listdir(d)) if s.endswith(".c") and os.path.join(d, s) != file
                and os.path.join(d, s) not in extra
                and any(re.search(r"^[A-Za-z_][\w \t\*]*\b" + m + r"\s*\(", open(os.path.join(d, s)).read(), re.M)
                        for m in missing)]
        if not more:
            break
        extra += more
    if r.returncode:
        print("LINK-FAIL", file, r.stderr[:800])
        return 1
    for idx, name, decls, args in cases:
        try:
            p = subprocess.run([exe, str(idx)], capture_output=True, text=True, timeout=20)
            if p.returncode or not p.stdout.strip():
                print(f"{file}\t{name}\tRUN-FAIL rc={p.returncode}")
            else:
                print(f"{file}\t" + p.stdout.strip().splitlines()[-1])
        except subprocess.TimeoutExpired:
            print(f"{file}\t{name}\tTIMEOUT")
    for name, why in skipped.items():
        print(f"{file}\t{name}\tSKIPPED {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
