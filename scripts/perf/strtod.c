/* The parse limit of issue 27 (docs/PERFORMANCE.md): read FILE whole, skip
 * its header line and each row's first column, and strtod the K numbers of
 * every row into one array, on one thread.
 *
 *   gcc -O2 -o strtod scripts/perf/strtod.c && ./strtod u3.csv 3
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: strtod FILE K\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) != 0) {
		perror(argv[1]);
		return 1;
	}
	long n = ftell(f);
	rewind(f);
	char *b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
		perror(argv[1]);
		return 1;
	}
	b[n] = 0;
	fclose(f);
	int k = atoi(argv[2]);
	size_t cap = 1 << 20, m = 0;
	double *v = malloc(cap * sizeof *v);
	char *p = strchr(b, '\n');
	p = p ? p + 1 : b + n;
	while (*p) {
		while (*p && *p != ',' && *p != '\n') /* the id */
			p++;
		for (int j = 0; j < k && *p == ','; j++) {
			char *e;
			double x = strtod(p + 1, &e);
			p = e;
			if (m == cap) {
				cap *= 2;
				v = realloc(v, cap * sizeof *v);
			}
			v[m++] = x;
		}
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
	double sum = 0;
	for (size_t i = 0; i < m; i += 4096)
		sum += v[i];
	printf("%zu numbers (checksum %g)\n", m, sum);
	return 0;
}
