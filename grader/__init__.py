"""Graded assignments: the student's ``check()`` and the teacher's ``minigrad-kit``.

In a notebook::

    from grader import check, check_all, start
    start("derive_it_by_hand")    # the assignment's first cell does this
    check("q1")                   # public checks of q1, with hints (in your kernel)
    check_all()                   # every question, one line each
    from_formula("dy", x=x, ...)  # a formula answer computed on tensors
    set_language("zh")            # hints in Chinese ("ko": Korean; by default the
                                  # notebook's language, else the locale's, else English)

For the teacher (see ``notebooks/assignments/README.md``)::

    minigrad-kit assignments course/          # the kit's five, as a course folder
    minigrad-kit release course/*.ipynb --out release/
    minigrad-kit grade submissions/ --source course/ --out grades/
    minigrad-kit review grades/

An assignment is an instructor notebook and its question module ``<assignment>.py`` side
by side; the kit's own five are written that way (``notebooks/assignments/``).

Where things live:
    questions.py   what a question is: extract (in the kernel) + judge (in the grader);
                   loading a question module
    judging.py     the helpers question modules share (compare, check_grad, ...)
    data.py        the JSON a kernel hands back, and what the judges read
    kernel_side.py the extract step (in a code run, and in check())
    student.py     start(), check(), check_all()
    notebook.py    nbgrader's cell metadata and markers; the student version
    source.py      an instructor notebook checked against its question module; the hidden
                   inputs
    formula.py     answers written as formulas: a restricted parser, evaluated with NumPy
    answers.py     answers given as data, read from the notebook's text
    sandbox.py     bubblewrap around each code run and kernel
    kernel.py      run a notebook in a fresh kernel, as nbgrader does (release's checks)
    scan.py        flag suspicious code in what ran; tampering holds back points
    exact.py       is a formula the derivative, or an approximation? (200 digits)
    forward_only.py tensors without autograd, for code answers that must sum by hand
    tensor_text.py  ... printed as PyTorch prints a tensor
    variants.py    each student's own numbers, written into the locked cells
    run.py         run a code question's cells in a fresh sandboxed process
    runner.py      ... its side inside that process
    grade.py       grade one submission: read the data, run the code, judge, review
    batch.py       grade many submission files in parallel
    resume.py      what a stopped run graded, kept until every result is stored (--missing)
    release.py     write student versions, after proving solution and stub behave
    manifest.py    the result files the grader wrote, with their hashes
    report.py      gradebook CSV, feedback files, written answers, review decisions;
                   merging shards
    kit.py         the kit's lessons and assignments, shipped as package data
    i18n.py        the message catalogs (the language is chosen in kit_i18n)
    cli.py         the ``minigrad-kit`` command
    command_line.py ``--salt``'s value off the process list (``/proc/<pid>/cmdline``)
"""

from .i18n import language, set_language
from .student import check, check_all, from_formula, start

__all__ = ["check", "check_all", "start", "from_formula", "set_language", "language"]
