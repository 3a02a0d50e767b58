/* baseline.c — --baseline REV: the inputs at another revision, in a temporary git worktree (baseline.h). */
#define _GNU_SOURCE
#include "baseline.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "cleanup.h"

/* Run git with argv (NULL-terminated, argv[0] "git"), its stdout into out (when not NULL), the first line of its
 * stderr into err on failure. Both pipes are read as they fill (poll): a chatty hook on stderr cannot block git
 * while its stdout is read. 0 when it exited 0. */
static int git(const char *const *argv, struct kc_buf *out, char *err, size_t err_size)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1};
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		snprintf(err, err_size, "cannot run git: %s", strerror(errno));
		if (po[0] >= 0)
			close(po[0]), close(po[1]);
		return -1;
	}
	kc_cleanup_hold(); /* the child runs no handler of kcost's (it would remove the worktree) */
	pid_t pid = fork();
	if (pid != 0)
		kc_cleanup_release();
	if (pid < 0) {
		snprintf(err, err_size, "cannot run git: %s", strerror(errno));
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		kc_cleanup_in_child();
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1); /* dup2 clears O_CLOEXEC on the copies; the originals close at exec */
		dup2(pe[1], 2);
		/* git run from a hook of another repository would follow these instead of -C */
		unsetenv("GIT_DIR"), unsetenv("GIT_WORK_TREE"), unsetenv("GIT_INDEX_FILE");
		setenv("GIT_LFS_SKIP_SMUDGE", "1", 1); /* no download of large files for a checkout of sources */
		execvp("git", (char *const *)argv);
		fprintf(stderr, "cannot run git: %s\n", strerror(errno));
		_exit(127);
	}
	close(po[1]), close(pe[1]);
	struct kc_buf e = KC_BUF_INIT;
	struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	char chunk[4096];
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int k = 0; k < 2; k++) {
			if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t n = read(fds[k].fd, chunk, sizeof chunk);
			if (n > 0 && k == 0 && out)
				kc_buf_add(out, chunk, (size_t)n);
			else if (n > 0 && k == 1 && e.len < 65536)
				kc_buf_add(&e, chunk, (size_t)n);
			else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				close(fds[k].fd), fds[k].fd = -1;
		}
	}
	for (int k = 0; k < 2; k++)
		if (fds[k].fd >= 0)
			close(fds[k].fd);
	int status = 0, w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	int ok = w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!ok) {
		const char *text = kc_buf_str(&e);
		size_t len = strcspn(text, "\n");
		const char *what = !strcmp(argv[1], "-C") ? argv[3] : argv[1]; /* git -C DIR WHAT ... */
		snprintf(err, err_size, "%s failed: %.*s", what, (int)(len < 300 ? len : 300),
		         len ? text : "(no message)");
	}
	kc_buf_release(&e);
	return ok ? 0 : -1;
}

/* out's text without its trailing newline, malloc'd. */
static char *chomp(struct kc_buf *out)
{
	char *s = kc_buf_detach(out);
	if (!s)
		return strdup("");
	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* path (resolved) relative to top, or NULL when it is not inside; malloc'd. */
static char *inside(const char *top, const char *path)
{
	char *real = realpath(path, NULL);
	size_t n = strlen(top);
	char *rel = NULL;
	if (real && !strncmp(real, top, n) && (real[n] == '/' || real[n] == '\0'))
		rel = strdup(real[n] ? real + n + 1 : "");
	free(real);
	return rel;
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s%s", a, *b ? "/" : "", b);
	return s;
}

/* The flags with each -I directory (joined or separate) inside the repository moved into the worktree. */
static int map_args(struct kc_baseline *b, const char *const *args, int n)
{
	b->args = calloc((size_t)n + 1, sizeof *b->args);
	if (!b->args)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *a = args[i], *dir = NULL;
		int joined = 0;
		if (!strncmp(a, "-I", 2) && a[2])
			dir = a + 2, joined = 1;
		else if (i > 0 && !strcmp(args[i - 1], "-I"))
			dir = a;
		char *rel = dir ? inside(b->top, dir) : NULL, *moved = rel ? join(b->tree, rel) : NULL;
		struct stat st;
		if (moved && stat(moved, &st) != 0) /* not in REV's tree (generated, ignored): the head's stays */
			free(moved), moved = NULL;
		if (moved) {
			size_t len = moved ? strlen(moved) + 3 : 0;
			char *s = moved ? malloc(len) : NULL;
			if (s)
				snprintf(s, len, "%s%s", joined ? "-I" : "", moved);
			free(moved);
			b->args[i] = s ? s : strdup(a);
		} else {
			b->args[i] = strdup(a);
		}
		free(rel);
		if (!b->args[i])
			return -1;
		b->n_args = i + 1;
	}
	return 0;
}

static int fail(struct kc_baseline *b, char *err, size_t err_size, const char *fmt, const char *arg)
{
	if (fmt)
		snprintf(err, err_size, fmt, arg);
	kc_baseline_close(b);
	return -1;
}

/* Keep the worktree's entry in the repository (.git/worktrees/NAME: git rev-parse --absolute-git-dir in the
 * worktree) for removal on a signal, as `git worktree prune` would remove it once the directory is gone: removing
 * it is what prune does for an entry whose directory is missing. Only a directory named NAME in a directory
 * "worktrees" is taken: never the repository's own .git. */
static void keep_entry(struct kc_baseline *b)
{
	struct kc_buf out = KC_BUF_INIT;
	char why[400];
	const char *argv[] = {"git", "-C", b->tree, "rev-parse", "--absolute-git-dir", NULL};
	if (git(argv, &out, why, sizeof why) < 0) {
		kc_buf_release(&out);
		return;
	}
	char *entry = chomp(&out), *slash = strrchr(entry, '/');
	int ok = slash && slash - entry >= 10 && !strncmp(slash - 10, "/worktrees", 10) && slash[1];
	if (ok && kc_cleanup_add_path(entry) == 0)
		b->entry = entry;
	else
		free(entry);
}

int kc_baseline_open(struct kc_baseline *b, const char *rev, const char *const *files, int n, const char *const *args,
                     int n_args, char *err, size_t err_size)
{
	memset(b, 0, sizeof *b);
	if (n < 1)
		return fail(b, err, err_size, "--baseline: no input files%s", "");
	/* the repository of the first input */
	char *first = realpath(files[0], NULL), *slash = first ? strrchr(first, '/') : NULL;
	if (!first)
		return fail(b, err, err_size, "--baseline: cannot resolve '%s'", files[0]);
	*slash = '\0';
	struct kc_buf out = KC_BUF_INIT;
	const char *top_argv[] = {"git", "-C", first[0] ? first : "/", "rev-parse", "--show-toplevel", NULL};
	char why[400];
	int rc = git(top_argv, &out, why, sizeof why);
	free(first);
	if (rc < 0) {
		kc_buf_release(&out);
		snprintf(err, err_size, "--baseline: '%s' is not in a git repository (git %s)", files[0], why);
		return fail(b, NULL, 0, NULL, NULL);
	}
	b->top = chomp(&out);
	char spec[1024];
	snprintf(spec, sizeof spec, "%s^{commit}", rev);
	const char *rev_argv[] = {"git", "-C", b->top, "rev-parse", "--verify", "--quiet", spec, NULL};
	if (git(rev_argv, &out, err, err_size) < 0) {
		kc_buf_release(&out);
		return fail(b, err, err_size, "--baseline: '%s' is not a commit of this repository", rev);
	}
	char *commit = chomp(&out);
	snprintf(b->commit, sizeof b->commit, "%s", commit);
	free(commit);
	/* each input's place in the repository */
	b->n_files = n;
	b->files = calloc((size_t)n + 1, sizeof *b->files);
	char **rel = calloc((size_t)n + 1, sizeof *rel);
	if (!b->files || !rel) {
		free(rel);
		return fail(b, err, err_size, "--baseline: out of memory%s", "");
	}
	for (int i = 0; i < n; i++)
		if (!(rel[i] = inside(b->top, files[i]))) {
			snprintf(err, err_size, "--baseline: '%s' is not inside the git repository %s", files[i],
			         b->top);
			for (int k = 0; k < i; k++)
				free(rel[k]);
			free(rel);
			return fail(b, NULL, 0, NULL, NULL);
		}
	const char *tmp = getenv("TMPDIR");
	char templ[PATH_MAX];
	snprintf(templ, sizeof templ, "%s/kcost-baseline-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");
	b->dir = mkdtemp(templ) ? strdup(templ) : NULL;
	if (!b->dir)
		snprintf(err, err_size, "--baseline: cannot create a temporary directory in %s: %s",
		         tmp && tmp[0] == '/' ? tmp : "/tmp", strerror(errno));
	if (b->dir)
		kc_cleanup_add_path(b->dir); /* a signal from now on removes it (best effort: the table has room) */
	char *tree = b->dir ? join(b->dir, "tree") : NULL;
	const char *add_argv[] = {"git", "-C", b->top, "worktree", "add", "--detach", "--quiet", tree, b->commit, NULL};
	/* a signal waits until the worktree and its entry are both known; git itself gets the terminal's, and
	 * removes what it had made (git's own cleanup on a signal) */
	kc_cleanup_hold();
	rc = !tree ? -1 : git(add_argv, NULL, err, err_size);
	if (rc == 0)
		b->tree = tree, keep_entry(b);
	else
		free(tree);
	kc_cleanup_release();
	for (int i = 0; rc == 0 && i < n; i++) {
		char *path = join(b->tree, rel[i]);
		struct stat st;
		if (path && stat(path, &st) != 0) { /* not at REV: an empty file stands for it */
			free(path);
			char name[32];
			snprintf(name, sizeof name, "missing-%d.c", i);
			path = join(b->dir, name);
			int fd = path ? open(path, O_WRONLY | O_CREAT | O_EXCL, 0600) : -1;
			if (fd >= 0)
				close(fd);
		}
		b->files[i] = path;
		rc = path ? 0 : -1;
	}
	for (int i = 0; i < n; i++)
		free(rel[i]);
	free(rel);
	if (rc < 0 || map_args(b, args, n_args) < 0)
		return fail(b, NULL, 0, NULL, NULL);
	return 0;
}

char *kc_baseline_head_name(const struct kc_baseline *b, const char *path, const char *const *names, int n)
{
	size_t len = b->tree ? strlen(b->tree) : 0;
	if (!len || strncmp(path, b->tree, len) || path[len] != '/')
		return NULL;
	char *repo = join(b->top, path + len + 1), *real = repo ? realpath(repo, NULL) : NULL, *name = NULL;
	for (int k = 0; real && !name && k < n; k++) {
		char *other = realpath(names[k], NULL);
		if (other && !strcmp(other, real))
			name = strdup(names[k]);
		free(other);
	}
	char cwd[PATH_MAX];
	size_t at = !name && repo && getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
	if (!name && repo)
		name = strdup(at > 1 && !strncmp(repo, cwd, at) && repo[at] == '/' ? repo + at + 1 : repo);
	free(real);
	free(repo);
	return name;
}

void kc_baseline_close(struct kc_baseline *b)
{
	char err[256];
	const char *argv[] = {"git", "-C", b->top, "worktree", "remove", "--force", b->tree, NULL};
	int removed = !b->tree || git(argv, NULL, err, sizeof err) == 0;
	/* at once: git names entries after the worktree's directory (tree, tree1, ...), and another kcost's
	 * --baseline in this repository may be given this one's name from now on */
	if (removed && b->entry)
		kc_cleanup_forget_path(b->entry);
	if (b->dir)
		kc_cleanup_remove_tree(b->dir);
	if (!removed) { /* the directory is gone now: prune forgets its registration */
		const char *prune[] = {"git", "-C", b->top, "worktree", "prune", NULL};
		git(prune, NULL, err, sizeof err);
	}
	if (b->entry)
		kc_cleanup_forget_path(b->entry);
	if (b->dir)
		kc_cleanup_forget_path(b->dir);
	for (int i = 0; b->files && i < b->n_files; i++)
		free((void *)b->files[i]);
	for (int i = 0; b->args && i < b->n_args; i++)
		free((void *)b->args[i]);
	free(b->files);
	free(b->args);
	free(b->top);
	free(b->tree);
	free(b->entry);
	free(b->dir);
	memset(b, 0, sizeof *b);
}
