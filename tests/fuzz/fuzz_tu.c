/* fuzz_tu.c — libFuzzer target: the analyzer on a whole translation unit.
 *
 * kc_analyze takes file names (it has no unsaved-file option: libclang's clang_parseTranslationUnit2 is
 * called in analyzer/frontend.c with none), so the input is written to a file in a private temporary
 * directory and analyzed as `kcost --no-run` analyzes a file: with the annotations' header (kcost.h, from
 * annotations/) on the include path, on one thread. One in four of the inputs the front end would parse in
 * parts (analyzer/split.h), chosen by a hash of the input (a run is repeatable), is analyzed in 2 parts as
 * well, and its report.json document must be the whole parse's: a split the parses show wrong falls back to
 * a whole parse, and must never change a figure. (Most inputs of two functions or more split: checking every
 * one took the target from about 150 runs a second to 60; fuzz_split checks every plan.) A replay of the
 * corpus (KCOST_REPLAY: tests/fuzz/replay.c) checks every input that splits. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "analyzer.h"
#include "report.h"
#include "source.h"
#include "split.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_dir(void)
{
	unlink(path);
	char *slash = strrchr(path, '/');
	if (slash) {
		*slash = 0;
		rmdir(path);
	}
}

/* Analyze the input on `threads` (1: whole; 2: in parts when it splits); with `want`, return its report.json
 * document (NULL: none could be built). *parts says whether it was analyzed in parts. */
static char *analyze(int threads, int want, int *parts)
{
	/* -ferror-limit keeps libclang's own time on a broken input short */
	static const char *const args[] = {"-std=c17", "-ferror-limit=20"};
	struct kc_analyze_opts o = {.args = args, .n_args = 2, .include_dir = KCOST_INCLUDE_DIR, .threads = threads};
	const char *const files[] = {path};
	struct kc_analysis an = {0};
	if (kc_analyze(&an, files, 1, &o) < 0 && !an.diags.head)
		abort(); /* kcost failed without saying why */
	*parts = an.parsed_in_parts;
	if (!want) {
		kc_analysis_release(&an);
		return NULL;
	}
	struct kc_report_opts ro = {.version = "fuzz", .no_run = 1, .created = "2025-01-31T12:00:00Z"};
	cJSON *doc = kc_report_json(&an, NULL, &ro);
	char *text = doc ? cJSON_PrintUnformatted(doc) : NULL;
	cJSON_Delete(doc);
	kc_analysis_release(&an);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0]) {
		char dir[] = "/tmp/kcost-fuzz-XXXXXX";
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof path, "%s/input.c", dir);
		atexit(remove_dir);
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	unsigned hash = 2166136261u;
	for (size_t i = 0; i < size; i++)
		hash = (hash ^ data[i]) * 16777619u;
	int splits = 0;
#ifdef KCOST_REPLAY
	hash = 0;
#endif
	if ((hash & 3) == 0) {
		struct kc_split sp;
		kc_split_plan(&sp, (const char *)data, size, 2, 2);
		splits = sp.parts == 2;
		kc_split_release(&sp);
	}
	int parts = 0;
	char *whole = analyze(1, splits, &parts);
	if (splits) {
		char *in_parts = analyze(2, 1, &parts);
		if (!whole != !in_parts || (whole && strcmp(whole, in_parts) != 0)) {
			fprintf(stderr, "fuzz_tu: the file %s in 2 parts gives another report.json\n",
			        parts ? "analyzed" : "(parsed whole after all)");
			abort();
		}
		free(in_parts);
	}
	free(whole);
	/* the source cache keeps every version of a rewritten file (for diagnostics that hold its text): the
	 * input is rewritten each run, and 67,000 runs grew it past the fuzzer's 2.5 GiB limit */
	kc_sources_release();
	return 0;
}
