/* test_base.c — base/: formatted text appended to a buffer, files read whole, lines as clang ends them, the process's
 * source cache, and the failure path of KC_ASSERT / KC_BUG. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "check.h"
#include "source.h"
#include "visible.h"

/* A message kept by a variadic function, as kcost diff's and kcost merge's problems are. */
static char *message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *message(const char *fmt, ...)
{
	struct kc_buf b = KC_BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	kc_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return kc_buf_detach(&b);
}

/* Formatting appends: a short text in the first pass, one longer than the room left in a second; an empty one
 * leaves the buffer a C string. */
static void test_buf_printf(void **state)
{
	(void)state;
	char *text = message("%s: function '%s' (%s): %d", "HEAD.json", "f", "k.c", 42);
	assert_string_equal(text, "HEAD.json: function 'f' (k.c): 42");
	free(text);
	char long_name[301];
	memset(long_name, 'x', 300);
	long_name[300] = '\0';
	text = message("<%s>", long_name);
	assert_int_equal(strlen(text), 302);
	assert_true(text[0] == '<' && text[1] == 'x' && text[300] == 'x' && text[301] == '>');
	free(text);
	text = message("%s", "");
	assert_string_equal(text, "");
	free(text);
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, "head ");
	for (int i = 0; i < 100; i++)
		kc_buf_printf(&b, "%d,", i);
	assert_int_equal(b.len, 5 + 10 * 2 + 90 * 3);
	assert_true(!strncmp(b.data, "head 0,1,2,", 11));
	assert_string_equal(b.data + b.len - 6, "98,99,");
	kc_buf_release(&b);
}

/* A whole file into a buffer: its bytes (NULs and all), an empty file, a cap, a missing file. */
static void test_buf_read_file(void **state)
{
	(void)state;
	char path[] = "/tmp/kc_test_buf_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct kc_buf b = KC_BUF_INIT, big = KC_BUF_INIT;
	for (int i = 0; i < 100000; i++)
		kc_buf_putc(&big, (char)(i % 251));
	assert_int_equal(write(fd, big.data, big.len), (ssize_t)big.len);
	close(fd);
	kc_buf_puts(&b, "head:");
	assert_int_equal(kc_buf_read_file(&b, path, 100000), 0);
	assert_int_equal(b.len, 5 + 100000);
	assert_memory_equal(b.data + 5, big.data, 100000);
	assert_int_equal(b.data[b.len], '\0');
	kc_buf_reset(&b);
	errno = 0;
	assert_int_equal(kc_buf_read_file(&b, path, 99999), -1);
	assert_int_equal(errno, EFBIG);
	FILE *f = fopen(path, "w");
	fclose(f);
	kc_buf_reset(&b);
	assert_int_equal(kc_buf_read_file(&b, path, 10), 0);
	assert_int_equal(b.len, 0);
	assert_string_equal(kc_buf_str(&b), "");
	remove(path);
	assert_int_equal(kc_buf_read_file(&b, path, 10), -1);
	assert_int_equal(errno, ENOENT);
	kc_buf_release(&b);
	kc_buf_release(&big);
}

/* Lines end at "\n", "\r\n" or a lone "\r"; a last line may lack its end; an empty text has no line. */
static void test_line_starts(void **state)
{
	(void)state;
	static const char text[] = "a\nbc\r\nd\re\r\r\nlast";
	unsigned n = 99;
	size_t *s = kc_line_starts(text, sizeof text - 1, &n);
	assert_non_null(s);
	assert_int_equal(n, 6); /* a | bc | d | e | (empty) | last */
	static const size_t want[] = {0, 2, 6, 8, 10, 12, 16};
	for (unsigned i = 0; i <= n; i++)
		assert_int_equal(s[i], want[i]);
	free(s);
	s = kc_line_starts("x\n", 2, &n);
	assert_int_equal(n, 1);
	assert_int_equal(s[1], 2);
	free(s);
	s = kc_line_starts("", 0, &n);
	assert_int_equal(n, 0);
	assert_int_equal(s[0], 0);
	free(s);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *line(const struct kc_source *s, unsigned k)
{
	static char out[64];
	const char *t;
	size_t len;
	if (kc_source_line(s, k, &t, &len) < 0)
		return NULL;
	snprintf(out, sizeof out, "%.*s", (int)len, t);
	return out;
}

/* A file is read once and its lines are those of kc_line_starts; a rewritten file is read again while the
 * old text stays valid; a missing file has no lines and says why. */
static void test_source_cache(void **state)
{
	(void)state;
	char path[] = "/tmp/kc_test_source_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, "int a;\r\nint b;\rlast");
	const struct kc_source *s = kc_source_get(path);
	assert_non_null(s);
	assert_ptr_equal(kc_source_get(path), s); /* cached */
	assert_int_equal(s->n_lines, 3);
	assert_string_equal(line(s, 1), "int a;");
	assert_string_equal(line(s, 2), "int b;");
	assert_string_equal(line(s, 3), "last");
	assert_null(line(s, 0));
	assert_null(line(s, 4));
	assert_int_equal(kc_source_line_of(s, 0), 1);
	assert_int_equal(kc_source_line_of(s, 7), 1); /* the \n of "\r\n" */
	assert_int_equal(kc_source_line_of(s, 8), 2);
	assert_int_equal(kc_source_line_of(s, 15), 3);
	assert_int_equal(kc_source_line_of(s, 999), 3); /* past the end: the last line */

	write_file(path, "one line, longer than before\n");
	const struct kc_source *again = kc_source_get(path);
	assert_ptr_not_equal(again, s);
	assert_int_equal(again->n_lines, 1);
	assert_string_equal(line(again, 1), "one line, longer than before");
	assert_string_equal(line(s, 1), "int a;"); /* the old text is still there for whoever holds it */

	remove(path);
	const struct kc_source *gone = kc_source_get("/tmp/kc_test_source_does_not_exist");
	assert_non_null(gone);
	assert_null(gone->text);
	assert_int_equal(gone->n_lines, 0);
	assert_int_equal(gone->error, ENOENT);
	assert_int_equal(kc_source_line_of(gone, 3), 0);
	kc_sources_release();
}

/* KC_ASSERT and KC_BUG abort with the file, line and condition; a true condition does nothing. */
static void test_check_aborts(void **state)
{
	(void)state;
	KC_ASSERT(1 + 1 == 2);
	for (int which = 0; which < 2; which++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			dup2(fds[1], 2);
			if (which == 0)
				KC_ASSERT(which == 1);
			else
				KC_BUG("a node of no kind");
			_exit(0);
		}
		close(fds[1]);
		char out[512] = {0};
		size_t got = 0;
		ssize_t r;
		while (got < sizeof out - 1 && (r = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
			got += (size_t)r;
		close(fds[0]);
		int status;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGABRT);
		assert_non_null(strstr(out, "kcost: internal error at "));
		assert_non_null(strstr(out, "test_base.c:"));
		assert_non_null(strstr(out, which == 0 ? "assertion failed: which == 1" : ": a node of no kind"));
	}
}

/* Controls, stray bytes and reordering characters in their visible forms; plain UTF-8 as it is; a sequence
 * cut by the end of the bytes is stray. */
static void test_visible(void **state)
{
	(void)state;
	struct kc_buf b = KC_BUF_INIT;
	kc_visible_puts(&b, "a\nb\x1b[31m\t\xc2\x85\xff \xc2\xb5s \xe2\x80\xae\xd8\x9c\xe2\x81\xa6 \xe6\x97\xa5");
	assert_string_equal(kc_buf_str(&b),
	                    "a\\nb\\x1b[31m\\x09\\xc2\\x85\\xff \xc2\xb5s \\u202e\\u061c\\u2066 \xe6\x97\xa5");
	kc_visible_puts(&b, NULL);
	assert_int_equal(kc_visible_utf8_len((const unsigned char *)"\xe6\x97\xa5", 3), 3);
	assert_int_equal(kc_visible_utf8_len((const unsigned char *)"\xe6\x97\xa5", 2), 0); /* cut */
	assert_int_equal(kc_visible_utf8_len((const unsigned char *)"\xc0\x80", 2), 0);     /* overlong */
	assert_int_equal(kc_visible_utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0); /* surrogate */
	int n;
	assert_int_equal(kc_visible_classify((const unsigned char *)"\xe6\x97", 2, &n), KC_CHAR_STRAY);
	assert_int_equal(n, 1);
	kc_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buf_printf),   cmocka_unit_test(test_buf_read_file),
	    cmocka_unit_test(test_line_starts),  cmocka_unit_test(test_source_cache),
	    cmocka_unit_test(test_check_aborts), cmocka_unit_test(test_visible),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
