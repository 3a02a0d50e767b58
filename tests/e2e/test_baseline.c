/* test_baseline.c — kcost --baseline REV on a temporary git repository: the base and the head of a compute-bound
 * kernel (a chain of dependent multiply-adds: its time is REPS latencies per element on any x86 machine, whatever
 * its caches) are built and timed in alternating slices, and the verdicts come from their samples
 * (model/compare.h). Twenty times the work is "slower" (exit 4 with --fail-on-regression); identical code is
 * "unchanged" in ten runs of ten; a tenth more work, under a threshold the timing cannot tell apart from noise,
 * still shows as "instructions +N%" from the cache simulation, which counts the same from run to run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

static char repo[4096];

static const char kernel[] = "/* a latency chain: REPS dependent multiply-adds per element */\n"
                             "void chain(int n, const float *x, float *y)\n"
                             "{\n"
                             "\tfloat acc = 0.0f;\n"
                             "\tfor (int i = 0; i < n; i++)\n"
                             "\t\tfor (int r = 0; r < REPS; r++)\n"
                             "\t\t\tacc = acc * 0.5f + x[i];\n"
                             "\ty[0] = acc;\n"
                             "}\n";

/* k.c with `#define REPS reps` (the kernel after it), committed when commit is set. */
static void write_kernel(int reps, int commit)
{
	char path[4200], text[1024], cmd[8600];
	snprintf(path, sizeof path, "%s/k.c", repo);
	snprintf(text, sizeof text, "#define REPS %d\n%s", reps, kernel);
	write_text(path, text);
	if (commit) {
		snprintf(cmd, sizeof cmd, "cd '%s' && git add k.c && git commit -q --allow-empty -m 'REPS %d'", repo,
		         reps);
		assert_int_equal(system(cmd), 0);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(repo, sizeof repo, "%s", scratch_dir("baseline-repo"));
	char cmd[8400];
	snprintf(cmd, sizeof cmd,
	         "cd '%s' && git init -q && git config user.email kcost@test && git config user.name kcost "
	         "&& git config commit.gpgsign false",
	         repo);
	return system(cmd) == 0 ? 0 : -1;
}

/* kcost --baseline HEAD on k.c in the repository, the extra arguments first; the report's function. */
static cJSON *baseline_run(const char *const *extra, int want_status, const char *want_verdict, cJSON **doc,
                           struct run *out)
{
	const char *args[24];
	int n = 0;
	args[n++] = "--quiet";
	args[n++] = "--size";
	args[n++] = "n=16384";
	args[n++] = "--baseline";
	args[n++] = "HEAD";
	for (int i = 0; extra && extra[i]; i++)
		args[n++] = extra[i];
	args[n++] = "-o";
	args[n++] = "out";
	args[n++] = "k.c";
	args[n] = NULL;
	*out = run_kcost_in(repo, args);
	if (out->status != want_status)
		fprintf(stderr, "kcost exited %d:\n%s\n%s\n", out->status, out->out, out->err);
	char dir[4200];
	snprintf(dir, sizeof dir, "%s/out", repo);
	*doc = load_report(dir);
	assert_non_null(*doc);
	cJSON *f = report_function(*doc, "chain");
	assert_non_null(at(f, "baseline"));
	char *b = cJSON_PrintUnformatted(at(f, "baseline")),
	     *s = cJSON_PrintUnformatted(at(f, "measured.seconds.slices"));
	if (out->status != want_status || (want_verdict && strcmp(report_text(f, "baseline.verdict"), want_verdict)))
		fprintf(stderr, "baseline: %s\nslices: %s\n", b, s);
	free(b), free(s);
	assert_int_equal(out->status, want_status);
	if (want_verdict)
		assert_string_equal(report_text(f, "baseline.verdict"), want_verdict);
	return f;
}

static void twenty_times_the_work_is_slower(void **state)
{
	(void)state;
	write_kernel(8, 1);
	write_kernel(160, 0);
	cJSON *doc;
	struct run r;
	cJSON *f = baseline_run((const char *const[]){"--fail-on-regression", "10", NULL}, 4, "slower", &doc, &r);
	assert_string_equal(report_text(f, "baseline.change"), "changed");
	assert_true(at(f, "baseline.ci_low")->valuedouble > 10); /* twenty times the multiply-adds */
	assert_true(at(f, "baseline.p_value")->valuedouble < 0.01);
	assert_true(cJSON_IsTrue(at(f, "baseline.regressed")));
	assert_true(at(f, "baseline.samples.base")->valuedouble >= 6); /* runs: alternating harness processes */
	assert_int_equal(strlen(report_text(f, "baseline.revision")), 40);
	/* the comment leads with the change, the formulas beside it */
	char path[4200];
	snprintf(path, sizeof path, "%s/out/summary.md", repo);
	char *md = slurp(path);
	assert_non_null(md);
	assert_non_null(strstr(md, "## kcost: cost changes\n\n- **chain** (k.c): changed; time: slower, "));
	assert_non_null(strstr(md, "  - FLOPs: `16*n` → `320*n`\n"));
	assert_true(strstr(md, "## kcost: cost changes") < strstr(md, "## kcost report"));
	assert_non_null(strstr(md, "regression beyond the --fail-on-regression threshold"));
	free(md);
	/* kcost.sarif: the regression at the function's line, an error beyond the gate */
	snprintf(path, sizeof path, "%s/out/kcost.sarif", repo);
	char *sarif = slurp(path);
	assert_non_null(sarif);
	cJSON *log = cJSON_Parse(sarif);
	cJSON *res = cJSON_GetArrayItem(at(cJSON_GetArrayItem(at(log, "runs"), 0), "results"), 0);
	assert_string_equal(report_text(res, "ruleId"), "kcost/regression");
	assert_string_equal(report_text(res, "level"), "error");
	assert_int_equal(at(cJSON_GetArrayItem(at(res, "locations"), 0), "physicalLocation.region.startLine")->valueint,
	                 3);
	assert_non_null(strstr(report_text(res, "message.text"), "'chain': slower, "));
	cJSON_Delete(log);
	free(sarif);
	/* the worktree is gone */
	char cmd[8400];
	snprintf(cmd, sizeof cmd, "cd '%s' && test \"$(git worktree list | wc -l)\" = 1", repo);
	assert_int_equal(system(cmd), 0);
	cJSON_Delete(doc);
	run_release(&r);
}

static void identical_code_is_unchanged_ten_times_in_ten(void **state)
{
	(void)state;
	write_kernel(64, 1);
	for (int k = 0; k < 10; k++) {
		cJSON *doc;
		struct run r;
		cJSON *f = baseline_run((const char *const[]){"--no-traffic", "--fail-on-regression", "10", NULL}, 0,
		                        "unchanged", &doc, &r);
		assert_string_equal(report_text(f, "baseline.change"), "same");
		assert_false(cJSON_IsTrue(at(f, "baseline.regressed")));
		cJSON_Delete(doc);
		run_release(&r);
	}
}

static void a_tenth_more_work_shows_in_the_instructions(void **state)
{
	(void)state;
	write_kernel(64, 1);
	write_kernel(70, 0); /* 9.4% more multiply-adds */
	cJSON *doc;
	struct run r;
	/* beyond 25% only: the timing cannot call a tenth slower (unchanged, or inconclusive on a loaded machine) */
	cJSON *f = baseline_run((const char *const[]){"--threshold", "25", NULL}, 0, NULL, &doc, &r);
	assert_string_not_equal(report_text(f, "baseline.verdict"), "slower");
	assert_string_not_equal(report_text(f, "baseline.verdict"), "faster");
	const char *source = report_text(f, "measured.traffic.source");
	/* valgrind is a dependency (scripts/install-deps): the instructions are counted, by cachegrind or by
	 * hardware counters; only counters without an instruction event leave them out */
	if (!strcmp(source, "unavailable"))
		fail_msg("no traffic measurement, so no instruction count: %s", report_text(f, "measured.traffic.why"));
	if (!cJSON_IsNumber(at(f, "baseline.instructions_change"))) {
		if (strcmp(source, "counters"))
			fail_msg("the instructions were not compared (traffic source %s)", source);
		cJSON_Delete(doc);
		run_release(&r);
		skip(); /* hardware counters without PERF_COUNT_HW_INSTRUCTIONS */
	}
	double change = at(f, "baseline.instructions_change")->valuedouble;
	assert_true(change > 0.05 && change < 0.20);
	char path[4200], want[64];
	snprintf(path, sizeof path, "%s/out/summary.md", repo);
	char *md = slurp(path);
	assert_non_null(md);
	snprintf(want, sizeof want, "; instructions +%.1f%%", 100 * change);
	assert_non_null(strstr(md, want));
	assert_non_null(strstr(md, "  - FLOPs: `128*n` → `140*n`\n"));
	free(md);
	cJSON_Delete(doc);
	run_release(&r);
}

static void a_revision_that_is_not_there_is_an_input_error(void **state)
{
	(void)state;
	write_kernel(8, 1);
	const char *args[] = {"--no-run", "--baseline", "no-such-rev", "-o", "out", "k.c", NULL};
	struct run r = run_kcost_in(repo, args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kcost: error: --baseline: 'no-such-rev' is not a commit of this repository\n"));
	run_release(&r);
	/* a file outside any repository */
	char dir[] = "/tmp/kcost-baseline-test-XXXXXX", file[64], out[64], cmd[160];
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof file, "%s/k.c", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	write_text(file, "void f(int n, float *x) { for (int i = 0; i < n; i++) x[i] += 1; }\n");
	const char *outside[] = {"--no-run", "--baseline", "HEAD", "-o", out, file, NULL};
	run_release(&r);
	r = run_kcost_in(repo, outside);
	assert_int_equal(r.status, 1);
	char want[160];
	snprintf(want, sizeof want,
	         "kcost: error: --baseline: '%s' is not in a git repository (git rev-parse failed: ", file);
	assert_non_null(strstr(r.err, want));
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	run_release(&r);
}

/* 1,000 kernels, a third of them changed (bench/gen_kernels.sh's; the dot products do one more add): the
 * comment — the changes first, then the summary — stays within GitHub's 65,536 characters. */
static void a_thousand_functions_fit_one_comment(void **state)
{
	(void)state;
	char cmd[17000];
	snprintf(cmd, sizeof cmd,
	         "cd '%s' && sh '%s/bench/gen_kernels.sh' 1000 > many.c && git add many.c && git commit -q -m many && "
	         "sed -i 's/s += x\\[i\\] \\* y\\[i\\];/s += x[i] * y[i] + 1.0f;/' many.c && "
	         "! git diff --quiet many.c",
	         repo, KCOST_SOURCE_DIR);
	assert_int_equal(system(cmd), 0);
	const char *args[] = {"--no-run", "--quiet", "--format", "md",     "--baseline",
	                      "HEAD",     "-o",      "out-many", "many.c", NULL};
	struct run r = run_kcost_in(repo, args);
	assert_int_equal(r.status, 0);
	size_t len = strlen(r.out);
	assert_true(len > 30000 && len < 65536);
	assert_non_null(strstr(r.out, "## kcost: cost changes\n\n- **k1** (many.c): changed;"));
	assert_non_null(strstr(r.out, "  - FLOPs: `2*n` → `3*n`\n"));
	char path[4200];
	snprintf(path, sizeof path, "%s/out-many/summary.md", repo);
	char *md = slurp(path);
	assert_non_null(md);
	assert_string_equal(md, r.out); /* the printed Markdown is summary.md */
	free(md);
	run_release(&r);
}

/* A git repository of its own in the scratch directory `name` (path out). */
static void new_repo(char *out, size_t size, const char *name)
{
	char cmd[8400];
	snprintf(out, size, "%s", scratch_dir(name));
	snprintf(cmd, sizeof cmd,
	         "cd '%s' && git init -q && git config user.email kcost@test && git config user.name kcost "
	         "&& git config commit.gpgsign false && mkdir inc",
	         out);
	assert_int_equal(system(cmd), 0);
}

/* Helpers defined in the inputs' headers (one beside the input, one found through -I) are reported under the
 * head's names for them, not under their paths in the temporary worktree: a helper the head changed is
 * "changed", one it removed is "removed" under its path in the repository. */
static void header_functions_keep_the_repositorys_paths(void **state)
{
	(void)state;
	char dir[4200], path[4400], cmd[8600];
	new_repo(dir, sizeof dir, "baseline-headers");
	/* data-dependent accesses and branches: the helpers are inexact, so they are reported (frontend.c) */
	static const char scale[] = "static inline void scale(int n, float *x, const int *idx)\n"
	                            "{\n"
	                            "\tfor (int i = 0; i < n; i++)\n"
	                            "\t\tx[idx[i]] = x[idx[i]] * 2.0f%s;\n"
	                            "}\n";
	char text[512];
	snprintf(path, sizeof path, "%s/h.h", dir);
	snprintf(text, sizeof text, scale, "");
	write_text(path, text);
	snprintf(path, sizeof path, "%s/inc/g.h", dir);
	write_text(path, "static inline void shift(int n, float *x)\n"
	                 "{\n"
	                 "\tfor (int i = 0; i < n; i++)\n"
	                 "\t\tif (x[i] > 0)\n"
	                 "\t\t\tx[i] += 1.0f;\n"
	                 "}\n");
	snprintf(path, sizeof path, "%s/k.c", dir);
	write_text(path, "#include \"h.h\"\n#include \"g.h\"\n"
	                 "void both(int n, float *x, const int *idx)\n{\n\tscale(n, x, idx);\n\tshift(n, x);\n}\n");
	snprintf(cmd, sizeof cmd, "cd '%s' && git add -A && git commit -q -m headers", dir);
	assert_int_equal(system(cmd), 0);
	/* the head: scale does twice the FLOPs, shift is gone */
	snprintf(path, sizeof path, "%s/h.h", dir);
	snprintf(text, sizeof text, scale, " + 1.0f");
	write_text(path, text);
	snprintf(path, sizeof path, "%s/inc/g.h", dir);
	write_text(path, "\n");
	snprintf(path, sizeof path, "%s/k.c", dir);
	write_text(path, "#include \"h.h\"\n#include \"g.h\"\n"
	                 "void both(int n, float *x, const int *idx)\n{\n\tscale(n, x, idx);\n}\n");
	const char *args[] = {"--no-run", "--quiet", "--format", "md", "--baseline", "HEAD",
	                      "-o",       "out",     "k.c",      "--", "-Iinc",      NULL};
	struct run r = run_kcost_in(dir, args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "## kcost: cost changes\n\n"
	                              "- **scale** (./h.h): changed; time: not measured\n"
	                              "  - FLOPs: `n` \xe2\x86\x92 `2*n`\n"
	                              "- **shift** (inc/g.h): removed\n"
	                              "- **both** (k.c): changed; time: not measured\n"));
	assert_null(strstr(r.out, "kcost-baseline-"));
	run_release(&r);
}

/* The entries of a directory, "." and ".." aside; -1 when it cannot be read. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* SIGINT while kcost --baseline times the kernels: the temporary worktree is removed, and so is its entry in the
 * repository's .git/worktrees (what `git worktree prune` would remove): `git worktree list` shows the main one. */
static void sigint_while_timing_leaves_no_worktree(void **state)
{
	(void)state;
	char dir[4200], tmp[4300], marker[4300], path[4400], cmd[8800];
	new_repo(dir, sizeof dir, "baseline-sigint");
	snprintf(tmp, sizeof tmp, "%s/tmp", dir);
	snprintf(marker, sizeof marker, "%s/timing", dir);
	assert_int_equal(mkdir(tmp, 0700), 0);
	/* a call of a second or so (REPS dependent multiply-adds per element), which says when it first runs */
	char text[9000];
	snprintf(text, sizeof text,
	         "#include <stdio.h>\n#define REPS 20000\n"
	         "void slow(int n, const float *x, float *y)\n{\n"
	         "\tFILE *f = fopen(\"%s\", \"w\");\n\tif (f)\n\t\tfclose(f);\n"
	         "\tfloat acc = 0.0f;\n\tfor (int i = 0; i < n; i++)\n\t\tfor (int r = 0; r < REPS; r++)\n"
	         "\t\t\tacc = acc * 0.5f + x[i];\n\ty[0] = acc;\n}\n",
	         marker);
	snprintf(path, sizeof path, "%s/slow.c", dir);
	write_text(path, text);
	snprintf(cmd, sizeof cmd, "cd '%s' && echo tmp/ > .gitignore && git add -A && git commit -q -m slow", dir);
	assert_int_equal(system(cmd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0), dup2(null, 1), dup2(null, 2);
		setenv("TMPDIR", tmp, 1);
		if (chdir(dir) != 0)
			_exit(127);
		execl(KCOST_BIN, KCOST_BIN, "--quiet", "--no-traffic", "--size", "n=16384", "--time-budget", "60",
		      "--baseline", "HEAD", "-o", "out", "slow.c", (char *)NULL);
		_exit(127);
	}
	int ran = 0;
	for (int tries = 0; tries < 1200 && !ran; tries++) { /* the ceilings, the analyses, two builds: 2 min */
		struct timespec t = {0, 100 * 1000000L};
		nanosleep(&t, NULL);
		ran = access(marker, F_OK) == 0;
	}
	int before = entries(tmp); /* the run's kcost-XXXXXX and the baseline's kcost-baseline-XXXXXX */
	assert_int_equal(kill(pid, SIGINT), 0);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(ran);
	assert_int_equal(before, 2);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT);
	assert_int_equal(entries(tmp), 0);
	snprintf(path, sizeof path, "%s/.git/worktrees", dir);
	assert_true(entries(path) <= 0); /* gone, or empty */
	snprintf(cmd, sizeof cmd, "cd '%s' && test \"$(git worktree list | wc -l)\" = 1", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "cd '%s' && test -z \"$(git worktree prune --dry-run -v 2>&1)\"", dir);
	assert_int_equal(system(cmd), 0); /* nothing left for prune either */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(twenty_times_the_work_is_slower),
	    cmocka_unit_test(identical_code_is_unchanged_ten_times_in_ten),
	    cmocka_unit_test(a_tenth_more_work_shows_in_the_instructions),
	    cmocka_unit_test(a_revision_that_is_not_there_is_an_input_error),
	    cmocka_unit_test(a_thousand_functions_fit_one_comment),
	    cmocka_unit_test(header_functions_keep_the_repositorys_paths),
	    cmocka_unit_test(sigint_while_timing_leaves_no_worktree),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
