/* report.c — writing the report directory: index.html, report.json, summary.md, roofline.svg. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "report.h"

static char error_text[1024];

static int fail(const char **err, const char *what, const char *path, int errnum)
{
	snprintf(error_text, sizeof error_text, "%s %.900s: %s", what, path, strerror(errnum));
	*err = error_text;
	return -1;
}

/* mkdir -p: create dir and its missing parents. */
static int make_dirs(const char *dir, const char **err)
{
	struct stat st;
	char *path = *dir ? strdup(dir) : NULL;
	if (!*dir)
		return fail(err, "cannot create", "an empty directory name", EINVAL);
	if (!path)
		return fail(err, "cannot create", dir, ENOMEM);
	for (char *p = path + 1;; p++) {
		char saved = *p;
		if (saved != '/' && saved != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			int errnum = errno;
			fail(err, "cannot create", path, errnum);
			free(path);
			return -1;
		}
		*p = saved;
		if (!saved)
			break;
	}
	free(path);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return fail(err, "cannot create", dir, ENOTDIR);
	return 0;
}

/* Write len bytes to path through path.tmp and a rename, so readers never see a partial file. */
static int write_atomically(const char *path, const char *tmp, const char *data, size_t len, const char **err)
{
	FILE *out = fopen(tmp, "wb");
	if (!out)
		return fail(err, "cannot write", tmp, errno);
	size_t n = fwrite(data, 1, len, out);
	int errnum = errno;
	if (fclose(out) != 0 && n == len)
		n = 0, errnum = errno;
	if (n != len) {
		remove(tmp);
		return fail(err, "cannot write", tmp, errnum ? errnum : EIO);
	}
	if (rename(tmp, path) < 0) {
		errnum = errno;
		remove(tmp);
		return fail(err, "cannot rename to", path, errnum);
	}
	return 0;
}

static int write_file(const char *dir, const char *name, const char *data, size_t len, const char **err)
{
	struct kc_buf path = KC_BUF_INIT, tmp = KC_BUF_INIT;
	kc_buf_printf(&path, "%s/%s", dir, name);
	kc_buf_printf(&tmp, "%s.tmp", kc_buf_str(&path));
	int rc = write_atomically(kc_buf_str(&path), kc_buf_str(&tmp), data, len, err);
	kc_buf_release(&path);
	kc_buf_release(&tmp);
	return rc;
}

static int write_json(const char *dir, const struct kc_analysis *an, const struct kc_measurements *m,
                      const struct kc_report_opts *o, const char **err)
{
	cJSON *doc = kc_report_json(an, m, o);
	char *text = doc ? cJSON_Print(doc) : NULL;
	int rc;
	cJSON_Delete(doc);
	if (!text)
		return fail(err, "cannot build", "report.json", ENOMEM);
	size_t len = strlen(text);
	text[len] = '\n'; /* overwrite the NUL: the file ends with a newline */
	rc = write_file(dir, "report.json", text, len + 1, err);
	cJSON_free(text);
	return rc;
}

/* Render one text output into a buffer and write it. */
static int write_text(const char *dir, const char *name, struct kc_buf *b, const char **err)
{
	int rc = write_file(dir, name, kc_buf_str(b), b->len, err);
	kc_buf_release(b);
	return rc;
}

int kc_report_write(const struct kc_analysis *an, const struct kc_measurements *m, const struct kc_report_opts *o,
                    const char **err)
{
	const char *dir = o && o->out_dir ? o->out_dir : "kcost-report";
	struct kc_buf b = KC_BUF_INIT;
	if (make_dirs(dir, err) < 0 || write_json(dir, an, m, o, err) < 0)
		return -1;
	kc_report_html(&b, an, m, o);
	if (write_text(dir, "index.html", &b, err) < 0)
		return -1;
	kc_report_markdown(&b, an, m);
	if (write_text(dir, "summary.md", &b, err) < 0)
		return -1;
	kc_report_roofline_svg(&b, an, m);
	return write_text(dir, "roofline.svg", &b, err);
}
