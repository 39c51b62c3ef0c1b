package window

// glfwInit's failure is in GLFW's error slot: go-gl's Init logs a platform
// error ("X11: Failed to open display :99") and returns nil, and every
// later call panics with NotInitialized. glfwGetError (GLFW 3.3) reads the
// slot, which keeps the last error even after the failed glfwInit has
// cleaned up; the symbol is in go-gl's own build of GLFW, linked into the
// same binary.

/*
int glfwGetError(const char** description);
*/
import "C"

// glfwLastError returns GLFW's last error code and description and clears
// it; code 0 is none.
func glfwLastError() (int, string) {
	var desc *C.char
	code := int(C.glfwGetError(&desc))
	if desc == nil {
		return code, ""
	}
	return code, C.GoString(desc)
}
