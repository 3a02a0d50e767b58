/* baseline.h — --baseline REV: the input files as they are at another git revision, checked out into a
 * temporary worktree (`git worktree add --detach`, removed by kc_baseline_close). From its creation to its removal,
 * SIGINT, SIGTERM and SIGHUP remove the temporary directory and the worktree's entry in the repository's
 * .git/worktrees/ (runner/cleanup.h's kept paths: system calls only, in the handler) before kcost ends: no
 * worktree is left in /tmp or registered in the repository. */
#ifndef KC_BASELINE_H
#define KC_BASELINE_H

#include <stddef.h>

struct kc_baseline {
	char *top;          /* the repository's top-level directory (of the first input) */
	char *dir;          /* the temporary directory (mkdtemp); the worktree is its "tree" */
	char *tree;         /* NULL until the worktree exists */
	char *entry;        /* its entry in the repository, .git/worktrees/NAME; NULL when unknown */
	char commit[65];    /* REV resolved (40 hex digits, 64 in a SHA-256 repository) */
	const char **files; /* files[i]: input i in the worktree, or an empty file there when REV lacks it */
	const char **args;  /* the compiler flags, with -I directories inside the repository moved to the worktree */
	int n_files, n_args;
};

/* Check REV out for the inputs files[0 .. n-1] (each must be inside the repository of the first one) and map the
 * flags args[0 .. n_args-1]. 0, or -1 with a one-line message in err (not a repository, REV unknown, a file
 * outside the repository, git failed) and nothing left behind. */
int kc_baseline_open(struct kc_baseline *b, const char *rev, const char *const *files, int n, const char *const *args,
                     int n_args, char *err, size_t err_size);

/* The name the head gives the file at `path`, a path inside the worktree as the baseline's analysis spells it
 * ("/tmp/kcost-baseline-x/tree/inc/g.h"): of names[0 .. n) (the head's own spellings of its files, "inc/g.h"), the
 * one that is the same file of the repository (compared resolved); else the repository's path, relative to the
 * current directory when inside it. malloc'd; NULL when path is not inside the worktree (or out of memory). */
char *kc_baseline_head_name(const struct kc_baseline *b, const char *path, const char *const *names, int n);

/* Remove the worktree (git worktree remove --force, then the directory) and free b. */
void kc_baseline_close(struct kc_baseline *b);

#endif
