/* report.c — writing the report directory: index.html, report.json, summary.md, roofline.svg. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "figures.h"
#include "report.h"

static char error_text[1024];

static int fail(const char **err, const char *what, const char *path, int errnum)
{
	snprintf(error_text, sizeof error_text, "%s %.900s: %s", what, path, strerror(errnum));
	*err = error_text;
	return -1;
}

/* mkdir -p: create dir and its missing parents. */
static int make_dirs(const char *dir, const char **err)
{
	struct stat st;
	char *path = *dir ? strdup(dir) : NULL;
	if (!*dir)
		return fail(err, "cannot create", "an empty directory name", EINVAL);
	if (!path)
		return fail(err, "cannot create", dir, ENOMEM);
	for (char *p = path + 1;; p++) {
		char saved = *p;
		if (saved != '/' && saved != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			int errnum = errno;
			fail(err, "cannot create", path, errnum);
			free(path);
			return -1;
		}
		*p = saved;
		if (!saved)
			break;
	}
	free(path);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return fail(err, "cannot create", dir, ENOTDIR);
	return 0;
}

void kc_report_drain(struct kc_report_sink *s, int all)
{
	if (!s->out || (!all && s->b->len < KC_REPORT_CHUNK))
		return;
	if (s->b->len && fwrite(s->b->data, 1, s->b->len, s->out) != s->b->len && !s->errnum)
		s->errnum = errno ? errno : EIO;
	kc_buf_reset(s->b);
}

/* What every file of the report is rendered from. */
struct job {
	struct kc_report_figures *rf;
	const struct kc_measurements *m;
	const struct kc_report_opts *o;
};

/* Render one file into the sink: 0, or -1 when it could not be built (out of memory). */
typedef int render_fn(struct kc_report_sink *s, const struct job *j);

static int render_json(struct kc_report_sink *s, const struct job *j)
{
	if (kc_report_json_text(s, j->rf, j->m, j->o) < 0)
		return -1;
	kc_buf_putc(s->b, '\n'); /* the file ends with a newline */
	return 0;
}

static int render_html(struct kc_report_sink *s, const struct job *j)
{
	kc_report_html_with(s, j->rf, j->m, j->o);
	return 0;
}

static int render_markdown(struct kc_report_sink *s, const struct job *j)
{
	kc_report_markdown_with(s->b, j->rf, j->m);
	return 0;
}

static int render_svg(struct kc_report_sink *s, const struct job *j)
{
	kc_report_roofline_svg_with(s->b, j->rf, j->m);
	return 0;
}

/* Render `name` into tmp, then rename tmp to path, so readers never see a partial file. */
static int write_atomically(const char *path, const char *tmp, const char *name, render_fn *render, const struct job *j,
                            const char **err)
{
	struct kc_buf b = KC_BUF_INIT;
	struct kc_report_sink s = {&b, fopen(tmp, "wb"), 0};
	if (!s.out)
		return fail(err, "cannot write", tmp, errno);
	int built = render(&s, j) == 0;
	kc_report_drain(&s, 1);
	kc_buf_release(&b);
	if (fclose(s.out) != 0 && !s.errnum)
		s.errnum = errno ? errno : EIO;
	if (!built || s.errnum) {
		remove(tmp);
		return built ? fail(err, "cannot write", tmp, s.errnum) : fail(err, "cannot build", name, ENOMEM);
	}
	if (rename(tmp, path) < 0) {
		int errnum = errno;
		remove(tmp);
		return fail(err, "cannot rename to", path, errnum);
	}
	return 0;
}

static int write_file(const char *dir, const char *name, render_fn *render, const struct job *j, const char **err)
{
	struct kc_buf path = KC_BUF_INIT, tmp = KC_BUF_INIT;
	kc_buf_printf(&path, "%s/%s", dir, name);
	kc_buf_printf(&tmp, "%s.tmp", kc_buf_str(&path));
	int rc = write_atomically(kc_buf_str(&path), kc_buf_str(&tmp), name, render, j, err);
	kc_buf_release(&path);
	kc_buf_release(&tmp);
	return rc;
}

/* graphs/<function>.svg and .dot */
static int write_text_file(const char *dir, const char *name, const char *text, const char **err)
{
	struct kc_buf path = KC_BUF_INIT;
	kc_buf_printf(&path, "%s/%s", dir, name);
	FILE *f = fopen(kc_buf_str(&path), "wb");
	int rc = 0;
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		rc = fail(err, "cannot write", kc_buf_str(&path), errno ? errno : EIO);
	kc_buf_release(&path);
	return rc;
}

static int write_graphs(const char *dir, const struct job *j, const char **err)
{
	struct kc_report_figures *rf = j->rf;
	struct kc_buf sub = KC_BUF_INIT;
	kc_buf_printf(&sub, "%s/graphs", dir);
	int rc = mkdir(kc_buf_str(&sub), 0777) < 0 && errno != EEXIST ? fail(err, "cannot create", kc_buf_str(&sub), errno) : 0;
	kc_buf_release(&sub);
	kc_report_graphs(rf);
	for (int i = 0; rc == 0 && i < rf->an->n_functions; i++) {
		const struct kc_report_graph *g = &rf->graphs[i];
		if (!g->svg)
			continue;
		struct kc_buf name = KC_BUF_INIT;
		kc_buf_printf(&name, "%s.svg", g->base);
		rc = write_text_file(dir, kc_buf_str(&name), g->svg, err);
		kc_buf_reset(&name);
		kc_buf_printf(&name, "%s.dot", g->base);
		if (rc == 0)
			rc = write_text_file(dir, kc_buf_str(&name), g->dot, err);
		kc_buf_release(&name);
	}
	return rc;
}

/* The four files from one set of figures: deriving them is most of the work, so it is done once. */
static int write_files(const char *dir, const struct job *j, const char **err)
{
	if (write_graphs(dir, j, err) < 0)
		return -1;
	if (write_file(dir, "report.json", render_json, j, err) < 0 ||
	    write_file(dir, "index.html", render_html, j, err) < 0 ||
	    write_file(dir, "summary.md", render_markdown, j, err) < 0)
		return -1;
	return write_file(dir, "roofline.svg", render_svg, j, err);
}

/* The output the caller asked to see as well, from the figures the files were written from. */
static void print_output(const struct job *j)
{
	const struct kc_report_opts *o = j->o;
	struct kc_buf b = KC_BUF_INIT;
	struct kc_report_sink s = {&b, o->print_to, 0};
	switch (o->print) {
	case KC_PRINT_TEXT: kc_report_text_with(o->print_to, j->rf, j->m, o->print_color); break;
	case KC_PRINT_JSON: render_json(&s, j); break;
	case KC_PRINT_MD: render_markdown(&s, j); break;
	case KC_PRINT_NONE: break;
	}
	kc_report_drain(&s, 1);
	kc_buf_release(&b);
}

int kc_report_write(const struct kc_analysis *an, const struct kc_measurements *m, const struct kc_report_opts *o,
                    const char **err)
{
	const char *dir = o && o->out_dir ? o->out_dir : "kcost-report";
	struct kc_report_figures rf;
	kc_report_figures_init(&rf, an);
	struct job j = {&rf, m, o};
	int rc = make_dirs(dir, err) < 0 ? -1 : write_files(dir, &j, err);
	if (o && o->print != KC_PRINT_NONE && o->print_to)
		print_output(&j);
	kc_report_figures_release(&rf);
	return rc;
}
