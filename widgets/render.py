"""DOT text -> SVG text, with or without a system Graphviz.

The ``graphviz`` Python package builds and quotes DOT, but to lay it out it
runs a program named ``dot`` that many machines do not have. ``render_svg``
runs, in this order:

1. ``graphviz-pure`` (``pip install graphviz-pure``: a static port of
   Graphviz 16.1, installed next to Python as an executable);
2. a system ``dot`` (``apt-get install graphviz``, ``brew install graphviz``).

Choose one with ``render_svg(graph, engine="dot")`` or the environment
variable ``MINIGRAD_GRAPHVIZ`` (``graphviz-pure``, ``dot`` or a path).
``Digraph`` is a ``graphviz.Digraph`` whose notebook display goes through
``render_svg`` and never raises: a lesson cell does not die of a missing
program.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import unicodedata
from pathlib import Path

import graphviz

from .errors import GraphvizNotFound, RenderError

__all__ = ["Digraph", "render_svg", "find_program", "ENV_VAR", "FONT_STACK", "font_family"]

ENV_VAR = "MINIGRAD_GRAPHVIZ"
# The drawings' text: Latin in Courier (the metric Graphviz lays labels out with) or the
# browser's monospace (the same 0.6 em advance); Chinese and Korean glyphs, which neither
# has, from a CJK font (a full-width glyph is 1 em; Graphviz reserves at least that).
FONT_STACK = ("Courier,monospace,'Noto Sans Mono CJK SC','Noto Sans CJK SC','Noto Sans CJK KR',"
              "'Source Han Sans SC','PingFang SC','Microsoft YaHei','Apple SD Gothic Neo',"
              "'Malgun Gothic'")
PROGRAMS = ("graphviz-pure", "dot")  # tried in this order when none is chosen
FIX = ("Install one of them: `pip install graphviz-pure` (in this environment: "
       "`{python} -m pip install graphviz-pure`), or the system package "
       "(`apt-get install graphviz`, `brew install graphviz`, `conda install graphviz`).")


def render_svg(graph, engine: str | None = None, *, timeout: float = 60) -> str:
    """Lay out ``graph`` (a ``graphviz`` graph or DOT text) and return SVG text.

    ``engine``: ``"graphviz-pure"``, ``"dot"``, a path to a program, or None
    for ``$MINIGRAD_GRAPHVIZ`` or else the first of graphviz-pure, dot that
    runs. The graph's own layout engine (``graph.engine``, e.g. ``"dot"`` or
    ``"neato"``) is passed on as ``-K``.
    """
    source = graph if isinstance(graph, str) else graph.source
    layout = "dot" if isinstance(graph, str) else graph.engine
    tried = []
    for program in _candidates(engine):
        try:
            return _run(source, program, layout, timeout)
        except OSError as error:  # not executable here (wrong platform, permissions)
            tried.append(f"{program} ({error.strerror or error})")
    raise _not_found(engine, tried)


def find_program(engine: str | None = None) -> str:
    """The path of the program ``render_svg`` would try first."""
    for program in _candidates(engine):
        return program
    raise _not_found(engine, [])


def _candidates(engine: str | None) -> list[str]:
    choice = engine or os.environ.get(ENV_VAR) or None
    names = (choice,) if choice else PROGRAMS
    return [path for path in map(_which, names) if path is not None]


def _search_dirs() -> list[Path]:
    """Where pip puts executables: next to Python, and the scripts dir."""
    return [Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))]


def _which(name: str) -> str | None:
    if os.sep in name or (os.altsep and os.altsep in name):  # an explicit path
        return name if os.access(name, os.X_OK) else None
    exe = name + ".exe" if os.name == "nt" else name
    for folder in _search_dirs():
        path = folder / exe
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return shutil.which(name)


@functools.lru_cache(maxsize=128)  # a refresh or a re-display of the same graph is free
def _run(source: str, program: str, layout: str, timeout: float) -> str:
    try:
        done = subprocess.run([program, f"-K{layout}", "-Tsvg"], input=source.encode(),
                              capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RenderError(
            f"{Path(program).name} took more than {timeout} s to lay out the graph; "
            "draw fewer nodes (draw_graph(..., max_nodes=...) or collapse=...) "
            "or pass a larger timeout=") from None
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise RenderError(f"{Path(program).name} failed (exit status {done.returncode}): "
                          f"{message}")
    return with_font_stack(done.stdout.decode("utf-8"))


def font_family(svg: str) -> str:
    """The font stack for ``svg``'s text: Courier's, and CJK fonts when it holds wide
    (Chinese, Korean) characters."""
    wide = any(unicodedata.east_asian_width(c) in "WF" for c in svg if ord(c) > 0x2e7f)
    return FONT_STACK if wide else "Courier,monospace"


def with_font_stack(svg: str) -> str:
    """``svg`` naming CJK fonts after Courier when its text needs them."""
    return svg.replace('font-family="Courier,monospace"', f'font-family="{font_family(svg)}"')


def _not_found(engine: str | None, tried: list[str]) -> GraphvizNotFound:
    choice = engine or os.environ.get(ENV_VAR)
    if choice:
        wanted = f"the Graphviz program {choice!r}"
        if not engine:
            wanted += f" (chosen by ${ENV_VAR})"
    else:
        wanted = "a Graphviz program ('graphviz-pure' or 'dot')"
    where = ", ".join(str(d) for d in _search_dirs()) + " and the PATH"
    ran = f"; could not run: {', '.join(tried)}" if tried else ""
    return GraphvizNotFound(f"Cannot draw the graph: {wanted} was not found in {where}{ran}. "
                            + FIX.format(python=sys.executable))


def inline_svg(svg: str) -> str:
    """The ``<svg>`` element alone (no XML prolog), for embedding in HTML."""
    return svg[svg.find("<svg"):]


class Digraph(graphviz.Digraph):
    """A ``graphviz.Digraph`` that displays through ``render_svg``.

    In a notebook it shows as SVG with no system Graphviz; when no program
    can run, it shows the reason and the DOT text instead of an error.
    ``summary`` is a one-line description (also the text shown without SVG).
    """

    summary = "a graph"

    def _repr_image_svg_xml(self) -> str:
        return render_svg(self)

    def _repr_mimebundle_(self, include=None, exclude=None, **_) -> dict:
        wanted = set(include) if include is not None else {"image/svg+xml"}
        wanted -= set(exclude or ())
        bundle = {"text/plain": self.summary}
        if "image/svg+xml" in wanted:
            try:
                bundle["image/svg+xml"] = render_svg(self)
            except (GraphvizNotFound, RenderError) as error:
                bundle["text/plain"] = f"{self.summary}\n\n{error}\n\n{self.source}"
        return bundle
