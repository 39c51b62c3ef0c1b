# The two commands a new machine needs (Debian 12 with Go):
#   make run    the headless benchmark on the embedded default dataset
#   make test   vet, format and shader lint, then every test on the GL driver
#               at hand (Mesa llvmpipe without a GPU), window tests under Xvfb

GO ?= go
# Headless EGL + Mesa's CPU renderer; enough for make run.
RUN_PKGS := pkg-config gcc libegl-dev libgl-dev libegl1 libegl-mesa0 libgl1-mesa-dri
# GLFW (X11 headers), a virtual display, the shader linter, and MRI volumes.
TEST_PKGS := $(RUN_PKGS) libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev \
	libxi-dev libxxf86vm-dev libxext-dev xvfb xauth glslang-tools mricron-data \
	openmpi-bin libopenmpi-dev libmeshoptimizer-dev
# Packages whose tests open windows run under Xvfb; every other one headless.
WINDOW_RE := -e /gpu/window -e /viewer
TEST_FLAGS ?= -timeout 15m
# cgo asks gcc what each of go-gl/gl's 2,600 C names is, and gcc's "did you
# mean" search makes that quadratic: 80 of the 105 s of a cold build on two
# cores. .ci/cgo-fast.h (it says why it is safe) brings the build to 35 s.
# Go's default flags plus that header; a CGO_CFLAGS of your own wins.
CGO_CFLAGS ?= -O2 -g -include '$(CURDIR)/.ci/cgo-fast.h'
export CGO_CFLAGS

.PHONY: run test deps-run deps-test vet fmt-check test-headless test-window test-mpi test-meshopt test-zink bench-mpi fuzz gpu-binaries peers

run: deps-run
	$(GO) run ./bench $(ARGS)

test: deps-test fmt-check vet test-headless test-window test-mpi test-meshopt test-zink fuzz

deps-run:
	@.ci/ensure-packages $(RUN_PKGS)

deps-test:
	@.ci/ensure-packages $(TEST_PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on: $$out"; exit 1; fi

vet:
	$(GO) vet ./...

# GL tests must really run: DPGL_REQUIRE_GL turns "no context" from a skip
# into a failure, DPGL_REQUIRE_LINT does the same for glslangValidator.
test-headless:
	env -u DISPLAY -u WAYLAND_DISPLAY DPGL_REQUIRE_GL=1 DPGL_REQUIRE_LINT=1 \
		$(GO) test $(TEST_FLAGS) $$($(GO) list ./... | grep -v $(WINDOW_RE))

test-window:
	DPGL_REQUIRE_GL=1 DPGL_REQUIRE_DISPLAY=1 xvfb-run -a -s "-screen 0 1280x1024x24" \
		$(GO) test $(TEST_FLAGS) $$($(GO) list ./... | grep $(WINDOW_RE))

# Distributed rendering: the MPI code builds only with -tags mpi (plain
# go build ./... needs no MPI); its tests run bench under mpirun on 1-4 ranks,
# and package cluster's Example on 2 ranks.
test-mpi:
	$(GO) vet -tags mpi ./internal/mpi ./rasterizer/distributed/cluster ./balancer/pool ./bench
	env -u DISPLAY -u WAYLAND_DISPLAY DPGL_REQUIRE_GL=1 \
		$(GO) test -tags mpi $(TEST_FLAGS) -run Distributed ./bench
	$(GO) test -tags mpi -c -o .cluster.test ./rasterizer/distributed/cluster
	cd rasterizer/distributed/cluster && env -u DISPLAY -u WAYLAND_DISPLAY \
		timeout 300 mpirun -np 2 --oversubscribe --allow-run-as-root \
		../../../.cluster.test -test.run '^Example$$' -test.v; \
		st=$$?; rm -f ../../../.cluster.test; exit $$st

# isosurface.Simplify through meshoptimizer (cgo, -tags meshopt; without
# the tag it is Decimate, which test-headless covers).
test-meshopt:
	$(GO) vet -tags meshopt ./rasterizer/isosurface
	env -u DISPLAY -u WAYLAND_DISPLAY DPGL_REQUIRE_GL=1 \
		$(GO) test -tags meshopt $(TEST_FLAGS) -run Simplify ./rasterizer/isosurface

bench-mpi:
	$(GO) build -tags mpi -o bench-mpi ./bench

# Extraction and decimation beside VTK's flying edges and meshoptimizer
# (rasterizer/isosurface/TUNING.md); -tags meshopt times Simplify too.
peers: deps-run
	@.ci/ensure-packages python3-vtk9 libmeshoptimizer-dev mricron-data
	$(GO) run -tags meshopt ./bench peers $(ARGS)

# The GPU-only paths (subgroup scans, 64-bit visibility) for real, on Mesa
# 26.1's zink over lavapipe, fetched from Debian trixie-backports into
# ~/.cache/dpgl/mesa26 on first use (README, "Which drivers the tests run
# on"). No archive reachable: the leg says so and is skipped.
test-zink: deps-test
	GO='$(GO)' .ci/test-zink

# The file readers meet untrusted input: a few seconds of fuzzing each run.
# A count of executions, not a duration: Go 1.26's fuzz coordinator can
# fail a target with a bare "context deadline exceeded" when a -fuzztime
# duration ends while a worker is mid-call (go.dev/issue/75804, fixed in
# Go 1.27); a count has no deadline to race. 500000 runs take 5-10 s each
# on a 2-core machine.
FUZZ_TIME ?= 500000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzReadNIfTI$$' -fuzztime $(FUZZ_TIME) ./rasterizer/volume
	$(GO) test -run '^$$' -fuzz '^FuzzReadPLY$$' -fuzztime $(FUZZ_TIME) ./rasterizer/mesh
	$(GO) test -run '^$$' -fuzz '^FuzzReadDIMACS$$' -fuzztime $(FUZZ_TIME) ./balancer/sssp

# Binaries for a GPU machine without Go (see README, "On an NVIDIA GPU"):
# the benchmark and the GL test binaries, into .gl/ beside the GL loaders
# that ../shared/device/prepare.sh puts there.
GPU_TESTS := gpu scan scan/radix balancer rasterizer rasterizer/isosurface
gpu-binaries:
	mkdir -p .gl
	$(GO) build -o .gl/bench ./bench
	for p in $(GPU_TESTS); do $(GO) test -c -o .gl/$$(echo $$p | tr / -).test ./$$p || exit 1; done
