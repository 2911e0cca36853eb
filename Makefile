# Two commands: `make lab` (open the lessons) and `make test` (run every test).
# Both create .venv on first use and are quick when nothing changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP_RUNTIME := $(VENV)/.installed-runtime
STAMP_TEST    := $(VENV)/.installed-test
# JupyterLab refuses to run as root unless told; this machine kind runs as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
NBVAL := --nbval --nbval-current-env --nbval-cell-timeout 60 \
         --nbval-sanitize-with tests/notebooks/sanitize.cfg
LESSONS := $(wildcard notebooks/[0-9][0-9]_*.ipynb)
TRANSLATED := $(wildcard notebooks/zh/*.ipynb notebooks/ko/*.ipynb)

.PHONY: FORCE lab lab-setup test test-fast browser-deps notebooks translations translations-status bench clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "minigrad-kit needs Python >= 3.10"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_RUNTIME): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP_RUNTIME) $@

lab: lab-setup
	$(LAB_ENV) $(BIN)/jupyter lab $(ROOT_FLAG) $(COURSE)/$(LAB_DIR)00_start_here.ipynb

# `make lab LANG=zh` (or ko): the lessons in Chinese (Korean), in a JupyterLab whose own
# menus are in that language (its language packs; the locale is JupyterLab's setting
# @jupyterlab/translation-extension:plugin, written in overrides.json below). A locale
# already set to Chinese or Korean (LANG=zh_CN.UTF-8) chooses the same; anything else: English.
LAB_LANG := $(if $(filter zh%,$(LANG)),zh,$(if $(filter ko%,$(LANG)),ko,en))
LAB_LOCALE := $(if $(filter zh,$(LAB_LANG)),zh_CN,$(if $(filter ko,$(LAB_LANG)),ko_KR,en))
LAB_DIR := $(if $(filter en,$(LAB_LANG)),,$(LAB_LANG)/)
LAB_ENV := $(if $(LAB_DIR),LANG=$(LAB_LOCALE).UTF-8)

# The learner's own copy of the course (git-ignored): the lessons, and next to
# them assignments/ with the STUDENT versions that lesson 0 links (the repo's
# notebooks/assignments/ holds the instructor notebooks, with solutions). Made
# once by `minigrad-kit lessons`; an existing copy (the learner's work) is kept.
COURSE := my-lessons

# Stored outputs (graphs, steppers, plots) show on first open only in trusted
# notebooks; the lessons are the kit's own, so trust them. JupyterLab's
# "get notified about Jupyter news?" pop-up would cover the first lesson:
# switch it off for this environment only (overrides.json in .venv).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
lab-setup: $(STAMP_RUNTIME) $(LAB_OVERRIDES)
	@if [ -e $(COURSE)/00_start_here.ipynb ]; then \
	  echo "$(COURSE)/ exists: your copy of the lessons is kept (delete $(COURSE)/ for fresh ones)"; \
	else $(BIN)/minigrad-kit lessons $(COURSE); fi
	@[ -e $(COURSE)/$(LAB_DIR)00_start_here.ipynb ] || { echo "$(COURSE)/ has no \
	  $(LAB_DIR) lessons (it was copied before they existed): delete it, or copy them with \
	  minigrad-kit lessons another-folder" >&2; exit 1; }
	$(BIN)/jupyter trust $(LESSONS) $(TRANSLATED) $(COURSE)/[0-9][0-9]_*.ipynb \
	  $$(ls $(COURSE)/zh/*.ipynb $(COURSE)/ko/*.ipynb 2>/dev/null)

$(LAB_OVERRIDES): FORCE | $(STAMP_RUNTIME)
	mkdir -p $(dir $@)
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}, "@jupyterlab/translation-extension:plugin": {"locale": "$(LAB_LOCALE)"}}' > $@

FORCE:

# Chromium, Graphviz's dot and the widget HTML manager for the browser tests
# (installed only when missing; a second run is instant).
browser-deps: $(STAMP_TEST)
	tests/browser/install-browser.sh

test: $(STAMP_TEST) browser-deps
	$(BIN)/python -m pytest -n 2 --dist loadfile $(NBVAL) tests notebooks

test-fast: $(STAMP_TEST)
	$(BIN)/python -m pytest -x -q tests/core

# minigrad against PyTorch (and MyGrad, HIPS autograd, micrograd), with the machine it ran on.
bench: $(STAMP_TEST)
	$(BIN)/python -m pip install --quiet micrograd mygrad autograd
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/grading.py

# Re-run the lessons and the instructor notebooks and store their outputs
# (after editing one; make test compares them cell by cell).
# The translated lessons run one by one, each told its own path as JupyterLab tells a
# kernel (JPY_SESSION_NAME), so that the widgets read the notebook's language.
notebooks: $(STAMP_TEST)
	cd notebooks && ../$(BIN)/jupyter execute --inplace --timeout=120 $(notdir $(LESSONS))
	for nb in $(TRANSLATED); do \
	  (cd $$(dirname $$nb) && JPY_SESSION_NAME=$$(basename $$nb) \
	   ../../$(BIN)/jupyter execute --inplace --timeout=120 $$(basename $$nb)) || exit 1; \
	done
	cd notebooks/assignments && ../../$(BIN)/jupyter execute --inplace --timeout=120 *.ipynb

# Chinese and Korean (gettext catalogs, maintained with Babel). After changing a sentence
# in widgets/, grader/, an assignment or an English lesson: extract the English messages,
# update every language's catalog (new ones untranslated, changed ones fuzzy, for the
# translators), and rebuild notebooks/zh and notebooks/ko from the catalogs; then
# `make notebooks` stores the outputs of the lessons that changed.
translations: $(STAMP_TEST)
	$(BIN)/python tools/translate_notebooks.py

# Translators: what is left (untranslated, fuzzy, placeholders that differ), and the
# outputs of one language's lessons only (make notebooks-zh, make notebooks-ko).
translations-status: $(STAMP_TEST)
	$(BIN)/python tools/translate_notebooks.py status $(if $(LANG_ONLY),--lang $(LANG_ONLY))

notebooks-%: $(STAMP_TEST)
	for nb in notebooks/$*/*.ipynb; do \
	  (cd $$(dirname $$nb) && JPY_SESSION_NAME=$$(basename $$nb) \
	   ../../$(BIN)/jupyter execute --inplace --timeout=120 $$(basename $$nb)) || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
