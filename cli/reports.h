/* reports.h — reading the report.json files `kcost diff` and `kcost merge` take: errors said on stderr as
 * "kcost diff: error: ..." with the user's text (a path) in its visible form, and the parsed documents kept in one
 * arena for the time of the command. */
#ifndef KC_CLI_REPORTS_H
#define KC_CLI_REPORTS_H

#include <cjson/cJSON.h>

#include "buf.h"

/* "kcost CMD: error: " BEFORE, then user's text made visible (base/visible.h: a file name can hold escape
 * sequences and line breaks, and stderr is a terminal), then AFTER and a newline, on stderr. */
void kc_cli_error(const char *cmd, const char *before, const char *user, const char *after);

/* The JSON document at path, parsed; or NULL after saying why ("cannot open 'x': No such file or directory", "'x'
 * is not valid JSON (near byte 12)"). When text is not NULL, it is emptied and holds the file's text after. */
cJSON *kc_cli_load_json(const char *cmd, const char *path, struct kc_buf *text);

/* From kc_cli_json_arena(1) until kc_cli_json_arena(0), cJSON allocates from one arena and frees nothing: the
 * reports of a hundred thousand functions have millions of values, and a malloc and a free for each cost more
 * than the parse itself. Turning it off drops everything cJSON allocated meanwhile, at once. */
void kc_cli_json_arena(int on);

#endif
