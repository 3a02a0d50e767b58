/* fuzz_child.c — libFuzzer target: the harness result reader (runner/child.h), through its public functions
 * only: the result line (the JSON object a harness prints) read with kc_child_json_number for every field the
 * runner reads, the stderr line kept for a diagnostic (kc_child_first_error_line), and the description of a
 * failed harness (kc_child_failure) over the same bytes taken as its captured output. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fields of the driver's result lines (runner/harness/kcost_driver.c) the runner reads, and some others. */
static const char *const fields[] = {"checksum",
                                     "setup_seconds",
                                     "warmup_seconds",
                                     "max_rel_err",
                                     "worst_rel_err",
                                     "compared",
                                     "mismatches",
                                     "l1d_read_misses",
                                     "ll_misses",
                                     "bytes",
                                     "samples",
                                     "ok",
                                     "",
                                     "inf",
                                     "nan"};

static void read_object(const cJSON *j, int depth)
{
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		(void)kc_child_json_number(j, fields[i]);
	if (depth > 8)
		return;
	const cJSON *c;
	cJSON_ArrayForEach(c, j)
	{
		if (c->string)
			(void)kc_child_json_number(j, c->string);
		if (cJSON_IsObject(c) || cJSON_IsArray(c))
			read_object(c, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;

	/* every line that starts with '{', as the harness reader looks for its line */
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (*line == '{') {
			char *end = nl ? nl : line + strlen(line);
			char saved = *end;
			*end = 0;
			cJSON *j = cJSON_Parse(line);
			if (j)
				read_object(j, 0);
			cJSON_Delete(j);
			*end = saved;
		}
		line = nl ? nl + 1 : NULL;
	}

	char out[256], small[4];
	kc_child_first_error_line(text, out, sizeof out);
	if (!memchr(out, 0, sizeof out))
		abort();
	kc_child_first_error_line(text, small, sizeof small);
	if (!memchr(small, 0, sizeof small))
		abort();

	/* the same bytes as the stderr of a harness that failed in each way the runner reports */
	struct kc_child_limits lim = {60, 61, 3LL << 30, NULL};
	for (int k = 0; k < 4; k++) {
		struct kc_child_result r = {0};
		r.exited = k != 1, r.exit_code = size ? data[0] : 0;
		r.signaled = k == 1, r.signal = size > 1 ? data[1] % 70 : 11;
		r.timed_out = k == 2;
		r.err = text, r.err_len = size;
		r.out = text, r.out_len = size;
		r.out_truncated = k == 3;
		char buf[KC_CHILD_MSG_SIZE];
		const char *why = kc_child_failure(&r, k == 3 ? NULL : &lim, buf, sizeof buf);
		if (why && !memchr(why, 0, sizeof buf))
			abort();
	}
	(void)kc_child_signal_name(size ? data[0] - 128 : 0);

	/* a command line built from the input's lines, quoted for display */
	const char *argv[9];
	int n = 0;
	for (char *p = text; n < 8 && p;) {
		argv[n++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = 0;
	}
	argv[n] = NULL;
	free(kc_child_command_string(argv));
	free(text);
	return 0;
}
