/* libs.c — the shared libraries a harness runs with: OpenBLAS opened, glibc's and OpenBLAS's identities (libs.h). */
#define _GNU_SOURCE
#include "libs.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/lib-names.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

#ifndef KC_OPENBLAS_LIBDIR
#define KC_OPENBLAS_LIBDIR "/usr/lib"
#endif

void *kc_libs_open_openblas(const char **why)
{
	static const char *const names[] = {"libopenblas.so.0", KC_OPENBLAS_LIBDIR "/libopenblas.so.0",
	                                    "libopenblas.so"};
	void *h = NULL;
	for (size_t i = 0; !h && i < sizeof names / sizeof names[0]; i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		*why = dlerror();
	return h;
}

/* "PATH SIZE B mtime SECONDS" of a file, appended to buf (size n); "PATH (not found)" when it cannot be stat'ed. */
static void file_identity(char *buf, size_t n, const char *path)
{
	struct stat st;
	size_t at = strlen(buf);
	if (stat(path, &st) == 0)
		snprintf(buf + at, n - at, "%s %lld B mtime %lld", path, (long long)st.st_size, (long long)st.st_mtime);
	else
		snprintf(buf + at, n - at, "%s (not found)", path);
}

/* In the child: OpenBLAS's identity on w, then _exit. */
static void openblas_child(int w)
{
	char text[1024] = "";
	const char *why = NULL;
	setenv("OPENBLAS_NUM_THREADS", "1", 1); /* one thread started, not one a core */
	void *h = kc_libs_open_openblas(&why);
	char *(*config)(void) = NULL;
	struct link_map *lm = NULL;
	if (h)
		*(void **)&config = dlsym(h, "openblas_get_config"); /* POSIX's way from void * to a function */
	if (!h)
		snprintf(text, sizeof text, "OpenBLAS unknown (%s)", why ? why : "it could not be loaded");
	else if (!config || dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name)
		snprintf(text, sizeof text, "OpenBLAS unknown (no openblas_get_config or no path)");
	else {
		snprintf(text, sizeof text, "%s ", config());
		file_identity(text, sizeof text, lm->l_name);
	}
	ssize_t wrote = write(w, text, strlen(text));
	_exit(wrote == (ssize_t)strlen(text) ? 0 : 1);
}

/* OpenBLAS's identity from a child process (kcost never loads it), into buf. */
static void openblas_identity(char *buf, size_t n)
{
	int p[2];
	snprintf(buf, n, "OpenBLAS unknown (no child process)");
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	fflush(NULL);
	kc_cleanup_hold(); /* the child runs none of kcost's handlers */
	pid_t pid = fork();
	if (pid == 0) {
		kc_cleanup_in_child();
		close(p[0]);
		openblas_child(p[1]);
	}
	kc_cleanup_release();
	close(p[1]);
	size_t got = 0;
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (pid > 0 && got + 1 < n) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		int left = 30000 - (int)((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
		struct pollfd pfd = {p[0], POLLIN, 0};
		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			break;
		ssize_t r = read(p[0], buf + got, n - 1 - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(p[0]);
	buf[got] = '\0';
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (!got)
		snprintf(buf, n, "OpenBLAS unknown (the child process said nothing)");
}

const char *kc_libs_identity(struct kc_arena *a, int openblas)
{
	char text[2048];
	snprintf(text, sizeof text, "glibc %s %s; libm ", gnu_get_libc_version(), gnu_get_libc_release());
	/* the libm a harness linked with -lm loads: part of glibc, no threads, so it may be loaded here */
	void *h = dlopen(LIBM_SO, RTLD_LAZY | RTLD_LOCAL);
	struct link_map *lm = NULL;
	if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0])
		file_identity(text, sizeof text, lm->l_name);
	else
		strcat(text, "(not found)");
	if (h)
		dlclose(h);
	if (!openblas)
		return kc_arena_strdup(a, text);
	char blas[1024];
	openblas_identity(blas, sizeof blas);
	return kc_arena_printf(a, "%s; %s", text, blas);
}
