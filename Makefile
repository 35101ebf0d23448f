# reqtop — the two commands a new user needs are `make demo` and `make test`.
SWIFT ?= swift
SHELL := /bin/bash
SWIFT_TEST_FLAGS ?= --disable-swift-testing
## What `make test` (and so CI) builds with: a warning in any Swift target fails the build.
STRICT_FLAGS = -Xswiftc -warnings-as-errors

.PHONY: demo test build release static-libs install test-unit test-tsan bench fuzz clean

## Release binaries (`make release`, and the ones `make bench` measures): the Swift runtime linked
## in, and generic type metadata reached through direct accessors instead of by mangled name (the
## runtime demangled the name and searched every protocol conformance in the 84 MB binary at each
## first use: about 1 ms of a one-request run's start-up). A build flag, not a Package.swift setting,
## so the libraries stay usable as a dependency of other packages. Also without the run-time
## exclusivity checks (`make test` builds keep them; the compile-time ones stay): on the engine
## thread they were 4 % of a request's instructions, a call into the runtime per class property access.
## And with the C++ library the Swift runtime is written in, and ncursesw with its terminfo library,
## linked in too (their symbols hidden like the runtime's): loading libstdc++.so and binding its 3,300
## symbol relocations was about 1 ms of a one-request run, the two curses libraries 0.17 ms. The linker
## finds them in a folder that holds only them (`static-libs`: libstdc++.a, and a libncursesw.so that
## is a linker script naming the two archives); where an archive is missing the binary links the
## shared library as before. And without SwiftPM's $ORIGIN run path, which sent the loader to look for
## every system library beside the binary first (39 failed lookups per start; these binaries load no
## library of their own).
STATIC_LIBS_DIR = $(CURDIR)/.build/static-libs
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -enforce-exclusivity=unchecked -Xlinker -L$(STATIC_LIBS_DIR) --disable-local-rpath

## Build and run the demo: the embedded server plus Resources/demo.http in the inspector.
demo: build
	.build/debug/reqtop demo

build:
	@scripts/setup.sh build
	$(SWIFT) build

## An optimized `reqtop` at .build/release/reqtop.
release: static-libs
	@scripts/setup.sh build
	$(SWIFT) build $(RELEASE_FLAGS) --product reqtop

static-libs:
	@mkdir -p $(STATIC_LIBS_DIR); cxx=$$(clang -print-file-name=libstdc++.a 2>/dev/null); \
	if [ -f "$$cxx" ]; then ln -sf "$$cxx" $(STATIC_LIBS_DIR)/libstdc++.a; \
	else rm -f $(STATIC_LIBS_DIR)/libstdc++.a; echo "release: no libstdc++.a found: libstdc++ stays a shared library" >&2; fi; \
	curses=$$(clang -print-file-name=libncursesw.a 2>/dev/null); tinfo=$$(clang -print-file-name=libtinfo.a 2>/dev/null); \
	if [ -f "$$curses" ] && [ -f "$$tinfo" ]; then echo "INPUT($$curses $$tinfo)" > $(STATIC_LIBS_DIR)/libncursesw.so; \
	else rm -f $(STATIC_LIBS_DIR)/libncursesw.so; echo "release: no libncursesw.a or libtinfo.a found: ncursesw stays a shared library" >&2; fi

## The release binary and the manual page (docs/reqtop.1, `reqtop --man`) under PREFIX.
PREFIX ?= /usr/local
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 .build/release/reqtop $(DESTDIR)$(PREFIX)/bin/reqtop
	install -m 644 docs/reqtop.1 $(DESTDIR)$(PREFIX)/share/man/man1/reqtop.1

## The benchmark at smoke-test sizes (a release build, so an optimizer crash or a broken bench case
## fails here; no timing is asserted), then the whole test suite against the embedded server, nginx
## and httpbin (started and stopped here), then the networking core again under ThreadSanitizer,
## then every fuzz target for TEST_FUZZ_SECONDS.
test:
	@scripts/setup.sh test
	$(MAKE) --no-print-directory bench BENCH_QUICK=1 RELEASE_EXTRA="$(STRICT_FLAGS)"
	$(SWIFT) build $(STRICT_FLAGS)
	scripts/with-test-servers.sh $(MAKE) --no-print-directory test-unit test-tsan
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS)

test-unit:
	$(SWIFT) test $(SWIFT_TEST_FLAGS) $(STRICT_FLAGS)

test-tsan:
	$(SWIFT) test $(SWIFT_TEST_FLAGS) $(STRICT_FLAGS) --sanitize=thread --scratch-path .build/tsan --filter 'ReqtopNetworkingTests|ReqtopSyncTests|EventStreamTests|JournalTests|ReqtopProxyTests|RequestListRunnerTests'

## Benchmarks side by side with curl and URLSession (release build; docs/performance.md).
## BENCH_QUICK=1 shrinks every case to smoke-test sizes (figures meaningless, for CI).
bench: static-libs
	@scripts/setup.sh test
	@$(if $(filter-out 0,$(BENCH_QUICK)),true,scripts/setup.sh bench)
	@[ -x /usr/bin/time ] || { echo "bench: installing time (peak RSS of curl)" >&2; s=""; [ "$$(id -u)" -ne 0 ] && s=sudo; \
	  DEBIAN_FRONTEND=noninteractive $$s apt-get install -y -qq --no-install-recommends time >/dev/null; }
	$(SWIFT) build $(RELEASE_FLAGS) $(RELEASE_EXTRA) --product reqtop
	$(SWIFT) build $(RELEASE_FLAGS) $(RELEASE_EXTRA) --product reqtop-bench
	BENCH_QUICK=$(BENCH_QUICK) REQTOP_LARGE_FILE_MB=$(if $(filter-out 0,$(BENCH_QUICK)),8,1024) \
	  scripts/with-test-servers.sh .build/release/reqtop-bench

## libFuzzer over every parser that reads outside input (Sources/reqtop-fuzz): FUZZ_SECONDS per
## target (default 60; `make test`, and so CI, runs 20), FUZZ_JOBS at a time (one per CPU), seed
## corpora in Tests/Fuzz/corpus/. FUZZ_TARGETS picks some.
FUZZ_SECONDS ?= 60
TEST_FUZZ_SECONDS ?= 20
FUZZ_TARGETS ?=
FUZZER_LIB = $(firstword $(wildcard $(dir $(shell command -v $(SWIFT)))../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a))
fuzz:
	@scripts/setup.sh build
	REQTOP_FUZZ=1 REQTOP_FUZZER_LIB=$(FUZZER_LIB) $(SWIFT) build --scratch-path .build/fuzz --product reqtop-fuzz \
	  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table 2>&1 | grep -v 'Cannot export local symbol'; \
	  exit $${PIPESTATUS[0]}
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(FUZZ_TARGETS)

clean:
	rm -rf .build
