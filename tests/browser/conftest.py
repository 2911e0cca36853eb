"""Fixtures for the browser tests: JupyterLab on loopback, Chromium via Playwright.

Facts behind the details (verified on this machine kind, see
shared/notes/browser-testing.md): Debian's Chromium with flags that keep it off
the network; JupyterLab as root on a free port with a token, fresh Jupyter
folders and the news pop-up switched off; notebooks served from a copy (Lab's
autosave would rewrite the stored outputs). Every process started here is
stopped here. On failure, the page's screenshot path and text are printed.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
HTML_MANAGER = REPO / ".venv" / "share" / "minigrad-kit" / "html-manager"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run tests/browser/install-browser.sh "
                    "(make test does)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of notebooks/; yields (base_url, token, root)."""
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    shutil.copytree(REPO / "notebooks", root)
    settings = base / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env = dict(os.environ,
               JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_DATA_DIR=str(base / "data"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
               JUPYTERLAB_SETTINGS_DIR=str(base / "settings"), MPLBACKEND="Agg")
    token, port = secrets.token_hex(16), free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               "--LabApp.news_url=None"]
    log = open(base / "lab.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"JupyterLab exited: {(base / 'lab.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not answer within 60 s")
                time.sleep(0.3)
        yield url, token, root
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    setattr(item, f"report_{outcome.get_result().when}", outcome.get_result())


@pytest.fixture
def page(browser, request):
    """A fresh page; on failure its screenshot and visible text are reported."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"FAILED-{request.node.name}.png"
        page.screenshot(path=str(shot), full_page=True)
        text = page.locator("body").inner_text()[-3000:]
        print(f"\nscreenshot of the failure: {shot}\nwhat was on screen (end):\n{text}")
    context.close()


def snapshot(page, name: str, locator=None) -> Path:
    """Save a screenshot of a stage of a scenario in test-artifacts/browser/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    (locator or page).screenshot(path=str(path))
    return path


def open_notebook(page, lab, name: str):
    """Open a notebook, alone in a fresh Lab workspace (no tabs restored from
    another test), and wait until its kernel is idle."""
    url, token, _ = lab
    workspace = secrets.token_hex(4)
    page.goto(f"{url}/lab/workspaces/{workspace}/tree/{name}?reset&token={token}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)


def run_all(page):
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('li[data-command="runmenu:run-all"]').click()
