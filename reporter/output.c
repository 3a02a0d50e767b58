/* output.c — the plumbing every output shares: draining a sink into its file, walking the pieces of two
 * threads in the order of the functions, and the report's directory every file is written into. */
#define _GNU_SOURCE /* flock, renameat2 */
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

void kc_output_drain(struct kc_output_sink *s, int all)
{
	if (!s->out || (!all && s->b->len < KC_OUTPUT_CHUNK))
		return;
	if (s->b->len && fwrite(s->b->data, 1, s->b->len, s->out) != s->b->len && !s->errnum)
		s->errnum = errno ? errno : EIO;
	kc_buf_reset(s->b);
}

int kc_output_each_piece(const struct kc_output_pieces *p, const struct kc_analysis *an,
                         int (*emit)(void *ctx, int i, const struct kc_output_text *text), void *ctx)
{
	int i, next = 0, rc = 0;
	while (rc >= 0 && p && (i = p->claim(p->ctx)) >= 0) { /* ours, from the first */
		next = i + 1;
		if (!an->functions[i]->skip)
			rc = emit(ctx, i, NULL);
	}
	if (p)
		p->wait(p->ctx); /* even after a failure: the other thread is done with its pieces */
	for (i = next; i < an->n_functions && rc >= 0; i++)
		if (!an->functions[i]->skip)
			rc = emit(ctx, i, p && p->text[i].s ? &p->text[i] : NULL);
	return rc < 0 ? rc : 0;
}

/* ---- the report's directory ------------------------------------------------------------------------------ */

static int say(char *error, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *error, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(error, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* The first failure only: what follows it is a consequence. */
static int failure(struct kc_output_dir *d, const char *what, const char *name, int errnum)
{
	if (d->error[0])
		return -1;
	if (!name)
		return say(d->error, sizeof d->error, "%s %.900s: %s", what, d->path, strerror(errnum));
	return say(d->error, sizeof d->error, "%s %.900s/%.100s: %s", what, d->path, name, strerror(errnum));
}

static int refusal(char *error, size_t size, const char *path, const char *why)
{
	return say(error, size, "cannot use '%.900s' as the report directory: %s", path, why);
}

/* mkdir -p: create dir and its missing parents. */
static int make_dirs(struct kc_output_dir *d)
{
	char *path = strdup(d->path);
	if (!path) {
		d->internal = 1;
		return failure(d, "cannot create", NULL, ENOMEM);
	}
	for (char *p = path + 1;; p++) {
		char saved = *p;
		if (saved != '/' && saved != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			int errnum = errno;
			say(d->error, sizeof d->error, "cannot create %.900s: %s", path, strerror(errnum));
			free(path);
			return -1;
		}
		*p = saved;
		if (!saved)
			break;
	}
	free(path);
	return 0;
}

/* Where the file system has no locks (NFS without lockd, some FUSE), the run goes on unlocked: the
 * temporary names are the process's own, so two runs can still not write into one file. 1 when locked. */
static int lock(int fd, int how)
{
	int rc;
	while ((rc = flock(fd, how)) < 0 && errno == EINTR)
		;
	return rc == 0;
}

/* A listing of dir_fd's directory from its start, on a descriptor of its own (a dup would share, and move,
 * dir_fd's offset). NULL with errno set. */
static DIR *list_dir(int dir_fd)
{
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir && fd >= 0) {
		int errnum = errno;
		close(fd);
		errno = errnum;
	}
	return dir;
}

/* A temporary name of kc_output_dir_write's, ".kcost-<pid>-<n>.tmp". */
static int is_temporary(const char *name)
{
	size_t n = strlen(name);
	if (strncmp(name, ".kcost-", 7) != 0 || n < 13 || strcmp(name + n - 4, ".tmp") != 0)
		return 0;
	return strspn(name + 7, "0123456789-") == n - 11;
}

/* Under the lock, a temporary left in dir_fd is a killed kcost's (SIGKILL, a power cut): removed. */
static void remove_temporaries(int dir_fd)
{
	DIR *dir = list_dir(dir_fd);
	struct dirent *e;
	if (!dir)
		return; /* they stay: nothing depends on their going */
	while ((e = readdir(dir)))
		if (is_temporary(e->d_name))
			unlinkat(dir_fd, e->d_name, 0);
	closedir(dir);
}

enum dir_kind { DIR_EMPTY, DIR_OTHER, DIR_REPORT, DIR_MARKED };

/* A report.json written by kcost: its first bytes are `{ "schema": 1, "kcost_version": ...`. Opened without
 * following a link and without blocking (a FIFO in its place). */
static int is_kcost_json(int dir_fd)
{
	char head[256];
	struct stat st;
	int fd = openat(dir_fd, "report.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof head - 1) : -1;
	close(fd);
	if (n <= 0)
		return 0;
	head[n] = '\0';
	return head[0] == '{' && strstr(head, "\"kcost_version\"") != NULL;
}

/* What the directory holds: nothing, a kcost report (marked or not), or something else. */
static int dir_kind(int dir_fd, enum dir_kind *kind)
{
	DIR *dir = list_dir(dir_fd);
	if (!dir)
		return -1;
	int entries = 0, marked = 0, report = 0;
	struct dirent *e;
	struct stat st;
	errno = 0;
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		entries++;
		if (!strcmp(e->d_name, KC_OUTPUT_MARKER))
			marked = fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
		else if (!strcmp(e->d_name, "report.json"))
			report = is_kcost_json(dir_fd);
	}
	int errnum = errno;
	closedir(dir);
	if (errnum) {
		errno = errnum;
		return -1;
	}
	*kind = marked ? DIR_MARKED : report ? DIR_REPORT : entries ? DIR_OTHER : DIR_EMPTY;
	return 0;
}

#define NOT_A_REPORT "it is not empty and holds no kcost report (no " KC_OUTPUT_MARKER " or report.json)"

static int render_marker(struct kc_output_sink *s, void *ctx)
{
	(void)ctx;
	kc_buf_puts(s->b, "This directory holds a kcost report: kcost writes its files into it again.\n");
	return 0;
}

int kc_output_dir_open(struct kc_output_dir *d, const char *path)
{
	enum dir_kind kind;
	*d = (struct kc_output_dir){.path = path, .fd = -1, .sub_fd = {-1, -1}};
	if (!*path)
		return refusal(d->error, sizeof d->error, path, "the name is empty");
	if (make_dirs(d) < 0)
		return -1;
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return errno == ENOTDIR ? refusal(d->error, sizeof d->error, path, "not a directory")
		                        : failure(d, "cannot open", NULL, errno);
	d->locked = lock(d->fd, LOCK_EX);
	if (dir_kind(d->fd, &kind) < 0)
		return failure(d, "cannot read", NULL, errno);
	if (kind == DIR_OTHER)
		return refusal(d->error, sizeof d->error, path, NOT_A_REPORT);
	if (d->locked && kind != DIR_EMPTY)
		remove_temporaries(d->fd);
	return kind == DIR_MARKED ? 0 : kc_output_dir_write(d, KC_OUTPUT_MARKER, render_marker, NULL);
}

static const char *const sub_names[KC_OUTPUT_SUBS] = {"graphs", "shards"};

int kc_output_dir_sub(struct kc_output_dir *d, enum kc_output_sub sub)
{
	const char *name = sub_names[sub];
	if (d->sub_fd[sub] >= 0)
		return 0;
	if (mkdirat(d->fd, name, 0777) < 0 && errno != EEXIST)
		return failure(d, "cannot create", name, errno);
	d->sub_fd[sub] = openat(d->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->sub_fd[sub] < 0 && (errno == ELOOP || errno == ENOTDIR)) { /* a link or a file where it goes */
		if (unlinkat(d->fd, name, 0) == 0 && mkdirat(d->fd, name, 0777) == 0)
			d->sub_fd[sub] = openat(d->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (d->sub_fd[sub] < 0)
		return failure(d, "cannot create", name, errno);
	if (d->locked)
		remove_temporaries(d->sub_fd[sub]);
	return 0;
}

int kc_output_dir_graphs(struct kc_output_dir *d)
{
	return kc_output_dir_sub(d, KC_OUTPUT_GRAPHS);
}

/* Render into a new file at tmp in at_fd; 0, or -1 with d->error set and tmp removed. */
static int write_temporary(struct kc_output_dir *d, int at_fd, const char *tmp, const char *name,
                           int (*render)(struct kc_output_sink *s, void *ctx), void *ctx)
{
	unlinkat(at_fd, tmp, 0); /* a killed kcost's, or planted: removed, never followed */
	int fd = openat(at_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		int errnum = errno;
		if (fd >= 0) {
			close(fd);
			unlinkat(at_fd, tmp, 0);
		}
		return failure(d, "cannot write", name, errnum);
	}
	struct kc_buf b = KC_BUF_INIT;
	struct kc_output_sink s = {&b, f, 0};
	int built = render(&s, ctx) == 0;
	kc_output_drain(&s, 1);
	kc_buf_release(&b);
	if (fclose(f) != 0 && !s.errnum)
		s.errnum = errno ? errno : EIO;
	if (built && !s.errnum)
		return 0;
	unlinkat(at_fd, tmp, 0);
	d->internal = !built;
	return failure(d, built ? "cannot write" : "cannot build", name, built ? s.errnum : ENOMEM);
}

/* Put the file at tmp in place of leaf. renameat over an existing file makes ext4 (auto_da_alloc) write the new
 * file's data back before it returns: 3 ms for a report.json of 5 MB, where kcost writes the same report
 * again and again. Exchanging the two names (renameat2's RENAME_EXCHANGE) and then removing the old file,
 * now under the temporary name, does not; a reader sees either file whole as before, and neither call
 * follows a link. A directory at leaf, or a file system without the exchange, gets renameat (which fails on
 * the directory, as before). What is given up: after a power loss soon after the run, ext4 may show the new
 * file empty instead of old or new (the report is written again by running kcost again). */
static int put_in_place(int at_fd, const char *tmp, const char *leaf)
{
#ifdef RENAME_EXCHANGE
	struct stat st;
	if (fstatat(at_fd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode) &&
	    renameat2(at_fd, tmp, at_fd, leaf, RENAME_EXCHANGE) == 0) {
		/* if it stays, the next kcost here removes it with the other temporaries; an (empty) directory put at
		 * leaf since fstatat by something else than kcost is removed too */
		if (unlinkat(at_fd, tmp, 0) < 0 && errno == EISDIR)
			unlinkat(at_fd, tmp, AT_REMOVEDIR);
		return 0;
	}
#endif
	return renameat(at_fd, tmp, at_fd, leaf);
}

int kc_output_dir_write(struct kc_output_dir *d, const char *name, int (*render)(struct kc_output_sink *s, void *ctx),
                        void *ctx)
{
	int at_fd = d->fd;
	const char *leaf = name;
	char tmp[64];
	for (int sub = 0; sub < KC_OUTPUT_SUBS; sub++) {
		size_t n = strlen(sub_names[sub]);
		if (!strncmp(name, sub_names[sub], n) && name[n] == '/') {
			KC_ASSERT(d->sub_fd[sub] >= 0);
			at_fd = d->sub_fd[sub];
			leaf = name + n + 1;
		}
	}
	KC_ASSERT(at_fd >= 0 && !strchr(leaf, '/'));
	/* the process's own name, whatever the file's (a long function name would not fit a longer one) */
	snprintf(tmp, sizeof tmp, ".kcost-%ld-%u.tmp", (long)getpid(), d->serial++);
	if (write_temporary(d, at_fd, tmp, name, render, ctx) < 0)
		return -1;
	if (put_in_place(at_fd, tmp, leaf) < 0) { /* replaces a link at leaf, does not follow it */
		int errnum = errno;
		unlinkat(at_fd, tmp, 0);
		return failure(d, "cannot write", name, errnum);
	}
	return 0;
}

/* A file of the kinds kcost writes into sub: graphs/ .svg and .dot, shards/ .html. */
static int is_sub_file(enum kc_output_sub sub, const char *leaf)
{
	size_t n = strlen(leaf);
	if (leaf[0] == '.')
		return 0;
	if (sub == KC_OUTPUT_SHARDS)
		return n > 5 && !strcmp(leaf + n - 5, ".html");
	return n > 4 && (!strcmp(leaf + n - 4, ".svg") || !strcmp(leaf + n - 4, ".dot"));
}

int kc_output_dir_prune(struct kc_output_dir *d, enum kc_output_sub sub, int (*keep)(void *ctx, const char *leaf),
                        void *ctx)
{
	int fd = d->sub_fd[sub];
	KC_ASSERT(fd >= 0);
	DIR *dir = list_dir(fd);
	if (!dir)
		return failure(d, "cannot read", sub_names[sub], errno);
	struct dirent *e;
	char name[300];
	int rc = 0;
	while (rc == 0 && (e = readdir(dir)))
		if (is_sub_file(sub, e->d_name) && !keep(ctx, e->d_name) && unlinkat(fd, e->d_name, 0) < 0 &&
		    errno != ENOENT) {
			snprintf(name, sizeof name, "%s/%s", sub_names[sub], e->d_name);
			rc = failure(d, "cannot remove", name, errno);
		}
	closedir(dir);
	return rc;
}

int kc_output_dir_prune_graphs(struct kc_output_dir *d, int (*keep)(void *ctx, const char *leaf), void *ctx)
{
	return kc_output_dir_prune(d, KC_OUTPUT_GRAPHS, keep, ctx);
}

int kc_output_dir_remove(struct kc_output_dir *d, const char *name)
{
	KC_ASSERT(d->fd >= 0 && !strchr(name, '/'));
	if (unlinkat(d->fd, name, 0) < 0 && errno != ENOENT)
		return failure(d, "cannot remove", name, errno);
	return 0;
}

void kc_output_dir_close(struct kc_output_dir *d)
{
	for (int sub = 0; sub < KC_OUTPUT_SUBS; sub++) {
		if (d->sub_fd[sub] >= 0)
			close(d->sub_fd[sub]);
		d->sub_fd[sub] = -1;
	}
	if (d->fd >= 0)
		close(d->fd); /* and the lock with it */
	d->fd = -1;
}

int kc_output_dir_check(const char *path, char *error, size_t size)
{
	struct stat st;
	enum dir_kind kind;
	if (!*path)
		return refusal(error, size, path, "the name is empty");
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : refusal(error, size, path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return refusal(error, size, path, "not a directory");
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return refusal(error, size, path, strerror(errno));
	lock(fd, LOCK_SH);
	int rc = dir_kind(fd, &kind);
	int errnum = errno;
	close(fd);
	if (rc < 0)
		return refusal(error, size, path, strerror(errnum));
	if (kind == DIR_OTHER)
		return refusal(error, size, path, NOT_A_REPORT);
	if (access(path, W_OK | X_OK) < 0)
		return refusal(error, size, path, strerror(errno));
	return 0;
}

void kc_output_created(const char *given, char *out, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	struct tm tm;
	time_t t = time(NULL);
	if (given) {
		snprintf(out, size, "%s", given);
		return;
	}
	if (epoch && *epoch)
		t = (time_t)strtoll(epoch, NULL, 10);
	if (!gmtime_r(&t, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, size, "1970-01-01T00:00:00Z");
}
