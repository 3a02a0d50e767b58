/* diff.c — `kcost diff BASE.json HEAD.json`: compare two runs for a review comment. */
#include <stdio.h>
#include <string.h>

int kc_cli_diff(int argc, char **argv);

int kc_cli_diff(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: kcost diff [--format md|text|json] [--fail-on-regression PCT] BASE.json HEAD.json");
		return 0;
	}
	fputs("kcost: error: 'kcost diff' is not available in this version yet\n", stderr);
	return 3;
}
