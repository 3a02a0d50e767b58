/* sandbox.h — --sandbox: kernel children in their own mount, network and IPC namespaces (and a user namespace
 * when kcost is not root), where the whole filesystem is read-only except one directory, the run's temporary
 * directory, and there is no network (a new network namespace has only a loopback device, down).
 *
 * Without --sandbox a kernel runs with the user's rights: it can write wherever the user can. The sandbox is no
 * PID namespace: the kernel still sees the machine's processes (its process group, subreaper and limits contain
 * what it starts, as without the sandbox). Linux only; where namespaces are refused (a container without
 * CAP_SYS_ADMIN, user namespaces disabled), kc_sandbox_probe says why. */
#ifndef KC_SANDBOX_H
#define KC_SANDBOX_H

#include <stddef.h>

/* What a sandboxed kernel is kept from, for the report. */
#define KC_SANDBOX_ISOLATION                                                                                           \
	"mount namespace with the filesystem read-only except the run's temporary directory; network namespace "       \
	"(no network); IPC namespace"

/* Enter the sandbox in the calling process, which must be single-threaded (the child between fork and exec):
 * unshare the namespaces, then make every mount read-only (recursively) except `writable`, which is bind-mounted
 * onto itself and stays writable. Only system calls: async-signal-safe. The process's working directory must be
 * set after this call (a directory opened before the bind mount is the read-only one beneath). 0, or -1 with
 * errno. */
int kc_sandbox_enter(const char *writable);

/* Whether kc_sandbox_enter works here, tried in a child process: it enters the sandbox, then checks that a file
 * can be created in `writable` and that none can be created in its parent directory. 0 when it holds; -1 with
 * why (the step that failed and its reason, e.g. "unshare: Operation not permitted") written to why. */
int kc_sandbox_probe(const char *writable, char *why, size_t n);

#endif
