# memoryd: `make serve` installs everything and starts the server on the
# embedded defaults; `make test` installs everything (the Python virtualenv, and
# each client's npm, Go and Maven packages) and runs every check.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PROTO_SOURCES := $(wildcard proto/memoryd/v1/*.proto)

#: The clients generated from the same contract, each with its own Makefile
#: (install, build, test; generate and check-generated where code is checked in).
CLIENTS := clients/typescript clients/go clients/java
GENERATED_CLIENTS := clients/typescript clients/go clients/java

.PHONY: install serve test check lint generate check-generated proto-check proto-release pytest fuzz bench clean clients clients-test

$(STAMP): pyproject.toml clients/python/pyproject.toml
	test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e './clients/python[tenxgraph,tenxgraph-api]' -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: install
	$(VENV)/bin/memoryd serve $(ARGS)

generate: install clients-install
	PATH="$(VENV)/bin:$$PATH" PYTHON=$(PY) scripts/generate
	@for client in $(GENERATED_CLIENTS); do $(MAKE) -C $$client generate || exit 1; done

check-generated: install clients-install
	@scratch=$$(mktemp -d) && PATH="$(VENV)/bin:$$PATH" PYTHON=$(PY) scripts/generate "$$scratch" \
	  && diff -r "$$scratch/memoryd/v1" clients/python/src/memoryd/v1 -x __pycache__ \
	  || { echo "generated stubs are stale: run 'make generate' and commit the result" >&2; exit 1; }
	@for client in $(GENERATED_CLIENTS); do $(MAKE) -C $$client check-generated || exit 1; done

# Each client's toolchain packages (npm, Go modules, Maven), from its own manifest and lock.
clients-install: install
	@for client in $(CLIENTS); do $(MAKE) -C $$client install || exit 1; done

# The clients, their conformance runners and examples, built for the tests.
clients: clients-install
	@for client in $(CLIENTS); do $(MAKE) -C $$client build || exit 1; done

# Each client's own unit tests.
clients-test: clients
	@for client in $(CLIENTS); do $(MAKE) -C $$client test || exit 1; done

proto-check: install
	$(VENV)/bin/buf lint
	$(VENV)/bin/buf format --diff --exit-code
	scripts/buf-breaking $(VENV)/bin/buf

# Only when a version of the contract ships: freezes proto/ as the baseline that
# proto-check's breaking check compares with (proto/memoryd/v1/released.binpb).
proto-release: install
	scripts/proto-release $(VENV)/bin/buf

lint: install
	$(VENV)/bin/ruff check server clients/python/src/memoryd_client tests bench examples
	$(VENV)/bin/ruff format --check server clients/python/src/memoryd_client tests bench examples
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(VENV)/bin/hadolint Dockerfile

# The peers the migration tests build real stores with and search, each in its own
# virtualenv .venv-peers/<peer> from bench/peers/<peer>/requirements.txt: mem0ai pins
# protobuf<7, and 10xgraph's own search needs qdrant-client<1.16; the server has neither.
PEERS := mem0 tenxgraph
PEER_STAMPS := $(foreach peer,$(PEERS),.venv-peers/$(peer)/.installed)

.venv-peers/%/.installed: bench/peers/%/requirements.txt
	test -x .venv-peers/$*/bin/python || "$$(scripts/find-python)" -m venv .venv-peers/$*
	.venv-peers/$*/bin/python -m pip install --quiet -r $<
	touch $@

.PHONY: peers
peers: $(PEER_STAMPS)

pytest: install clients peers
	$(VENV)/bin/pytest $(PYTEST_ARGS)

test: proto-check check-generated lint clients-test pytest

# Explores with fresh random seeds, FUZZ_EXAMPLES cases per test (500: about ten
# minutes on 2 cores), where `make test` replays fixed ones. Every case it finds
# becomes a regression test (tests/api/test_bad_numbers.py).
FUZZ_EXAMPLES ?= 500
fuzz: install
	HYPOTHESIS_PROFILE=fuzz FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(VENV)/bin/pytest -p no:cacheprovider \
	  --timeout=3600 -s tests/security/test_fuzz.py tests/security/test_fuzz_credentials.py \
	  $(PYTEST_ARGS)

bench: install
	$(PY) bench/latency.py $(ARGS)

# The benchmark issue 14 keeps: memoryd, the engine's floor, 10xgraph and mem0 side
# by side (each peer in its own process and environment), written to
# bench/results/<date>/ (report.md, results.json, plots) and bench/results/latest.
# `make bench-compare ARGS="--sizes 1000"` for a quick run; `--million` adds 1M.
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	touch $@

.PHONY: bench-compare bench-recall
bench-compare: $(BENCH_STAMP) peers
	PYTHONPATH=bench $(PY) -m compare $(ARGS)

# Issue 15's recall table: every retrieval mode on every set of bench/recall_sets/
# (paraphrase, lexical, mixed, updates), over gRPC; `ARGS="--sets lexical"` for one.
bench-recall: install
	$(PY) bench/recall_eval.py $(ARGS)

clean:
	rm -rf $(VENV) .venv-peers .pytest_cache .mypy_cache .ruff_cache
	@for client in $(CLIENTS); do $(MAKE) -C $$client clean || exit 1; done
