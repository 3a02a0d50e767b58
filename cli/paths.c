/* paths.c — the annotation header, found beside kcost's executable or, in a build tree, in the source tree. */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

#ifndef KCOST_HEADER_RELDIR
#define KCOST_HEADER_RELDIR "../include/kcost"
#endif

/* dir, canonical, when it holds a readable kcost.h; NULL otherwise. malloc'd. */
static char *with_header(const char *dir)
{
	char *real = realpath(dir, NULL);
	if (!real)
		return NULL;
	char file[PATH_MAX + 16];
	int w = snprintf(file, sizeof file, "%s/kcost.h", real);
	if (w < 0 || (size_t)w >= sizeof file || access(file, R_OK) != 0) {
		free(real);
		return NULL;
	}
	return real;
}

/* The directory of kcost's executable (resolved: symbolic links followed) into out[PATH_MAX]; 0, or -1 */
static int exe_dir(char *out)
{
	ssize_t len = readlink("/proc/self/exe", out, PATH_MAX - 1);
	if (len <= 0 || len >= PATH_MAX - 1)
		return -1;
	out[len] = '\0';
	char *slash = strrchr(out, '/');
	if (!slash)
		return -1;
	slash[slash == out] = '\0'; /* "/kcost": "/" */
	return 0;
}

/* Whether dir is the build tree kcost was built in */
static int is_build_dir(const char *dir)
{
#if defined(KCOST_BUILD_DIR) && defined(KCOST_ANNOTATIONS_DIR)
	char *build = realpath(KCOST_BUILD_DIR, NULL);
	int same = build && !strcmp(build, dir);
	free(build);
	return same;
#else
	(void)dir;
	return 0;
#endif
}

const char *kc_cli_header_dir(char *tried, size_t n)
{
	static char *found;
	if (found)
		return found;
	char dir[PATH_MAX], installed[PATH_MAX + sizeof KCOST_HEADER_RELDIR + 1];
	if (exe_dir(dir) < 0) {
		snprintf(tried, n, "<the directory of kcost's executable: /proc/self/exe unreadable>/%s",
		         KCOST_HEADER_RELDIR);
		return NULL;
	}
	snprintf(installed, sizeof installed, "%s/%s", strcmp(dir, "/") ? dir : "", KCOST_HEADER_RELDIR);
	if ((found = with_header(installed)))
		return found;
	snprintf(tried, n, "%s", installed);
#ifdef KCOST_ANNOTATIONS_DIR
	if (is_build_dir(dir)) {
		if ((found = with_header(KCOST_ANNOTATIONS_DIR)))
			return found;
		size_t used = strlen(tried);
		if (used < n)
			snprintf(tried + used, n - used, ", %s", KCOST_ANNOTATIONS_DIR);
	}
#endif
	return NULL;
}
