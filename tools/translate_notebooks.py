"""The lessons in Chinese and Korean, made from the English ones and the translators' catalogs.

    python tools/translate_notebooks.py            extract, then build (what `make translations` runs)
    python tools/translate_notebooks.py extract    English lessons -> catalogs
    python tools/translate_notebooks.py build      catalogs -> notebooks/zh/, notebooks/ko/
    python tools/translate_notebooks.py status     what is left to translate, per catalog

extract: the sentences in ``_()`` of widgets/, grader/ and the assignments' question
modules go to ``<folder>/locale/<domain>.pot`` and each language's
``<folder>/locale/<lang>/LC_MESSAGES/<domain>.po``; every English lesson ``notebooks/NN_*.ipynb`` gives a template
``notebooks/locale/templates/<lesson>.pot`` (its markdown blocks and code
comments, see ``kit_i18n.notebooks``), and each language's catalog
``notebooks/locale/<lang>/LC_MESSAGES/<lesson>.po`` is updated from it as
``pybabel update`` does: a new paragraph is added untranslated, a changed one
keeps its old translation marked fuzzy (with the previous English beside it),
a removed one goes. The translator fills in ``msgstr`` and removes the fuzzy flag.

build: ``notebooks/<lang>/<lesson>.ipynb`` is the English lesson with every
message translated (fuzzy and empty entries stay English), the code unchanged,
the notebook's ``lang`` metadata set (so the widgets speak the language) and a
note naming its English source. A lesson whose text did not change is left
alone; a changed one is written without outputs: ``make notebooks`` runs it
and stores them.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path

import nbformat
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kit_i18n.notebooks import messages, translate  # noqa: E402

LANGS = {"zh": "zh_CN", "ko": "ko_KR"}  # folder -> catalog locale
TAGS = {"zh": "zh-CN", "ko": "ko"}  # folder -> the notebook's "lang" metadata
NOTEBOOKS = ROOT / "notebooks"
# domain -> the folder of its Python code (its catalogs are in folder/locale/)
PACKAGES = {"widgets": ROOT / "widgets", "grader": ROOT / "grader",
            "assignments": NOTEBOOKS / "assignments"}
LOCALE = NOTEBOOKS / "locale"
# The note each translated lesson ends its first cell with (in the catalog "common")
SOURCE_NOTE = ("*This lesson is translated from the English lesson [{name}](../{name}); "
               "its code is the same.*")


def lessons() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def template(name: str, found: list[tuple[str, int]], source: str) -> Catalog:
    """The catalog template; each message's location is ``<lesson>.ipynb:<cell number>``."""
    catalog = new_catalog(None, name)
    for text, cell in found:
        # prose, not a format string (Babel flags any text with braces as one)
        catalog.add(text, locations=[(source, cell)]).flags.discard("python-brace-format")
    return catalog


def new_catalog(locale: str | None, name: str) -> Catalog:
    return Catalog(locale=locale, domain=name, project="minigrad-kit", fuzzy=False,
                   copyright_holder="minigrad kit developers",
                   header_comment=f"# {name}: messages of the minigrad kit"
                                  + (f", in {locale}." if locale else " (the template).")
                                  + "\n# Made by tools/translate_notebooks.py; translators "
                                    "fill in msgstr.")


DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\n', re.MULTILINE)


def write(catalog: Catalog, path: Path, **options) -> None:
    """Write ``catalog`` unless only its dates would change (no churn in the history)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, **options)
    text = buffer.getvalue()
    if path.is_file() and DATES.sub(b"", path.read_bytes()) == DATES.sub(b"", text):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def update(name: str, pot: Catalog, locale_dir: Path | None = None,
           pot_path: Path | None = None) -> None:
    """Write the template, and bring each language's catalog up to date with it
    (lessons: in notebooks/locale/, templates in its folder templates/)."""
    locale_dir = locale_dir or LOCALE
    write(pot, pot_path or locale_dir / "templates" / f"{name}.pot")
    for lang, locale in LANGS.items():
        path = locale_dir / lang / "LC_MESSAGES" / f"{name}.po"
        catalog = read(path, locale) if path.is_file() else new_catalog(locale, name)
        catalog.update(pot, no_fuzzy_matching=False, update_header_comment=False)
        if pot_path is None:  # notebook prose, not format strings (see template())
            for message in catalog:
                message.flags.discard("python-brace-format")
        write(catalog, path, ignore_obsolete=True, include_previous=True)


def extract_code() -> None:
    """The sentences in ``_()`` of each package (as ``pybabel extract`` and ``update``)."""
    for domain, folder in PACKAGES.items():
        pot = new_catalog(None, domain)
        for filename, _line, message, comments, context in extract_from_dir(
                folder, method_map=[("**.py", "python")], comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            pot.add(message, locations=[(f"{folder.relative_to(ROOT)}/{filename}", None)],
                    auto_comments=comments, context=context)
        if domain == "widgets":
            for text in formula_words():
                pot.add(text, locations=[("minigrad/autograd/formula.py", None)],
                        auto_comments=["a formula from minigrad's table: translate the words, "
                                       "keep every symbol and operator as it is"])
        update(domain, pot, folder / "locale", folder / "locale" / f"{domain}.pot")


# Names in formulas that are code, not words
MATH = {"self", "other", "exp", "log", "sqrt", "tanh", "sin", "cos", "sum", "mean", "max", "min",
        "abs", "sign", "dim", "grad", "out", "input", "index", "weight", "target", "alpha",
        "beta", "exponent", "result", "src", "mat", "vec", "prod", "std", "var", "norm",
        "softmax", "keepdim", "sigmoid", "relu", "clamp", "numel", "mat1", "mat2", "outer",
        "floor", "ceil", "trunc", "round", "decimals", "value", "gamma", "lgamma",
        "digamma", "polygamma"}


def formula_words() -> list[str]:
    """The texts of minigrad's formula table that hold words ("mean of all n elements of
    x"): the widgets say them in the learner's language (``widgets.i18n.in_words``)."""
    import minigrad.nn  # noqa: F401  (the losses' nodes are in the table too)
    from minigrad.autograd import FORMULAS

    found = set()
    for formula in FORMULAS.values():
        for text in (formula.expression, *formula.d.values(), *formula.grad.values()):
            if any(word not in MATH for word in re.findall(r"\b[a-z]{3,}\b", text)):
                found.add(text)
    return sorted(found)


def assignments() -> list[Path]:
    return sorted((NOTEBOOKS / "assignments").glob("[0-9][0-9]_*.ipynb"))


def extract() -> None:
    extract_code()
    for path in lessons():
        nb = json.loads(path.read_text(encoding="utf-8"))
        update(path.stem, template(path.stem, messages(nb), path.name))
    # the assignments' notebooks: `minigrad-kit release --lang` translates them with these
    folder = NOTEBOOKS / "assignments" / "locale"
    for path in assignments():
        nb = json.loads(path.read_text(encoding="utf-8"))
        update(path.stem, template(path.stem, messages(nb), path.name), folder)
    update("common", template("common", [(SOURCE_NOTE, None)], "tools/translate_notebooks.py"))


def gettext_of(path: Path, locale: str):
    """msgid -> msgstr for the finished (translated, not fuzzy) entries of ``path``."""
    done = {}
    if path.is_file():
        for message in read(path, locale):
            if message.id and message.string and not message.fuzzy:
                done[message.id] = message.string
    return lambda text: done.get(text, text)


LINK = re.compile(r"(\]\(|<img src=\"|<a href=\")(?!https?:|#|mailto:|\.\./)([^)\"\s]+)")


def relink(text: str, lessons_here: set) -> str:
    """Links from notebooks/<lang>/: a lesson stays a sibling (the translated one), and
    so does an assignment (a copied course has <lang>/assignments/, in that language);
    anything else in the kit (pictures, the README) is one folder up."""
    def fix(match):
        target = match.group(2)
        stays = target.split("#")[0] in lessons_here or target.startswith("assignments/")
        return match.group(0) if stays else match.group(1) + "../" + target
    return LINK.sub(fix, text)


def translated(path: Path, lang: str):
    """The lesson ``path`` in ``lang``, from its catalog (no outputs)."""
    gettext = gettext_of(LOCALE / lang / "LC_MESSAGES" / f"{path.stem}.po", LANGS[lang])
    common = gettext_of(LOCALE / lang / "LC_MESSAGES" / "common.po", LANGS[lang])
    nb = nbformat.from_dict(translate(nbformat.read(path, as_version=4), gettext))
    names = {p.name for p in lessons()}
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = relink(cell.source, names)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            cell.metadata.pop("execution", None)
    first = next(cell for cell in nb.cells if cell.cell_type == "markdown")
    first.source += "\n\n" + common(SOURCE_NOTE).replace("{name}", path.name)
    nb.metadata.pop("widgets", None)
    nb.metadata["lang"] = TAGS[lang]
    nb.metadata["minigrad_translation"] = {
        "source": f"../{path.name}", "catalog": f"../locale/{lang}/LC_MESSAGES/{path.stem}.po"}
    return nb


def build_one(path: Path, lang: str) -> bool:
    """Write notebooks/<lang>/<lesson>; True when it changed."""
    nb = translated(path, lang)
    target = NOTEBOOKS / lang / path.name
    if target.is_file() and same_text(nbformat.read(target, as_version=4), nb):
        return False
    target.parent.mkdir(exist_ok=True)
    nbformat.write(nb, target)
    return True


def same_text(old, new) -> bool:
    """Same cells (type, source, tags) and language: the stored outputs still belong."""
    def text(nb):
        return ([(c.cell_type, c.source, c.metadata.get("tags")) for c in nb.cells],
                nb.metadata.get("lang"), nb.metadata.get("minigrad_translation"))
    return text(old) == text(new)


def build() -> list[Path]:
    changed = [NOTEBOOKS / lang / path.name for lang in LANGS for path in lessons()
               if build_one(path, lang)]
    for path in changed:
        print(f"wrote {path} (no outputs yet: run make notebooks)")
    return changed


PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")


def catalogs(lang: str) -> list[Path]:
    """Every catalog of ``lang``: the packages', then the lessons'."""
    found = [folder / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
             for domain, folder in PACKAGES.items()]
    found += [NOTEBOOKS / "assignments" / "locale" / lang / "LC_MESSAGES" / f"{p.stem}.po"
              for p in assignments()]
    return found + sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po"))


def problems(path: Path, locale: str) -> list[str]:
    """Untranslated and fuzzy entries, and translations whose {placeholders} differ."""
    found = []
    for message in read(path, locale) if path.is_file() else ():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        first = ids[0].split("\n")[0][:60]
        if not all(strings):
            found.append(f"untranslated: {first!r}")
        elif message.fuzzy:
            found.append(f"fuzzy (check it, then remove the fuzzy flag): {first!r}")
        elif "python-brace-format" in message.flags:
            wanted = set(PLACEHOLDER.findall(ids[0]))
            # a translator's note may offer others ("{ordinal} is 5th; {n} is the number 5"),
            # any of which the translation may use instead
            offered = set(PLACEHOLDER.findall(" ".join(message.auto_comments)))
            for string in strings:
                used = set(PLACEHOLDER.findall(string))
                if not used <= wanted | offered or not wanted - offered <= used:
                    found.append(f"placeholders differ ({' '.join(sorted(wanted))}): {first!r}")
    return found


def status(langs) -> int:
    left = 0
    for lang in langs:
        for path in catalogs(lang):
            found = problems(path, LANGS[lang])
            left += len(found)
            print(f"{path.relative_to(ROOT)}: "
                  + (f"{len(found)} to do" if found else "done"))
            for line in found[:5]:
                print(f"    {line}")
            if len(found) > 5:
                print(f"    ... and {len(found) - 5} more")
    return 1 if left else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", nargs="?", choices=["extract", "build", "status"],
                        help="only this step (default: extract, then build)")
    parser.add_argument("--lang", choices=sorted(LANGS), help="status: only this language")
    args = parser.parse_args(argv)
    if args.step == "status":
        return status([args.lang] if args.lang else list(LANGS))
    if args.step in (None, "extract"):
        extract()
    if args.step in (None, "build"):
        build()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
