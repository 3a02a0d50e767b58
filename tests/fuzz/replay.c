/* replay.c — a fuzz target's main outside libFuzzer: runs every input of the given files and directories
 * through LLVMFuzzerTestOneInput once, so that the ordinary builds (gcc, ASan+UBSan) replay the corpora as
 * regression tests. A crash or a sanitizer report fails the test; the exit status is 0 otherwise, 2 when an
 * input cannot be read. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *data = malloc(cap);
	for (size_t got; data && (got = fread(data + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			uint8_t *grown = realloc(data, cap *= 2);
			if (!grown)
				free(data);
			data = grown;
		}
	}
	int failed = !data || ferror(f);
	fclose(f);
	if (failed) {
		fprintf(stderr, "%s: cannot read it\n", path);
		free(data);
		return -1;
	}
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int inputs = 0, status = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.')
					continue;
				char path[4096];
				snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
				if (run_file(path) < 0)
					status = 2;
				inputs++;
			}
			if (d)
				closedir(d);
			else
				status = 2;
		} else {
			if (run_file(argv[i]) < 0)
				status = 2;
			inputs++;
		}
	}
	printf("replay: %d inputs\n", inputs);
	return status;
}
