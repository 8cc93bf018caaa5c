# Two entry points on a fresh machine: `make demo` (the main job) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
# Compiled kernels are cached inside the checkout, so each process compiles at most once.
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
RUN_ID := $(shell date +%Y%m%d-%H%M%S)

.PHONY: install demo test test-builds test-long bench prune-cache clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

# A default Monopoly Chance experiment: report on stdout, tables and plot under results/.
demo: install
	$(VENV)/bin/monosim chance simulate --games 1000000 --out results/chance-demo/$(RUN_ID)

# The test suite, with the short versions of the statistical tests. Two workers, one per core;
# a worker out of tests takes the other's last ones (worksteal), so both finish together.
PYTEST := $(PY) -m pytest -q -n 2 --dist worksteal

test: install
	$(PYTEST) -m "not builds"

# Each game's other builds (bounds-checked, plain numba, compiled afresh): every game compiled
# again, so apart from `make test`; CI runs both.
test-builds: install
	$(PYTEST) -m builds

# Everything, the statistical tests at full sample sizes.
test-long: install
	$(PYTEST) --long

bench: install
	$(VENV)/bin/monosim bench

# Delete the kernels compiled from older sources: each edit to a game's kernels or bots leaves
# a folder of them behind. Other checkouts sharing NUMBA_CACHE_DIR recompile theirs.
prune-cache: install
	$(PY) -c "import sim; [print('removed', d) for d in sim.prune_kernel_caches()]"

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
