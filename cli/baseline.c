/* baseline.c — --baseline REV: the inputs at another revision, in a temporary git worktree (baseline.h). */
#define _GNU_SOURCE
#include "baseline.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "cleanup.h"

/* Run git with argv (NULL-terminated, argv[0] "git"), its stdout into out (when not NULL), its stderr's first
 * line into err on failure. 0 when it exited 0. */
static int git(const char *const *argv, struct kc_buf *out, char *err, size_t err_size)
{
	int po[2], pe[2];
	if (pipe(po) < 0 || pipe(pe) < 0) {
		snprintf(err, err_size, "cannot run git: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, err_size, "cannot run git: %s", strerror(errno));
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]), close(pe[0]);
		execvp("git", (char *const *)argv);
		fprintf(stderr, "cannot run git: %s\n", strerror(errno));
		_exit(127);
	}
	close(po[1]), close(pe[1]);
	struct kc_buf e = KC_BUF_INIT;
	char chunk[4096];
	/* stdout then stderr: git writes little to either; a pipe holds 64 KiB */
	for (ssize_t k; (k = read(po[0], chunk, sizeof chunk)) != 0;)
		if (k > 0 && out)
			kc_buf_add(out, chunk, (size_t)k);
		else if (k < 0 && errno != EINTR)
			break;
	for (ssize_t k; (k = read(pe[0], chunk, sizeof chunk)) != 0;)
		if (k > 0)
			kc_buf_add(&e, chunk, (size_t)k);
		else if (k < 0 && errno != EINTR)
			break;
	close(po[0]), close(pe[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
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
		char *rel = dir ? inside(b->top, dir) : NULL;
		if (rel) {
			char *moved = join(b->tree, rel);
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
	b->missing = calloc((size_t)n + 1, sizeof *b->missing);
	char **rel = calloc((size_t)n + 1, sizeof *rel);
	if (!b->files || !b->missing || !rel) {
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
	char *tree = b->dir ? join(b->dir, "tree") : NULL;
	const char *add_argv[] = {"git", "-C", b->top, "worktree", "add", "--detach", "--quiet", tree, b->commit, NULL};
	rc = !tree ? -1 : git(add_argv, NULL, err, err_size);
	if (rc == 0)
		b->tree = tree;
	else
		free(tree);
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
			b->missing[i] = 1;
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

void kc_baseline_close(struct kc_baseline *b)
{
	if (b->tree) {
		char err[256];
		const char *argv[] = {"git", "-C", b->top, "worktree", "remove", "--force", b->tree, NULL};
		if (git(argv, NULL, err, sizeof err) < 0) {
			const char *prune[] = {"git", "-C", b->top, "worktree", "prune", NULL};
			git(prune, NULL, err, sizeof err);
		}
	}
	if (b->dir)
		kc_cleanup_remove_tree(b->dir);
	for (int i = 0; b->files && i < b->n_files; i++)
		free((void *)b->files[i]);
	for (int i = 0; b->args && i < b->n_args; i++)
		free((void *)b->args[i]);
	free(b->files);
	free(b->missing);
	free(b->args);
	free(b->top);
	free(b->tree);
	free(b->dir);
	memset(b, 0, sizeof *b);
}
