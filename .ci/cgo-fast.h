/* Included into every cgo compilation by the Makefile (CGO_CFLAGS).
 *
 * cgo learns what each C name is by compiling a probe with a line
 *   void __cgo_f_N_2(void) { NAME *__cgo_undefined__2; }
 * per name: when NAME is not a type, gcc reports the line and, because
 * __cgo_undefined__2 is undeclared, searches every identifier in the file
 * for a "did you mean" suggestion. go-gl/gl has 2,600 names, so the probe
 * costs gcc about 40 s, twice, on a 2-core machine: most of a cold build.
 *
 * Declaring the placeholder (as an object of incomplete type, which no
 * expression can use) keeps every error on the same lines, so cgo reaches
 * the same answers, and gcc no longer searches: under a second. The guard
 * keeps it out of the assembly files that cgo packages also build.
 */
#ifndef __ASSEMBLER__
extern struct __cgo_incomplete __cgo_undefined__2;
#endif
