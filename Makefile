# reqtop — the two commands a new user needs are `make demo` and `make test`.
SWIFT ?= swift
SWIFT_TEST_FLAGS ?= --disable-swift-testing

.PHONY: demo test build test-unit test-tsan bench clean

## Build and run the demo: the embedded server plus Resources/demo.http in the inspector.
demo: build
	.build/debug/reqtop demo

build:
	@scripts/setup.sh build
	$(SWIFT) build

## The whole test suite against the embedded server, nginx and httpbin (started and stopped here),
## then the networking core again under ThreadSanitizer.
test:
	@scripts/setup.sh test
	$(SWIFT) build
	scripts/with-test-servers.sh $(MAKE) --no-print-directory test-unit test-tsan

test-unit:
	$(SWIFT) test $(SWIFT_TEST_FLAGS)

test-tsan:
	$(SWIFT) test $(SWIFT_TEST_FLAGS) --sanitize=thread --scratch-path .build/tsan --filter 'ReqtopNetworkingTests|ReqtopSyncTests'

clean:
	rm -rf .build
