/* machine.c — `kcost machine`: the machine and its ceilings (from the cache, or measured), as text or JSON. */
#include "machine_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "buf.h"
#include "ceilings.h"
#include "cpu.h"
#include "progress.h"
#include "visible.h"

/* s as a terminal may show it (base/visible.h): the cache file is the user's to edit. Each result lives as long
 * as the arena. */
static struct kc_arena shown = KC_ARENA_INIT;
static const char *visible(const char *s)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_visible_puts(&b, s ? s : "");
	const char *copy = kc_arena_strdup(&shown, kc_buf_str(&b));
	kc_buf_release(&b);
	return copy;
}

static void usage(FILE *out)
{
	fputs("usage: kcost machine [--remeasure] [--format text|json]\n"
	      "\n"
	      "Print this machine and its roofline ceilings: the compute peaks per precision and instruction set\n"
	      "(kcost's peak kernels; the best is the compute roof), OpenBLAS GEMM (the achievable dense roof),\n"
	      "the latency of one dependent add and FMA, libm's per-call times, and the bandwidth of each memory\n"
	      "level, each with the method that measured it. They come from the cache (as `kcost FILE` uses them)\n"
	      "unless --remeasure asks for a new measurement. --format json writes the cache's own document.\n",
	      out);
}

static void line(const char *what, const struct kc_ceiling *c, const char *unit)
{
	printf("  %-22s %8.1f %-7s %s\n", what, c->value, unit, visible(c->method ? c->method : ""));
}

static void print_text(const struct kc_machine *m, const char *path)
{
	printf("%s, %d cores\n", visible(m->cpu ? m->cpu : "unknown CPU"), m->cores);
	printf("caches: L1d %lld KiB, L2 %lld KiB, L3 %lld KiB (%s)\n", m->cache_bytes[0] >> 10,
	       m->cache_bytes[1] >> 10, m->cache_bytes[2] >> 10, visible(m->cache_source ? m->cache_source : "?"));
	printf("ceilings (%s %s%s%s):\n", m->cached ? "from the cache, measured" : "measured",
	       visible(m->measured_at ? m->measured_at : "?"), path ? "; " : "", path ? visible(path) : "");
	line("float compute roof", &m->flops_f32, "GFLOP/s");
	line("double compute roof", &m->flops_f64, "GFLOP/s");
	line("float, all threads", &m->flops_f32_all_threads, "GFLOP/s");
	line("double, all threads", &m->flops_f64_all_threads, "GFLOP/s");
	line("float dense (GEMM)", &m->dense_f32, "GFLOP/s");
	line("double dense (GEMM)", &m->dense_f64, "GFLOP/s");
	if (m->blas_note)
		printf("  %s\n", visible(m->blas_note));
	printf("  peak kernels, one thread, GFLOP/s (FMA / adds and multiplies):\n");
	for (int d = 0; d < 2; d++) {
		printf("    %-6s", d ? "double" : "float");
		for (int isa = 0; isa < KC_ISA_N; isa++) {
			const struct kc_ceiling *f = &m->peak[d][isa][1], *am = &m->peak[d][isa][0];
			if (f->value > 0 || am->value > 0)
				printf("  %s %.1f / %.1f", kc_isa_name((enum kc_isa)isa), f->value, am->value);
			else
				printf("  %s -", kc_isa_name((enum kc_isa)isa));
		}
		printf("\n");
	}
	for (int d = 0; d < 2; d++) {
		char rows[64] = "rows of 64 adds: not measured";
		if (m->latency_add_rows[d] > 0)
			snprintf(rows, sizeof rows, "%.2f ns an add in rows of 64", m->latency_add_rows[d] * 1e9);
		printf("  %-6s latency: add %.2f ns, FMA %.2f ns, %s %.2f ns (one dependent scalar operation); %s\n",
		       d ? "double" : "float", m->latency_add[d] * 1e9, m->latency_fma[d] * 1e9, d ? "fmax" : "fmaxf",
		       m->latency_max[d] * 1e9, rows);
	}
	if (m->latency_half_how)
		printf("  half   latency: add %.2f ns, multiply-add %.2f ns (one dependent _Float16 update: %s)\n",
		       m->latency_half_add * 1e9, m->latency_half_madd * 1e9, visible(m->latency_half_how));
	printf("  libm, ns per call (scalar, one thread):");
	for (int i = 0; i < m->n_libm; i++)
		printf("%s %s %.3g", i % 8 ? "," : "\n   ", visible(m->libm[i].name), m->libm[i].seconds * 1e9);
	printf("\n");
	int medians = 0; /* what the predictions use */
	for (int i = 0; i < m->n_libm; i++)
		if (m->libm[i].median > 0) {
			if (!medians)
				printf("  libm, ns per call, the median sweeps (what a prediction uses):");
			printf("%s %s %.3g", medians++ % 8 ? "," : "\n   ", visible(m->libm[i].name),
			       m->libm[i].median * 1e9);
		}
	if (medians)
		printf("\n");
	for (int l = 0; l < KC_LEVEL_N; l++) {
		char what[32];
		snprintf(what, sizeof what, "%s bandwidth", kc_level_name((enum kc_level)l));
		line(what, &m->bandwidth[l], "GB/s");
	}
	if (m->column_method) {
		printf("  column stores, ns per store (median), by where the line comes from:");
		for (int l = KC_LEVEL_L1; l < KC_LEVEL_N; l++)
			if (m->column_store[l] > 0)
				printf(" %s %.3g (%.3g)", kc_level_name((enum kc_level)l), m->column_store[l] * 1e9,
				       m->column_store_median[l] * 1e9);
		printf("\n    %s\n", visible(m->column_method));
	}
	struct kc_ceiling fresh = m->fresh_page;
	fresh.value *= 1e6;
	line("fresh memory", &fresh, "us/page");
}

int kc_cli_machine(int argc, char **argv)
{
	int remeasure = 0, json = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--remeasure")) {
			remeasure = 1;
		} else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
			const char *v = a[8] == '=' ? a + 9 : i + 1 < argc ? argv[++i] : "";
			if (strcmp(v, "json") && strcmp(v, "text")) {
				fprintf(stderr, "kcost machine: error: --format expects text or json, not '%s'\n",
				        visible(v));
				return 2;
			}
			json = !strcmp(v, "json");
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "kcost machine: error: unexpected argument '%s'\n", visible(a));
			usage(stderr);
			return 2;
		}
	}
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_machine m = {0};
	kc_progress_init(isatty(fileno(stderr)));
	struct kc_ceilings_opts co = {NULL, remeasure, 0, kc_progress};
	kc_ceilings_get(&a, &co, &m);
	kc_progress_done();
	struct kc_cpu cpu;
	kc_cpu_probe(&cpu);
	char key[17], dir[4096], path[4200];
	kc_ceilings_key(cpu.model, cpu.flags, cpu.cores, key);
	kc_cpu_release(&cpu);
	int have_path = kc_ceilings_default_dir(dir, sizeof dir) == 0;
	if (have_path)
		kc_ceilings_cache_path(dir, key, path, sizeof path);
	int rc = 0;
	if (json) {
		cJSON *j = kc_ceilings_to_json(&m, key);
		char *text = j ? cJSON_Print(j) : NULL;
		if (text)
			printf("%s\n", text);
		else
			rc = 3;
		free(text);
		cJSON_Delete(j);
	} else {
		print_text(&m, have_path ? path : NULL);
	}
	kc_arena_release(&a);
	kc_arena_release(&shown);
	return rc;
}
