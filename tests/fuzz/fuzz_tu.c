/* fuzz_tu.c — libFuzzer target: the analyzer on a whole translation unit.
 *
 * kc_analyze takes file names (it has no unsaved-file option: libclang's clang_parseTranslationUnit2 is
 * called in analyzer/frontend.c with none), so the input is written to a file in a private temporary
 * directory and analyzed as `kcost --no-run` analyzes a file: with the annotations' header (kcost.h, from
 * annotations/) on the include path, on one thread. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer.h"
#include "source.h"

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
	/* -ferror-limit keeps libclang's own time on a broken input short */
	static const char *const args[] = {"-std=c17", "-ferror-limit=20"};
	struct kc_analyze_opts o = {.args = args, .n_args = 2, .include_dir = KCOST_INCLUDE_DIR, .threads = 1};
	const char *const files[] = {path};
	struct kc_analysis an = {0};
	if (kc_analyze(&an, files, 1, &o) < 0 && !an.diags.head)
		abort(); /* kcost failed without saying why */
	kc_analysis_release(&an);
	/* the source cache keeps every version of a rewritten file (for diagnostics that hold its text): the
	 * input is rewritten each run, and 67,000 runs grew it past the fuzzer's 2.5 GiB limit */
	kc_sources_release();
	return 0;
}
