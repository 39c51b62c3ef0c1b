//go:build gldebug

package gpu

// debugGL turns on the checked GL mode for every context (build tag gldebug).
const debugGL = true
