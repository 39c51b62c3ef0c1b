// The kernels of package scan's SelectIfKernel and PartitionIfKernel, for
// a user's kernel file to include right after its #version line:
//
//	#version 450
//	#include "scan/select.glsl"
//	uniform float threshold; // set by the Predicate's Bind
//	bool scanPredicate(float x, uint i) { return x > threshold; }
//
// scanPredicate takes the element x (uint, int or float: the Go element
// type's; PRED_T names it, for a file that serves several) and its index i. Buffers of the user's own take bindings from
// SCAN_FIRST_FREE_BINDING on (modes.glsl). Package scan builds the file
// once per kernel and mode it needs, each time with SCAN_KERNEL, MAP and
// the tile shape defined: SCAN_KERNEL 0 is scan.comp, 1 reduce.comp
// (scankernel.glsl holds both).

#include "scankernel.glsl"
