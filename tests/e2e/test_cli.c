/* test_cli.c — the command line's contract: help, version, usage errors, bad input, exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

static void help_lists_options_and_exit_codes(void **state)
{
	(void)state;
	struct run r = RUN("--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: kcost [options] FILE... [-- COMPILER-FLAGS]"));
	assert_non_null(strstr(r.out, "--no-run"));
	assert_non_null(strstr(r.out, "--size NAME=VALUE"));
	assert_non_null(strstr(r.out, "Exit status: 0 success; 1 the input had errors"));
	assert_non_null(strstr(r.out, "Examples:"));
	assert_string_equal(r.err, "");
	run_release(&r);
}

static void version_names_libclang(void **state)
{
	(void)state;
	struct run r = RUN("--version");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "kcost 0.1.0 (", 13) == 0);
	assert_non_null(strstr(r.out, "clang version"));
	run_release(&r);
}

static void unknown_option_is_a_usage_error(void **state)
{
	(void)state;
	struct run r = RUN("--frobnicate", "samples/gelu.c");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err,
	                    "kcost: error: unknown option '--frobnicate'\nTry 'kcost --help' for more information.\n");
	assert_string_equal(r.out, "");
	run_release(&r);
}

/* -j 1 keeps kcost on one thread; -j 2 puts counting and half the report on a second one even for a small
 * input: the outputs are the same (mlp.c has calls: its callers wait for their callees' counts). */
static void threads_change_nothing(void **state)
{
	(void)state;
	/* one file: -j2 is a second thread in one process; three: two processes, merged (cli/shards.c) */
	static const char *const files[2][3] = {{"samples/mlp.c", NULL, NULL},
	                                        {"samples/mlp.c", "samples/gelu.c", "samples/softmax.c"}};
	for (int k = 0; k < 2; k++) {
		cJSON *doc[2];
		for (int t = 0; t < 2; t++) {
			struct run r = RUN(t ? "-j2" : "-j1", "--no-run", "--format", "json", "-o",
			                   scratch_dir(t ? "j2" : "j1"), files[k][0], files[k][1], files[k][2]);
			assert_int_equal(r.status, 0);
			doc[t] = cJSON_Parse(r.out);
			assert_non_null(doc[t]);
			run_release(&r);
		}
		/* the command line differs, and a merge says what it merged: the functions are the same */
		assert_true(cJSON_Compare(cJSON_GetObjectItem(doc[0], "functions"),
		                          cJSON_GetObjectItem(doc[1], "functions"), 1));
		assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(doc[0], "functions")) >= 1);
		assert_non_null(find_function(doc[0], "mlp_forward"));
		cJSON_Delete(doc[0]);
		cJSON_Delete(doc[1]);
	}
	struct run r = RUN("-j", "0", "samples/gelu.c");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "-j expects a number of threads from 1 to 256"));
	run_release(&r);
	static const char *const bad[] = {"alpha=nan", "alpha=", "=1", "alpha=1e999", "alpha=1x"};
	for (int i = 0; i < 5; i++) {
		r = RUN("--scalar", bad[i], "samples/gelu.c");
		assert_int_equal(r.status, 2);
		assert_non_null(
		    strstr(r.err, i == 2 ? "--scalar expects NAME=VALUE" : "--scalar value must be a finite number"));
		run_release(&r);
	}
	static const char *const bad_extent[] = {"wte", "=V*C", "wte=", "wte=V*C;", "wte=V**C'"};
	for (int i = 0; i < 5; i++) {
		r = RUN("--extent", bad_extent[i], "samples/gelu.c");
		assert_int_equal(r.status, 2);
		assert_non_null(strstr(r.err, "--extent expects NAME=EXPR"));
		run_release(&r);
	}
}

/* --extent NAME=EXPR sizes a gather's table where the function has the sizes EXPR names; elsewhere a note, and
 * the next --extent of that name that applies */
static void extents_from_the_command_line(void **state)
{
	(void)state;
	const char *out = scratch_dir("cli-extent");
	struct run r = RUN("--no-run", "--quiet", "-o", out, "--size", "T=5", "--size", "C=8", "--size", "V=3",
	                   "--extent", "wte=V*C", "tests/fixtures/gather_forms.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	cJSON *f = report_function(rep, "embed"), *b, *wte = NULL;
	cJSON_ArrayForEach(b, at(f, "buffers")) if (!strcmp(report_text(b, "name"), "wte")) wte = b;
	assert_non_null(wte);
	assert_string_equal(report_text(wte, "extent.expr"), "C*V");
	assert_string_equal(report_text(wte, "extent_origin"), "declared");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact_ops"))); /* the gather's traffic alone is approximate */
	f = report_function(rep, "embed_rows");
	assert_string_equal(report_diag(f, 0, "note", 16, 60),
	                    "--extent wte=V*C does not apply here: unknown name 'V'");
	cJSON_Delete(rep);
}

/* Lines end at "\r\n" and at a lone "\r" too (as clang counts them): diagnostics point at the right line
 * and column whatever the line endings. */
static void locations_count_every_kind_of_line_end(void **state)
{
	(void)state;
	char path[8400];
	snprintf(path, sizeof path, "%s/endings.c", scratch_dir("line-endings"));
	write_text(path, "void f(int n, float *x)\r\n{\r\n\tfor (int i = 0; i < n; i++)\r\n\t\tx[i] = x[i] * 2.0f;\r\n"
	                 "\tfor (int i = 0; i < x[0]; i++) x[i] += 1;\r\n}\r\n"
	                 "void g(int n, float *y) {\r  for (int j = 0; j < y[1]; j++)\r    y[j] = y[j] * y[j]; }\r");
	const char *out = scratch_dir("line-endings-out");
	struct run r = RUN("--no-run", "--quiet", "-o", out, path);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "endings.c:5:2: warning: loop bounds of 'i'"));
	assert_non_null(strstr(r.err, "endings.c:8:3: warning: loop bounds of 'j'"));
	/* the diagnostic's source line and caret, and the listing's rows, use the same lines */
	assert_non_null(strstr(r.err, "KCOST_TRIPS)\n  for (int j = 0; j < y[1]; j++)\n  ^\n"));
	char page[8500];
	snprintf(page, sizeof page, "%s/index.html", out);
	char *html = slurp(page);
	assert_non_null(html);
	assert_non_null(
	    strstr(html, "<td class=\"ln\">8</td><td class=\"code\">  for (int j = 0; j &lt; y[1]; j++)</td>"));
	assert_non_null(strstr(html, "<td class=\"ln\">9</td><td class=\"code\">    y[j] = y[j] * y[j]; }</td>"));
	free(html);
	run_release(&r);
}

static void bad_option_values_are_usage_errors(void **state)
{
	(void)state;
	struct run r = RUN("--format", "xml", "samples/gelu.c");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "unknown --format 'xml' (expected text, json, md or sarif)"));
	run_release(&r);
	r = RUN("--size", "n", "samples/gelu.c");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--size expects NAME=VALUE, got 'n'"));
	run_release(&r);
	r = RUN("-o");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "option '-o' requires a directory"));
	run_release(&r);
	r = RUN("--function", "(", "--no-run", "samples/gelu.c");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "invalid --function regex '('"));
	run_release(&r);
}

static void no_input_is_a_usage_error(void **state)
{
	(void)state;
	struct run r = RUN("--no-run");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "kcost: error: no input files"));
	run_release(&r);
}

static void missing_file_is_an_input_error(void **state)
{
	(void)state;
	const char *out = scratch_dir("missing");
	struct run r = RUN("--no-run", "-o", out, "no/such/kernel.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kcost: error: no such file or directory: 'no/such/kernel.c'"));
	run_release(&r);
}

static void missing_file_does_not_lose_the_others(void **state)
{
	(void)state;
	const char *out = scratch_dir("missing-and-good");
	struct run r = RUN("--no-run", "--quiet", "-o", out, "no/such/kernel.c", "samples/vecadd.c");
	assert_int_equal(r.status, 1);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_non_null(find_function(rep, "vecadd"));
	cJSON_Delete(rep);
	run_release(&r);
}

static void syntax_error_prints_compiler_style_and_keeps_good_functions(void **state)
{
	(void)state;
	const char *out = scratch_dir("syntax");
	struct run r = RUN("--no-run", "-o", out, "tests/fixtures/syntax_error.c");
	assert_int_equal(r.status, 1);
	/* file:line:col: error: message, then the source line and a caret under column 21 */
	assert_non_null(strstr(r.err, "tests/fixtures/syntax_error.c:5:21: error: expected ';' after expression\n"
	                              "\t\tx[i] = x[i] * 2.0f\n"
	                              "\t\t                  ^\n"));
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *scale = find_function(rep, "scale");
	assert_non_null(scale);
	assert_string_equal(at(scale, "flops.expr")->valuestring, "n");
	cJSON_Delete(rep);
	run_release(&r);
}

static void empty_file_says_there_is_nothing_to_analyze(void **state)
{
	(void)state;
	const char *out = scratch_dir("empty");
	struct run r = RUN("--no-run", "-o", out, "tests/fixtures/empty.c");
	assert_int_equal(r.status, 1);
	assert_non_null(
	    strstr(r.err, "tests/fixtures/empty.c: error: no functions with loops or kernel calls to analyze"));
	run_release(&r);
}

static void a_directory_is_not_a_source_file(void **state)
{
	(void)state;
	struct run r = RUN("--no-run", "samples");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kcost: error: is a directory: 'samples'"));
	run_release(&r);
}

static void unsupported_constructs_are_flagged_at_their_location(void **state)
{
	(void)state;
	const char *out = scratch_dir("unsupported");
	struct run r = RUN("--no-run", "-o", out, "tests/fixtures/unsupported.c");
	assert_int_equal(r.status, 0); /* warnings are not errors */
	assert_non_null(strstr(r.err, "tests/fixtures/unsupported.c:5:2: warning: while loop: trip count unknown"));
	assert_non_null(strstr(r.err, "tests/fixtures/unsupported.c:15:4: warning: 'break' inside a loop"));
	assert_non_null(strstr(r.err, "tests/fixtures/unsupported.c:37:7: warning: data-dependent condition: its "
	                              "branch is counted as always taken"));
	assert_non_null(strstr(
	    r.err, "tests/fixtures/unsupported.c:25:10: warning: call to unknown function 'unknown' inside a loop"));
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	assert_non_null(
	    strstr(r.err, "tests/fixtures/unsupported.c:47:3: warning: access through a pointer kcost cannot trace"));
	assert_non_null(strstr(r.err, "tests/fixtures/unsupported.c:56:3: warning: 'goto' is not supported"));
	assert_non_null(strstr(
	    r.err, "tests/fixtures/unsupported.c:66:13: warning: recursive call to 'with_recursion' is not counted"));
	const char *inexact[] = {"with_while",           "with_break", "with_unknown_call", "with_data_guard",
	                         "with_unknown_pointer", "with_goto",  "with_recursion"};
	for (int i = 0; i < 7; i++) {
		cJSON *f = find_function(rep, inexact[i]);
		assert_non_null(f);
		assert_true(cJSON_IsFalse(at(f, "exact")));
		assert_true(cJSON_GetArraySize(at(f, "diagnostics")) >= 1);
	}
	assert_true(cJSON_IsTrue(at(find_function(rep, "exact_one"), "exact")));
	cJSON_Delete(rep);
	run_release(&r);
}

static void quiet_prints_nothing_on_success(void **state)
{
	(void)state;
	const char *out = scratch_dir("quiet");
	struct run r = RUN("--no-run", "--quiet", "-o", out, "samples/vecadd.c");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "");
	run_release(&r);
}

static void summary_line_names_the_report(void **state)
{
	(void)state;
	const char *out = scratch_dir("summary");
	struct run r = RUN("--no-run", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "kcost: 2 functions analyzed (2 exact), 0 errors, 0 warnings; report: "));
	assert_non_null(strstr(r.out, "gelu_unfused"));
	/* units on the numbers of the terminal table */
	assert_non_null(strstr(r.out, "MFLOP"));
	assert_non_null(strstr(r.out, "FLOP/B"));
	run_release(&r);
	/* two functions whose only inexact figure is their traffic (a hull the sizes decide) */
	r = RUN("--no-run", "-o", out, "tests/fixtures/footprint_order.c");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "kcost: 4 functions analyzed (2 exact, 2 more exact but for traffic), 0 errors, "
	                              "2 warnings; report: "));
	assert_non_null(strstr(r.out, "traffic approx: 1 warning"));
	run_release(&r);
}

static void json_on_stdout_is_report_json(void **state)
{
	(void)state;
	const char *out = scratch_dir("format-json");
	struct run r = RUN("--no-run", "--format", "json", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	char path[8400];
	snprintf(path, sizeof path, "%s/report.json", out);
	char *file = slurp(path);
	assert_non_null(file);
	assert_string_equal(r.out, file);
	free(file);
	run_release(&r);
}

static void compiler_flags_reach_the_parse(void **state)
{
	(void)state;
	const char *out = scratch_dir("flags");
	struct run r = RUN("--no-run", "--quiet", "-o", out, "tests/fixtures/needs_define.c");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "tests/fixtures/needs_define.c:3:2: error: \"build with -DSCALE=<factor>\""));
	run_release(&r);
	r = RUN("--no-run", "--quiet", "-o", out, "-DSCALE=3", "tests/fixtures/needs_define.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	r = RUN("--no-run", "--quiet", "-o", out, "tests/fixtures/needs_define.c", "--", "-DSCALE=3");
	assert_int_equal(r.status, 0);
	run_release(&r);
	/* -p BUILD_DIR: the file's entry in compile_commands.json, as clang-tidy reads it */
	char db[8400];
	snprintf(db, sizeof db, "%s/compile_commands.json", out);
	FILE *f = fopen(db, "w");
	assert_non_null(f);
	fprintf(f,
	        "[{\"directory\": \"%s\", \"command\": \"cc -DSCALE=2 -O2 -c tests/fixtures/needs_define.c\", "
	        "\"file\": \"tests/fixtures/needs_define.c\"}]\n",
	        KCOST_SOURCE_DIR);
	fclose(f);
	r = RUN("--no-run", "--quiet", "-p", out, "-o", out, "tests/fixtures/needs_define.c");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_release(&r);
	/* -p BUILD_DIR --all: every C file of the database, once each; C++ entries left out */
	f = fopen(db, "w");
	assert_non_null(f);
	fprintf(f,
	        "[{\"directory\": \"%s\", \"command\": \"cc -DSCALE=2 -c tests/fixtures/needs_define.c\", "
	        "\"file\": \"tests/fixtures/needs_define.c\"},"
	        " {\"directory\": \"%s\", \"command\": \"c++ -c x.cpp\", \"file\": \"x.cpp\"},"
	        " {\"directory\": \"%s\", \"command\": \"cc -c samples/vecadd.c\", \"file\": \"samples/vecadd.c\"},"
	        " {\"directory\": \"%s\", \"command\": \"cc -DSCALE=2 -O3 -c tests/fixtures/needs_define.c\", "
	        "\"file\": \"tests/fixtures/needs_define.c\"}]\n",
	        KCOST_SOURCE_DIR, KCOST_SOURCE_DIR, KCOST_SOURCE_DIR, KCOST_SOURCE_DIR);
	fclose(f);
	r = RUN("--no-run", "--quiet", "-p", out, "--all", "-o", out);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	cJSON *rep = load_report(out);
	cJSON *files = at(rep, "files");
	assert_int_equal(cJSON_GetArraySize(files), 2);
	char want[8400];
	snprintf(want, sizeof want, "%s/tests/fixtures/needs_define.c", KCOST_SOURCE_DIR);
	assert_string_equal(cJSON_GetArrayItem(files, 0)->valuestring, want);
	snprintf(want, sizeof want, "%s/samples/vecadd.c", KCOST_SOURCE_DIR);
	assert_string_equal(cJSON_GetArrayItem(files, 1)->valuestring, want);
	cJSON_Delete(rep);
	run_release(&r);
	/* --all without -p, or with files: usage errors */
	r = RUN("--no-run", "--all", "tests/fixtures/needs_define.c");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "kcost: error: --all analyzes every file of a compilation database: it needs -p "
	                              "BUILD_DIR\n"));
	run_release(&r);
	r = RUN("--no-run", "-p", out, "--all", "tests/fixtures/needs_define.c");
	assert_int_equal(r.status, 2);
	run_release(&r);
}

/* A report directory kcost would refuse (here a file) is an input error, said before the analysis: no
 * diagnostic of the input, whose syntax error would otherwise be reported. */
static void an_unusable_report_directory_is_refused_first(void **state)
{
	(void)state;
	char file[8400], expected[17000];
	snprintf(file, sizeof file, "%s/a-file", scratch_dir("out-is-a-file"));
	write_text(file, "");
	struct run r = RUN("--no-run", "-o", file, "tests/fixtures/syntax_error.c");
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected, "kcost: error: cannot use '%s' as the report directory: not a directory\n",
	         file);
	assert_string_equal(r.err, expected);
	assert_string_equal(r.out, "");
	run_release(&r);
}

/* A hypothetical machine (--peak 100 --bandwidth 20, as seed 000 puts it): square float matmuls of n = 8 .. 128
 * under the min model reach 26.67, 53.33, 100, 100, 100 GFLOP/s, the ridge is at 5 FLOP/B, and every output
 * says the roofs are hypothetical. With --peak 1000 --bandwidth 100 the ridge is at 10 and 2 FLOP/B gives 200. */
static void hypothetical_machine_roofs(void **state)
{
	(void)state;
	static const char *const sizes[] = {"8", "16", "32", "64", "128"};
	static const double want[] = {80.0 / 3, 160.0 / 3, 100, 100, 100};
	for (int i = 0; i < 5; i++) {
		char m[16], n[16], k[16];
		snprintf(m, sizeof m, "m=%s", sizes[i]), snprintf(n, sizeof n, "n=%s", sizes[i]);
		snprintf(k, sizeof k, "k=%s", sizes[i]);
		const char *out = scratch_dir("hypo");
		const char *argv[] = {"--no-run",
		                      "--peak",
		                      "100",
		                      "--bandwidth",
		                      "20",
		                      "--function",
		                      "^matmul_ijk$",
		                      "--size",
		                      m,
		                      "--size",
		                      n,
		                      "--size",
		                      k,
		                      "--quiet",
		                      "-o",
		                      out,
		                      "samples/matmul.c",
		                      NULL};
		struct run r = run_kcost(argv);
		assert_int_equal(r.status, 0);
		run_release(&r);
		cJSON *rep = load_report(out);
		assert_non_null(rep);
		assert_true(cJSON_IsTrue(at(rep, "machine.hypothetical")));
		assert_true(at(rep, "machine.ceilings.ridge_flop_per_byte.float")->valuedouble == 5);
		cJSON *f = find_function(rep, "matmul_ijk");
		assert_true(fabs(at(f, "predicted.gflops")->valuedouble - want[i]) < 1e-9);
		cJSON_Delete(rep);
		if (i == 0) {
			char path[4300];
			snprintf(path, sizeof path, "%s/summary.md", out);
			char *md = slurp(path);
			assert_non_null(
			    strstr(md, "Roofs of a **hypothetical** machine (hypothetical: 100 GFLOP/s, 20 GB/s"));
			free(md);
			snprintf(path, sizeof path, "%s/roofline.svg", out);
			char *svg = slurp(path);
			assert_non_null(strstr(svg, "hypothetical DRAM 20.0 GB/s"));
			assert_non_null(strstr(svg, "hypothetical float peak 100.0 GFLOP/s"));
			free(svg);
		}
	}
	/* the (32,16,8) matmul with tanh: 8192 FLOPs, 3584 minimum bytes */
	const char *out = scratch_dir("hypo_tanh");
	const char *argv[] = {"--no-run", "--peak", "1000", "--bandwidth",           "100",
	                      "--quiet",  "-o",     out,    "samples/matmul_tanh.c", "tests/fixtures/hypo_ai2.c",
	                      NULL};
	struct run r = run_kcost(argv);
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = find_function(rep, "matmul_tanh_f32");
	assert_true(at(f, "flops.value")->valuedouble == 8192);
	assert_true(at(f, "bytes.min.value")->valuedouble == 3584);
	assert_true(at(rep, "machine.ceilings.ridge_flop_per_byte.float")->valuedouble == 10);
	cJSON *p = find_function(rep, "pow17");
	assert_true(at(p, "intensity.min")->valuedouble == 2);
	assert_true(fabs(at(p, "predicted.gflops")->valuedouble - 200) < 1e-9);
	cJSON_Delete(rep);
	/* the two go together, and do not go with --machine */
	const char *alone[] = {"--no-run", "--peak", "100", "samples/vecadd.c", NULL};
	r = run_kcost(alone);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--peak and --bandwidth go together"));
	run_release(&r);
	const char *bad[] = {"--no-run", "--peak", "-1", "--bandwidth", "20", "samples/vecadd.c", NULL};
	r = run_kcost(bad);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--peak (GFLOP/s) expects a positive number"));
	run_release(&r);
	const char *nofile[] = {"--no-run", "--machine", "tests/fixtures/hypo_ai2.c", "samples/vecadd.c", NULL};
	r = run_kcost(nofile);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "tests/fixtures/hypo_ai2.c: error: not a machine file of this kcost"));
	run_release(&r);
}

/* With a machine to read against, the terminal table and summary.md give each function's predicted time and the
 * bound that sets it, next to what was measured; a fused group says how much streaming traffic it removes.
 * vecadd (n = 2^24, float): 12 B per element, 201,326,592 B at 20 GB/s = 10.07 ms, DRAM-bound. */
static void predictions_beside_measurements(void **state)
{
	(void)state;
	const char *out = scratch_dir("predicted");
	const char *argv[] = {"--no-run",       "--peak", "100", "--bandwidth", "20",
	                      "--color",        "never",  "-o",  out,           "samples/vecadd.c",
	                      "samples/gelu.c", NULL};
	struct run r = run_kcost(argv);
	assert_int_equal(r.status, 0);
	const char *head = strstr(r.out, "exact  time (predicted)  bound (of the prediction)\n");
	assert_non_null(head);
	assert_null(strstr(r.out, "time (median, measured)")); /* nothing was timed */
	assert_non_null(strstr(r.out, "exact           10.1 ms  DRAM bandwidth\n"));
	/* gelu's tanhf has no per-call time on a hypothetical machine: no prediction, and why */
	assert_non_null(strstr(r.out, "exact               n/a  no per-call time of tanhf was measured\n"));
	assert_non_null(
	    strstr(r.out, "0.111 -> 1.00 FLOP/B  removes 7 intermediates and 89% of the streaming bytes\n"));
	run_release(&r);
	char path[4300];
	snprintf(path, sizeof path, "%s/summary.md", out);
	char *md = slurp(path);
	assert_non_null(strstr(md, "| intensity min / streaming / naive | exact | predicted |\n"));
	assert_non_null(strstr(md, "| exact | 10.1 ms, bound: DRAM bandwidth |\n"));
	assert_non_null(strstr(md, "| exact | n/a: no per-call time of tanhf was measured |\n"));
	assert_non_null(strstr(md, "removes 7 intermediates (t1, t2, t3, t4, t5, t6, t7) and 89% of the streaming "
	                           "bytes: streaming `72*n` = 302.0 MB \xe2\x86\x92 `8*n` = 33.6 MB\n"));
	free(md);
	/* without a machine (static analysis alone), neither column */
	const char *plain[] = {"--no-run", "--color", "never", "-o", out, "samples/vecadd.c", NULL};
	r = run_kcost(plain);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "predicted"));
	assert_non_null(strstr(r.out, "  exact\n"));
	run_release(&r);
}

/* The latency chains the time model waits on, counted per nest (report.json nests[].chain): the longest run of
 * dependent updates of one accumulator; none for a temporary of the iteration or a loop without one. And how
 * many times the loop that updates it runs (nests[].chain_runs): one chain a row of matvec, of matmul_ijk's
 * (i, j); and whether its updates are multiply-adds (nests[].chain_multiply_add). */
static void accumulator_chains(void **state)
{
	(void)state;
	const char *out = scratch_dir("chains");
	const char *argv[] = {"--no-run",         "--quiet", "-o", out, "tests/fixtures/chain_forms.c",
	                      "samples/matmul.c", NULL};
	struct run r = run_kcost(argv);
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	/* madd: every update a multiply-add (twice_an_iteration's s += x[i] is not; s -= l*x is; madd_then_sum's
	 * second loop's t += a[i][j] is not; a double sum of float products is not contracted; fmaf is one) */
	static const struct {
		const char *fn, *chain, *runs;
		int carried, madd;
	} want[] = {{"two_accumulators", "m", "1", 0, 0},
	            {"twice_an_iteration", "2*n", "1", 0, 0},
	            {"fresh_each_iteration", NULL, NULL, 0, 0},
	            {"matvec", "m*n", "m", 0, 1},
	            {"matmul_ijk", "m*n*k", "m*n", 0, 1},
	            {"matmul_ikj", NULL, NULL, 0, 0},
	            {"reset_in_the_loop", "m*n*k", "m*n", 0, 1},
	            {"lower_rows", "n*(n + 1)/2", "n", 0, 1},
	            {"triangle_runs", "n*(n^2 - 1)/6", NULL, 0, 1},
	            {"forward_solve", "n*(n - 1)/2", "n", 1, 1},
	            {"madd_then_sum", "2*m*n", "m", 0, 0},
	            {"double_of_float_products", "n", "1", 0, 0},
	            {"with_fmaf", "n", "1", 0, 1}};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		cJSON *nest = cJSON_GetArrayItem(at(report_function(rep, want[i].fn), "nests"), 0);
		assert_non_null(nest);
		cJSON *chain = at(nest, "chain"), *runs = at(nest, "chain_runs");
		if (!want[i].chain) {
			assert_true(cJSON_IsNull(chain) && cJSON_IsNull(runs) &&
			            cJSON_IsNull(at(nest, "chain_multiply_add")));
			continue;
		}
		assert_int_equal(cJSON_IsTrue(at(nest, "chain_multiply_add")), want[i].madd);
		assert_true(cJSON_IsBool(at(nest, "chain_multiply_add")));
		assert_string_equal(report_text(chain, "expr"), want[i].chain);
		if (want[i].runs)
			assert_string_equal(report_text(runs, "expr"), want[i].runs);
		else /* a sum of trip counts, not a product: not known */
			assert_true(cJSON_IsNull(runs));
		assert_int_equal(cJSON_IsTrue(at(nest, "chain_carried")), want[i].carried);
	}
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(accumulator_chains),
	    cmocka_unit_test(predictions_beside_measurements),
	    cmocka_unit_test(extents_from_the_command_line),
	    cmocka_unit_test(help_lists_options_and_exit_codes),
	    cmocka_unit_test(version_names_libclang),
	    cmocka_unit_test(unknown_option_is_a_usage_error),
	    cmocka_unit_test(bad_option_values_are_usage_errors),
	    cmocka_unit_test(no_input_is_a_usage_error),
	    cmocka_unit_test(missing_file_is_an_input_error),
	    cmocka_unit_test(missing_file_does_not_lose_the_others),
	    cmocka_unit_test(syntax_error_prints_compiler_style_and_keeps_good_functions),
	    cmocka_unit_test(empty_file_says_there_is_nothing_to_analyze),
	    cmocka_unit_test(a_directory_is_not_a_source_file),
	    cmocka_unit_test(unsupported_constructs_are_flagged_at_their_location),
	    cmocka_unit_test(quiet_prints_nothing_on_success),
	    cmocka_unit_test(summary_line_names_the_report),
	    cmocka_unit_test(compiler_flags_reach_the_parse),
	    cmocka_unit_test(json_on_stdout_is_report_json),
	    cmocka_unit_test(threads_change_nothing),
	    cmocka_unit_test(locations_count_every_kind_of_line_end),
	    cmocka_unit_test(an_unusable_report_directory_is_refused_first),
	    cmocka_unit_test(hypothetical_machine_roofs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
