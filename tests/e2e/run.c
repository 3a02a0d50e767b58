/* run.c — process and file helpers for the end-to-end tests. */
#include "buf.h"
#include "source.h"
#include "run.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef KCOST_BIN
#error "KCOST_BIN must name the built kcost binary"
#endif

void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s\n", path);
		abort();
	}
}

char *slurp(const char *path)
{
	struct kc_buf b = KC_BUF_INIT;
	if (kc_buf_read_file(&b, path, (size_t)-1) < 0) {
		kc_buf_release(&b);
		return NULL;
	}
	return kc_buf_detach(&b);
}

const char *scratch_dir(const char *name)
{
	static char path[4096];
	char cmd[8400];
	snprintf(path, sizeof path, "%s/e2e-out/%s", KCOST_BUILD_DIR, name);
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", path, path);
	if (system(cmd) != 0)
		abort();
	return path;
}

struct run run_kcost(const char *const *args)
{
	return run_kcost_in(".", args);
}

struct run run_kcost_in(const char *dir, const char *const *args)
{
	struct run r = {0};
	char out_path[] = "/tmp/kcost-e2e-outXXXXXX", err_path[] = "/tmp/kcost-e2e-errXXXXXX";
	int out = mkstemp(out_path), err = mkstemp(err_path);
	if (out < 0 || err < 0)
		abort();
	const char *argv[64] = {KCOST_BIN};
	int n = 1;
	while (args[n - 1] && n < 63) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		if (chdir(KCOST_SOURCE_DIR) != 0 || chdir(dir) != 0)
			_exit(127);
		execv(KCOST_BIN, (char *const *)argv);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	close(out);
	close(err);
	r.out = slurp(out_path);
	r.err = slurp(err_path);
	unlink(out_path);
	unlink(err_path);
	return r;
}

void run_release(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

cJSON *load_report(const char *dir)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/report.json", dir);
	char *text = slurp(path);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	return doc;
}

cJSON *find_function(cJSON *report, const char *name)
{
	cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(report, "functions"))
	{
		cJSON *n = cJSON_GetObjectItemCaseSensitive(f, "name");
		if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
			return f;
	}
	return NULL;
}

cJSON *at(cJSON *obj, const char *path)
{
	char key[256];
	while (obj && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		obj = cJSON_GetObjectItemCaseSensitive(obj, key);
		path += n + (dot ? 1 : 0);
	}
	return obj;
}

cJSON *report_function(cJSON *report, const char *name)
{
	cJSON *f = find_function(report, name);
	if (!f)
		fail_msg("%s missing", name);
	return f;
}

const char *report_text(cJSON *obj, const char *path)
{
	cJSON *v = at(obj, path);
	if (!cJSON_IsString(v))
		fail_msg("%s is not a string", path);
	return v->valuestring;
}

int report_exact(cJSON *f)
{
	return cJSON_IsTrue(at(f, "exact"));
}

const char *report_diag(cJSON *f, int i, const char *severity, int line, int col)
{
	cJSON *d = cJSON_GetArrayItem(at(f, "diagnostics"), i);
	if (!d)
		fail_msg("no diagnostic %d", i);
	assert_string_equal(report_text(d, "severity"), severity);
	assert_int_equal(at(d, "line")->valueint, line);
	assert_int_equal(at(d, "col")->valueint, col);
	return report_text(d, "message");
}
