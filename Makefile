# Two entry points: `make run` (the main job) and `make test` (every test).
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/skyjo: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip==26.3
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

.PHONY: run test lint bench train
run: $(BIN)/skyjo
	$(BIN)/skyjo serve

lint: $(BIN)/skyjo
	$(BIN)/ruff check src tests bench research examples
	$(BIN)/ruff format --check src tests bench research examples

# The system packages the tests drive (chromium, nodejs, postgresql, nginx): installed when
# missing and possible, else one line naming them and the command that installs them.
test: lint
	bash tools/system-deps.sh
	$(BIN)/pytest -n 2 --dist worksteal -q

# Train the `best` bot's value from scratch (docs/model-card.md); it stops on its counts.
train: $(BIN)/skyjo
	$(BIN)/skyjo train --out runs/best

# The engine's throughput; every benchmark is in bench/ (docs/benchmarks.md).
bench: $(BIN)/skyjo
	$(BIN)/python bench/engine.py

# The kernel's differential check on 2,000 games, then its throughput (bench/kernel.py).
.PHONY: kernel-check
kernel-check: $(BIN)/skyjo
	$(BIN)/python bench/kernel.py --games 2000
