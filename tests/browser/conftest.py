"""Fixtures for the browser tests: JupyterLab on loopback, Chromium via Playwright.

Facts behind the details (verified on this machine kind, see
shared/notes/browser-testing.md): Debian's Chromium with flags that keep it off
the network; JupyterLab as root on a free port with a token, fresh Jupyter
folders and the news pop-up switched off (by `make lab-setup`, which also trusts the lessons);
notebooks served from a copy (Lab's
autosave would rewrite the stored outputs); Lab's cells all kept in the page.
Every process started here is stopped here (the server's kernels, which run in
sessions of their own, by pid). On failure, the screenshot's path and the text
that matters (the steppers, error output, the active cell, the status bar) are
printed. At the end: how a stepper shows on the page, and the engine's order
for the lesson's graph (``backward_steps``, with the drawing's box ids).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

import minigrad as torch
from minigrad.autograd import backward_steps
from grader.lab import lab_defaults
from widgets.graph import GraphModel

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
HTML_MANAGER = REPO / ".venv" / "share" / "minigrad-kit" / "html-manager"
SETTINGS = {
    # (the "get notified about Jupyter news?" pop-up is switched off by `make
    # lab-setup`, as for a learner's `make lab`: the tests prove that it is)
    # every cell in the DOM, on screen or not (no virtual scrolling to race with)
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}


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


def lab_env(base: Path, settings: dict) -> dict:
    """Fresh Jupyter folders under ``base`` (no tabs or settings from elsewhere),
    with Lab's user ``settings`` ({plugin: values}) written there; returns the
    environment to run Jupyter in."""
    for plugin, values in settings.items():
        path = base / "settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return dict(os.environ,
                JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_DATA_DIR=str(base / "data"),
                JUPYTER_RUNTIME_DIR=str(base / "runtime"),
                JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
                JUPYTERLAB_SETTINGS_DIR=str(base / "settings"), MPLBACKEND="Agg")


@contextmanager
def running_lab(base: Path, root: Path, env: dict):
    """JupyterLab serving ``root``, on loopback with a token, its log in ``base``;
    yields (base_url, token, root) once it answers, and stops it (and its kernels)
    on leaving."""
    token, port = secrets.token_hex(16), free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               "--LabApp.news_url=None"]
    with open(base / "lab.log", "w") as log:
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None:
                    raise RuntimeError(
                        f"JupyterLab exited: {(base / 'lab.log').read_text()[-2000:]}")
                try:
                    urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("JupyterLab did not answer within 60 s")
                    time.sleep(0.3)
            yield url, token, root
        finally:
            stop(server)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of notebooks/; yields (base_url, token, root)."""
    base = tmp_path_factory.mktemp("lab")
    root = base / "notebooks"
    shutil.copytree(REPO / "notebooks", root)
    env = lab_env(base, SETTINGS)
    # the configuration `minigrad-kit lab` starts JupyterLab with (its menus' language, the
    # kit's style sheet: printed lines break between words)
    env["JUPYTER_CONFIG_PATH"] = str(lab_defaults(base / "kit", "en"))
    # what `make lab` does before it starts Lab: copy the learner's course, trust
    # the lessons (so stored outputs render unrun), switch the news pop-up off
    # (the course goes into the served folder, as my-lessons/, not into the repository)
    subprocess.run(["make", "-s", "-C", str(REPO), "lab-setup", f"COURSE={root / 'my-lessons'}"],
                   env=env, check=True, capture_output=True)
    # (the copy is made by `minigrad-kit lab`, which `make lab` runs next, before JupyterLab)
    subprocess.run([sys.executable, "-c", "import sys, pathlib; from grader.lab import "
                    "lessons_ready; lessons_ready(pathlib.Path(sys.argv[1]), 'en')",
                    str(root / "my-lessons")], env=env, check=True, capture_output=True)
    with running_lab(base, root, env) as served:
        yield served


def descendants(pid: int) -> dict[int, bytes]:
    """``{pid: command line}`` of the processes ``pid`` started, and theirs (from /proc)."""
    parent_of = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:  # "pid (name) state ppid ...": the name may hold spaces
            parent_of[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    found, frontier = {}, [pid]
    while frontier:
        frontier = [p for p, parent in parent_of.items() if parent in frontier]
        found.update({p: command_line(p) for p in frontier})
    return found


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def stop(server: subprocess.Popen) -> None:
    """Stop JupyterLab, then anything it started that outlived it (its kernels
    run in sessions of their own, so they are tracked by pid and command line)."""
    started = descendants(server.pid)
    server.terminate()  # the server shuts its kernels down on SIGTERM
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    for pid, command in started.items():
        if command and command_line(pid) == command:  # still the same process
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    setattr(item, f"report_{outcome.get_result().when}", outcome.get_result())


@pytest.fixture
def page(browser, request):
    """A fresh page; on failure its screenshot and the text on screen are reported."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    yield page
    report = getattr(request.node, "report_call", None)
    shot = ARTIFACTS / f"FAILED-{request.node.name}.png"
    if report is not None and report.failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot of the failure: {shot}\npage: {page.url}\n{on_screen(page)}")
    elif report is not None:
        shot.unlink(missing_ok=True)  # an old failure's picture would mislead
    context.close()


def on_screen(page) -> str:
    """The text that matters on the page: the steppers' frames and feedback, the
    notebook's cells with their outputs and error messages, or else the page's end."""
    parts = []
    for what, selector in (("stepper", ".minigrad-stepper"),
                           ("error or dialog", ".jp-Dialog, .jp-RenderedText[data-mime-type="
                                               "'application/vnd.jupyter.stderr']"),
                           ("cell", ".jp-Notebook .jp-Cell.jp-mod-active")):
        for i, text in enumerate(page.locator(selector).all_inner_texts()[:3]):
            parts.append(f"--- {what} {i}:\n{text.strip()[:1500]}")
    if not parts:
        parts.append("--- the page's text (end):\n" + page.locator("body").inner_text()[-3000:])
    status = page.locator(".jp-StatusBar-Widget").all_inner_texts()
    if status:
        parts.append("--- status bar: " + " | ".join(t.strip() for t in status if t.strip()))
    return "\n".join(parts)


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


def wait_for_idle_kernel(lab, path: str, timeout: float = 60) -> None:
    """Wait until the kernel of the notebook at ``path`` has started and is idle, as the
    server says (/api/sessions): a language-independent wait (the status bar's words are
    translated, and the notebook's execution indicator says idle before a kernel is there;
    Run all then asks which kernel to start)."""
    url, token, _ = lab
    deadline = time.monotonic() + timeout
    while True:
        with urllib.request.urlopen(f"{url}/api/sessions?token={token}", timeout=5) as answer:
            sessions = json.load(answer)
        if any(s.get("path") == path and (s.get("kernel") or {}).get("execution_state") == "idle"
               for s in sessions):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"no idle kernel for {path} within {timeout} s: {sessions}")
        time.sleep(0.3)


def run_all(page):
    """Clear every output (so nothing stored can pass for a fresh one), then run all."""
    page.get_by_role("menuitem", name="Edit", exact=True).click()
    page.locator('li[data-command="editmenu:clear-all"]').click()
    page.locator(".jp-Notebook .jp-OutputArea-output").first.wait_for(state="detached")
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('li[data-command="runmenu:run-all"]').click()


# ---- the stepper on the page -------------------------------------------

def engine_order():
    """The lesson's graph: the output's box id, then per engine step (box id, SVG class)."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    out = (y * y * 3).mean()
    model = GraphModel.build([out])
    order = [(model.box_of[step.node], "AccumulateGrad" if step.is_leaf else step.node.name())
             for step in backward_steps(out)]
    return model.output_ids[0], order


def shown_frame(stepper, index, total):
    """The page of frame ``index`` (its sentence), once it is on screen."""
    frame = stepper.locator(f'.minigrad-frame[aria-label="frame {index} of {total}"]')
    frame.wait_for(state="visible", timeout=15_000)
    return frame


# The stepper's picture is one SVG styled per frame by its style sheet, so what
# the learner sees is read from the computed style: the box drawn with a 3 px
# border is the one that runs, and a label shows the texts that are displayed.
_CURRENT = """(stepper, label) => new Promise((resolve, reject) => {
    const start = performance.now();
    const look = () => {  // once frame `label` is the one on screen, in the same repaint
        const frame = [...stepper.querySelectorAll('.minigrad-frame')]
            .find(f => f.getClientRects().length > 0);
        if (label === null || (frame && frame.getAttribute('aria-label') === label)) {
            resolve([...stepper.querySelectorAll('svg g.node')].filter(g => {
                const shape = g.querySelector('polygon');
                return shape && getComputedStyle(shape).strokeWidth === '3px';
            }).map(g => [g.id, g.getAttribute('class')]));
        } else if (performance.now() - start > 15000) {
            reject(new Error('frame on screen: ' + (frame && frame.getAttribute('aria-label'))
                             + ', not ' + label));
        } else requestAnimationFrame(look);
    };
    look();
})"""

_SHOWN_TEXT = """(stepper, selector) => [...stepper.querySelectorAll('svg ' + selector)].map(
    g => [...g.querySelectorAll('text')].filter(t => t.getClientRects().length > 0)
         .map(t => t.textContent).join('\\n'))"""


def step_through(page, stepper, expected, who: str, snap: tuple[int, str]) -> None:
    """Click "step" once per engine step and check each frame on screen: its number,
    "Step k of n", and the box highlighted (``expected``: [(box id, node name)]; a
    message names ``who`` ran it). Frame ``snap[0]`` is saved as the snapshot ``snap[1]``."""
    total = len(expected)
    step = stepper.get_by_role("button", name="step")  # its name starts with the icon glyph
    for index, (box_id, name) in enumerate(expected, start=1):
        step.click()
        frame = shown_frame(stepper, index, total)
        shown_id, classes = current_box(stepper, index, total)
        assert (shown_id, name in classes) == (box_id, True), (
            f"step {index}: {who} runs {name} ({box_id}), the page highlights "
            f"{shown_id} ({' '.join(classes)})")
        assert f"Step {index} of {total}" in frame.inner_text()
        if index == snap[0]:
            snapshot(page, snap[1], stepper)


def current_box(stepper, index: int | None = None, total: int | None = None):
    """(id, classes) of the box the stepper's picture highlights; with ``index``,
    read when frame ``index`` of ``total`` is the one on screen."""
    label = None if index is None else f"frame {index} of {total}"
    found = stepper.evaluate(_CURRENT, label)
    assert len(found) == 1, f"{len(found)} highlighted boxes: {found}"
    return found[0][0], found[0][1].split()


_WATCH = """stepper => {
    const seen = window.__stepperFrames = [];
    window.__stopWatching = false;
    const look = () => {
        const frame = [...stepper.querySelectorAll('.minigrad-frame')]
            .find(f => f.getClientRects().length > 0);
        const current = [...stepper.querySelectorAll('svg g.node')].filter(g => {
            const shape = g.querySelector('polygon');
            return shape && getComputedStyle(shape).strokeWidth === '3px';
        }).map(g => g.id).join(' ');
        const entry = [frame ? frame.getAttribute('aria-label') : null, current];
        const last = seen[seen.length - 1];
        if (entry[0] !== null && (!last || last[0] !== entry[0] || last[1] !== entry[1]))
            seen.push(entry);
        if (!window.__stopWatching) requestAnimationFrame(look);
    };
    look();
}"""


def play_and_watch(page, stepper, until) -> list:
    """Click Play and record, at every repaint of the page, the frame on screen
    and the boxes highlighted, until the locator ``until`` shows. Returns
    ``[(frame index or the page's label, "box id"), ...]`` in the order seen.
    (Reading the page after each frame would race with Play on a busy machine.)"""
    stepper.evaluate(_WATCH)
    stepper.locator(".widget-play button").first.click()
    until.wait_for(timeout=60_000)
    page.evaluate("window.__stopWatching = true")
    seen = []
    for label, boxes in page.evaluate("window.__stepperFrames"):
        words = label.split()
        seen.append((int(words[1]) if words[0] == "frame" else label, boxes))
    return seen


def shown_text(stepper, selector: str, has_text: str = "") -> str:
    """The text shown (not hidden by the frame's style) in the first ``selector``
    of the stepper's picture (e.g. ``g.node.leaf``) that holds ``has_text``."""
    texts = [text for text in stepper.evaluate(_SHOWN_TEXT, selector) if has_text in text]
    assert texts, f"no {selector} showing {has_text!r}"
    return texts[0]
