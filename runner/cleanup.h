/* cleanup.h — what a run leaves behind, removed even when kcost is interrupted: the process groups of its running
 * children, the processes its kernels left outside them, its temporary directory, and the paths kept for removal
 * (kc_cleanup_add_path). Between kc_cleanup_begin and kc_cleanup_end, kcost is its descendants' subreaper
 * (orphans become its children), and SIGINT, SIGTERM and SIGHUP kill every tracked group and every untracked
 * child (SIGKILL, then waiting for them), remove the temporary directory and the kept paths and then end kcost
 * with the signal's default action; such a signal sent by one of kcost's own descendants (a kernel signalling
 * its parent) is ignored. At kcost's exit, whatever is still tracked is killed. */
#ifndef KC_CLEANUP_H
#define KC_CLEANUP_H

/* A tracked child; lives in the caller's job (child.c's kc_child_job), linked while the child runs. */
struct kc_cleanup_pid {
	int pid;
	struct kc_cleanup_pid *prev, *next;
};

/* Install the handlers; tmpdir (copied; NULL: nothing to remove, as with --verbose) is removed on a signal. 0,
 * or -1 when tmpdir does not fit PATH_MAX. */
int kc_cleanup_begin(const char *tmpdir);
/* Restore the handlers kcost had before kc_cleanup_begin (once no path is kept for removal). */
void kc_cleanup_end(void);

/* Block the handled signals from before a fork until its child is tracked; nested holds end at the outermost
 * release. A signal that arrives meanwhile is handled at that release. */
void kc_cleanup_hold(void);
void kc_cleanup_release(void);
/* Link t for the child pid (its own process group) / unlink it once the child is reaped. */
void kc_cleanup_track(struct kc_cleanup_pid *t, int pid);
void kc_cleanup_untrack(struct kc_cleanup_pid *t);
/* Kill and reap every child of kcost that no job tracks (what a finished kernel left behind: a grandchild that
 * called setsid, now an orphan kcost inherited). Called after each job is reaped; a no-op outside a run. */
void kc_cleanup_reap_strays(void);
/* In a forked child before execve: the default actions back and the signals unblocked (async-signal-safe). */
void kc_cleanup_in_child(void);

/* Paths kept for removal: from kc_cleanup_add_path until kc_cleanup_forget_path, a handled signal removes path
 * (a directory and everything below it, as kc_cleanup_remove_tree) before kcost ends, in a run or outside one
 * (the handlers are installed while a path is kept). At most KC_CLEANUP_MAX_PATHS at once: 0, or -1 when they are
 * taken or path does not fit PATH_MAX. Nothing is removed at a normal exit: the owner removes its paths itself.
 * (--baseline's temporary worktree and its entry in the repository's .git/worktrees/: cli/baseline.c.) */
#define KC_CLEANUP_MAX_PATHS 4
int kc_cleanup_add_path(const char *path);
void kc_cleanup_forget_path(const char *path);

/* Remove path and, when it is a directory, everything below it, without following symbolic links; with system
 * calls only, so that it is async-signal-safe (directories nested deeper than 64 levels are left). 0, or -1 when
 * something could not be removed. */
int kc_cleanup_remove_tree(const char *path);

#endif
