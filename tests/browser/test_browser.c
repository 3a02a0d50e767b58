/* test_browser.c — the HTML report in a real browser: headless Chromium (Debian's package) loads
 * index.html from disk, runs its script, and we check the DOM it ends with, the console, and take the
 * screenshot the README shows (build/browser/report.png; copied to docs/report.png when
 * KCOST_UPDATE_SCREENSHOT=1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../e2e/run.h"

#ifndef CHROMIUM
#define CHROMIUM "/usr/bin/chromium"
#endif

static char report_dir[4096], profile_dir[4096];

/* Run Chromium headless on the report with extra arguments; stdout to out_path, stderr to log_path. */
static int chromium(const char *extra1, const char *extra2, const char *out_path, const char *log_path)
{
	char url[4200], profile[4200];
	snprintf(url, sizeof url, "file://%s/index.html", report_dir);
	snprintf(profile, sizeof profile, "--user-data-dir=%s", profile_dir);
	const char *argv[] = {CHROMIUM,
	                      "--headless",
	                      "--no-sandbox",
	                      "--disable-gpu",
	                      "--disable-quic",
	                      "--no-first-run",
	                      "--disable-background-networking",
	                      "--disable-component-update",
	                      "--disable-sync",
	                      "--hide-scrollbars",
	                      "--enable-logging=stderr",
	                      "--v=0",
	                      profile,
	                      extra1,
	                      extra2,
	                      url,
	                      NULL};
	pid_t pid = fork();
	if (pid == 0) {
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644),
		    log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int in = open("/dev/null", O_RDONLY);
		dup2(in, 0);
		dup2(out, 1);
		dup2(log, 2);
		execv(CHROMIUM, (char *const *)argv);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static int setup(void **state)
{
	(void)state;
	snprintf(report_dir, sizeof report_dir, "%s/report", scratch_dir("browser"));
	snprintf(profile_dir, sizeof profile_dir, "%s/browser/profile", KCOST_BUILD_DIR "/e2e-out");
	/* measured, as the README's picture shows it */
	struct run r = run_kcost(
	    (const char *const[]){"--quiet", "--time-budget", "0.1", "-o", report_dir, "samples/gelu.c", NULL});
	int ok = r.status == 0;
	run_release(&r);
	return ok ? 0 : -1;
}

static void report_renders_without_console_errors(void **state)
{
	(void)state;
	char dom_path[4200], log_path[4200];
	snprintf(dom_path, sizeof dom_path, "%s/../dom.html", report_dir);
	snprintf(log_path, sizeof log_path, "%s/../console.log", report_dir);
	assert_int_equal(chromium("--dump-dom", "--window-size=1280,1000", dom_path, log_path), 0);
	char *dom = slurp(dom_path), *log = slurp(log_path);
	assert_non_null(dom);
	assert_non_null(log);
	/* the script ran to its end */
	assert_non_null(strstr(dom, "data-kcost-ready=\"1\""));
	/* no message of the page reached the console (an exception would) */
	if (strstr(log, "CONSOLE"))
		fail_msg("console output from the report:\n%s", strstr(log, "CONSOLE"));
	/* the roofline chart: both functions predicted and measured, and the fusion what-if arrow */
	assert_int_equal(count(dom, "<svg id=\"roofline\""), 1);
	const char *names[] = {"gelu_unfused", "gelu_fused"};
	const char *chart = strstr(dom, "<svg id=\"roofline\""), *chart_end = strstr(chart, "</svg>");
	assert_non_null(chart_end);
	for (int i = 0; i < 2; i++) {
		char title[128];
		snprintf(title, sizeof title, "<title>%s: min model", names[i]);
		const char *t = strstr(chart, title);
		assert_true(t && t < chart_end);
		snprintf(title, sizeof title, "<title>%s: measured", names[i]);
		t = strstr(chart, title);
		assert_true(t && t < chart_end);
		char section[128];
		snprintf(section, sizeof section, "<section class=\"function\" id=\"fn-%s\"", names[i]);
		assert_int_equal(count(dom, section), 1);
	}
	const char *arrow = strstr(chart, "class=\"fusion-arrow\"");
	assert_true(arrow && arrow < chart_end);
	/* the dataflow graph of gelu_unfused: 8 passes and 7 removed intermediates, rendered inline */
	assert_int_equal(count(dom, "<div class=\"graph\">"), 1);
	assert_int_equal(count(dom, "class=\"node kc-pass\""), 8);
	assert_int_equal(count(dom, "kc-removed"), 7);
	/* the JS added collapse buttons to both function sections */
	assert_int_equal(count(dom, "aria-expanded=\"true\""), 2);
	free(dom);
	free(log);
}

static void screenshot_is_taken(void **state)
{
	(void)state;
	char shot[4200], arg[4300], out[4200], log[4200];
	snprintf(shot, sizeof shot, "%s/../report.png", report_dir);
	snprintf(arg, sizeof arg, "--screenshot=%s", shot);
	snprintf(out, sizeof out, "%s/../shot.out", report_dir);
	snprintf(log, sizeof log, "%s/../shot.log", report_dir);
	unlink(shot);
	assert_int_equal(chromium(arg, "--window-size=1280,1500", out, log), 0);
	char *png = slurp(shot);
	assert_non_null(png);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	free(png);
	const char *update = getenv("KCOST_UPDATE_SCREENSHOT");
	if (update && !strcmp(update, "1")) {
		char cmd[9000];
		snprintf(cmd, sizeof cmd, "cp '%s' '%s/docs/report.png'", shot, KCOST_SOURCE_DIR);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(report_renders_without_console_errors),
	    cmocka_unit_test(screenshot_is_taken),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
