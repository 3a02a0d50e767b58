/* run.h — run the built kcost binary in end-to-end tests and inspect what it wrote. */
#ifndef KC_TEST_RUN_H
#define KC_TEST_RUN_H

#include <cjson/cJSON.h>

struct run {
	int status; /* exit status, or 128 + signal */
	char *out;  /* stdout, NUL-terminated */
	char *err;  /* stderr */
};

/* Run KCOST_BIN with the NULL-terminated argument list (argv[0] is supplied) in the source directory, with
 * stdin from /dev/null. Aborts the test on a spawn failure. Release with run_release. */
struct run run_kcost(const char *const *args);
/* The same, run in directory `dir` (relative to the source directory). */
struct run run_kcost_in(const char *dir, const char *const *args);
void run_release(struct run *r);

/* Write text to the file at path (created or truncated); aborts the test when it cannot. */
void write_text(const char *path, const char *text);
/* Read a whole file (NULL if missing); free() the result. */
char *slurp(const char *path);

/* A fresh empty directory under the build tree for one test's outputs (static storage per call). */
const char *scratch_dir(const char *name);

/* The report.json of a directory, parsed (cJSON_Delete it). */
cJSON *load_report(const char *dir);
/* functions[] entry by name, or NULL. */
cJSON *find_function(cJSON *report, const char *name);
/* A nested value by a dotted path ("flops.value", "bytes.min.expr"); NULL if absent. */
cJSON *at(cJSON *obj, const char *path);

/* The function `name` of a report (the test fails when there is none); the string at `path` of a JSON object
 * (fails when it is not a string); whether a function is marked exact. */
cJSON *report_function(cJSON *report, const char *name);
const char *report_text(cJSON *obj, const char *path);
int report_exact(cJSON *f);
/* The message of function f's diagnostic i, after checking its severity and line:col (a cmocka failure else). */
const char *report_diag(cJSON *f, int i, const char *severity, int line, int col);

#endif
