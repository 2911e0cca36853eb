"""A formula's symbols as PyTorch names them, and never as one of the learner's names.

minigrad's table of formulas writes ``z = self * other`` and ``y = exp(x)``,
while a learner's notebook is full of tensors called ``x``, ``y`` and ``z``.
So every sentence and every text alternative says a formula in PyTorch's own
words, the ones ``tools/autograd/derivatives.yaml`` uses and lesson 4 teaches:
the output is ``result`` and a lone input ``x`` is ``self`` (``other``,
``mat2``, ``exponent`` ... are PyTorch's names already)::

    z = self * other      ->  result = self * other
    y = exp(x)            ->  result = exp(self)
    y_i = sum_j x_ij ...  ->  result_i = sum_j self_ij ...

These words are PyTorch's, so they are the same in every language. Where the
learner gave one of them to a tensor of their own (``names={"result": r}``),
another word is chosen, so a symbol never reads as a tensor it is not.

Symbols are found with an ASCII-only pattern: in Korean text "x의" is the
symbol ``x`` followed by a particle (``\\w`` would read it as one word).
"""

from __future__ import annotations

import dataclasses
import re

__all__ = ["IDENTIFIER", "pytorch_words", "rewrite", "term", "free_word"]

# A symbol: ASCII letters, digits and _, not inside a longer ASCII word.
IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
# PyTorch's word for each of the table's placeholders, then the words used instead
# when the learner has taken it.
_OUTPUT = ("result", "output", "res")
_INPUT = ("self", "input", "inp")


def free_word(words: tuple, taken) -> str:
    """The first of ``words`` that is not in ``taken`` (else the first with a number)."""
    for word in words:
        if word not in taken:
            return word
    n = 2
    while f"{words[0]}{n}" in taken:
        n += 1
    return f"{words[0]}{n}"


def _base(symbol: str) -> tuple[str, str]:
    """``"y_i"`` -> ``("y", "_i")``, ``"y[i][j]"`` -> ``("y", "[i][j]")``."""
    match = re.match(r"[A-Za-z0-9]+", symbol)
    return (match.group(0), symbol[match.end():]) if match else (symbol, "")


def pytorch_words(formula, taken=()) -> dict:
    """Table symbol -> the word to write for it (the symbols that change only):
    a one-letter output becomes ``result``, the input ``x`` becomes ``self``, and
    any symbol that is one of the learner's ``taken`` names becomes a free word."""
    taken = set(taken)
    words: dict = {}
    base, index = _base(formula.output)
    if len(base) == 1 or base in taken:
        words[base] = free_word(_OUTPUT, taken)
    for name in formula.inputs:
        base, index = _base(name)
        if base == "x" or base in taken:
            words[base] = free_word(_INPUT, taken | set(words.values()))
    # other symbols of the formula (a constant's "other", "alpha", "n") that are taken
    texts = [formula.expression, *formula.d.values(), *formula.grad.values()]
    for symbol in {s for text in texts for s in IDENTIFIER.findall(text)}:
        if symbol in taken and symbol not in words:
            words[symbol] = free_word((f"{symbol}_",), taken | set(words.values()))
    return words


def rewrite(text: str, words: dict | None) -> str:
    """``text`` with each symbol of ``words`` replaced (whole ASCII symbols only)."""
    if not words:
        return text
    return IDENTIFIER.sub(lambda m: words.get(m.group(0), _indexed(m.group(0), words)), text)


def _indexed(symbol: str, words: dict) -> str:
    """``x_i`` when only ``x`` has a word: that word, with the index kept."""
    base, rest = symbol.split("_", 1) if "_" in symbol else (symbol, None)
    if rest is not None and base in words:
        return f"{words[base]}_{rest}"
    return symbol


def term(formula, name: str, words: dict | None) -> str:
    """``d(result)/d(self) = other``, or ``grad mat2 = self^T @ G``."""
    out, shown = rewrite(formula.output, words), rewrite(name, words)
    if name in formula.d:
        return f"d({out})/d({shown}) = {rewrite(formula.d[name], words)}"
    return f"grad {shown} = {rewrite(formula.grad[name], words)}"


def replaced(formula, words: dict):
    """The formula with its symbols rewritten (for texts made from it whole)."""
    return dataclasses.replace(formula, output=rewrite(formula.output, words),
                               expression=rewrite(formula.expression, words))
