/* ground_truth.c — build/ground-truth: the dynamic ground truth of kcost's counts (dynamic.c) over a manifest.
 *
 *   ground-truth [OPTIONS] MANIFEST...
 *   ground-truth [OPTIONS] --file FILE [NAME=VALUE...] [-- FLAGS...]
 *
 * A MANIFEST has one line per source file, `FILE [NAME=VALUE | extent:NAME=EXPR ...] [-- COMPILE FLAGS...]`
 * (extent: kcost's --extent, for a gather's table), paths relative to the
 * manifest's directory, `#` to the end of the line a comment. NAME=VALUE are kcost's --size overrides (none: the
 * sizes come from KCOST_SIZES or from the file's call sites); the flags reach the analysis and the compile.
 * Prints one line per reported function, `CLASS FILE:LINE FUNCTION DETAIL` (CLASS: exact-right, exact-wrong,
 * flagged, not-run, skipped; FILE as the manifest spells it), then a tally per class. Exit status 1 when some
 * function is exact-wrong, 2 for a bad command line or manifest, else 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dynamic.h"

#ifndef CLANG
#define CLANG "clang-19"
#endif
#ifndef KCOST_SOURCE_DIR
#define KCOST_SOURCE_DIR "."
#endif

static const char usage[] =
    "usage: ground-truth [OPTIONS] MANIFEST...\n"
    "       ground-truth [OPTIONS] --file FILE [NAME=VALUE...] [-- FLAGS...]\n"
    "Runs every function kcost marks exact, instrumented, and compares what it executed with kcost's counts.\n"
    "MANIFEST lines: FILE [NAME=VALUE | extent:NAME=EXPR ...] [-- COMPILE FLAGS...]\n"
    "  (paths relative to the manifest; # comments; extent: as kcost's --extent)\n"
    "Options:\n"
    "  --clang CLANG      the clang that compiles to LLVM IR (default: " CLANG ")\n"
    "  --include DIR      the directory of kcost.h (default: the source tree's annotations/)\n"
    "  --function REGEX   only functions whose name matches (POSIX extended regex)\n"
    "  --timeout SECONDS  limit of one instrumented run (default: 300)\n"
    "  --work DIR         scratch directory (default: a temporary one, removed at the end)\n"
    "  --quiet            print only exact-wrong and not-run lines, and the tally\n"
    "Prints `CLASS FILE:LINE FUNCTION DETAIL` per function and a tally; exit 1 if any is exact-wrong.\n";

struct tally {
	int n[KC_GT_N_CLASSES];
	int files;
};

struct ctx {
	struct kc_gt_opts o;
	const char *work_root;
	int quiet;
	struct tally t;
};

/* Check one manifest entry: words[0] the file, then sizes, then `--` and flags. */
static int run_entry(struct ctx *c, const char *base, const char *shown_prefix, char **words, int n, const char *where)
{
	struct kc_size_override sizes[64];
	struct kc_extent_override extents[64];
	int n_sizes = 0, n_extents = 0, i = 1;
	for (; i < n && strcmp(words[i], "--"); i++) {
		char *eq = strchr(words[i], '='), *end;
		if (!strncmp(words[i], "extent:", 7) && eq && eq > words[i] + 7 && eq[1] && n_extents < 64) {
			*eq = '\0';
			extents[n_extents++] = (struct kc_extent_override){words[i] + 7, eq + 1};
			continue;
		}
		if (!eq || eq == words[i] || n_sizes == 64) {
			fprintf(stderr, "ground-truth: %s: `%s` is not NAME=VALUE (flags go after `--`)\n", where,
			        words[i]);
			return -1;
		}
		*eq = '\0';
		errno = 0;
		long long v = strtoll(eq + 1, &end, 10);
		if (errno || *end || end == eq + 1) {
			fprintf(stderr, "ground-truth: %s: the value of %s is not an integer\n", where, words[i]);
			return -1;
		}
		sizes[n_sizes++] = (struct kc_size_override){words[i], v};
	}
	const char *const *flags = i < n ? (const char *const *)words + i + 1 : NULL;
	int n_flags = i < n ? n - i - 1 : 0;

	struct kc_gt_opts o = c->o;
	o.flags = flags, o.n_flags = n_flags, o.sizes = sizes, o.n_sizes = n_sizes, o.base_dir = base;
	o.extents = extents, o.n_extents = n_extents;
	char work[PATH_MAX];
	snprintf(work, sizeof work, "%s/%d", c->work_root, c->t.files);
	o.work_dir = work;
	struct kc_gt_file res;
	int rc = kc_gt_check_file(words[0], &o, &res);
	if (words[0][0] == '/')
		shown_prefix = "";
	c->t.files++;
	if (res.error) {
		printf("not-run %s%s:0 (file) %s\n", shown_prefix, words[0], res.error);
		c->t.n[KC_GT_NOT_RUN]++;
	}
	for (int k = 0; k < res.n; k++) {
		const struct kc_gt_result *r = &res.results[k];
		c->t.n[r->cls]++;
		if (c->quiet && r->cls != KC_GT_EXACT_WRONG && r->cls != KC_GT_NOT_RUN)
			continue;
		printf("%s %s%s:%u %s %s\n", kc_gt_class_name(r->cls), shown_prefix, words[0], r->line, r->function,
		       r->detail ? r->detail : "");
	}
	fflush(stdout);
	kc_gt_file_release(&res);
	return rc;
}

static int run_manifest(struct ctx *c, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "ground-truth: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	char *copy = strdup(path), *slash = strrchr(copy, '/');
	const char *base = ".";
	if (slash) {
		*slash = '\0';
		base = slash == copy ? "/" : copy;
	}
	/* lines print the file as the manifest spells it, prefixed with the manifest's directory */
	char prefix[PATH_MAX + 2] = "";
	if (slash)
		snprintf(prefix, sizeof prefix, "%s/", base);
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, bad = 0;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *words[512], *save = NULL;
		int n = 0;
		for (char *w = strtok_r(line, " \t\r\n", &save); w && n < 512; w = strtok_r(NULL, " \t\r\n", &save))
			words[n++] = w;
		if (!n)
			continue;
		char where[PATH_MAX + 32];
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		if (run_entry(c, base, prefix, words, n, where) < 0)
			bad = 1;
	}
	free(line);
	free(copy);
	fclose(f);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct ctx c = {.o = {.clang = CLANG, .include_dir = KCOST_SOURCE_DIR "/annotations"}};
	const char *work = NULL;
	int i = 1, one_file = 0;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(a, "--quiet"))
			c.quiet = 1;
		else if (!strcmp(a, "--file")) {
			one_file = 1;
			i++;
			break;
		} else if (v && !strcmp(a, "--clang"))
			c.o.clang = v, i++;
		else if (v && !strcmp(a, "--include"))
			c.o.include_dir = v, i++;
		else if (v && !strcmp(a, "--function"))
			c.o.function_regex = v, i++;
		else if (v && !strcmp(a, "--timeout"))
			c.o.timeout = atoi(v), i++;
		else if (v && !strcmp(a, "--work"))
			work = v, i++;
		else {
			fprintf(stderr, "ground-truth: unknown option %s\n%s", a, usage);
			return 2;
		}
	}
	if (i >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	char tmp[PATH_MAX];
	if (!work) {
		const char *t = getenv("TMPDIR");
		snprintf(tmp, sizeof tmp, "%s/ground-truth.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmp)) {
			fprintf(stderr, "ground-truth: cannot create a temporary directory: %s\n", strerror(errno));
			return 2;
		}
		c.work_root = tmp;
	} else
		c.work_root = work;

	int bad = 0;
	if (one_file)
		bad = run_entry(&c, NULL, "", argv + i, argc - i, "--file") < 0;
	else
		for (; i < argc; i++)
			bad |= run_manifest(&c, argv[i]) < 0;

	if (!work) {
		char cmd[PATH_MAX + 32];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp); /* mkdtemp's name: no quote in it */
		if (system(cmd) != 0)
			fprintf(stderr, "ground-truth: could not remove %s\n", tmp);
	}
	int total = 0;
	for (int k = 0; k < KC_GT_N_CLASSES; k++)
		total += c.t.n[k];
	printf("tally: %d files, %d functions:", c.t.files, total);
	for (int k = 0; k < KC_GT_N_CLASSES; k++)
		printf("%s %s %d", k ? "," : "", kc_gt_class_name((enum kc_gt_class)k), c.t.n[k]);
	printf("\n");
	if (c.t.n[KC_GT_EXACT_WRONG])
		return 1;
	return bad ? 2 : 0;
}
