// Reference for user-game tables: the Grundy table N x N of "pow2-both" (two heaps; take any
// positive amount from one heap, or the same power of two 1, 2, 4, ... from both), written
// for this game alone: rows in order, the mex of each cell over a stamped scratch array.
// Prints the time (CPU), the number of P-positions and two values as a check.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 256;
  unsigned *G = malloc(sizeof(unsigned) * N * N);
  unsigned *seen = calloc(4 * N + 64, sizeof(unsigned));
  unsigned stamp = 0;
  long long options = 0;
  clock_t t0 = clock();
  for (int x = 0; x < N; x++) {
    for (int y = 0; y < N; y++) {
      stamp++;
      for (int t = 1; t <= x; t++) { seen[G[(x - t) * N + y]] = stamp; options++; }
      for (int t = 1; t <= y; t++) { seen[G[x * N + y - t]] = stamp; options++; }
      for (int p = 1; p <= x && p <= y; p *= 2) { seen[G[(x - p) * N + y - p]] = stamp; options++; }
      unsigned m = 0;
      while (seen[m] == stamp) m++;
      G[x * N + y] = m;
    }
  }
  double t = (double)(clock() - t0) / CLOCKS_PER_SEC;
  long p = 0;
  for (int i = 0; i < N * N; i++) p += G[i] == 0;
  printf("N=%d P=%ld options=%lld G(3,5)=%u G(100,37)=%u time=%.4fs\n", N, p, options, G[3 * N + 5],
         G[100 * N + 37], t);
  return 0;
}
