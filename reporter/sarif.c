/* sarif.c — SARIF 2.1.0 logs of diagnostics and regressions. All JSON through cJSON. */
#define _POSIX_C_SOURCE 200809L
#include "sarif.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "json.h"
#include "source.h"
#include "visible.h"

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

/* The rules, in a fixed order: a result's ruleIndex is its rule's place here. One per diagnostic kind, in the
 * enum's order, then the regressions'. Ids never change (code scanning keys its alerts on them). */
enum { RULE_REGRESSION = KC_DIAG_KINDS, RULES };

static const struct rule {
	const char *id, *name, *level, *text;
} rules[RULES] = {
    [KC_DIAG_COMPILER] = {"kcost/compiler", "CompilerDiagnostic", "error",
                          "An error or warning of the compiler (clang) on the file kcost parses"},
    [KC_DIAG_PARSE] = {"kcost/parse", "ParseFailure", "error",
                       "A file that could not be parsed, or a parse error inside a function: its counts are of what "
                       "the parser recovered"},
    [KC_DIAG_NOT_ANALYZED] = {"kcost/not-analyzed", "NotAnalyzed", "error",
                              "A function or an input kcost could not analyze (nested too deeply, out of memory, a "
                              "bad --function)"},
    [KC_DIAG_INEXACT] = {"kcost/inexact", "InexactCount", "warning",
                         "Code kcost cannot count exactly: the function's FLOPs, and so all its figures, are "
                         "approximate"},
    [KC_DIAG_INEXACT_CMP] = {"kcost/inexact-comparisons", "InexactComparisons", "warning",
                             "Code whose comparisons (and traffic) kcost cannot count exactly; the FLOPs are exact"},
    [KC_DIAG_INEXACT_TRAFFIC] = {"kcost/inexact-traffic", "InexactTraffic", "warning",
                                 "An access whose traffic kcost cannot count exactly; the operation counts are "
                                 "exact"},
    [KC_DIAG_LIMIT] = {"kcost/limit", "LimitReached", "warning",
                       "A limit of kcost's reached (a capacity, exact arithmetic, sizes without values): a figure "
                       "is not exact"},
    [KC_DIAG_ANNOTATION] = {"kcost/annotation", "BadAnnotation", "warning",
                            "A KCOST_* annotation that is malformed or names what it cannot: it is ignored"},
    [KC_DIAG_ASSUMPTION] = {"kcost/assumption", "Assumption", "note", "What the counts assume or leave out"},
    [KC_DIAG_PERFORMANCE] = {"kcost/performance", "PerformanceHazard", "note",
                             "A performance hazard the time model prices (stores down a column whose lines "
                             "conflict in the caches)"},
    [KC_DIAG_RUN] = {"kcost/run", "KernelRun", "warning",
                     "Running the kernel: it failed, was not run, disagreed with its reference or ran "
                     "implausibly fast"},
    [RULE_REGRESSION] = {"kcost/regression", "Regression", "warning",
                         "A function that got slower beyond the noise, or whose predicted bytes or FLOPs grew, "
                         "against the base run"},
};

struct kc_sarif {
	cJSON *log, *results;
	int oom; /* something could not be allocated: the log is incomplete */
};

/* ---- building (an allocation that fails marks the log, and what it would have held is dropped) ---------- */

static cJSON *add(struct kc_sarif *s, cJSON *obj, const char *key, cJSON *item)
{
	if (!item || !obj || !(key ? cJSON_AddItemToObject(obj, key, item) : cJSON_AddItemToArray(obj, item))) {
		cJSON_Delete(item);
		s->oom = 1;
		return NULL;
	}
	return item;
}

static cJSON *add_str(struct kc_sarif *s, cJSON *obj, const char *key, const char *text)
{
	return add(s, obj, key, cJSON_CreateString(text));
}

static cJSON *add_obj(struct kc_sarif *s, cJSON *obj, const char *key)
{
	return add(s, obj, key, cJSON_CreateObject());
}

/* {"text": text} */
static void add_message(struct kc_sarif *s, cJSON *obj, const char *key, const char *text)
{
	add_str(s, add_obj(s, obj, key), "text", text);
}

/* ---- locations ----------------------------------------------------------------------------------------------- */

/* s percent-encoded for a URI's path: every byte but an unreserved character (RFC 3986: letters, digits,
 * `-._~`) and `/` as %XX, so a space, a `%`, a `:` in a first segment (which would read as a scheme), a
 * control or a byte of a non-ASCII character cannot be misread. */
static void put_uri_path(struct kc_buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
		if ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') || (*u >= '0' && *u <= '9') ||
		    strchr("-._~/", *u))
			kc_buf_putc(b, (char)*u);
		else
			kc_buf_printf(b, "%%%c%c", hex[*u >> 4], hex[*u & 15]);
	}
}

/* The current directory as a file:// URI ending in '/', into b; -1 when it cannot be read. */
static int cwd_uri(struct kc_buf *b)
{
	char *dir = NULL;
	for (size_t size = 4096;; size *= 2) {
		char *grown = size <= (1u << 20) ? realloc(dir, size) : NULL;
		if (!grown) {
			free(dir);
			return -1;
		}
		dir = grown;
		if (getcwd(dir, size))
			break;
		if (errno != ERANGE) {
			free(dir);
			return -1;
		}
	}
	kc_buf_puts(b, "file://");
	put_uri_path(b, dir);
	if (b->len && kc_buf_str(b)[b->len - 1] != '/')
		kc_buf_putc(b, '/');
	free(dir);
	return 0;
}

/* {"uri": ..., "uriBaseId": "SRCROOT"} for a relative path, {"uri": "file:///..."} for an absolute one. */
static void add_artifact(struct kc_sarif *s, cJSON *physical, const char *file)
{
	cJSON *artifact = add_obj(s, physical, "artifactLocation");
	struct kc_buf uri = KC_BUF_INIT;
	if (file[0] == '/')
		kc_buf_puts(&uri, "file://");
	put_uri_path(&uri, file);
	add_str(s, artifact, "uri", kc_buf_str(&uri));
	if (file[0] != '/')
		add_str(s, artifact, "uriBaseId", "SRCROOT");
	kc_buf_release(&uri);
}

/* The column, in code points, of byte column `col` (1-based) of line `line` of file: clang counts bytes, SARIF
 * (run.columnKind) code points. A byte that is not UTF-8 counts as one; so does each byte past the line's end
 * or of a line that cannot be read (where the two kinds agree for ASCII text). */
static unsigned code_point_column(const char *file, unsigned line, unsigned col)
{
	const char *text;
	size_t len, i = 0;
	const struct kc_source *src = kc_source_get(file);
	if (!src || kc_source_line(src, line, &text, &len) < 0)
		return col;
	unsigned points = 1;
	while (i + 1 < col && i < len) {
		int n = kc_visible_utf8_len((const unsigned char *)text + i, len - i);
		i += n > 0 ? (size_t)n : 1;
		points++;
	}
	return points + (unsigned)(i + 1 < col ? col - 1 - i : 0);
}

/* result.locations: [{physicalLocation: {artifactLocation, region}, logicalLocations: [{name, kind}]}], where
 * file is not NULL; line 0 leaves out the region, col 0 the column. */
static void add_location(struct kc_sarif *s, cJSON *result, const char *file, unsigned line, unsigned col,
                         const char *function)
{
	if (!file || !file[0])
		return;
	cJSON *location = add(s, add(s, result, "locations", cJSON_CreateArray()), NULL, cJSON_CreateObject());
	cJSON *physical = add_obj(s, location, "physicalLocation");
	add_artifact(s, physical, file);
	if (line) {
		cJSON *region = add_obj(s, physical, "region");
		add(s, region, "startLine", cJSON_CreateNumber(line));
		if (col)
			add(s, region, "startColumn", cJSON_CreateNumber(code_point_column(file, line, col)));
	}
	if (function) {
		struct kc_buf name = KC_BUF_INIT;
		kc_visible_puts(&name, function);
		cJSON *logical =
		    add(s, add(s, location, "logicalLocations", cJSON_CreateArray()), NULL, cJSON_CreateObject());
		add_str(s, logical, "name", kc_buf_str(&name));
		add_str(s, logical, "kind", "function");
		kc_buf_release(&name);
	}
}

/* ---- the log --------------------------------------------------------------------------------------------- */

static void add_rules(struct kc_sarif *s, cJSON *driver)
{
	cJSON *list = add(s, driver, "rules", cJSON_CreateArray());
	for (int i = 0; i < RULES; i++) {
		cJSON *rule = add(s, list, NULL, cJSON_CreateObject());
		add_str(s, rule, "id", rules[i].id);
		add_str(s, rule, "name", rules[i].name);
		add_message(s, rule, "shortDescription", rules[i].text);
		add_str(s, add_obj(s, rule, "defaultConfiguration"), "level", rules[i].level);
	}
}

struct kc_sarif *kc_sarif_open(const char *version)
{
	struct kc_sarif *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->log = cJSON_CreateObject();
	add_str(s, s->log, "$schema", SARIF_SCHEMA);
	add_str(s, s->log, "version", "2.1.0");
	cJSON *run = add(s, add(s, s->log, "runs", cJSON_CreateArray()), NULL, cJSON_CreateObject());
	cJSON *driver = add_obj(s, add_obj(s, run, "tool"), "driver");
	add_str(s, driver, "name", "kcost");
	add_str(s, driver, "version", version ? version : "unknown");
	add_rules(s, driver);
	struct kc_buf root = KC_BUF_INIT;
	if (cwd_uri(&root) == 0)
		add_str(s, add_obj(s, add_obj(s, run, "originalUriBaseIds"), "SRCROOT"), "uri", kc_buf_str(&root));
	kc_buf_release(&root);
	add_str(s, run, "columnKind", "unicodeCodePoints");
	s->results = add(s, run, "results", cJSON_CreateArray());
	if (!s->log || s->oom) {
		cJSON_Delete(s->log);
		free(s);
		return NULL;
	}
	return s;
}

/* A result of rule r at `level` with the message text (escaped here), its locations left to the caller. */
static cJSON *add_result(struct kc_sarif *s, int r, const char *level, const char *text)
{
	cJSON *result = add(s, s->results, NULL, cJSON_CreateObject());
	struct kc_buf message = KC_BUF_INIT;
	kc_escape_sarif_text(&message, text);
	add_str(s, result, "ruleId", rules[r].id);
	add(s, result, "ruleIndex", cJSON_CreateNumber(r));
	add_str(s, result, "level", level);
	add_message(s, result, "message", kc_buf_str(&message));
	kc_buf_release(&message);
	return result;
}

void kc_sarif_add_diags(struct kc_sarif *s, const struct kc_diags *list)
{
	for (const struct kc_diag *d = s && list ? list->head : NULL; d; d = d->next) {
		int r = (unsigned)d->kind < KC_DIAG_KINDS ? (int)d->kind : KC_DIAG_INEXACT;
		cJSON *result = add_result(s, r, kc_severity_name(d->severity), d->message ? d->message : "");
		add_location(s, result, d->loc.file, d->loc.line, d->loc.col, d->function);
	}
}

void kc_sarif_add_regressions(struct kc_sarif *s, const struct kc_sarif_regression *r, int n)
{
	for (int i = 0; s && i < n; i++) {
		struct kc_buf text = KC_BUF_INIT;
		kc_buf_printf(&text, "'%s': %s, %.3gx the base", r[i].function, r[i].verdict, r[i].ratio);
		if (r[i].changes && r[i].changes[0])
			kc_buf_printf(&text, "; %s", r[i].changes);
		cJSON *result = add_result(s, RULE_REGRESSION, r[i].gate ? "error" : "warning", kc_buf_str(&text));
		kc_buf_release(&text);
		add_location(s, result, r[i].file, r[i].line, 0, r[i].function);
		cJSON *properties = add_obj(s, result, "properties");
		add_str(s, properties, "verdict", r[i].verdict);
		add(s, properties, "ratio", cJSON_CreateNumber(r[i].ratio));
	}
}

int kc_sarif_close(struct kc_sarif *s, struct kc_buf *b)
{
	if (!s)
		return -1;
	int rc = s->oom ? -1 : kc_json_print(b, s->log);
	if (rc == 0)
		kc_buf_putc(b, '\n');
	cJSON_Delete(s->log);
	free(s);
	return rc;
}
