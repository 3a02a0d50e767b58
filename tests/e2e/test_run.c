/* test_run.c — measurement through the built binary: kernels that crash, hang or allocate without bound
 * become diagnostics within the limits while the rest of the report stays intact; a measured sample gets
 * timings, an equivalence check and a labelled traffic figure; the harness's compiler gets every flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

static int num_positive(cJSON *v)
{
	return cJSON_IsNumber(v) && v->valuedouble > 0;
}

static cJSON *fn_in(cJSON *rep, const char *file, const char *name)
{
	cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(rep, "functions"))
	{
		cJSON *n = at(f, "name"), *fl = at(f, "file");
		if (cJSON_IsString(n) && !strcmp(n->valuestring, name) && cJSON_IsString(fl) &&
		    !strcmp(fl->valuestring, file))
			return f;
	}
	fail_msg("%s:%s not in the report", file, name);
	return NULL;
}

static void failing_kernels_become_diagnostics(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-failures");
	struct run r = RUN("--timeout", "3", "--time-budget", "0.05", "-o", out, "tests/fixtures/runner_segv.c",
	                   "tests/fixtures/runner_hang.c", "tests/fixtures/runner_alloc.c");
	assert_int_equal(r.status, 1);
	assert_non_null(
	    strstr(r.err, "tests/fixtures/runner_segv.c:13:6: error: crashed with SIGSEGV (segmentation fault)"));
	assert_non_null(strstr(r.err, "tests/fixtures/runner_hang.c:15:6: error: timed out after 3 s"));
	assert_non_null(strstr(r.err, "tests/fixtures/runner_alloc.c:18:6: error: exceeded the memory limit of "));
	assert_non_null(strstr(r.err, "3 errors"));
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	const char *files[] = {"tests/fixtures/runner_segv.c", "tests/fixtures/runner_hang.c",
	                       "tests/fixtures/runner_alloc.c"};
	const char *bad[] = {"scale_segv", "scale_hang", "scale_leak"};
	for (int i = 0; i < 3; i++) {
		cJSON *ok = fn_in(rep, files[i], "scale_ok"), *ko = fn_in(rep, files[i], bad[i]);
		assert_true(cJSON_IsNull(at(ok, "measured.error")));
		assert_true(num_positive(at(ok, "measured.seconds.median")));
		assert_true(cJSON_IsString(at(ko, "measured.error")));
		/* the static analysis of a failing kernel is still there */
		assert_string_equal(at(ko, "flops.expr")->valuestring, "n");
	}
	cJSON_Delete(rep);
	run_release(&r);
}

static void gelu_is_measured_and_checked(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-gelu");
	struct run r = RUN("--time-budget", "0.1", "--size", "n=262144", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *unfused = fn_in(rep, "samples/gelu.c", "gelu_unfused"),
	      *fused = fn_in(rep, "samples/gelu.c", "gelu_fused");
	/* equivalence with the declared reference */
	assert_string_equal(at(unfused, "measured.equivalent.reference")->valuestring, "gelu_fused");
	assert_true(cJSON_IsTrue(at(unfused, "measured.equivalent.ok")));
	assert_true(at(unfused, "measured.samples")->valuedouble >= 10);
	/* traffic is labelled with its source: hardware counters where the machine has them, else cachegrind */
	const char *source = at(fused, "measured.traffic.source")->valuestring;
	double dram = at(fused, "measured.traffic.bytes")->valuedouble;
	if (!strcmp(source, "cachegrind")) {
		/* one simulated cold call of the fused kernel moves x in and y out: 8 bytes per element, within 10%
		 * (the simulation starts cold whatever the machine's caches hold) */
		assert_true(fabs(dram / (8.0 * 262144) - 1) < 0.10);
		/* the same simulation counts the call's instructions: tanhf alone takes tens per element */
		assert_true(at(fused, "measured.traffic.instructions")->valuedouble > 10.0 * 262144);
	} else {
		/* counted on real hardware, what reaches DRAM depends on what the caches kept: only its unit */
		assert_string_equal(source, "counters");
		assert_true(dram >= 0);
	}
	/* the measured speedup of the fused form is stated next to the byte ratio */
	char path[8400];
	snprintf(path, sizeof path, "%s/summary.md", out);
	char *md = slurp(path);
	assert_non_null(md);
	assert_non_null(
	    strstr(md, "the streaming bytes of its reference **gelu\\_fused** (18.9 MB vs 2.1 MB); measured: "));
	/* slower or not depends on the machine's caches (both fit in a large last-level cache): the sentence
	 * gives the ratio either way */
	assert_true(strstr(md, "\xc3\x97 slower (") || strstr(md, "\xc3\x97 faster ("));
	free(md);
	/* the machine section names how its ceilings were measured */
	assert_non_null(strstr(at(rep, "machine.ceilings.flops.float.method")->valuestring, "kcost peak kernel: "));
	assert_non_null(
	    strstr(at(rep, "machine.ceilings.flops.dense_float.method")->valuestring, "cblas_sgemm n=1536"));
	assert_true(num_positive(at(rep, "machine.ceilings.peak.float.scalar.add_mul")));
	assert_true(num_positive(at(rep, "machine.ceilings.latency_ns.double.add")));
	assert_true(num_positive(at(rep, "machine.ceilings.libm_ns_per_call.tanhf")));
	/* tanhf was swept in each kernel's own processes, between its timed calls (3 sweeps at least in each slice),
	 * and that median prices the kernel's calls */
	for (cJSON *f = unfused; f; f = f == unfused ? fused : NULL) {
		assert_non_null(at(f, "measured.libm_sweeps.tanhf"));
		assert_true(at(f, "measured.libm_sweeps.tanhf")->valuedouble >= 3);
		assert_non_null(at(f, "measured.libm_median_ns_per_call.tanhf"));
		double ns = at(f, "measured.libm_median_ns_per_call.tanhf")->valuedouble, calls = 0, priced = 0;
		assert_true(ns > 0);
		calls = at(f, "transcendentals.by_function.tanhf")->valuedouble;
		assert_true(calls == 262144);
		cJSON *nest;
		cJSON_ArrayForEach(nest, at(f, "predicted.nests")) priced +=
		    at(nest, "seconds_by_resource.transcendental")->valuedouble;
		assert_true(fabs(priced / (calls * ns * 1e-9) - 1) < 1e-6);
	}
	cJSON_Delete(rep);
	run_release(&r);
}

static void threads_build_openmp_and_use_matching_ceilings(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-threads");
	struct run r =
	    RUN("--threads", "2", "--time-budget", "0.05", "--quiet", "-o", out, "tests/fixtures/omp_scale.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	/* the all-threads ceilings, measured with every core of this machine */
	assert_int_equal((int)at(rep, "machine.ceilings.flops.float.threads")->valuedouble,
	                 (int)at(rep, "machine.cores")->valuedouble);
	cJSON *f = fn_in(rep, "tests/fixtures/omp_scale.c", "scale_omp");
	assert_non_null(strstr(at(f, "measured.compiler")->valuestring, " -fopenmp "));
	assert_true(num_positive(at(f, "measured.seconds.median")));
	cJSON_Delete(rep);
}

/* The harness's compiler command has no word limit: 300 flags reach the compiler (240 did, silently, when the
 * command was a fixed array of 256), the last of them too. */
/* The functions of a file take turns: three rounds, each a fresh harness process that sets its kernel up
 * again, the samples of all three summarized; the first round's setups come first. */
static void functions_of_a_file_take_turns(void **state)
{
	(void)state;
	char log[4200], define[4300];
	/* not in the report's directory, which holds only kcost's files (scratch_dir's path is static: first) */
	snprintf(log, sizeof log, "%s/setups.txt", scratch_dir("run-rounds-log"));
	const char *out = scratch_dir("run-rounds");
	snprintf(define, sizeof define, "-O2 -DROUNDS_LOG=\"%s\"", log);
	struct run r = RUN("--cflags", define, "--time-budget", "0.03", "--no-traffic", "--quiet", "-o", out,
	                   "tests/fixtures/runner_rounds.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	char *setups = slurp(log);
	assert_non_null(setups);
	assert_string_equal(setups, "scale\nshift\nscale\nshift\nscale\nshift\n");
	free(setups);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	/* at least 10 samples a round */
	assert_true(at(fn_in(rep, "tests/fixtures/runner_rounds.c", "shift"), "measured.samples")->valuedouble >= 30);
	/* the ceilings beyond L1 were sampled after each of the 6 slices, a batch of each kernel at least, where their
	 * arrays fit in the largest kernel process: L2's (where this machine's caches give it a level of its
	 * own), not DRAM's (96 MiB of arrays at least, for kernels of a few MiB); L1's never */
	cJSON *bw = at(rep, "machine.ceilings.bandwidth");
	if (cJSON_IsNumber(at(bw, "L2.gbytes_per_s")))
		assert_true(at(bw, "L2.median_batches_beside_kernels")->valuedouble >= 6);
	assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(bw, "DRAM"),
	                                             "median_batches_beside_kernels"));
	assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(bw, "L1"),
	                                             "median_batches_beside_kernels"));
	assert_true(at(rep, "machine.ceilings.latency_ns.float.median_runs_beside_kernels")->valuedouble >= 6);
	assert_true(num_positive(at(rep, "machine.ceilings.latency_ns.double.add_median")));
	cJSON_Delete(rep);
}

static void every_cflag_reaches_the_compiler(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-cflags");
	char flags[8192] = "-O2";
	for (int i = 0; i < 300; i++)
		snprintf(flags + strlen(flags), sizeof flags - strlen(flags), " -DKC_FLAG_%d", i);
	struct run r = RUN("--cflags", flags, "--time-budget", "0.02", "--size", "n=4096", "--function", "^vecadd$",
	                   "--quiet", "-o", out, "samples/vecadd.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = fn_in(rep, "samples/vecadd.c", "vecadd");
	const char *compiler = at(f, "measured.compiler")->valuestring;
	assert_non_null(strstr(compiler, " -DKC_FLAG_0 "));
	assert_non_null(strstr(compiler, " -DKC_FLAG_299 "));
	assert_true(num_positive(at(f, "measured.seconds.median")));
	cJSON_Delete(rep);
}

/* --- the kernel is untrusted ------------------------------------------------------------------------------- */

static char *file_in(const char *dir, const char *name)
{
	char path[8400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return slurp(path);
}

/* A kernel that prints forged result lines (at each call, at exit, in a destructor) gets its real times. */
static void forged_results_are_not_read(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-forge");
	struct run r = RUN("--time-budget", "0.05", "--quiet", "-o", out, "tests/fixtures/runner_forge.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = fn_in(rep, "tests/fixtures/runner_forge.c", "scale_forge");
	assert_true(cJSON_IsNull(at(f, "measured.error")));
	/* 65536 multiplications and two formatted prints take microseconds, never 1e-12 s */
	assert_true(at(f, "measured.seconds.median")->valuedouble > 1e-8);
	assert_true(at(f, "measured.seconds.min")->valuedouble > 1e-8);
	cJSON_Delete(rep);
}

/* A secret in kcost's environment does not reach the kernel, and what the kernel prints is quoted in the local
 * report only: never in summary.md. */
static void kernel_output_stays_local(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-secret");
	setenv("KCOST_TEST_SECRET", "kc-secret-7f3a", 1);
	struct run r = RUN("--time-budget", "0.05", "-o", out, "tests/fixtures/runner_secret.c");
	unsetenv("KCOST_TEST_SECRET");
	assert_int_equal(r.status, 1);
	assert_null(strstr(r.err, "kc-secret-7f3a"));
	assert_non_null(strstr(r.err, "error: exited with status 3; its stderr began: \"kernel-said: nothing\""));
	const char *files[] = {"summary.md", "index.html", "report.json"};
	for (int i = 0; i < 3; i++) {
		char *text = file_in(out, files[i]);
		assert_non_null(text);
		assert_null(strstr(text, "kc-secret-7f3a"));
		/* the kernel's words: in the local report, not in the pull-request comment */
		if (i == 0)
			assert_null(strstr(text, "kernel-said"));
		else
			assert_non_null(strstr(text, "kernel-said: nothing"));
		free(text);
	}
	char *md = file_in(out, "summary.md");
	assert_non_null(strstr(md, "could not be measured: exited with status 3 (its output is in index.html)"));
	free(md);
	cJSON *rep = load_report(out);
	assert_true(
	    num_positive(at(fn_in(rep, "tests/fixtures/runner_secret.c", "scale_ok"), "measured.seconds.median")));
	cJSON_Delete(rep);
	run_release(&r);
}

static void sleep_ms(int ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

static double wall_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A grandchild that keeps stdout open does not make a finished kernel time out. */
static void lingering_grandchild_does_not_hold_the_run(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-linger");
	double t0 = wall_now();
	struct run r =
	    RUN("--time-budget", "0.05", "--timeout", "20", "--quiet", "-o", out, "tests/fixtures/runner_linger.c");
	assert_int_equal(r.status, 0);
	assert_true(wall_now() - t0 <
	            300); /* the grandchild sleeps 600 s: kcost did not wait for it, however slow the machine */
	run_release(&r);
	cJSON *rep = load_report(out);
	cJSON *f = fn_in(rep, "tests/fixtures/runner_linger.c", "scale_linger");
	assert_true(cJSON_IsNull(at(f, "measured.error")));
	assert_true(num_positive(at(f, "measured.seconds.median")));
	cJSON_Delete(rep);
}

/* The pids the orphans fixture wrote (harness, grandchild, ...) into pids[]; their number. */
static int read_pids(const char *path, int *pids, int max)
{
	FILE *f = fopen(path, "r");
	int n = 0;
	while (f && n < max && fscanf(f, "%d", &pids[n]) == 1)
		n++;
	if (f)
		fclose(f);
	return n;
}

/* Every process in pids[0 .. n-1] is gone (reaped by kcost, or by init once orphaned: a moment is allowed). */
static int all_gone(const int *pids, int n)
{
	for (int tries = 0; tries < 200; tries++) {
		int alive = 0;
		for (int i = 0; i < n; i++)
			alive += kill(pids[i], 0) == 0 || errno != ESRCH;
		if (!alive)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* After a timeout, no process of the kernel's group remains. */
static void timeout_kills_the_whole_group(void **state)
{
	(void)state;
	const char *dir = scratch_dir("run-orphans");
	char pidfile[4200], define[4300], out[4200];
	snprintf(pidfile, sizeof pidfile, "%s/pids", dir);
	snprintf(out, sizeof out, "%s/report", dir); /* the pid file beside the report, not in it */
	snprintf(define, sizeof define, "-O2 -DKCOST_PIDFILE=\"%s\"", pidfile);
	struct run r = RUN("--timeout", "2", "--time-budget", "0.05", "--cflags", define, "--quiet", "-o", out,
	                   "tests/fixtures/runner_orphans.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "error: timed out after 2 s"));
	assert_null(strstr(r.err, "report directory")); /* the report was written */
	run_release(&r);
	int pids[8], n = read_pids(pidfile, pids, 8);
	assert_true(n >= 2);
	assert_true(all_gone(pids, n));
}

static int dir_entries(const char *path)
{
	DIR *d = opendir(path);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* Start kcost on the orphans fixture with TMPDIR=<out>/tmp, and wait until its harness has written its pids
 * (pids[0] the harness, pids[1] its grandchild). kcost's pid. */
static pid_t start_orphans_run(const char *out, int *pids, int *n)
{
	char tmp[4200], pidfile[4200], define[4300], report[4200];
	snprintf(tmp, sizeof tmp, "%s/tmp", out);
	snprintf(pidfile, sizeof pidfile, "%s/pids", out);
	snprintf(report, sizeof report, "%s/report", out);
	snprintf(define, sizeof define, "-O2 -DKCOST_PIDFILE=\"%s\"", pidfile);
	assert_int_equal(mkdir(tmp, 0700), 0);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0), dup2(null, 1), dup2(null, 2);
		setenv("TMPDIR", tmp, 1);
		if (chdir(KCOST_SOURCE_DIR) != 0)
			_exit(127);
		execl(KCOST_BIN, KCOST_BIN, "--timeout", "60", "--time-budget", "0.05", "--cflags", define, "--quiet",
		      "-o", report, "tests/fixtures/runner_orphans.c", (char *)NULL);
		_exit(127);
	}
	*n = 0;
	for (int tries = 0; tries < 1200 && *n < 2; tries++) { /* the ceilings, the build: up to 2 minutes */
		sleep_ms(100);
		*n = read_pids(pidfile, pids, 8);
	}
	assert_true(*n >= 2);
	assert_true(dir_entries(tmp) == 1); /* the run's kcost-XXXXXX */
	return pid;
}

/* kcost terminated during a run kills its children and removes its temporary directory. */
static void sigterm_cleans_up(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-sigterm");
	int pids[8], n;
	pid_t pid = start_orphans_run(out, pids, &n);
	assert_int_equal(kill(pid, SIGTERM), 0);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s/tmp", out);
	assert_int_equal(dir_entries(tmp), 0);
	assert_true(all_gone(pids, n));
}

/* kcost killed outright (no handler runs) still takes its harness along (PR_SET_PDEATHSIG). Its temporary
 * directory and the harness's own children are left: only a PID namespace or a cgroup could take those too. */
static void sigkill_takes_the_harness_along(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-sigkill");
	int pids[8], n;
	pid_t pid = start_orphans_run(out, pids, &n);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_true(all_gone(pids, 1));
	for (int i = 1; i < n; i++)
		kill(pids[i], SIGKILL); /* the grandchild, orphaned */
}

/* A kernel that signals its parent does not stop kcost, and a grandchild that left the group (setsid) does not
 * outlive the run. */
static void escapes_are_contained(void **state)
{
	(void)state;
	const char *dir = scratch_dir("run-escape");
	/* the pid file beside the report, not in it: a directory holding other files is no report's to overwrite */
	char pidfile[4200], define[4300], out[4200];
	snprintf(pidfile, sizeof pidfile, "%s/pids", dir);
	snprintf(out, sizeof out, "%s/report", dir);
	snprintf(define, sizeof define, "-O2 -DKCOST_PIDFILE=\"%s\"", pidfile);
	struct run r = RUN("--time-budget", "0.05", "--timeout", "20", "--cflags", define, "--quiet", "-o", out,
	                   "tests/fixtures/runner_escape.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = fn_in(rep, "tests/fixtures/runner_escape.c", "scale_escape");
	assert_true(cJSON_IsNull(at(f, "measured.error")));
	assert_true(num_positive(at(f, "measured.seconds.median")));
	cJSON_Delete(rep);
	int pids[16], n = read_pids(pidfile, pids, 16);
	assert_true(n >= 1);
	assert_true(all_gone(pids, n));
}

/* The path of a file named kcost-escaped in dir. */
static const char *escaped_in(const char *dir)
{
	static char path[4200];
	snprintf(path, sizeof path, "%s/kcost-escaped", dir);
	return path;
}

/* Without --sandbox a kernel writes wherever the user can (documented, and said in the report); with it, nothing
 * outside kcost's temporary directory — neither a directory of the test's nor the user's home — and the report
 * says so. Where the machine refuses the namespaces, --sandbox runs no kernel and says why. */
static void sandbox_keeps_writes_in(void **state)
{
	(void)state;
	const char *dir = scratch_dir("run-sandbox");
	char define[4400], out[4200];
	snprintf(out, sizeof out, "%s/report", dir);
	snprintf(define, sizeof define, "-O2 -DKCOST_ESCAPE_DIR=\"%s\"", dir);
	struct run r =
	    RUN("--time-budget", "0.02", "--cflags", define, "--quiet", "-o", out, "tests/fixtures/runner_sandbox.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	assert_int_equal(access(escaped_in(dir), F_OK), 0); /* it could: it ran with the user's rights */
	unlink(escaped_in(dir));
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_true(cJSON_IsFalse(at(rep, "sandbox.requested")));
	assert_true(cJSON_IsFalse(at(rep, "sandbox.used")));
	cJSON_Delete(rep);
	char md_path[4300];
	snprintf(md_path, sizeof md_path, "%s/summary.md", out);
	char *md = slurp(md_path);
	assert_non_null(strstr(md, "Kernels ran with the user's rights (no `--sandbox`)."));
	free(md);

	struct passwd *pw = getpwuid(getuid());
	assert_non_null(pw);
	char home_file[4200];
	snprintf(home_file, sizeof home_file, "%s", escaped_in(pw->pw_dir));
	int home_before = access(home_file, F_OK) == 0;
	snprintf(define, sizeof define, "-O2 -DKCOST_TRY_HOME -DKCOST_ESCAPE_DIR=\"%s\"", dir);
	r = RUN("--sandbox", "--time-budget", "0.02", "--cflags", define, "--quiet", "-o", out,
	        "tests/fixtures/runner_sandbox.c");
	rep = load_report(out);
	assert_non_null(rep);
	assert_true(cJSON_IsTrue(at(rep, "sandbox.requested")));
	assert_int_equal(access(escaped_in(dir), F_OK), -1); /* nothing written outside, whether it ran or not */
	if (!home_before) {
		assert_int_equal(access(home_file, F_OK), -1);
	}
	md = slurp(md_path);
	if (cJSON_IsTrue(at(rep, "sandbox.used"))) {
		assert_int_equal(r.status, 0);
		assert_non_null(strstr(at(rep, "sandbox.isolation")->valuestring, "read-only"));
		assert_non_null(strstr(md, "Kernels ran in a sandbox (read-only filesystem, no network)."));
		const char *names[] = {"scale_ok", "scale_escape"};
		for (int i = 0; i < 2; i++) {
			cJSON *f = fn_in(rep, "tests/fixtures/runner_sandbox.c", names[i]);
			assert_true(cJSON_IsNull(at(f, "measured.error")));
			assert_true(num_positive(at(f, "measured.seconds.median")));
		}
	} else { /* a machine that refuses namespaces: no kernel runs, and it says why */
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "error: --sandbox: kernels cannot be isolated on this machine ("));
		assert_true(cJSON_IsString(at(rep, "sandbox.why_not")));
		assert_non_null(strstr(md, "Kernels did not run: the sandbox asked for is not available."));
		cJSON *f = fn_in(rep, "tests/fixtures/runner_sandbox.c", "scale_escape");
		assert_non_null(
		    strstr(at(f, "measured.error")->valuestring, "not run: --sandbox is not available here"));
	}
	free(md);
	run_release(&r);
	cJSON_Delete(rep);
}

/* A file as PolyBench's are: a header through a relative -I (the harness compiles elsewhere: kcost makes the
 * path absolute), sizes from main's call, and a main that needs an object file kcost is not given (the harness
 * never calls main: its references are dropped with its section). The kernel runs. */
static void polybench_shaped_file_runs(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-main-refs");
	struct run r = RUN("--no-traffic", "--time-budget", "0.02", "--quiet", "-o", out,
	                   "tests/fixtures/runner_main_refs.c", "--", "-I", "tests/fixtures/include");
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = fn_in(rep, "tests/fixtures/runner_main_refs.c", "scale");
	if (!cJSON_IsNull(at(f, "measured.error")))
		fail_msg("scale: %s\n%s", at(f, "measured.error")->valuestring, r.err);
	assert_true(num_positive(at(f, "measured.seconds.median")));
	assert_true(at(f, "sizes.n")->valuedouble == 16384);
	assert_string_equal(at(f, "measured.traffic.why")->valuestring, "not measured: --no-traffic");
	cJSON_Delete(rep);
	run_release(&r);
}

/* A kernel that only returns its result is timed doing its work, not at the 30 ns of a removed call: dot's 2^22
 * dependent adds (an in-order float sum) take at least 0.2 ns each on any CPU, so 0.1 ms is a floor no real run
 * goes under; range's comparisons may be vectorized, but 32 MiB read at even 1 TB/s take 30 us. */
static void returned_values_are_kept(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-returns");
	struct run r = RUN("--time-budget", "0.02", "--quiet", "-o", out, "tests/fixtures/runner_returns.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	const char *names[] = {"dot", "range"};
	for (int i = 0; i < 2; i++) {
		cJSON *f = fn_in(rep, "tests/fixtures/runner_returns.c", names[i]);
		assert_true(cJSON_IsNull(at(f, "measured.error")));
		assert_true(at(f, "measured.seconds.median")->valuedouble > (i == 0 ? 1e-4 : 1e-5));
	}
	cJSON_Delete(rep);
}

/* Work the compiler removes (stores to a local array never read) gives a time the machine cannot produce: a
 * warning, and report.json marks it; the same work kept is an ordinary measurement. */
static void impossible_speed_is_a_finding(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-dead");
	struct run r = RUN("--time-budget", "0.02", "-o", out, "tests/fixtures/runner_dead.c");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "runner_dead.c:7:6: warning: measured faster than the machine allows ("));
	assert_non_null(strstr(r.err, "GFLOP/s against a compute roof of "));
	assert_non_null(strstr(r.err, " GFLOP/s): the call may have been optimized away, or a ceiling is wrong"));
	/* the run's warning is counted with the analysis's (it was not: "0 warnings" under it) */
	assert_non_null(strstr(r.err, "kcost: 2 functions analyzed (2 exact), 0 errors, 1 warning; report: "));
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *dead = fn_in(rep, "tests/fixtures/runner_dead.c", "dead_work");
	assert_non_null(strstr(at(dead, "measured.implausible")->valuestring, "may have been optimized away"));
	assert_true(cJSON_IsNull(at(fn_in(rep, "tests/fixtures/runner_dead.c", "live_work"), "measured.implausible")));
	cJSON_Delete(rep);
	char md_path[4300];
	snprintf(md_path, sizeof md_path, "%s/summary.md", out);
	char *md = slurp(md_path);
	assert_non_null(strstr(md, "not a fact: measured faster than the machine allows"));
	free(md);
}

/* An environment variable of kcost's children set for a while: env_set sets it and keeps what it was,
 * env_restore puts that back (or unsets it). */
struct saved_env {
	const char *name;
	int had;
	char value[4200];
};

static struct saved_env env_set(const char *name, const char *value)
{
	struct saved_env e = {name, 0, ""};
	const char *was = getenv(name);
	if (was)
		e.had = 1, snprintf(e.value, sizeof e.value, "%s", was);
	setenv(name, value, 1);
	return e;
}

static void env_restore(const struct saved_env *e)
{
	if (e->had)
		setenv(e->name, e->value, 1);
	else
		unsetenv(e->name);
}

/* `kcost machine` prints the ceilings the runs use (from the cache the tests above filled), as text and as the
 * cache's JSON; a wrong argument is a usage error. */
static void machine_prints_its_ceilings(void **state)
{
	(void)state;
	struct run r = RUN("machine");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "float compute roof"));
	assert_non_null(strstr(r.out, "ceilings (from the cache, measured "));
	assert_non_null(strstr(r.out, "libm, ns per call (scalar, one thread):"));
	assert_non_null(strstr(r.out, "libm, ns per call, the median sweeps (what a prediction uses):\n    expf "));
	assert_non_null(strstr(r.out, "DRAM bandwidth"));
	assert_non_null(strstr(r.out, "column stores, ns per store (median), by where the line comes from: "));
	run_release(&r);
	r = RUN("machine", "--format", "json");
	assert_int_equal(r.status, 0);
	cJSON *j = cJSON_Parse(r.out);
	assert_non_null(j);
	assert_int_equal(at(j, "kcost_ceilings")->valueint, 9);
	/* a _Float16 update, where the CPU can run one (F16C and FMA, or AVX512-FP16) */
#if defined(__x86_64__)
	if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma")) {
		assert_true(num_positive(at(j, "latency_seconds.half.add")));
		assert_true(num_positive(at(j, "latency_seconds.half.multiply_add")));
	}
#endif
	/* beyond the largest cache on every machine, L1 where its size is known */
	if (cJSON_GetArrayItem(at(j, "cache_bytes"), 0)->valuedouble > 0)
		assert_true(num_positive(at(j, "column_stores.seconds_per_store.L1")));
	assert_true(num_positive(at(j, "column_stores.median.DRAM")));
	assert_true(at(j, "column_stores.median.DRAM")->valuedouble >=
	            at(j, "column_stores.seconds_per_store.DRAM")->valuedouble);
	assert_true(num_positive(at(j, "bandwidth.DRAM.median_gbytes_per_s")));
	assert_true(num_positive(at(j, "libm.tanhf.median_seconds_per_call")));
	assert_true(num_positive(at(j, "latency_seconds.float.add_rows_of_64")));
	assert_true(num_positive(at(j, "latency_seconds.double.add_rows_of_64")));
	assert_true(num_positive(at(j, "bandwidth.DRAM.kernels_gbytes_per_s.update")));
	assert_true(num_positive(at(j, "bandwidth.L1.kernels_gbytes_per_s.load")));
	assert_true(num_positive(at(j, "flops.dense_float_as_run.gflops")));
	assert_true(num_positive(at(j, "peak.double.scalar.add_mul.gflops")));
	assert_true(num_positive(at(j, "libm.tanhf.seconds_per_call")));
	assert_true(num_positive(at(j, "flops.float.gflops")));
	double roof = at(j, "flops.float.gflops")->valuedouble;
	cJSON_Delete(j);
	/* that file is another machine's ceilings for --machine */
	const char *dir = scratch_dir("run-machine-file");
	char file[4200], out[4200];
	snprintf(file, sizeof file, "%s/other.json", dir);
	snprintf(out, sizeof out, "%s/report", dir);
	write_text(file, r.out);
	run_release(&r);
	r = RUN("--no-run", "--machine", file, "--quiet", "-o", out, "samples/vecadd.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_string_equal(at(rep, "machine.from_file")->valuestring, file);
	assert_true(at(rep, "machine.ceilings.flops.float.gflops")->valuedouble == roof);
	assert_true(num_positive(at(find_function(rep, "vecadd"), "predicted.seconds")));
	cJSON_Delete(rep);
	/* kernels run against another machine's ceilings: nothing of this one is sampled beside them (against its
	 * own, after each of the 6 slices). --verbose keeps the harness's directory: in a scratch TMPDIR. */
	struct saved_env tmp = env_set("TMPDIR", scratch_dir("run-machine-tmp"));
	r = RUN("--machine", file, "--no-traffic", "--time-budget", "0.03", "--size", "n=4096", "--verbose", "-o", out,
	        "samples/vecadd.c");
	struct run own = RUN("--no-traffic", "--time-budget", "0.03", "--size", "n=4096", "--verbose", "-o", out,
	                     "samples/vecadd.c");
	env_restore(&tmp);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err,
	                       "kcost: ceilings sampled beside the kernels' timings 0 times (the predictions use "
	                       "other ceilings: --machine, --peak)\n"));
	run_release(&r);
	assert_int_equal(own.status, 0);
	assert_non_null(strstr(own.err, "kcost: ceilings sampled beside the kernels' timings 6 times\n"));
	run_release(&own);
	rep = load_report(out);
	assert_non_null(rep);
	assert_true(num_positive(at(find_function(rep, "vecadd_unrolled"), "measured.seconds.median")));
	/* vecadd at n = 4096 is a process of a few MiB: DRAM's arrays (96 MiB at least) are not allocated beside it */
	assert_null(at(rep, "machine.ceilings.bandwidth.DRAM.median_batches_beside_kernels"));
	assert_true(at(rep, "machine.ceilings.latency_ns.float.median_runs_beside_kernels")->valuedouble >= 6);
	cJSON_Delete(rep);
	r = RUN("machine", "--format", "yaml");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "kcost machine: error: --format expects text or json, not 'yaml'"));
	run_release(&r);
	r = RUN("machine", "--frobnicate");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "kcost machine: error: unexpected argument '--frobnicate'"));
	run_release(&r);
}

/* A first run, with no ceilings cached: the machine is measured, then the kernels built and run. The
 * ceilings' measurement must leave the process able to start children (session 13: arrays kept out of forked
 * children with MADV_DONTFORK on heap memory made every later child fail, "could not run cc: Bad address"). */
static void first_run_measures_then_runs(void **state)
{
	(void)state;
	struct saved_env cache = env_set("XDG_CACHE_HOME", scratch_dir("run-first-cache"));
	const char *out = scratch_dir("run-first");
	struct run r =
	    RUN("--no-traffic", "--time-budget", "0.03", "--quiet", "-o", out, "tests/fixtures/runner_rounds.c");
	env_restore(&cache);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.err, "error:"));
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_true(num_positive(at(fn_in(rep, "tests/fixtures/runner_rounds.c", "shift"), "measured.seconds.median")));
	assert_true(at(rep, "machine.cached")->type == cJSON_False);
	cJSON_Delete(rep);
}

/* Misbehaving kernels, each a diagnostic of its own within the limits; the others of the file measured. */
static void hostile_kernels_fail_alone(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-hostile");
	double t0 = wall_now();
	struct run r = RUN("--time-budget", "0.05", "--timeout", "3", "-o", out, "tests/fixtures/runner_hostile.c");
	assert_int_equal(r.status, 1);
	assert_true(wall_now() - t0 < 300); /* the 50 children sleep 600 s: not waited for, however slow the machine */
	assert_non_null(strstr(r.err, "runner_hostile.c:20:6: error: crashed with SIGABRT (aborted)"));
	assert_non_null(strstr(r.err, "runner_hostile.c:30:6: error: crashed with SIGFPE (arithmetic exception)"));
	assert_non_null(strstr(r.err, "runner_hostile.c:38:6: error: timed out after 3 s"));
	assert_non_null(strstr(r.err, "3 errors"));
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	const char *measured[] = {"scale_ok", "scale_forks", "scale_closes"};
	for (int i = 0; i < 3; i++) {
		cJSON *f = fn_in(rep, "tests/fixtures/runner_hostile.c", measured[i]);
		assert_true(cJSON_IsNull(at(f, "measured.error")));
		assert_true(num_positive(at(f, "measured.seconds.median")));
	}
	cJSON_Delete(rep);
}

/* --- limits that mean what they say ------------------------------------------------------------------------ */

/* One memory limit whatever the kernel allocates; 100 MiB of output read and dropped; a missing KCOST_INIT
 * function fails its kernel only. */
static void limits_mean_what_they_say(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-limits");
	struct run r = RUN("--memory-limit", "1G", "--time-budget", "0.05", "--timeout", "20", "-o", out,
	                   "tests/fixtures/runner_limits.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err,
	                       "tests/fixtures/runner_limits.c:20:6: error: exceeded the memory limit of 1.0 GiB "
	                       "(could not allocate 53687091200 bytes)"));
	assert_non_null(strstr(r.err, "tests/fixtures/runner_limits.c:49:37: error: not run: its KCOST_INIT function "
	                              "scale_noinit_setup is not defined"));
	assert_non_null(strstr(r.err, "2 errors"));
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	const char *measured[] = {"scale_ok", "scale_chatty"};
	for (int i = 0; i < 2; i++) {
		cJSON *f = fn_in(rep, "tests/fixtures/runner_limits.c", measured[i]);
		assert_true(cJSON_IsNull(at(f, "measured.error")));
		assert_true(num_positive(at(f, "measured.seconds.median")));
	}
	cJSON_Delete(rep);
}

/* A kernel that calls a function no file defines fails alone: its harness does not link; the file's other
 * kernels are built without it and measured (every kernel of the file failed, "harness failed to compile"). */
static void unlinked_kernel_fails_alone(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-unlinked");
	struct run r = RUN("--no-traffic", "--time-budget", "0.02", "--size", "n=1000", "-o", out,
	                   "tests/fixtures/runner_unlinked.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "tests/fixtures/runner_unlinked.c:12:6: error: harness failed to link: "));
	assert_non_null(strstr(r.err, "undefined reference to `helper_elsewhere'"));
	assert_non_null(strstr(r.err, "1 error"));
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	const char *measured[] = {"scale_ok", "add_ok"};
	for (int i = 0; i < 2; i++) {
		cJSON *f = fn_in(rep, "tests/fixtures/runner_unlinked.c", measured[i]);
		assert_true(cJSON_IsNull(at(f, "measured.error")));
		assert_true(num_positive(at(f, "measured.seconds.median")));
	}
	cJSON *bad = fn_in(rep, "tests/fixtures/runner_unlinked.c", "calls_missing");
	assert_non_null(strstr(cJSON_GetStringValue(at(bad, "measured.error")), "harness failed to link"));
	cJSON_Delete(rep);
}

/* --timeout takes a finite, positive number of seconds up to 1e6 (no "no limit"); --memory-limit a size. */
static void limit_options_are_checked(void **state)
{
	(void)state;
	const char *bad_timeouts[] = {"inf", "nan", "1e300", "-1", "0", "infinity"};
	for (size_t i = 0; i < sizeof bad_timeouts / sizeof bad_timeouts[0]; i++) {
		struct run r = RUN("--no-run", "--timeout", bad_timeouts[i], "samples/vecadd.c");
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "--timeout expects a positive number of seconds, at most 1000000"));
		run_release(&r);
	}
	const char *bad_sizes[] = {"1X", "10", "-1G", "nan", "1e30G", ""};
	for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
		struct run r = RUN("--no-run", "--memory-limit", bad_sizes[i], "samples/vecadd.c");
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "--memory-limit expects a size from 64M"));
		run_release(&r);
	}
	const char *good[] = {"512M", "4GiB", "1.5g", "1T", "68719476736"};
	const char *out = scratch_dir("run-limit-options");
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct run r = RUN("--no-run", "--quiet", "--memory-limit", good[i], "--timeout", "1e6", "-o", out,
		                   "samples/vecadd.c");
		assert_int_equal(r.status, 0);
		run_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(failing_kernels_become_diagnostics),
	    cmocka_unit_test(gelu_is_measured_and_checked),
	    cmocka_unit_test(functions_of_a_file_take_turns),
	    cmocka_unit_test(threads_build_openmp_and_use_matching_ceilings),
	    cmocka_unit_test(every_cflag_reaches_the_compiler),
	    cmocka_unit_test(forged_results_are_not_read),
	    cmocka_unit_test(kernel_output_stays_local),
	    cmocka_unit_test(lingering_grandchild_does_not_hold_the_run),
	    cmocka_unit_test(timeout_kills_the_whole_group),
	    cmocka_unit_test(sigterm_cleans_up),
	    cmocka_unit_test(sigkill_takes_the_harness_along),
	    cmocka_unit_test(escapes_are_contained),
	    cmocka_unit_test(hostile_kernels_fail_alone),
	    cmocka_unit_test(sandbox_keeps_writes_in),
	    cmocka_unit_test(limits_mean_what_they_say),
	    cmocka_unit_test(unlinked_kernel_fails_alone),
	    cmocka_unit_test(limit_options_are_checked),
	    cmocka_unit_test(machine_prints_its_ceilings),
	    cmocka_unit_test(first_run_measures_then_runs),
	    cmocka_unit_test(polybench_shaped_file_runs),
	    cmocka_unit_test(returned_values_are_kept),
	    cmocka_unit_test(impossible_speed_is_a_finding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
