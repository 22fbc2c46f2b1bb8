# lakejoin_jupyter: `make demo` and `make test` set everything up from a fresh machine
# (Python 3.11 and Java 17). Everything goes into .venv inside the checkout.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-stamp

.PHONY: demo test test-fast bench clean help

help:
	@echo "make demo       set up .venv, build the demo index, run a sample search"
	@echo "make test       set up .venv, run the whole test suite"
	@echo "make test-fast  unit tests only (no Spark, no notebooks, no browser)"
	@echo "make clean      remove .venv and build leftovers"

$(STAMP): setup.py
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/lakejoin demo --out demo.index

test: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m pytest tests --durations=20

test-fast: $(STAMP)
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m pytest tests -m "not spark and not notebook and not browser"

clean:
	rm -rf $(VENV) *.egg-info demo.index demo.index.tmp-* .pytest_cache
