/* reports.c — reading report.json files for `kcost diff` and `kcost merge`. */
#include "reports.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "source.h"
#include "visible.h"

void kc_cli_error(const char *cmd, const char *before, const char *user, const char *after)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_printf(&b, "kcost %s: error: %s", cmd, before);
	kc_visible_puts(&b, user);
	kc_buf_printf(&b, "%s\n", after);
	fputs(kc_buf_str(&b), stderr);
	kc_buf_release(&b);
}

cJSON *kc_cli_load_json(const char *cmd, const char *path, struct kc_buf *text)
{
	struct kc_buf own = KC_BUF_INIT, *b = text ? text : &own;
	kc_buf_reset(b);
	if (kc_buf_read_file(b, path, (size_t)-1) < 0) {
		char after[160];
		snprintf(after, sizeof after, "': %s", strerror(errno));
		kc_cli_error(cmd, "cannot open '", path, after);
		kc_buf_release(&own);
		return NULL;
	}
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithOpts(kc_buf_str(b), &end, 1);
	if (!doc) {
		char after[80];
		snprintf(after, sizeof after, "' is not valid JSON (near byte %ld)",
		         end ? (long)(end - kc_buf_str(b)) : 0L);
		kc_cli_error(cmd, "'", path, after);
	}
	kc_buf_release(&own);
	return doc;
}

static struct kc_arena json_heap;

static void *json_alloc(size_t size)
{
	return kc_arena_alloc_uninit(&json_heap, size);
}

static void json_free(void *p)
{
	(void)p;
}

void kc_cli_json_arena(int on)
{
	if (on) {
		cJSON_InitHooks(&(cJSON_Hooks){json_alloc, json_free});
		return;
	}
	cJSON_InitHooks(NULL);
	kc_arena_release(&json_heap);
}
