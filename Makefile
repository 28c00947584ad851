# dhm — plain GNU Makefile.
#   make            build build/dhm
#   make check      build and run every test (cmocka)
#   make asan       the tests again under AddressSanitizer + UBSan (build-asan/)
#   make bench      benchmarks (fixed seeds; name value unit lines)
#   make demo       the main job: a small tournament, ratings and a report (V=1: every command)
#   make fuzz       short libFuzzer runs on every reader of untrusted bytes (clang; tools/fuzz.mk)
#   make deps       install the Debian packages dhm needs (when missing)
#   make MPI=1      build/dhm-mpi with MPICH (make deps-mpi installs it); docs/cluster.md
#   make deps-torch python3-torch, optional, for the PyTorch example (docs/python.md)
#   make python     the Python package (and build/dhm): PYTHONPATH=build/python python3 -c 'import dhm'
#                   for the python3 on PATH when it has numpy and headers, else /usr/bin/python3 (docs/python.md)
# Variables: CC (gcc or clang), O (build dir), CPUFLAGS (default -march=native), V=1 (make demo: verbose).

CC       ?= cc
O        ?= build
CPUFLAGS ?= -march=native
OPT      ?= -O2
CFLAGS_BASE = -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
              -Wshadow -Wstrict-prototypes -Wmissing-prototypes -g -I.
CFLAGS  ?= $(OPT) $(CPUFLAGS)
ALL_CFLAGS = $(CFLAGS_BASE) $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   = -lsqlite3 -lmicrohttpd -lpthread -lm
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

LIB_DIRS = core game players record net rating arena analysis report watch
LIB_SRC  = $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CLI_SRC  = $(wildcard cli/*.c)
TEST_SRC = $(wildcard tests/test_*.c)
BENCH_SRC = $(wildcard bench/bench_*.c)

LIB_OBJ  = $(LIB_SRC:%.c=$(O)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:%.c=$(O)/obj/%.o)
TESTS    = $(TEST_SRC:tests/%.c=$(O)/tests/%)
BENCHES  = $(BENCH_SRC:bench/%.c=$(O)/bench/%)
LIB      = $(O)/libdhm.a

.PHONY: all build check run-tests asan bench demo fuzz deps deps-mpi deps-torch clean tests benches mpi python python-tests
# Every entry point first installs what a fresh Debian 12 machine lacks (tools/deps.sh is a
# no-op when everything is there), then builds.
all:
	@sh tools/deps.sh
ifeq ($(MPI),1)
	@$(MAKE) --no-print-directory mpi
else
	@$(MAKE) --no-print-directory build
endif

# make MPI=1 (or make mpi): build/dhm-mpi, the same dhm built with MPICH's mpicc (arena/mpi.h).
mpi:
	@command -v mpicc >/dev/null 2>&1 || { echo "make mpi: mpicc not found (apt-get install mpich libmpich-dev)" >&2; exit 1; }
	@$(MAKE) --no-print-directory O=build-mpi CC=mpicc EXTRA_CFLAGS=-DDHM_MPI build-mpi/dhm
	@mkdir -p build && cp build-mpi/dhm build/dhm-mpi && echo "built build/dhm-mpi"

build: $(O)/dhm

$(O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DDHM_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

# The built-in policy weights are compiled in (.incbin), so their object depends on them.
$(O)/obj/players/policy_embed.o: players/policy.weights
# The policy's playouts run 3-4% faster with players/policy.c at -O3 (docs/players.md, Speed);
# the same numbers (no floating-point option changes). OPT on the command line still wins.
$(O)/obj/players/policy.o: OPT = -O3
# The sequence model's GRU steps (players/estseq.c), likewise at -O3, and without trapping math
# so that the clamps of its gates are vectorised: the same numbers, a step 3 times faster.
$(O)/obj/players/estseq.o: OPT = -O3 -fno-trapping-math
$(O)/obj/players/est_embed.o: players/est.weights
$(O)/obj/players/estnet_embed.o: players/estnet.weights
$(O)/obj/players/estseq_embed.o: players/estseq.weights
$(O)/obj/players/rich_embed.o: players/rich.weights
$(O)/obj/players/rich_rl_embed.o: players/rich_rl.weights
$(O)/obj/players/rich_dk_embed.o: players/rich_dk.weights
$(O)/obj/players/gift_embed.o: players/gift.weights
# {python} in a tournament's exec: lines: the interpreter make python builds for (cli/cli.c).
$(O)/obj/cli/cli.o: ALL_CFLAGS += -DDHM_PYTHON='"$(PYTHON)"'
# The live view's pages are built in (.incbin) too.
$(O)/obj/watch/page.o: watch/page_match.html watch/page_tournament.html

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(O)/dhm: $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(O)/tests/%: tests/%.c tests/testutil.h $(LIB) $(O)/dhm
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(LIB) -lcmocka $(LDLIBS)

$(O)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

tests: $(TESTS)

# The Python package (python/): the extension module _dhm over a position-independent copy of
# the library (hidden symbols), and the package's .py files, in $(O)/python/dhm. Built for the
# python3 on PATH when it has numpy and the Python headers, else Debian's /usr/bin/python3
# (python3-dev, python3-numpy; tools/pick_python.sh; PYTHON=... names another); nothing is
# fetched. $(O)/python/dhm/_build.py records the interpreter, so that an import from another
# one names it. Looked up once, when first needed.
PYTHON   ?= $(eval PYTHON := $$(shell sh tools/pick_python.sh))$(PYTHON)
PY_CFLAGS = -isystem $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])') \
            -isystem $(shell $(PYTHON) -c 'import numpy; print(numpy.get_include())')
PY_EXT    = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PY_SRC    = $(wildcard python/src/*.c)
PY_FILES  = $(patsubst python/%,$(O)/python/%,$(wildcard python/dhm/*.py))
PIC_OBJ   = $(LIB_SRC:%.c=$(O)/pic/obj/%.o)
PIC_FLAGS = -fPIC -fvisibility=hidden

$(O)/pic/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_FLAGS) -DDHM_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@
$(O)/pic/obj/players/policy_embed.o: players/policy.weights
$(O)/pic/obj/players/est_embed.o: players/est.weights
$(O)/pic/obj/players/estnet_embed.o: players/estnet.weights
$(O)/pic/obj/players/estseq_embed.o: players/estseq.weights
$(O)/pic/obj/players/rich_embed.o: players/rich.weights
$(O)/pic/obj/players/rich_rl_embed.o: players/rich_rl.weights
$(O)/pic/obj/players/rich_dk_embed.o: players/rich_dk.weights
$(O)/pic/obj/players/gift_embed.o: players/gift.weights
$(O)/pic/obj/watch/page.o: watch/page_match.html watch/page_tournament.html
$(O)/pic/obj/python/src/%.o: python/src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_FLAGS) $(PY_CFLAGS) -Ipython/src -DDHM_VERSION='"$(VERSION)"' -MMD -MP -c $< -o $@

$(O)/pic/libdhm.a: $(PIC_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(O)/python/dhm/%.py: python/dhm/%.py
	@mkdir -p $(dir $@)
	cp $< $@

# One line, then the interpreter's; V=1 prints the compiler commands. Errors always print.
python:
	@sh tools/deps.sh
	@echo "== building $(O)/dhm and the package $(O)/python/dhm$(if $(filter 1,$(V)),, (V=1 shows the compiler commands))"
	@$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) $(O)/dhm $(O)/python/dhm/_dhm$(PY_EXT) $(PY_FILES) python-build-info
	@if [ "$(origin PYTHON)" = "command line" ]; then echo "make python: for $(PYTHON) (PYTHON=...)"; \
	 else sh tools/pick_python.sh --why; fi

# The interpreter and version the package was built for, rewritten only when they change.
.PHONY: python-build-info
python-build-info:
	@mkdir -p $(O)/python/dhm
	@printf '"""Written by make python: what this build of the dhm package is for."""\nPYTHON = %s\nPYTHON_VERSION = %s\nVERSION = "%s"\n' \
	  "$$($(PYTHON) -c 'import sys; print(repr(sys.executable))')" \
	  "$$($(PYTHON) -c 'import sys; print(repr(sys.version.split()[0]))')" "$(VERSION)" > $(O)/python/dhm/_build.py.tmp
	@cmp -s $(O)/python/dhm/_build.py.tmp $(O)/python/dhm/_build.py && rm $(O)/python/dhm/_build.py.tmp || \
	  mv $(O)/python/dhm/_build.py.tmp $(O)/python/dhm/_build.py

$(O)/python/dhm/_dhm$(PY_EXT): $(PY_SRC:%.c=$(O)/pic/obj/%.o) $(O)/pic/libdhm.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_FLAGS) -shared -o $@ $(PY_SRC:%.c=$(O)/pic/obj/%.o) $(O)/pic/libdhm.a $(LDLIBS)

# The package's tests (pytest), with build/dhm for the tests that run commands.
python-tests: python $(O)/dhm
	@$(PYTHON) -c 'import pytest' 2>/dev/null || { echo "make python-tests: $(PYTHON) has no pytest (Debian: apt-get install python3-pytest)" >&2; exit 1; }
	@DHM=$(CURDIR)/$(O)/dhm PYTHONPATH=$(CURDIR)/$(O)/python $(PYTHON) -m pytest -q -p no:cacheprovider python/tests

benches: $(BENCHES)

# With MPICH installed (make deps-mpi), check also builds build/dhm-mpi and the tests run it
# (DHM_MPI); without it those tests are skipped.
check:
	@sh tools/deps.sh
	@if command -v mpicc >/dev/null 2>&1; then $(MAKE) --no-print-directory mpi; fi
	@$(MAKE) --no-print-directory run-tests DHM_MPI_BIN=$$(test -x build/dhm-mpi && command -v mpicc >/dev/null && echo build/dhm-mpi)
	@$(MAKE) --no-print-directory python-tests

# Runs every test binary; a failing one fails the target after all have run.
run-tests: $(O)/dhm $(TESTS)
	@fail=0; for t in $(TESTS); do \
	  echo "== $$t"; DHM=$(O)/dhm DHM_MPI=$(DHM_MPI_BIN) $$t || { echo "FAILED: $$t"; fail=1; }; \
	done; \
	if [ $$fail = 0 ]; then echo "all tests passed"; else echo "some tests FAILED"; exit 1; fi

asan:
	@sh tools/deps.sh
	@$(MAKE) --no-print-directory O=build-asan OPT=-O1 \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  run-tests

bench:
	@sh tools/deps.sh
	@$(MAKE) --no-print-directory $(BENCHES) $(O)/dhm
	@for b in $(BENCHES); do DHM=$(O)/dhm $$b || exit 1; done
	@$(MAKE) --no-print-directory python
	@PYTHONPATH=$(O)/python $(PYTHON) bench/bench_python.py
	@PYTHONPATH=$(O)/python $(PYTHON) bench/bench_torch_threads.py   # skipped without python3-torch
	@DHM=$(O)/dhm sh bench/ladder.sh   # external UECda clients: skipped unless DHM_LADDER_* are set (docs/ladder.md)

# One line a step; V=1 prints the commands (the compiler's too) and their output. Errors always print.
demo:
	@sh tools/deps.sh
	@echo "== building $(O)/dhm$(if $(filter 1,$(V)),, (V=1 shows the compiler commands))"
	@$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) $(O)/dhm
	@V=$(V) sh tools/demo.sh $(O)/dhm

fuzz:
	$(MAKE) -f tools/fuzz.mk

deps:
	@sh tools/deps.sh

deps-mpi:
	@sh tools/deps.sh --mpi

# Optional: PyTorch (Debian's python3-torch, CPU) for python/examples/torch_agent.py; the tests
# of that example are skipped without it.
deps-torch:
	@sh tools/deps.sh --torch

clean:
	rm -rf build build-asan build-fuzz build-mpi

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TESTS:=.d) $(PIC_OBJ:.o=.d) $(PY_SRC:%.c=$(O)/pic/obj/%.d)
