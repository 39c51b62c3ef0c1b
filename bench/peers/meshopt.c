/* The meshoptimizer peer of bench peers: meshopt_simplify of an indexed
 * mesh to a target triangle count, timed once per "run" line on standard
 * input and answered with a line "seconds triangles". The mesh file is
 * uint32 vertex and face counts, then float32 x, y, z per vertex, then
 * uint32 vertex ids, three per face, all little-endian. bench compiles
 * this with cc and -lmeshoptimizer where Debian's libmeshoptimizer-dev is
 * installed. */
#include <meshoptimizer.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: meshopt MESH TARGET_TRIANGLES\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	uint32_t n[2];
	if (fread(n, 4, 2, f) != 2) {
		fprintf(stderr, "%s: no header\n", argv[1]);
		return 1;
	}
	size_t nv = n[0], ni = 3 * (size_t)n[1];
	float *pos = malloc(12 * (nv ? nv : 1));
	unsigned *idx = malloc(4 * (ni ? ni : 1));
	unsigned *dst = malloc(4 * (ni ? ni : 1));
	if (!pos || !idx || !dst) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	if (fread(pos, 12, nv, f) != nv || fread(idx, 4, ni, f) != ni) {
		fprintf(stderr, "%s: truncated\n", argv[1]);
		return 1;
	}
	fclose(f);
	size_t target = 3 * (size_t)strtoull(argv[2], NULL, 10);
	printf("ready %d\n", MESHOPTIMIZER_VERSION);
	fflush(stdout);
	char line[64];
	while (fgets(line, sizeof line, stdin) && strncmp(line, "run", 3) == 0) {
		double start = now();
		/* An error bound of the whole mesh's size: the target decides. */
		size_t out = meshopt_simplify(dst, idx, ni, pos, nv, 12, target, 1.0f, 0, NULL);
		double seconds = now() - start;
		printf("%.6f %zu\n", seconds, out / 3);
		fflush(stdout);
	}
	return 0;
}
