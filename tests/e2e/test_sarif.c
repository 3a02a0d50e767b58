/* test_sarif.c — `kcost --format sarif` (and kcost.sarif in the report) and `kcost diff --format sarif`: each
 * log is checked against the OASIS SARIF 2.1.0 schemas (tests/sarif/validate.js: Ajv under Node.js, installed
 * by scripts/install-deps; without node this test fails, saying so) and for what it says. Static runs only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

#ifndef NODE
#error "NODE must name node (tests/CMakeLists.txt)"
#endif

/* Run the validator on the NULL-terminated logs; the test fails, showing what it printed, unless every log
 * is valid against both schemas. */
static void validate(const char *const *logs)
{
	if (access(NODE, X_OK) != 0)
		fail_msg("node (Node.js) was not found when CMake configured this build (%s): the SARIF test needs it "
		         "to run the schema validator; run scripts/install-deps (it installs node, npm and the "
		         "validator of tests/sarif), then cmake again",
		         NODE);
	char path[] = "/tmp/kcost-sarif-validateXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *argv[16] = {NODE, SARIF_VALIDATOR};
	int n = 2;
	for (int i = 0; logs[i] && n < 15; i++)
		argv[n++] = logs[i];
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		execv(NODE, (char *const *)argv);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	close(fd);
	char *said = slurp(path);
	unlink(path);
	assert_non_null(said);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("the SARIF validator failed (status %d):\n%s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, said);
	for (int i = 0; logs[i]; i++)
		for (int k = 0; k < 2; k++) {
			char line[4600];
			snprintf(line, sizeof line, "%s: valid against sarif-schema-2.1.0%s.json\n", logs[i],
			         k ? "-draft-07" : "");
			if (!strstr(said, line))
				fail_msg("the validator did not say '%s'; it said:\n%s", line, said);
		}
	free(said);
}

/* s percent-encoded as kcost encodes a path in a URI: all but letters, digits, -._~ and /. */
static void uri_path(char *out, size_t size, const char *s)
{
	size_t n = 0;
	for (const unsigned char *u = (const unsigned char *)s; *u && n + 4 < size; u++)
		if ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') || (*u >= '0' && *u <= '9') ||
		    strchr("-._~/", *u))
			out[n++] = (char)*u;
		else
			n += (size_t)snprintf(out + n, size - n, "%%%02X", *u);
	out[n] = '\0';
}

static cJSON *results_of(cJSON *log)
{
	return at(cJSON_GetArrayItem(at(log, "runs"), 0), "results");
}

static cJSON *location_of(cJSON *result)
{
	return cJSON_GetArrayItem(at(result, "locations"), 0);
}

static int number_at(cJSON *obj, const char *path)
{
	cJSON *v = at(obj, path);
	if (!cJSON_IsNumber(v))
		fail_msg("no number at %s", path);
	return v->valueint;
}

/* The log kcost printed, after checking that it is kcost.sarif of out, byte for byte. */
static cJSON *printed_log(const struct run *r, const char *out, char *file, size_t size)
{
	snprintf(file, size, "%s/kcost.sarif", out);
	char *written = slurp(file);
	assert_non_null(written);
	assert_string_equal(r->out, written);
	free(written);
	cJSON *log = cJSON_Parse(r->out);
	assert_non_null(log);
	return log;
}

/* tests/fixtures/limits_misc.c (an error, warnings of four kinds, a note) copied under a directory whose name
 * needs percent-encoding, and named relative to the directory kcost runs in. */
static void diagnostics_are_results_at_their_lines(void **state)
{
	(void)state;
	char src[4200], dir[4300], file[4400], out[4200], log_file[4300];
	snprintf(src, sizeof src, "%s", scratch_dir("sarif-src"));
	snprintf(out, sizeof out, "%s", scratch_dir("sarif-out"));
	snprintf(dir, sizeof dir, "%s/with space \xc3\xbc%%", src);
	snprintf(file, sizeof file, "%s/limits_misc.c", dir);
	assert_int_equal(mkdir(dir, 0777), 0);
	char *text = slurp(KCOST_SOURCE_DIR "/tests/fixtures/limits_misc.c");
	assert_non_null(text);
	write_text(file, text);
	free(text);
	struct run r = run_kcost_in(src, (const char *const[]){"--no-run", "--format", "sarif", "-o", out,
	                                                       "with space \xc3\xbc%/limits_misc.c", NULL});
	assert_int_equal(r.status, 0);
	cJSON *log = printed_log(&r, out, log_file, sizeof log_file);
	run_release(&r);
	validate((const char *const[]){log_file, NULL});

	assert_string_equal(report_text(log, "version"), "2.1.0");
	cJSON *run = cJSON_GetArrayItem(at(log, "runs"), 0);
	assert_string_equal(report_text(run, "tool.driver.name"), "kcost");
	cJSON *rules = at(run, "tool.driver.rules");
	assert_int_equal(cJSON_GetArraySize(rules), 12);
	assert_string_equal(report_text(cJSON_GetArrayItem(rules, 3), "id"), "kcost/inexact");
	assert_string_equal(report_text(cJSON_GetArrayItem(rules, 11), "id"), "kcost/regression");
	char root[4600], expected[4700];
	uri_path(root, sizeof root, src);
	snprintf(expected, sizeof expected, "file://%s/", root);
	assert_string_equal(report_text(run, "originalUriBaseIds.SRCROOT.uri"), expected);
	assert_string_equal(report_text(run, "columnKind"), "unicodeCodePoints");

	static const struct {
		int line, col;
		const char *level, *rule, *function;
	} want[] = {
	    {11, 2, "warning", "kcost/inexact-traffic", "five_bounds"},
	    {12, 10, "warning", "kcost/inexact-traffic", "five_bounds"},
	    {22, 29, "warning", "kcost/inexact", "nine_dims"},
	    {25, 3, "warning", "kcost/inexact-traffic", "nine_dims"},
	    {29, 12, "note", "kcost/assumption", "endless"},
	    {31, 9, "warning", "kcost/inexact", "endless"},
	    {31, 17, "error", "kcost/not-analyzed", "recursive_index"},
	    {128, 2, "warning", "kcost/limit", "many_locals"},
	};
	cJSON *results = results_of(log);
	assert_int_equal(cJSON_GetArraySize(results), 8);
	for (int i = 0; i < 8; i++) {
		cJSON *res = cJSON_GetArrayItem(results, i), *loc = location_of(res);
		assert_string_equal(report_text(res, "level"), want[i].level);
		assert_string_equal(report_text(res, "ruleId"), want[i].rule);
		assert_int_equal(number_at(loc, "physicalLocation.region.startLine"), want[i].line);
		assert_int_equal(number_at(loc, "physicalLocation.region.startColumn"), want[i].col);
		assert_string_equal(report_text(loc, "physicalLocation.artifactLocation.uri"),
		                    "with%20space%20%C3%BC%25/limits_misc.c");
		assert_string_equal(report_text(loc, "physicalLocation.artifactLocation.uriBaseId"), "SRCROOT");
		assert_string_equal(report_text(cJSON_GetArrayItem(at(loc, "logicalLocations"), 0), "name"),
		                    want[i].function);
	}
	cJSON *error = cJSON_GetArrayItem(results, 6), *note = cJSON_GetArrayItem(results, 4);
	assert_int_equal(number_at(error, "ruleIndex"), 2);
	assert_string_equal(
	    report_text(error, "message.text"),
	    "statements and expressions nested more than 1000 levels deep: the function is not analyzed");
	assert_string_equal(report_text(note, "message.text"),
	                    "size 'a' has no value from the call at with space \xc3\xbc%/limits_misc.c:37:5: 'i' is "
	                    "assigned before the call or in a loop around it, or its address is taken");
	cJSON_Delete(log);
}

/* An absolute path is a file:// URI; a message that quotes the user's text shows its controls and reordering
 * characters in their visible forms and escapes \, [ and ] (no embedded link); a column after a character of
 * two bytes counts it once. */
static void messages_are_escaped_and_columns_count_characters(void **state)
{
	(void)state;
	char src[4200], file[4300], out[4200], log_file[4300];
	snprintf(src, sizeof src, "%s", scratch_dir("sarif-escape-src"));
	snprintf(out, sizeof out, "%s", scratch_dir("sarif-escape-out"));
	snprintf(file, sizeof file, "%s/k[1](2)\xe2\x80\xae.c", src);
	write_text(file, "__attribute__((annotate(\"kcost:bogus [x](1) \\\\ \x1b\xe2\x80\xae!\"))) void k(int n, float "
	                 "x[restrict n])\n"
	                 "{\n"
	                 "\tint i = 0;\n"
	                 "/* \xc3\xbc */\twhile (i < n) {\n"
	                 "\t\tx[i] = 0;\n"
	                 "\t\ti += i % 2 + 1;\n"
	                 "\t}\n"
	                 "}\n");
	struct run r = run_kcost((const char *const[]){"--no-run", "--format", "sarif", "-o", out, file, NULL});
	assert_int_equal(r.status, 0);
	cJSON *log = printed_log(&r, out, log_file, sizeof log_file);
	run_release(&r);
	validate((const char *const[]){log_file, NULL});

	cJSON *results = results_of(log);
	assert_int_equal(cJSON_GetArraySize(results), 3);
	cJSON *annotation = cJSON_GetArrayItem(results, 0), *loop = cJSON_GetArrayItem(results, 1);
	assert_string_equal(report_text(annotation, "ruleId"), "kcost/annotation");
	assert_int_equal(number_at(annotation, "ruleIndex"), 7);
	assert_string_equal(report_text(annotation, "level"), "warning");
	assert_string_equal(report_text(annotation, "message.text"),
	                    "unknown kcost annotation 'bogus \\[x\\](1) \\\\ \\\\x1b\\\\u202e!'");
	char encoded[4600], expected[4700];
	uri_path(encoded, sizeof encoded, src);
	snprintf(expected, sizeof expected, "file://%s/k%%5B1%%5D%%282%%29%%E2%%80%%AE.c", encoded);
	cJSON *loc = location_of(annotation);
	assert_string_equal(report_text(loc, "physicalLocation.artifactLocation.uri"), expected);
	assert_null(at(loc, "physicalLocation.artifactLocation.uriBaseId"));
	assert_int_equal(number_at(loc, "physicalLocation.region.startLine"), 1);
	assert_int_equal(number_at(loc, "physicalLocation.region.startColumn"), 16);
	/* "/" "*" " " "ü" " " "*" "/" tab, then the loop: byte 10 (clang's column), character 9 */
	assert_string_equal(report_text(loop, "message.text"),
	                    "while loop: trip count unknown, its body is counted once");
	assert_int_equal(number_at(location_of(loop), "physicalLocation.region.startLine"), 4);
	assert_int_equal(number_at(location_of(loop), "physicalLocation.region.startColumn"), 9);
	cJSON_Delete(log);
}

/* The 1-based line of the first line of file that starts with `prefix`; 0 when none does. */
static int line_of(const char *file, const char *prefix)
{
	char *text = slurp(file);
	int line = 1, found = 0;
	for (const char *p = text; p && *p && !found; line++) {
		found = !strncmp(p, prefix, strlen(prefix));
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	free(text);
	return found ? line - 1 : 0;
}

/* As tests/e2e/test_diff.c: the head replaces samples/gelu.c's gelu_fused by a call of the unfused form, 9x the
 * streaming bytes. The diff runs in the head's checkout, where its report's paths are relative. */
static void regressions_are_results_at_the_functions_line(void **state)
{
	(void)state;
	char head_src[4200], dir[4300], path[4400], link[4400], base[4200], head[4200];
	snprintf(head_src, sizeof head_src, "%s", scratch_dir("sarif-diff-head-src"));
	snprintf(base, sizeof base, "%s", scratch_dir("sarif-diff-base"));
	snprintf(head, sizeof head, "%s", scratch_dir("sarif-diff-head"));
	snprintf(dir, sizeof dir, "%s/samples", head_src);
	snprintf(path, sizeof path, "%s/gelu.c", dir);
	snprintf(link, sizeof link, "%s/annotations", head_src);
	char *src = slurp(KCOST_SOURCE_DIR "/samples/gelu.c");
	char *fused = src ? strstr(src, "void gelu_fused(") : NULL;
	assert_non_null(fused);
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(symlink(KCOST_SOURCE_DIR "/annotations", link), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%.*s", (int)(fused - src), src);
	fputs(
	    "void gelu_fused(int n, const float x[restrict n], float y[restrict n])\n{\n\tgelu_unfused(n, x, y);\n}\n",
	    f);
	fclose(f);
	free(src);
	struct run r = run_kcost((const char *const[]){"--no-run", "--quiet", "-o", base, "samples/gelu.c", NULL});
	assert_int_equal(r.status, 0);
	run_release(&r);
	r = run_kcost_in(head_src, (const char *const[]){"--no-run", "--quiet", "-o", head, "samples/gelu.c", NULL});
	assert_int_equal(r.status, 0);
	run_release(&r);
	char base_json[4300], head_json[4300], logs[3][4300];
	snprintf(base_json, sizeof base_json, "%s/report.json", base);
	snprintf(head_json, sizeof head_json, "%s/report.json", head);
	int fused_line = line_of(path, "void gelu_fused(");
	assert_true(fused_line > 1);

	/* gated: an error; ungated: a warning; the same code: nothing */
	const char *const args[3][8] = {
	    {"diff", "--format", "sarif", "--fail-on-regression", "10", base_json, head_json, NULL},
	    {"diff", "--format", "sarif", base_json, head_json, NULL},
	    {"diff", "--format", "sarif", "--fail-on-regression", "10", base_json, base_json, NULL},
	};
	static const int status[3] = {4, 0, 0}, n_results[3] = {1, 1, 0};
	static const char *const level[3] = {"error", "warning", NULL};
	for (int k = 0; k < 3; k++) {
		r = run_kcost_in(head_src, args[k]);
		assert_int_equal(r.status, status[k]);
		snprintf(logs[k], sizeof logs[k], "%s/diff-%d.sarif", head, k);
		write_text(logs[k], r.out);
		cJSON *log = cJSON_Parse(r.out);
		run_release(&r);
		assert_non_null(log);
		cJSON *results = results_of(log);
		assert_int_equal(cJSON_GetArraySize(results), n_results[k]);
		if (n_results[k]) {
			cJSON *res = cJSON_GetArrayItem(results, 0), *loc = location_of(res);
			assert_string_equal(report_text(res, "ruleId"), "kcost/regression");
			assert_int_equal(number_at(res, "ruleIndex"), 11);
			assert_string_equal(report_text(res, "level"), level[k]);
			assert_string_equal(report_text(res, "message.text"),
			                    "'gelu_fused': more bytes, 9x the base; bytes (streaming): 8*n -> 72*n");
			assert_string_equal(report_text(res, "properties.verdict"), "more bytes");
			assert_int_equal(number_at(res, "properties.ratio"), 9);
			assert_string_equal(report_text(loc, "physicalLocation.artifactLocation.uri"),
			                    "samples/gelu.c");
			assert_string_equal(report_text(loc, "physicalLocation.artifactLocation.uriBaseId"), "SRCROOT");
			assert_int_equal(number_at(loc, "physicalLocation.region.startLine"), fused_line);
			assert_null(at(loc, "physicalLocation.region.startColumn"));
		}
		cJSON_Delete(log);
	}
	validate((const char *const[]){logs[0], logs[1], logs[2], NULL});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(diagnostics_are_results_at_their_lines),
	    cmocka_unit_test(messages_are_escaped_and_columns_count_characters),
	    cmocka_unit_test(regressions_are_results_at_the_functions_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
