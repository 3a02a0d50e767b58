/* test_outdir.c — the report's directory (-o): what kcost refuses to write into, what it never writes through,
 * and what two runs writing one report at the same time leave. */
#define _DEFAULT_SOURCE /* syscall */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

/* How a child kcost runs, beyond run_kcost's. */
struct how {
	int without_dac;  /* root without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH: file permissions hold for it */
	long file_limit;  /* RLIMIT_FSIZE in bytes, SIGXFSZ ignored: a write past it fails as on a full disk */
	int quiet_output; /* stdout and stderr to /dev/null */
};

struct child {
	pid_t pid;
	char out[64], err[64];
};

/* Drop the two capabilities that let root ignore file permissions, for this process and what it executes
 * (the bounding set too: a root execve would give them back otherwise). It stays uid 0, so it can still
 * reach and run the build wherever the clone is, however private its directory. -1 when not allowed. */
static int drop_dac_override(void)
{
	if (prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0 ||
	    prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0) != 0)
		return -1;
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	unsigned mask = 1u << CAP_DAC_OVERRIDE | 1u << CAP_DAC_READ_SEARCH;
	d[0].effective &= ~mask;
	d[0].permitted &= ~mask;
	d[0].inheritable &= ~mask;
	return syscall(SYS_capset, &h, d) == 0 ? 0 : -1;
}

#define EXIT_NO_DROP 125 /* the child could not drop its capabilities */

static void child_start(struct child *c, const struct how *how, const char *const *args)
{
	const char *argv[32] = {KCOST_BIN};
	int n = 1;
	while (args[n - 1] && n < 31) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	snprintf(c->out, sizeof c->out, "/tmp/kcost-outdir-outXXXXXX");
	snprintf(c->err, sizeof c->err, "/tmp/kcost-outdir-errXXXXXX");
	int out = how->quiet_output ? open("/dev/null", O_WRONLY) : mkstemp(c->out);
	int err = how->quiet_output ? open("/dev/null", O_WRONLY) : mkstemp(c->err);
	assert_true(out >= 0 && err >= 0);
	if (how->quiet_output)
		c->out[0] = c->err[0] = '\0';
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		if (how->without_dac && drop_dac_override() != 0)
			_exit(EXIT_NO_DROP);
		if (how->file_limit) {
			struct rlimit rl = {(rlim_t)how->file_limit, (rlim_t)how->file_limit};
			signal(SIGXFSZ, SIG_IGN); /* kept across exec: the write fails with EFBIG instead */
			if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
				_exit(126);
		}
		if (chdir(KCOST_SOURCE_DIR) != 0)
			_exit(127);
		execv(KCOST_BIN, (char *const *)argv);
		_exit(127);
	}
	close(out);
	close(err);
}

static struct run child_finish(struct child *c)
{
	struct run r = {0};
	int st = 0;
	waitpid(c->pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.out = c->out[0] ? slurp(c->out) : strdup("");
	r.err = c->err[0] ? slurp(c->err) : strdup("");
	if (c->out[0])
		unlink(c->out);
	if (c->err[0])
		unlink(c->err);
	return r;
}

static struct run run_how(const struct how *how, const char *const *args)
{
	struct child c;
	child_start(&c, how, args);
	return child_finish(&c);
}

static char *path_in(const char *dir, const char *name)
{
	static char path[4][4400];
	static int next;
	char *p = path[next++ % 4];
	assert_true(snprintf(p, sizeof path[0], "%s/%s", dir, name) < (int)sizeof path[0]);
	return p;
}

static int is_link(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* The names in a directory, sorted and joined with spaces ("" when empty); free() the result. */
static char *listing(const char *dir)
{
	char cmd[4400];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char *text = calloc(1, 65536);
	size_t n = fread(text, 1, 65535, p);
	text[n] = '\0';
	pclose(p);
	return text;
}

/* Symbolic links planted where kcost writes (the temporary name older kcosts used, a graph, the page itself,
 * a graph of no function, a temporary name of kcost's, graphs/ itself) point at a victim: the victim is
 * unchanged, the links are replaced by the report's files or removed, and the report is complete. */
/* Entries of dir named like kcost's temporaries (".kcost-*.tmp"). */
static int temporaries_in(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		n += !strncmp(e->d_name, ".kcost-", 7) && len > 4 && !strcmp(e->d_name + len - 4, ".tmp");
	}
	closedir(d);
	return n;
}

static void planted_links_are_replaced_never_followed(void **state)
{
	(void)state;
	char out[4400], victim_dir[4400], victim[4500];
	snprintf(out, sizeof out, "%s", scratch_dir("outdir-links"));
	snprintf(victim_dir, sizeof victim_dir, "%s", scratch_dir("outdir-links-victim"));
	snprintf(victim, sizeof victim, "%s/victim", victim_dir);
	write_text(victim, "do not touch\n");
	struct run r = RUN("--no-run", "--quiet", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	assert_int_equal(unlink(path_in(out, "graphs/gelu_unfused.svg")), 0);
	assert_int_equal(unlink(path_in(out, "index.html")), 0);
	assert_int_equal(symlink(victim, path_in(out, "report.json.tmp")), 0);
	assert_int_equal(symlink(victim, path_in(out, "graphs/gelu_unfused.svg")), 0);
	assert_int_equal(symlink(victim, path_in(out, "graphs/x.svg")), 0);
	assert_int_equal(symlink(victim, path_in(out, "index.html")), 0);
	/* temporaries of a killed kcost (a file, a link): removed under the lock */
	write_text(path_in(out, ".kcost-99999-0.tmp"), "half a report");
	assert_int_equal(symlink(victim, path_in(out, "graphs/.kcost-99999-1.tmp")), 0);
	r = RUN("--no-run", "--quiet", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_release(&r);
	char *text = slurp(victim);
	assert_string_equal(text, "do not touch\n");
	free(text);
	assert_false(is_link(path_in(out, "graphs/gelu_unfused.svg")));
	assert_false(is_link(path_in(out, "index.html")));
	assert_false(exists(path_in(out, "graphs/x.svg"))); /* a graph of no function of this report */
	assert_false(exists(path_in(out, ".kcost-99999-0.tmp")));
	assert_false(exists(path_in(out, "graphs/.kcost-99999-1.tmp")));
	/* the files replaced (exchanged with the new ones, output.c) are gone, under no temporary name */
	assert_int_equal(temporaries_in(out), 0);
	assert_int_equal(temporaries_in(path_in(out, "graphs")), 0);
	text = slurp(path_in(out, "graphs/gelu_unfused.svg"));
	assert_non_null(text);
	assert_non_null(strstr(text, "</svg>"));
	free(text);
	text = slurp(path_in(out, "index.html"));
	assert_non_null(text);
	assert_non_null(strstr(text, "</html>"));
	free(text);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_non_null(find_function(rep, "gelu_unfused"));
	cJSON_Delete(rep);

	/* graphs/ itself a link to another directory: replaced by a directory, nothing written over there */
	char cmd[4500];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/graphs'", out);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(symlink(victim_dir, path_in(out, "graphs")), 0);
	r = RUN("--no-run", "--quiet", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	assert_false(is_link(path_in(out, "graphs")));
	assert_true(exists(path_in(out, "graphs/gelu_unfused.svg")));
	text = listing(victim_dir);
	assert_string_equal(text, "victim ");
	free(text);
}

static void a_file_is_not_a_report_directory(void **state)
{
	(void)state;
	const char *dir = scratch_dir("outdir-file");
	char file[4400], below[4500], expected[9000];
	snprintf(file, sizeof file, "%s/plain.txt", dir);
	write_text(file, "mine\n");
	struct run r = RUN("--no-run", "--quiet", "-o", file, "samples/gelu.c");
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected, "kcost: error: cannot use '%s' as the report directory: not a directory\n",
	         file);
	assert_string_equal(r.err, expected);
	run_release(&r);
	char *text = slurp(file);
	assert_string_equal(text, "mine\n");
	free(text);
	snprintf(below, sizeof below, "%s/sub", file);
	r = RUN("--no-run", "--quiet", "-o", below, "samples/gelu.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, below));
	assert_non_null(strstr(r.err, "Not a directory"));
	run_release(&r);
	r = RUN("--no-run", "--quiet", "-o", "", "samples/gelu.c");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.err, "kcost: error: cannot use '' as the report directory: the name is empty\n");
	run_release(&r);
}

/* A directory of someone else's files (a source tree, a home, `/`) is refused and left as it was; an empty
 * one, or a previous report with a file of the user's added, is written. */
static void only_empty_directories_and_reports_are_written(void **state)
{
	(void)state;
	const char *dir = scratch_dir("outdir-other");
	char expected[9000];
	write_text(path_in(dir, "notes.txt"), "mine\n");
	struct run r = RUN("--no-run", "--quiet", "-o", dir, "samples/gelu.c");
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected,
	         "kcost: error: cannot use '%s' as the report directory: it is not empty and holds no kcost report (no "
	         ".kcost-report or report.json)\n",
	         dir);
	assert_string_equal(r.err, expected);
	run_release(&r);
	char *names = listing(dir);
	assert_string_equal(names, "notes.txt ");
	free(names);

	/* `/`, as root too: nothing kcost would write appears there */
	const char *ours[] = {"/.kcost-report", "/report.json",  "/index.html",
	                      "/summary.md",    "/roofline.svg", "/kcost.sarif"};
	int absent[6];
	for (int i = 0; i < 6; i++)
		absent[i] = !exists(ours[i]);
	r = RUN("--no-run", "--quiet", "-o", "/", "samples/gelu.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "cannot use '/' as the report directory: it is not empty"));
	run_release(&r);
	for (int i = 0; i < 6; i++)
		if (absent[i])
			assert_false(exists(ours[i]));

	/* a previous report (marked) with a file of the user's: written, the user's file kept */
	const char *out = scratch_dir("outdir-previous");
	r = RUN("--no-run", "--quiet", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	assert_true(exists(path_in(out, ".kcost-report")));
	write_text(path_in(out, "notes.txt"), "mine\n");
	r = RUN("--no-run", "--quiet", "-o", out, "samples/vecadd.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	assert_true(exists(path_in(out, "notes.txt")));
	cJSON *rep = load_report(out);
	assert_non_null(find_function(rep, "vecadd"));
	cJSON_Delete(rep);
	/* a report of a kcost before the marker: recognised by its report.json */
	assert_int_equal(unlink(path_in(out, ".kcost-report")), 0);
	r = RUN("--no-run", "--quiet", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	assert_true(exists(path_in(out, ".kcost-report")));
}

/* Root ignores permissions: as root, kcost runs without CAP_DAC_OVERRIDE for this test, so the directory is
 * read-only for it whatever the file system. */
static void a_read_only_directory_is_an_input_error(void **state)
{
	(void)state;
	struct how how = {.without_dac = geteuid() == 0};
	const char *ro = scratch_dir("outdir-read-only");
	assert_int_equal(chmod(ro, 0555), 0);
	struct run r = run_how(&how, (const char *const[]){"--no-run", "--quiet", "-o", ro, "samples/gelu.c", NULL});
	if (r.status == EXIT_NO_DROP)
		fail_msg("as root, this test needs to drop CAP_DAC_OVERRIDE (prctl PR_CAPBSET_DROP): not allowed here");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, ro));
	assert_non_null(strstr(r.err, "Permission denied"));
	run_release(&r);
	char *names = listing(ro);
	assert_string_equal(names, "");
	free(names);
	/* a new directory below it: found out when creating it */
	char sub[4500];
	snprintf(sub, sizeof sub, "%s/sub/report", ro);
	r = run_how(&how, (const char *const[]){"--no-run", "--quiet", "-o", sub, "samples/gelu.c", NULL});
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kcost: error: cannot create "));
	assert_non_null(strstr(r.err, "/outdir-read-only/sub: Permission denied"));
	run_release(&r);
	assert_int_equal(chmod(ro, 0755), 0);
}

/* A write that fails as on a full disk (the file-size limit, EFBIG, stands in for ENOSPC): exit 1, the file
 * named, no temporary left behind. */
static void a_full_disk_is_an_input_error(void **state)
{
	(void)state;
	struct how how = {.file_limit = 8192};
	const char *out = scratch_dir("outdir-full");
	struct run r = run_how(&how, (const char *const[]){"--no-run", "-o", out, "samples/gelu.c", NULL});
	assert_int_equal(r.status, 1);
	char expected[9000];
	snprintf(expected, sizeof expected, "kcost: error: cannot write %s/graphs/gelu_unfused.svg: File too large\n",
	         out);
	assert_non_null(strstr(r.err, expected));
	assert_non_null(strstr(r.err, "; no report written\n"));
	run_release(&r);
	char *names = listing(path_in(out, "graphs"));
	assert_string_equal(names, "");
	free(names);
	names = listing(out);
	assert_string_equal(names, ".kcost-report graphs ");
	free(names);
}

/* One input: its functions, and how summary.md writes the start of their names (Markdown escapes '_'). */
struct input {
	const char *file;
	const char *functions[2];
	const char *in_markdown;
};

static const struct input inputs[2] = {
    {"samples/gelu.c", {"gelu_unfused", "gelu_fused"}, "**gelu\\_"},
    {"samples/softmax.c", {"softmax_three_pass", "softmax_online"}, "**softmax\\_"},
};

/* Which input every file of the report comes from, or -1 when they disagree or one is incomplete. */
static int report_input(const char *out)
{
	cJSON *rep = load_report(out);
	if (!rep)
		return -1;
	int which = -1, n = 0;
	cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(rep, "functions"))
	{
		const char *file = cJSON_GetStringValue(at(f, "file"));
		int k = file && !strcmp(file, inputs[0].file) ? 0 : file && !strcmp(file, inputs[1].file) ? 1 : -1;
		which = n++ == 0 || which == k ? k : -1;
	}
	cJSON_Delete(rep);
	char *summary = slurp(path_in(out, "summary.md"));
	char *page = slurp(path_in(out, "index.html"));
	char *graphs = listing(path_in(out, "graphs"));
	for (int k = 0; which >= 0 && k < 2; k++) {
		if ((summary && strstr(summary, inputs[k].in_markdown)) != (k == which))
			which = -1;
		for (int i = 0; i < 2; i++)
			if ((page && strstr(page, inputs[k].functions[i])) != (k == which))
				which = -1;
	}
	if (which >= 0 && strstr(graphs, inputs[1 - which].functions[0]))
		which = -1;
	free(summary);
	free(page);
	free(graphs);
	return n ? which : -1;
}

/* Ten kcost runs on one -o at once, on two inputs, three times over: each time the directory holds one
 * complete report, every file of it from the same input. */
static void concurrent_runs_leave_one_report(void **state)
{
	(void)state;
	struct how how = {.quiet_output = 1};
	for (int round = 0; round < 3; round++) {
		const char *dir = scratch_dir("outdir-concurrent");
		char out[4400];
		snprintf(out, sizeof out, "%s/report", dir); /* created by the runs themselves */
		struct child c[10];
		for (int i = 0; i < 10; i++)
			child_start(&c[i], &how,
			            (const char *const[]){"--no-run", "--quiet", "-o", out, inputs[i % 2].file, NULL});
		for (int i = 0; i < 10; i++) {
			struct run r = child_finish(&c[i]);
			assert_int_equal(r.status, 0);
			run_release(&r);
		}
		assert_true(report_input(out) >= 0);
		char *names = listing(out);
		assert_string_equal(names,
		                    ".kcost-report graphs index.html kcost.sarif report.json roofline.svg summary.md ");
		free(names);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(planted_links_are_replaced_never_followed),
	    cmocka_unit_test(a_file_is_not_a_report_directory),
	    cmocka_unit_test(only_empty_directories_and_reports_are_written),
	    cmocka_unit_test(a_read_only_directory_is_an_input_error),
	    cmocka_unit_test(a_full_disk_is_an_input_error),
	    cmocka_unit_test(concurrent_runs_leave_one_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
