/* test_clang_limits.c — inputs past libclang's own limits through the built binary (issue #11): a stack overflow
 * inside the parse, an #include of a device that never ends or of a FIFO that never opens, code nested deeper
 * than clang itself accepts, a file that includes itself, a parse past its CPU-time budget. Each is a diagnostic naming
 * the file, never a crash or a hang of kcost, and the other file of the same run is analyzed and reported as usual. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "run.h"

static const char other_kernel[] = "void other(float *y, int n)\n"
                                   "{\n"
                                   "\tfor (int i = 0; i < n; i++)\n"
                                   "\t\ty[i] = 2.0f * y[i];\n"
                                   "}\n";

/* `prefix`, then `unit` `times` times, then `suffix`, into a malloc'd string. */
static char *repeat(const char *prefix, const char *unit, int times, const char *suffix)
{
	size_t np = strlen(prefix), nu = strlen(unit), ns = strlen(suffix);
	char *s = malloc(np + nu * (size_t)times + ns + 1), *p = s;
	assert_non_null(s);
	memcpy(p, prefix, np);
	p += np;
	for (int i = 0; i < times; i++, p += nu)
		memcpy(p, unit, nu);
	memcpy(p, suffix, ns + 1);
	return s;
}

/* Write `text` as DIR/hostile.c next to DIR/other.c and run kcost --no-run on both: the exit status must be
 * `status`, stderr must name hostile.c with `message`, and the report must hold other(). Returns the wall
 * time in seconds. */
static double check_with(const char *name, const char *text, int status, const char *message, const char *option,
                         const char *value)
{
	const char *dir = scratch_dir(name);
	char hostile[4200], other[4200], out[4200];
	snprintf(hostile, sizeof hostile, "%s/hostile.c", dir);
	snprintf(other, sizeof other, "%s/other.c", dir);
	snprintf(out, sizeof out, "%s/report", dir);
	write_text(hostile, text);
	write_text(other, other_kernel);
	const char *argv[] = {"--no-run", "--quiet", "-o", out, hostile, other, NULL, NULL, NULL};
	if (option) {
		argv[6] = option;
		argv[7] = value;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct run r = run_kcost(argv);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r.status != status)
		fprintf(stderr, "kcost exited %d:\n%.2000s\n", r.status, r.err);
	assert_int_equal(r.status, status);
	char expected[4400];
	snprintf(expected, sizeof expected, "%s:", hostile);
	const char *at_file = strstr(r.err, expected);
	if (!at_file || !strstr(at_file, message))
		fail_msg("no diagnostic '%s' for %s in:\n%.2000s", message, hostile, r.err);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_non_null(find_function(rep, "other"));
	cJSON_Delete(rep);
	return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

static double check(const char *name, const char *text, int status, const char *message)
{
	return check_with(name, text, status, message, NULL, NULL);
}

/* A million unary minus signs: libclang's parser recurses once per sign and overflows its stack; the crash
 * recovery (on the alternate signal stack) turns that into a failed parse. */
static void test_stack_overflow_in_the_parse(void **state)
{
	(void)state;
	char *text = repeat("int deep(void) { return ", "- ", 1000000, "1; }\n");
	check("overflow", text, 1, "error: libclang crashed parsing the file");
	free(text);
}

/* 10,000 nested ifs (clang -fsyntax-only crashes on them): parsed on the analysis thread's stack, then past
 * kcost's own depth limit — an error of that function, and the exit status stays 0 (the file parsed). */
static void test_ten_thousand_nested_ifs(void **state)
{
	(void)state;
	char *text = repeat("void deep(int *a, int n)\n{\n", "if (n) ", 10000, "a[0] = 1;\n}\n");
	check("nested_if", text, 0, "nested more than 1000 levels deep");
	free(text);
}

/* 25,000 nested ifs take libclang 20 s of CPU time (it is quadratic on them; 50,000 take a minute, then crash):
 * past --parse-timeout the parse is abandoned, an error of that file, and kcost goes on with the next. */
static void test_parse_over_its_cpu_budget(void **state)
{
	(void)state;
	char *text = repeat("void deep(int *a, int n)\n{\n", "if (n) ", 25000, "a[0] = 1;\n}\n");
	check_with("slow_parse", text, 1, "error: the parse took more than 1 s of CPU time", "--parse-timeout", "1");
	free(text);
	const char *bad[] = {"0", "-1", "inf", "nan", "1e7", "x"};
	for (int i = 0; i < 6; i++) {
		const char *argv[] = {"--no-run", "--parse-timeout", bad[i], "samples/vecadd.c", NULL};
		struct run r = run_kcost(argv);
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "--parse-timeout expects a positive number of seconds, at most 1000000"));
		run_release(&r);
	}
}

/* A line of a million characters, one sum of 200,000 terms: the same. */
static void test_million_character_line(void **state)
{
	(void)state;
	char *text = repeat("void deep(float *a, int n)\n{\n\tfor (int i = 0; i < n; i++) a[i] = a[i]", "+a[i]", 200000,
	                    ";\n}\n");
	check("long_line", text, 0, "nested more than 1000 levels deep");
	free(text);
}

/* /dev/zero has size 0 but no end: libclang reads user files to their end. The watchdog sees the parse holding
 * a device and stops it well before the 4 GiB address-space budget of a parse. */
static void test_include_dev_zero(void **state)
{
	(void)state;
	double s = check("dev_zero", "#include \"/dev/zero\"\nint x;\n", 1,
	                 "error: the parse read '/dev/zero', which is not a regular file: it was stopped");
	assert_true(s < 4.0);
	check("dev_urandom", "#include \"/dev/urandom\"\nint x;\n", 1, "the parse read '/dev/urandom'");
}

/* Opening a FIFO blocks until someone writes to it: the parse is abandoned after 5 s without progress. */
static void test_include_fifo(void **state)
{
	(void)state;
	const char *dir = scratch_dir("fifo_node");
	char fifo[4200], text[4400];
	snprintf(fifo, sizeof fifo, "%s/pipe", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(text, sizeof text, "#include \"%s\"\nint x;\n", fifo);
	double s = check("fifo", text, 1, "error: the parse made no progress for 5 s");
	assert_true(s < 30.0);
}

/* A file that includes itself: clang's own include depth limit, an error of the file. */
static void test_self_include(void **state)
{
	(void)state;
	check("self", "#include __FILE__\nvoid f(float *a, int n) { for (int i = 0; i < n; i++) a[i] = 1; }\n", 1,
	      "#include nested");
}

/* All of them in one run, a crash after an abandoned parse (a new thread, with its own signal stack) and a
 * second crash after the first: each file gets its diagnostic, and the last file is still analyzed. */
static void test_one_after_another(void **state)
{
	(void)state;
	const char *dir = scratch_dir("sequence");
	const char *names[] = {"deep1.c", "zero.c", "fifo.c", "deep2.c"};
	const char *messages[] = {"libclang crashed", "the parse read '/dev/zero'", "the parse made no progress",
	                          "libclang crashed"};
	char paths[5][4200], fifo[4200], text[4400];
	snprintf(fifo, sizeof fifo, "%s/pipe", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	char *deep = repeat("int deep(void) { return ", "!", 2000000, "1; }\n");
	for (int i = 0; i < 4; i++) {
		snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
		snprintf(text, sizeof text, i == 1 ? "#include \"/dev/zero\"\n" : "#include \"%s\"\n", fifo);
		write_text(paths[i], i == 0 || i == 3 ? deep : text);
	}
	free(deep);
	snprintf(paths[4], sizeof paths[4], "%s/other.c", dir);
	write_text(paths[4], other_kernel);
	char out[4200];
	snprintf(out, sizeof out, "%s/report", dir);
	const char *argv[] = {"--no-run", "--quiet", "-o", out, paths[0], paths[1], paths[2], paths[3], paths[4], NULL};
	struct run r = run_kcost(argv);
	assert_int_equal(r.status, 1);
	for (int i = 0; i < 4; i++) {
		char expected[4400];
		snprintf(expected, sizeof expected, "%.4200s: error: ", paths[i]);
		const char *at_file = strstr(r.err, expected);
		if (!at_file || strncmp(at_file + strlen(expected), messages[i], strlen(messages[i])))
			fail_msg("no diagnostic '%s' for %s in:\n%.2000s", messages[i], paths[i], r.err);
	}
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_non_null(find_function(rep, "other"));
	assert_null(find_function(rep, "deep"));
	cJSON_Delete(rep);
}

/* The same limits in a file parsed in parts (-j 2, analyzer/split.h): every part reads the device, so every
 * part's descriptor is stopped; a FIFO blocks every part; a crash of one part's parse. Each is the file's
 * diagnostic, as in a whole parse, as fast. */
static void test_limits_in_parts(void **state)
{
	(void)state;
	static const char bodies[] = "void a(float *x, int n) { for (int i = 0; i < n; i++) x[i] = 1; }\n"
	                             "void b(float *x, int n) { for (int i = 0; i < n; i++) x[i] = 2; }\n"
	                             "void c(float *x, int n) { for (int i = 0; i < n; i++) x[i] = 3; }\n";
	const char *dir = scratch_dir("in_parts");
	char fifo[4200], path[4200], out[4200], text[8400];
	snprintf(fifo, sizeof fifo, "%s/pipe", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(path, sizeof path, "%s/hostile.c", dir);
	snprintf(out, sizeof out, "%s/report", dir);
	char *deep = repeat("int deep(void) { return ", "- ", 1000000, "1; }\n");
	const char *messages[] = {"error: the parse read '/dev/zero', which is not a regular file: it was stopped",
	                          "error: the parse made no progress for 5 s", "error: libclang crashed"};
	const double within[] = {4.0, 30.0, 30.0};
	for (int i = 0; i < 3; i++) {
		if (i == 2) {
			char *both = malloc(strlen(bodies) + strlen(deep) + 1);
			assert_non_null(both);
			strcpy(both, bodies);
			strcat(both, deep);
			write_text(path, both);
			free(both);
		} else {
			snprintf(text, sizeof text, "#include \"%s\"\n%s", i == 0 ? "/dev/zero" : fifo, bodies);
			write_text(path, text);
		}
		const char *argv[] = {"--no-run", "--quiet", "-j", "2", "-o", out, path, NULL};
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		struct run r = run_kcost(argv);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		if (r.status != 1 || !strstr(r.err, messages[i]) || s >= within[i])
			fail_msg("case %d: exit %d after %.1f s, expected 1 and '%s' in:\n%.2000s", i, r.status, s,
			         messages[i], r.err);
		run_release(&r);
	}
	free(deep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stack_overflow_in_the_parse),
	    cmocka_unit_test(test_ten_thousand_nested_ifs),
	    cmocka_unit_test(test_parse_over_its_cpu_budget),
	    cmocka_unit_test(test_million_character_line),
	    cmocka_unit_test(test_include_dev_zero),
	    cmocka_unit_test(test_include_fifo),
	    cmocka_unit_test(test_self_include),
	    cmocka_unit_test(test_one_after_another),
	    cmocka_unit_test(test_limits_in_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
