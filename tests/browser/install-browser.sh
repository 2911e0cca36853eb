#!/usr/bin/env bash
# What the browser and widget tests need beyond Python packages, installed when
# missing (quick when present): Debian's Chromium (Playwright cannot download
# its own browser here), Graphviz's system `dot` (the widget tests render with
# it too), bubblewrap's `bwrap` (the grader's sandbox for students' kernels), and
# the widget HTML manager that lets an exported notebook play its widgets without
# a kernel or a CDN.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)  # the path tests/browser/conftest.py launches
command -v dot >/dev/null || missing+=(graphviz)
command -v bwrap >/dev/null || missing+=(bubblewrap)
# Chinese and Korean glyphs for the translated lessons' pages and graphs (the SVG's
# font stack names Noto Sans CJK; fontconfig finds it for Chromium)
{ fc-list :lang=zh | grep -q . && fc-list :lang=ko | grep -q .; } 2>/dev/null \
    || missing+=(fonts-noto-cjk)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing ${missing[*]} (Debian packages) for the browser tests"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    else
        echo "the browser tests need ${missing[*]}: install them with your package manager" >&2
        exit 1
    fi
fi

manager=".venv/share/minigrad-kit/html-manager"
if [ ! -f "$manager/embed.js" ]; then
    if ! command -v npm >/dev/null; then
        echo "the exported-lesson test needs npm to fetch @jupyter-widgets/html-manager:" \
             "install Node.js and npm (apt-get install npm)" >&2
        exit 1
    fi
    echo "fetching @jupyter-widgets/html-manager (npm) for exported notebooks"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && npm pack --silent @jupyter-widgets/html-manager@1.0.15 >/dev/null \
        && tar -xzf jupyter-widgets-html-manager-*.tgz)
    mkdir -p "$manager"
    cp -r "$work/package/dist/." "$manager/"
fi
