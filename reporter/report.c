/* report.c — running the outputs: which ones, into which files (written atomically), on how many threads, from
 * one derivation of the figures; the rest of reporter/ renders one output each. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figures.h"
#include "graphs.h"
#include "html.h"
#include "html_section.h"
#include "json.h"
#include "markdown.h"
#include "output.h"
#include "roofline.h"
#include "sarif.h"
#include "text.h"

_Static_assert(KC_MARKDOWN_MAX == KC_REPORT_MD_MAX, "report.h promises markdown.h's limit");

/* ---- a helper thread -----------------------------------------------------------------------------------
 *
 * The functions' figures, JSON objects and HTML sections are most of a large report's work, and independent
 * from one function to the next. With a second core, a helper thread takes functions from the end of the
 * list while this thread takes them from the start, one at a time, until the two meet: each stage (figures,
 * JSON, HTML) splits where the two threads' speeds put it, so a core that runs slower (another job on it, a
 * VM's neighbour) gets less. This thread writes its functions straight into the files and then the
 * helper's texts, kept in memory, in their place: the files are byte for byte the ones a single thread
 * writes. */

enum { STAGE_FIGURES, STAGE_JSON, STAGE_HTML, STAGE_N };

struct job;
struct helper {
	const struct job *j;
	int running; /* the thread was started (and must be joined) */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* under mu: */
	int front[STAGE_N], back[STAGE_N]; /* per stage, the next function for this thread and for the helper */
	int done;                          /* the helper's stages finished (STAGE_N: all) */
	int figures_here;                  /* this thread has derived all the figures it took */
	struct kc_output_text *json; /* [n_functions]: the helper's texts, in rf->helper_arena (s NULL elsewhere) */
	struct kc_output_text *html;
};

/* What every file of the report is rendered from. */
struct job {
	struct kc_report_figures *rf;
	const struct kc_measurements *m;
	const struct kc_report_opts *o; /* never NULL */
	const struct kc_output_meta *meta;
	struct helper *helper; /* NULL: this thread renders everything */
};

/* The next function of a stage, from the start (this thread) or the end (the helper); -1 when they met. */
static int claim(struct helper *h, int stage, int from_end)
{
	pthread_mutex_lock(&h->mu);
	int i = h->front[stage] <= h->back[stage] ? (from_end ? h->back[stage]-- : h->front[stage]++) : -1;
	pthread_mutex_unlock(&h->mu);
	return i;
}

static void helper_done(struct helper *h, int stage)
{
	pthread_mutex_lock(&h->mu);
	h->done = stage + 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

/* Wait until the helper has finished `stage`. */
static void helper_wait(struct helper *h, int stage)
{
	pthread_mutex_lock(&h->mu);
	while (h->done <= stage)
		pthread_cond_wait(&h->cv, &h->mu);
	pthread_mutex_unlock(&h->mu);
}

static struct kc_output_text keep_text(struct kc_arena *a, const struct kc_buf *b)
{
	return (struct kc_output_text){kc_arena_strndup(a, kc_buf_str(b), b->len), b->len};
}

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	struct kc_report_figures *rf = h->j->rf;
	struct kc_arena *a = &rf->helper_arena;
	struct kc_buf b = KC_BUF_INIT;
	int i;
	while ((i = claim(h, STAGE_FIGURES, 1)) >= 0)
		kc_figures_derive(rf, a, i, i + 1, 1);
	helper_done(h, STAGE_FIGURES);
	pthread_mutex_lock(&h->mu); /* a JSON object shows figures this thread may not have derived */
	while (!h->figures_here)
		pthread_cond_wait(&h->cv, &h->mu);
	pthread_mutex_unlock(&h->mu);
	/* out of memory (no t, or an object that could not be built): stop here, the main thread renders what
	 * has no text */
	struct kc_json_text *t = kc_json_text_open();
	while (t && (i = claim(h, STAGE_JSON, 1)) >= 0) {
		if (rf->an->functions[i]->skip)
			continue;
		kc_buf_reset(&b);
		if (kc_json_text_function(t, &b, rf, i, h->j->m) < 0)
			break;
		h->json[i] = keep_text(a, &b);
	}
	kc_json_text_close(t);
	helper_done(h, STAGE_JSON);
	struct kc_html_sections *hs = kc_html_sections_open(rf, h->j->m);
	while (hs && (i = claim(h, STAGE_HTML, 1)) >= 0) {
		if (rf->an->functions[i]->skip)
			continue;
		kc_buf_reset(&b);
		kc_html_section(hs, &b, i);
		h->html[i] = keep_text(a, &b);
	}
	kc_html_sections_close(hs);
	kc_buf_release(&b);
	helper_done(h, STAGE_HTML);
	return NULL;
}

/* Reports of fewer functions are not worth a thread. */
#define HELPER_MIN_FUNCTIONS 64

/* Start a helper when files are to be written and o->threads asks for one, or leaves the choice (0) and
 * there are enough functions and a second core. Without one, this thread claims every function. */
static void helper_start(struct helper *h, const struct job *j, int wanted)
{
	const struct kc_analysis *an = j->rf->an;
	int threads = j->o->threads;
	memset(h, 0, sizeof *h);
	h->j = j;
	for (int st = 0; st < STAGE_N; st++)
		h->back[st] = an->n_functions - 1;
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	if (threads == 0)
		threads =
		    kc_figures_n_functions(an) >= HELPER_MIN_FUNCTIONS && sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	if (!wanted || threads < 2 || an->n_functions < 2)
		return;
	h->json = KC_NEW_N(&j->rf->helper_arena, struct kc_output_text, an->n_functions);
	h->html = KC_NEW_N(&j->rf->helper_arena, struct kc_output_text, an->n_functions);
	h->running = pthread_create(&h->thread, NULL, helper_main, h) == 0;
}

/* Derive the figures this thread takes, then let the helper go on to the texts. */
static void figures_here(struct helper *h)
{
	struct kc_report_figures *rf = h->j->rf;
	int i;
	while ((i = claim(h, STAGE_FIGURES, 0)) >= 0)
		kc_figures_derive(rf, &rf->arena, i, i + 1, 1);
	pthread_mutex_lock(&h->mu);
	h->figures_here = 1;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	if (h->running)
		helper_wait(h, STAGE_FIGURES); /* the page's summary and the outputs below show every function */
}

static void helper_finish(struct helper *h)
{
	if (h->running)
		pthread_join(h->thread, NULL);
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	h->running = 0;
}

/* This thread's side of the helper's stages, for kc_output_pieces. */
static int claim_json(void *h)
{
	return claim(h, STAGE_JSON, 0);
}
static void wait_json(void *h)
{
	helper_wait(h, STAGE_JSON);
}
static int claim_html(void *h)
{
	return claim(h, STAGE_HTML, 0);
}
static void wait_html(void *h)
{
	helper_wait(h, STAGE_HTML);
}

/* The helper's texts of one stage, or NULL without a helper. */
static const struct kc_output_pieces *pieces(const struct job *j, struct kc_output_pieces *p, int stage)
{
	struct helper *h = j->helper;
	if (!h || !h->running)
		return NULL;
	*p = stage == STAGE_JSON ? (struct kc_output_pieces){claim_json, wait_json, h->json, h}
	                         : (struct kc_output_pieces){claim_html, wait_html, h->html, h};
	return p;
}

static int render_json(struct kc_output_sink *s, void *job)
{
	const struct job *j = job;
	struct kc_output_pieces p;
	if (kc_json_write(s, j->rf, j->m, j->meta, pieces(j, &p, STAGE_JSON)) < 0)
		return -1;
	kc_buf_putc(s->b, '\n'); /* the file ends with a newline */
	return 0;
}

static int render_html(struct kc_output_sink *s, void *job)
{
	const struct job *j = job;
	struct kc_output_pieces p;
	kc_html_page(s, j->rf, j->m, j->meta, pieces(j, &p, STAGE_HTML));
	return 0;
}

/* summary.md: the lead (--baseline's comparison) first, when there is one, then the summary, cut at a line
 * where the two would pass KC_REPORT_COMMENT_MAX bytes (GitHub holds 65,536 characters in a comment). */
static int render_markdown(struct kc_output_sink *s, void *job)
{
	const struct job *j = job;
	const char *lead = j->o->summary_lead;
	if (!lead) {
		kc_markdown_write(s->b, j->rf, j->m);
		return 0;
	}
	static const char note[] = "\n_Cut to fit one comment: report.json and index.html have everything._\n";
	size_t start = s->b->len;
	kc_buf_puts(s->b, lead);
	kc_buf_putc(s->b, '\n');
	struct kc_buf rest = KC_BUF_INIT;
	kc_markdown_write(&rest, j->rf, j->m);
	size_t used = s->b->len - start,
	       room = used + sizeof note < KC_REPORT_COMMENT_MAX ? KC_REPORT_COMMENT_MAX - used - sizeof note : 0;
	size_t keep = rest.len;
	if (keep > room) {
		keep = room;
		while (keep > 0 && rest.data[keep - 1] != '\n')
			keep--;
	}
	kc_buf_add(s->b, kc_buf_str(&rest), keep);
	if (keep < rest.len)
		kc_buf_puts(s->b, note);
	kc_buf_release(&rest);
	return 0;
}

static int render_svg(struct kc_output_sink *s, void *job)
{
	const struct job *j = job;
	kc_roofline_document(s->b, j->rf, j->m);
	return 0;
}

/* The diagnostics as a SARIF log: the analysis's (the files'), each reported function's, then the run's; with
 * --baseline, then each function the comparison found slower. */
static int render_sarif(struct kc_output_sink *s, void *job)
{
	const struct job *j = job;
	const struct kc_analysis *an = j->rf->an;
	struct kc_sarif *log = kc_sarif_open(j->meta->version);
	kc_sarif_add_diags(log, &an->diags);
	for (int i = 0; i < an->n_functions; i++)
		if (!an->functions[i]->skip)
			kc_sarif_add_diags(log, &an->functions[i]->diags);
	kc_sarif_add_diags(log, j->o->run_diags);
	/* --baseline: each function slower than at the baseline, a regression at its line */
	for (int i = 0; j->m && i < an->n_functions && i < j->m->n; i++) {
		const struct kc_function *f = an->functions[i];
		const struct kc_baseline_result *b = j->m->items[i].baseline;
		int slower = b && b->verdict && !strcmp(b->verdict, "slower");
		if (f->skip || !b || (!slower && !b->regressed))
			continue;
		char changes[160];
		if (slower && b->tested)
			snprintf(changes, sizeof changes, "95%% interval %.3g-%.3g, p = %.2g, %d + %d runs at %.12s",
			         b->ci_low, b->ci_high, b->p_value, b->n_base, b->n_head,
			         b->revision ? b->revision : "?");
		else
			snprintf(changes, sizeof changes, "beyond --fail-on-regression at %.12s",
			         b->revision ? b->revision : "?");
		struct kc_sarif_regression r = {.function = f->name,
		                                .file = f->loc.file,
		                                .line = f->loc.line,
		                                .verdict = slower ? "slower" : "more FLOPs or bytes",
		                                .ratio = b->ratio,
		                                .changes = changes,
		                                .gate = b->regressed};
		kc_sarif_add_regressions(log, &r, 1);
	}
	return kc_sarif_close(log, s->b);
}

/* graphs/<function>.svg and .dot */
static int render_text(struct kc_output_sink *s, void *text)
{
	kc_buf_puts(s->b, text);
	return 0;
}

/* This report's graph names ("graphs/<leaf>"), sorted for keep_graph. */
struct graph_names {
	const char **base;
	int n;
};

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* leaf is "<base>.svg" or "<base>.dot" (kc_output_dir_prune_graphs asks for no other) */
static int keep_graph(void *names, const char *leaf)
{
	const struct graph_names *g = names;
	char base[4096];
	int n = snprintf(base, sizeof base, "graphs/%s", leaf);
	if (n < 4 || (size_t)n >= sizeof base)
		return 1; /* longer than any name this report writes: not kcost's to remove */
	base[n - 4] = '\0';
	const char *key = base;
	return bsearch(&key, g->base, (size_t)g->n, sizeof *g->base, compare_names) != NULL;
}

static int prune_graphs(struct kc_output_dir *d, struct kc_report_figures *rf)
{
	struct graph_names g = {KC_NEW_N(&rf->arena, const char *, rf->an->n_functions + 1), 0};
	for (int i = 0; i < rf->an->n_functions; i++)
		if (rf->graphs[i].svg)
			g.base[g.n++] = rf->graphs[i].base;
	qsort(g.base, (size_t)g.n, sizeof *g.base, compare_names);
	return kc_output_dir_prune_graphs(d, keep_graph, &g);
}

static int write_graphs(struct kc_output_dir *d, const struct job *j)
{
	struct kc_report_figures *rf = j->rf;
	int rc = kc_output_dir_graphs(d);
	kc_graphs_render(rf);
	for (int i = 0; rc == 0 && i < rf->an->n_functions; i++) {
		const struct kc_report_graph *g = &rf->graphs[i];
		if (!g->svg)
			continue;
		struct kc_buf name = KC_BUF_INIT;
		kc_buf_printf(&name, "%s.svg", g->base);
		rc = kc_output_dir_write(d, kc_buf_str(&name), render_text, (void *)g->svg);
		kc_buf_reset(&name);
		kc_buf_printf(&name, "%s.dot", g->base);
		if (rc == 0)
			rc = kc_output_dir_write(d, kc_buf_str(&name), render_text, (void *)g->dot);
		kc_buf_release(&name);
	}
	return rc < 0 ? rc : prune_graphs(d, rf);
}

/* The files from one set of figures: deriving them is most of the work, so it is done once. The figures
 * are derived even when nothing can be written (dir_ok == 0): the caller prints from them. */
static int write_files(struct kc_output_dir *d, int dir_ok, struct job *j)
{
	/* the graphs first (Graphviz is not thread-safe): JSON objects and HTML sections include them */
	int rc = dir_ok ? write_graphs(d, j) : -1;
	struct helper h;
	kc_json_hooks(1); /* before the helper starts: it builds JSON objects too */
	helper_start(&h, j, rc == 0);
	j->helper = &h;
	figures_here(&h);
	if (rc == 0)
		rc = kc_output_dir_write(d, "report.json", render_json, j);
	if (h.running)
		helper_wait(&h, STAGE_JSON); /* even when report.json failed: no more cJSON in the helper */
	kc_json_hooks(0);
	if (rc == 0)
		rc = kc_output_dir_write(d, "index.html", render_html, j);
	if (h.running && rc < 0) { /* nobody will write the sections: take them all, so the helper stops */
		pthread_mutex_lock(&h.mu);
		h.front[STAGE_HTML] = h.back[STAGE_HTML] + 1;
		pthread_mutex_unlock(&h.mu);
	}
	helper_finish(&h);
	j->helper = NULL;
	if (rc == 0)
		rc = kc_output_dir_write(d, "summary.md", render_markdown, j);
	if (rc == 0)
		rc = kc_output_dir_write(d, "roofline.svg", render_svg, j);
	return rc < 0 ? -1 : kc_output_dir_write(d, "kcost.sarif", render_sarif, j);
}

/* The output the caller asked to see as well, from the figures the files were written from. */
static void print_output(struct job *j)
{
	const struct kc_report_opts *o = j->o;
	struct kc_buf b = KC_BUF_INIT;
	struct kc_output_sink s = {&b, o->print_to, 0};
	switch (o->print) {
	case KC_PRINT_TEXT:
		kc_text_write(o->print_to, j->rf, j->m, o->print_color);
		break;
	case KC_PRINT_JSON:
		render_json(&s, j);
		break;
	case KC_PRINT_MD:
		render_markdown(&s, j);
		break;
	case KC_PRINT_SARIF:
		render_sarif(&s, j);
		break;
	case KC_PRINT_NONE:
		break;
	}
	kc_output_drain(&s, 1);
	kc_buf_release(&b);
}

/* The facts of the run every output records, resolved once (the page and report.json show the same time). */
struct run_meta {
	struct kc_output_meta meta;
	char created[64];
};

static const struct kc_output_meta *resolve_meta(const struct kc_report_opts *o, struct run_meta *rm)
{
	kc_output_created(o ? o->created : NULL, rm->created, sizeof rm->created);
	rm->meta = (struct kc_output_meta){
	    .version = o && o->version ? o->version : "unknown",
	    .command = o && o->command ? o->command : NULL,
	    .n_command = o && o->command ? o->n_command : 0,
	    .created = rm->created,
	    .no_run = o && o->no_run,
	};
	return &rm->meta;
}

static char error_text[sizeof((struct kc_output_dir *)0)->error];

int kc_report_check_dir(const char *dir, const char **err)
{
	if (kc_output_dir_check(dir ? dir : "kcost-report", error_text, sizeof error_text) == 0)
		return 0;
	*err = error_text;
	return -1;
}

int kc_report_write(const struct kc_analysis *an, const struct kc_measurements *m, const struct kc_report_opts *o,
                    const char **err)
{
	static const struct kc_report_opts defaults; /* everything chosen, nothing printed */
	const struct kc_report_opts *opts = o ? o : &defaults;
	const char *dir = opts->out_dir ? opts->out_dir : "kcost-report";
	struct run_meta rm;
	struct kc_report_figures rf;
	kc_figures_alloc(&rf, an); /* derived by write_files, in parallel when it can */
	struct job j = {&rf, m, opts, resolve_meta(o, &rm), NULL};
	struct kc_output_dir d;
	int rc = write_files(&d, kc_output_dir_open(&d, dir) == 0, &j);
	kc_output_dir_close(&d); /* before printing: another kcost waits for this directory */
	if (opts->print != KC_PRINT_NONE && opts->print_to)
		print_output(&j);
	kc_figures_release(&rf);
	if (rc == 0)
		return 0;
	snprintf(error_text, sizeof error_text, "%s", d.error);
	*err = error_text;
	return d.internal ? -2 : -1;
}

/* ---- one output alone ----------------------------------------------------------------------------------- */

struct cJSON *kc_report_json(const struct kc_analysis *an, const struct kc_measurements *m,
                             const struct kc_report_opts *o)
{
	struct run_meta rm;
	struct kc_report_figures rf;
	kc_figures_init(&rf, an);
	struct cJSON *doc = kc_json_document(&rf, m, resolve_meta(o, &rm));
	kc_figures_release(&rf);
	return doc;
}

void kc_report_text(FILE *out, const struct kc_analysis *an, const struct kc_measurements *m, int color)
{
	struct kc_report_figures rf;
	kc_figures_init(&rf, an);
	kc_text_write(out, &rf, m, color);
	kc_figures_release(&rf);
}

void kc_report_markdown(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m)
{
	struct kc_report_figures rf;
	kc_figures_init(&rf, an);
	kc_markdown_write(b, &rf, m);
	kc_figures_release(&rf);
}

void kc_report_html(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m,
                    const struct kc_report_opts *o)
{
	struct run_meta rm;
	struct kc_report_figures rf;
	struct kc_output_sink sink = {b, NULL, 0};
	kc_figures_init(&rf, an);
	kc_graphs_render(&rf); /* the page inlines them */
	kc_html_page(&sink, &rf, m, resolve_meta(o, &rm), NULL);
	kc_figures_release(&rf);
}

void kc_report_roofline_svg(struct kc_buf *b, const struct kc_analysis *an, const struct kc_measurements *m)
{
	struct kc_report_figures rf;
	kc_figures_init(&rf, an);
	kc_roofline_document(b, &rf, m);
	kc_figures_release(&rf);
}
