/* test_escaping.c — user-derived strings in every output are escaped for their context. The input's path,
 * comments, a diagnostic and the source listing carry <script>, quotes, &, | and newlines; on stderr, a path
 * and a source line carry terminal escape sequences, a bidi override and a newline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "run.h"

static int mkdir_p(const char *path)
{
	return mkdir(path, 0777) == 0 ? 0 : -1;
}

/* md without its `code spans` (a span holds no backtick: kcost falls back to escaping when it would). */
static char *strip_code_spans(const char *md)
{
	char *out = malloc(strlen(md) + 1), *o = out;
	int in_span = 0;
	for (const char *p = md; *p; p++) {
		if (*p == '`')
			in_span = !in_span;
		else if (!in_span)
			*o++ = *p;
		if (*p == '\n')
			in_span = 0;
	}
	*o = '\0';
	return out;
}

static const char kernel[] = "/* <script>alert(\"comment\")</script> & 'quotes' | pipes\n"
                             "   and a second line */\n"
                             "#warning \"<script>alert('diag')</script> & | \\\" done\"\n"
                             "#define KERNEL(name) void name##_kernel(int n, float x[restrict n])\n"
                             "KERNEL(evil)\n"
                             "{\n"
                             "\tfor (int i = 0; i < n; i++) /* </td><script>x</script> */\n"
                             "\t\tx[i] = x[i] * 2.0f;\n"
                             "}\n";

static void no_output_carries_raw_markup(void **state)
{
	(void)state;
	const char *dir = scratch_dir("escaping");
	char src_dir[4400], src[4500], out[4500];
	snprintf(src_dir, sizeof src_dir, "%s/<script>&'\"|", dir);
	snprintf(out, sizeof out, "%s/report", dir);
	snprintf(src, sizeof src, "%s/k <b>&'|.c", src_dir);
	assert_int_equal(mkdir_p(src_dir), 0);
	write_text(src, kernel);
	struct run r = run_kcost((const char *const[]){"--no-run", "--quiet", "-o", out, src, NULL});
	assert_int_equal(r.status, 0);
	run_release(&r);

	char path[9000];
	snprintf(path, sizeof path, "%s/index.html", out);
	char *html = slurp(path);
	assert_non_null(html);
	/* the only <script> element is the report's own */
	int scripts = 0;
	for (const char *p = html; (p = strstr(p, "<script")); p++)
		scripts++;
	assert_int_equal(scripts, 1);
	assert_null(strstr(html, "<b>&"));
	assert_null(strstr(html, "</td><script>"));
	assert_non_null(strstr(html, "/* &lt;/td&gt;&lt;script&gt;x&lt;/script&gt; */"));
	assert_non_null(strstr(html, "k &lt;b&gt;&amp;&#39;|.c"));
	free(html);

	snprintf(path, sizeof path, "%s/report.json", out);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *fn = find_function(rep, "evil_kernel");
	assert_non_null(fn);
	assert_string_equal(at(fn, "file")->valuestring, src);
	cJSON *diag = cJSON_GetArrayItem(at(rep, "diagnostics"), 0);
	assert_non_null(diag);
	assert_non_null(strstr(at(diag, "message")->valuestring, "<script>alert('diag')</script> & | \\\" done"));
	cJSON_Delete(rep);

	snprintf(path, sizeof path, "%s/summary.md", out);
	char *md = slurp(path);
	assert_non_null(md);
	/* raw HTML only inside code spans, where GitHub shows it as text: drop the spans, then look */
	char *prose = strip_code_spans(md);
	assert_null(strstr(prose, "<script"));
	assert_null(strstr(prose, "<b>"));
	free(prose);
	/* in table rows, a | of the path never ends a cell */
	for (const char *line = md; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (line[0] == '|' && strstr(line, "evil"))
			assert_null(strstr(line, "&'|.c"));
	free(md);

	snprintf(path, sizeof path, "%s/roofline.svg", out);
	char *svg = slurp(path);
	assert_non_null(svg);
	assert_null(strstr(svg, "<script"));
	free(svg);
}

/* A diagnostic prints the file name, the message and the source line: none may reach the terminal as it is
 * (an escape sequence would recolour or clear it, a bidi override reorder the line, a newline start a forged
 * one). Each control character and reordering character takes its visible form (docs/architecture.md,
 * Conventions) and the caret still stands under the column: "\x1b" is four columns wide, a tab stays a tab. */
static void stderr_shows_controls_visibly(void **state)
{
	(void)state;
	const char *dir = scratch_dir("escaping-terminal");
	char src[4400], out[4400];
	snprintf(src, sizeof src, "%s/k\033[31m\xe2\x80\xae\n.c", dir);
	snprintf(out, sizeof out, "%s/report", dir);
	write_text(src, "void k(int n, float x[restrict n])\n{\n\tint i = 0;\n/*\033[2J*/\twhile (i < n) {\n"
	                "\t\tx[i] = 0;\n\t\ti += i % 2 + 1;\n\t}\n}\n");
	struct run r = run_kcost((const char *const[]){"--no-run", "--quiet", "-o", out, src, NULL});
	assert_int_equal(r.status, 0);
	char expected[4600];
	snprintf(expected, sizeof expected,
	         "%s/k\\x1b[31m\\u202e\\n.c:4:10: warning: while loop: trip count unknown, its body is counted once\n"
	         "/*\\x1b[2J*/\twhile (i < n) {\n"
	         "           \t^\n",
	         dir);
	assert_string_equal(r.err, expected);
	run_release(&r);

	/* kcost diff names its files the same way */
	char missing[4400];
	snprintf(missing, sizeof missing, "%s/no\033[2J\n.json", dir);
	r = run_kcost((const char *const[]){"diff", missing, missing, NULL});
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected,
	         "kcost diff: error: cannot open '%s/no\\x1b[2J\\n.json': No such file or directory\n", dir);
	assert_string_equal(r.err, expected);
	run_release(&r);

	/* kcost's own errors on a missing input and on a report directory it cannot use, too */
	char gone[4400], notdir[4400];
	snprintf(gone, sizeof gone, "%s/gone\033]0;owned\a.c", dir);
	snprintf(notdir, sizeof notdir, "%s/file\xe2\x80\xae", dir);
	write_text(notdir, "");
	r = run_kcost((const char *const[]){"--no-run", "-o", out, gone, NULL});
	assert_int_equal(r.status, 1);
	snprintf(expected, sizeof expected, "kcost: error: no such file or directory: '%s/gone\\x1b]0;owned\\x07.c'\n",
	         dir);
	assert_non_null(strstr(r.err, expected));
	assert_null(strchr(r.err, '\033'));
	run_release(&r);
	r = run_kcost((const char *const[]){"--no-run", "-o", notdir, "samples/vecadd.c", NULL});
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "file\\u202e"));
	assert_null(strstr(r.err, "\xe2\x80\xae"));
	run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(no_output_carries_raw_markup),
	    cmocka_unit_test(stderr_shows_controls_visibly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
