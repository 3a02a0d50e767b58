/* paths.h — where kcost finds the files installed beside it: the annotation header kcost.h. */
#ifndef KC_PATHS_H
#define KC_PATHS_H

#include <stddef.h>

/* The directory that holds kcost.h, for the analysis's and the harness's -I. The installed one first, relative to
 * kcost's own executable (/proc/self/exe, <bindir>/KCOST_HEADER_RELDIR: ../include/kcost), so that a moved prefix
 * still works; only when that has no kcost.h and kcost runs from its build tree (KCOST_BUILD_DIR), the source
 * tree's (KCOST_ANNOTATIONS_DIR). A kcost copied or installed elsewhere never reads the source tree. The
 * directory is canonical (realpath) and lives until exit. NULL when no place holds a readable kcost.h: `tried`
 * then gets the places looked in, "A" or "A, B" (truncated to n bytes). */
const char *kc_cli_header_dir(char *tried, size_t n);

#endif
