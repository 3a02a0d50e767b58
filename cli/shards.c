/* shards.c — the files of a static analysis in N kcost processes, their reports merged (shards.h).
 *
 * libclang parses are independent per translation unit, and a process per share of the files keeps each
 * parse's limits (memory, CPU time, a crash) its own. Each shard is this kcost run again on its files, with
 * `-j 1 --quiet -o TMP/K`; its stderr (the diagnostics) goes to a file, printed after all shards in file order,
 * so that diagnostics of two shards never interleave. Shards take contiguous runs of the files, so the merged
 * report lists the functions in the order one process would (tests/e2e/test_merge.c: equal functions). */
#define _GNU_SOURCE
#include "shards.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "cleanup.h"
#include "progress.h"
#include "source.h"

int kc_cli_merge_labeled(int argc, char **argv, const char *const *labels); /* merge.c */

int kc_shards_wanted(const struct kc_options *o)
{
	return o->no_run && o->jobs >= 2 && o->n_files >= 2 && !o->baseline;
}

/* Options that take their value as the next word (cli/options.c). */
static int takes_next(const char *a)
{
	static const char *const with_value[] = {"-o",
	                                         "--output",
	                                         "-p",
	                                         "--extent",
	                                         "--scalar",
	                                         "--size",
	                                         "--function",
	                                         "--format",
	                                         "--color",
	                                         "--cc",
	                                         "--cflags",
	                                         "--time-budget",
	                                         "--peak",
	                                         "--bandwidth",
	                                         "--machine",
	                                         "--parse-timeout",
	                                         "--timeout",
	                                         "--memory-limit",
	                                         "--threads",
	                                         "-j",
	                                         "--baseline",
	                                         "--threshold",
	                                         "--fail-on-regression",
	                                         "-I",
	                                         "-D",
	                                         "-U",
	                                         NULL};
	for (int k = 0; with_value[k]; k++)
		if (!strcmp(a, with_value[k]))
			return 1;
	return 0;
}

/* Whether the option (with its value) is the shard's to set: output, format, threads, the file list. */
static int dropped(const char *a)
{
	return !strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--format") || !strcmp(a, "-j") ||
	       !strncmp(a, "--output=", 9) || !strncmp(a, "--format=", 9) || !strncmp(a, "-o=", 3) ||
	       (!strncmp(a, "-j", 2) && a[2]) || !strcmp(a, "--all") || !strcmp(a, "--quiet") || !strcmp(a, "-q");
}

/* argv of shard k: this kcost, the user's options but the dropped ones, then -j 1 --quiet -o DIR, its files, and
 * what followed `--`. */
static char **shard_argv(const struct kc_options *o, int argc, char **argv, const char *exe, const char *dir, int first,
                         int end)
{
	char **v = calloc((size_t)argc + (size_t)(end - first) + 8, sizeof *v);
	int n = 0, i = 1;
	if (!v)
		return NULL;
	v[n++] = (char *)exe;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		int pair = takes_next(a) && i + 1 < argc;
		if (a[0] != '-' || !a[1]) /* an input file: the shards take theirs below */
			continue;
		if (!dropped(a)) {
			v[n++] = argv[i];
			if (pair)
				v[n++] = argv[i + 1];
		}
		i += pair;
	}
	v[n++] = "-j", v[n++] = "1", v[n++] = "--quiet", v[n++] = "-o", v[n++] = (char *)dir;
	for (int f = first; f < end; f++)
		v[n++] = (char *)o->files[f];
	for (; i < argc; i++) /* `--` and the compiler flags after it */
		v[n++] = argv[i];
	v[n] = NULL;
	return v;
}

/* How the merge names shard k in what it prints and writes: its files (its report is in a temporary directory,
 * removed before kcost ends). Up to three are listed; more as "FIRST, ..., LAST (N files)". malloc'd. */
static char *shard_label(const struct kc_options *o, int first, int end)
{
	struct kc_buf b = KC_BUF_INIT;
	for (int f = first; f < end; f++) {
		if (end - first > 3 && f > first && f < end - 1)
			continue;
		kc_buf_puts(&b, f == first ? "" : end - first > 3 && f == end - 1 ? ", ..., " : ", ");
		kc_buf_puts(&b, o->files[f]);
	}
	if (end - first > 3)
		kc_buf_printf(&b, " (%d files)", end - first);
	return kc_buf_detach(&b);
}

int kc_shards_run(const struct kc_options *o, int argc, char **argv)
{
	int n = o->jobs < o->n_files ? o->jobs : o->n_files;
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/kcost-shards-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (len <= 0 || !mkdtemp(dir)) {
		fprintf(stderr, "kcost: error: -j %d: cannot start the shards: %s\n", o->jobs, strerror(errno));
		return KC_EXIT_INTERNAL;
	}
	exe[len] = '\0';
	kc_cleanup_add_path(dir); /* removed on SIGINT or SIGTERM too (the shards end with kcost: one process group) */
	pid_t *pid = calloc((size_t)n, sizeof *pid);
	char **outs = calloc((size_t)n + 6, sizeof *outs), **errs = calloc((size_t)n, sizeof *errs),
	     **labels = calloc((size_t)n, sizeof *labels);
	/* tracked while they run: a signal to kcost alone (not to its process group) kills them before their
	 * directory is removed, or they would write into it again */
	struct kc_cleanup_pid *track = calloc((size_t)n, sizeof *track);
	int status = KC_EXIT_OK;
	if (!pid || !outs || !errs || !labels || !track) {
		free(pid), free(outs), free(errs), free(labels), free(track);
		kc_cleanup_remove_tree(dir);
		kc_cleanup_forget_path(dir);
		return KC_EXIT_INTERNAL;
	}
	kc_progress("analyzing", 0, n, "in shards");
	fflush(NULL);
	for (int k = 0; k < n; k++) {
		struct kc_buf b = KC_BUF_INIT;
		kc_buf_printf(&b, "%s/%d", dir, k);
		outs[k] = kc_buf_detach(&b);
		kc_buf_printf(&b, "%s/%d.err", dir, k);
		errs[k] = kc_buf_detach(&b);
		int first = (int)((long long)o->n_files * k / n), end = (int)((long long)o->n_files * (k + 1) / n);
		labels[k] = shard_label(o, first, end);
		char **v = outs[k] && errs[k] ? shard_argv(o, argc, argv, exe, outs[k], first, end) : NULL;
		kc_cleanup_hold();
		pid[k] = v ? fork() : -1;
		if (pid[k] == 0) {
			kc_cleanup_in_child();
			int fd = open(errs[k], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd >= 0)
				dup2(fd, 2);
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0)
				dup2(null, 1);
			execv(exe, v);
			_exit(127);
		}
		if (pid[k] > 0)
			kc_cleanup_track(&track[k], pid[k]);
		kc_cleanup_release();
		free(v);
	}
	for (int k = 0; k < n; k++) {
		int st = 0;
		while (pid[k] > 0 && waitpid(pid[k], &st, 0) < 0 && errno == EINTR)
			;
		if (pid[k] > 0)
			kc_cleanup_untrack(&track[k]);
		int code = pid[k] <= 0 ? KC_EXIT_INTERNAL : WIFEXITED(st) ? WEXITSTATUS(st) : KC_EXIT_INTERNAL;
		if (code > status && code != KC_EXIT_REGRESSION)
			status = code;
		struct kc_buf text = KC_BUF_INIT; /* the shard's diagnostics, in file order */
		if (errs[k] && kc_buf_read_file(&text, errs[k], (size_t)64 << 20) == 0)
			fputs(kc_buf_str(&text), stderr);
		kc_buf_release(&text);
	}
	kc_progress_done();
	/* the shards' reports as one: kcost merge -o OUT --format F SHARD... */
	const char *format = o->format == KC_FORMAT_JSON ? "json" : o->format == KC_FORMAT_MD ? "md" : "text";
	char *margv[8 + 64];
	char **mv = n + 6 <= 72 ? margv : calloc((size_t)n + 8, sizeof *mv);
	int m = 0;
	if (mv) {
		mv[m++] = "merge", mv[m++] = "-o", mv[m++] = (char *)(o->out_dir ? o->out_dir : "kcost-report");
		mv[m++] = "--format", mv[m++] = (char *)format;
		for (int k = 0; k < n; k++)
			mv[m++] = outs[k];
		mv[m] = NULL;
		fflush(stdout);
		int saved = -1;
		if (o->quiet) { /* the merge prints its summary: not with --quiet */
			saved = dup(1);
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0)
				dup2(null, 1), close(null);
		}
		int merged = kc_cli_merge_labeled(m, mv, (const char *const *)labels);
		fflush(stdout);
		if (saved >= 0)
			dup2(saved, 1), close(saved);
		if (merged > status)
			status = merged;
		if (mv != margv)
			free(mv);
	} else {
		status = KC_EXIT_INTERNAL;
	}
	kc_cleanup_remove_tree(dir);
	kc_cleanup_forget_path(dir);
	for (int k = 0; k < n; k++)
		free(outs[k]), free(errs[k]), free(labels[k]);
	free(pid), free(outs), free(errs), free(labels), free(track);
	return status;
}
