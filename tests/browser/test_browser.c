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
#include "buf.h"

#ifndef CHROMIUM
#define CHROMIUM "/usr/bin/chromium"
#endif

static char report_dir[4096], profile_dir[4096];

/* Run Chromium headless on the page at `path` with extra arguments; stdout to out_path, stderr (with the page's
 * console) to log_path. */
static int chromium_at(const char *path, const char *extra1, const char *extra2, const char *out_path,
                       const char *log_path)
{
	char url[4400], profile[4200];
	snprintf(url, sizeof url, "file://%s", path);
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

/* The same on the report's index.html. */
static int chromium(const char *extra1, const char *extra2, const char *out_path, const char *log_path)
{
	char page[4200];
	snprintf(page, sizeof page, "%s/index.html", report_dir);
	return chromium_at(page, extra1, extra2, out_path, log_path);
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
	/* each function's section has its own small roofline, with its bound: tanhf's throughput for both */
	assert_int_equal(count(dom, "<svg class=\"mini-roofline\""), 2);
	assert_int_equal(count(dom, "bound: <tspan font-weight=\"bold\">tanhf throughput</tspan>"), 2);
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

/* The text of the page's check: for every chart, every pair of <text> elements (the rotated roof labels as
 * their rotated boxes, by separating axes), every text against the chart's own box, and every text drawn
 * under a clip path against the clip's rectangle. It leaves "texts overlaps outside clipped" per chart in
 * the body's data-result. */
static const char check_script[] =
    "<script>\n"
    "function quad(t) { const b = t.getBBox(), m = t.getCTM(), e = 0.5;\n"
    "  return [[b.x + e, b.y + e], [b.x + b.width - e, b.y + e], [b.x + b.width - e, b.y + b.height - e],\n"
    "          [b.x + e, b.y + b.height - e]].map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]); }\n"
    "function apart(p, q) { for (const poly of [p, q]) for (let i = 0; i < 4; i++) {\n"
    "  const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4], nx = y2 - y1, ny = x1 - x2;\n"
    "  const r = (pts) => pts.map(([x, y]) => nx * x + ny * y); const a = r(p), b = r(q);\n"
    "  if (Math.max(...a) <= Math.min(...b) || Math.max(...b) <= Math.min(...a)) return true; }\n"
    "  return false; }\n"
    "function inside(q, x0, y0, x1, y1) { return q.every(([x, y]) => x >= x0 - 0.5 && x <= x1 + 0.5 &&\n"
    "  y >= y0 - 0.5 && y <= y1 + 0.5); }\n"
    "const out = [];\n"
    "for (const svg of document.querySelectorAll('svg')) {\n"
    "  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== '');\n"
    "  const q = texts.map(quad), vb = svg.viewBox.baseVal; let overlaps = 0, outside = 0, clipped = 0;\n"
    "  for (let i = 0; i < q.length; i++) {\n"
    "    for (let j = i + 1; j < q.length; j++) if (!apart(q[i], q[j])) {\n"
    "      overlaps++; console.error('overlap: ' + texts[i].textContent + ' / ' + texts[j].textContent); }\n"
    "    if (!inside(q[i], 0, 0, vb.width, vb.height)) outside++;\n"
    "    const g = texts[i].closest('[clip-path]');\n"
    "    if (g) { const id = g.getAttribute('clip-path').slice(5, -1), r = svg.querySelector('#' + id + ' rect');\n"
    "      const x = +r.getAttribute('x'), y = +r.getAttribute('y');\n"
    "      if (!inside(q[i], x, y, x + +r.getAttribute('width'), y + +r.getAttribute('height'))) clipped++; }\n"
    "  }\n"
    "  out.push(texts.length + ' ' + overlaps + ' ' + outside + ' ' + clipped);\n"
    "}\n"
    "document.body.setAttribute('data-result', out.join(';'));\n"
    "</script>\n";

/* The roofline stays readable at 1, 5, 25 and 100 functions (bench/gen_kernels.sh's five shapes, a measured
 * machine's four memory levels and two peaks, tests/fixtures/roofline_machine.json): in Chromium's own layout
 * no two texts overlap, none leaves the chart or its clip, and every function's number is in the key. */
static void roofline_text_never_overlaps(void **state)
{
	(void)state;
	static const int sizes[] = {1, 5, 25, 100};
	const char *dir = scratch_dir("roofline-sizes");
	char page_path[4300], dom_path[4300], log_path[4300], path[4400], cmd[9000];
	struct kc_buf page = KC_BUF_INIT, minis_svg = KC_BUF_INIT;
	kc_buf_puts(&page, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
	for (int k = 0; k < 4; k++) {
		char src[4300], out[4300], n[64];
		snprintf(src, sizeof src, "%s/k%d.c", dir, sizes[k]);
		snprintf(out, sizeof out, "%s/report%d", dir, sizes[k]);
		snprintf(cmd, sizeof cmd, "sh '%s/bench/gen_kernels.sh' %d > '%s'", KCOST_SOURCE_DIR, sizes[k], src);
		assert_int_equal(system(cmd), 0);
		const char *argv[] = {"--no-run", "--quiet", "--machine", "tests/fixtures/roofline_machine.json",
		                      "--size",   "n=4096",  "--size",    "m=512",
		                      "--size",   "k=256",   "-o",        out,
		                      src,        NULL};
		struct run r = run_kcost(argv);
		assert_int_equal(r.status, 0);
		run_release(&r);
		snprintf(path, sizeof path, "%s/roofline.svg", out);
		char *svg = slurp(path);
		assert_non_null(svg);
		/* every function's number and name in the key */
		for (int f = 1; f <= sizes[k]; f++) {
			snprintf(n, sizeof n, "<title>%d k%d</title>", f, f - 1);
			assert_non_null(strstr(svg, n));
		}
		/* ids made unique in the page: each chart's text checked against its own clip */
		const char *body = strstr(svg, "<svg");
		assert_non_null(body);
		char suffix[16];
		snprintf(suffix, sizeof suffix, "-%d", sizes[k]);
		for (const char *t = body; *t; t++) {
			static const char *const ids[] = {"roofline-plot", "roofline-arrow", "roofline-title",
			                                  "roofline-desc"};
			int hit = 0;
			for (int i = 0; i < 4 && !hit; i++)
				if (!strncmp(t, ids[i], strlen(ids[i]))) {
					kc_buf_puts(&page, ids[i]);
					kc_buf_puts(&page, suffix);
					t += strlen(ids[i]) - 1;
					hit = 1;
				}
			if (!hit)
				kc_buf_putc(&page, *t);
		}
		free(svg);
		if (sizes[k] != 25)
			continue;
		/* and the 25 functions' own small rooflines, from their sections */
		snprintf(path, sizeof path, "%s/index.html", out);
		char *html = slurp(path);
		assert_non_null(html);
		int minis = 0;
		for (const char *m = html; (m = strstr(m, "<svg class=\"mini-roofline\"")); minis++) {
			const char *end = strstr(m, "</svg>");
			assert_non_null(end);
			kc_buf_add(&minis_svg, m, (size_t)(end + 6 - m));
			m = end;
		}
		assert_int_equal(minis, 25);
		free(html);
	}
	kc_buf_add(&page, minis_svg.data, minis_svg.len);
	kc_buf_release(&minis_svg);
	kc_buf_puts(&page, check_script);
	kc_buf_puts(&page, "</body></html>\n");
	snprintf(page_path, sizeof page_path, "%s/charts.html", dir);
	write_text(page_path, kc_buf_str(&page));
	kc_buf_release(&page);
	snprintf(dom_path, sizeof dom_path, "%s/charts.dom", dir);
	snprintf(log_path, sizeof log_path, "%s/charts.log", dir);
	assert_int_equal(chromium_at(page_path, "--dump-dom", "--window-size=900,900", dom_path, log_path), 0);
	char *dom = slurp(dom_path), *log = slurp(log_path);
	assert_non_null(dom);
	const char *result = strstr(dom, "data-result=\"");
	if (!result)
		fail_msg("the check did not run:\n%s", log ? log : "");
	/* the four charts, then the 25 small ones */
	int charts = 0;
	for (const char *at = result + strlen("data-result=\""); *at && *at != '"'; charts++) {
		int texts, overlaps, outside, clipped, used = 0;
		assert_int_equal(sscanf(at, "%d %d %d %d%n", &texts, &overlaps, &outside, &clipped, &used), 4);
		const char *what = charts < 4 ? "roofline of" : "small roofline";
		int n = charts < 4 ? sizes[charts] : charts - 3;
		if (overlaps || outside || clipped)
			fail_msg("%s %d: %d texts, %d overlapping pairs, %d outside the chart, %d clipped\n%s", what, n,
			         texts, overlaps, outside, clipped, log ? log : "");
		if (charts < 4)
			assert_true(texts > 2 * n); /* the key's numbers and names, the axes, the labels */
		at += used;
		at += *at == ';';
	}
	assert_int_equal(charts, 4 + 25);
	free(dom);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(roofline_text_never_overlaps),
	    cmocka_unit_test(report_renders_without_console_errors),
	    cmocka_unit_test(screenshot_is_taken),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
