"""The kit's lessons and assignments, installed as the package data ``minigrad_kit_notebooks``.

Nothing here is imported: ``minigrad-kit lessons DIR`` and ``minigrad-kit assignments DIR``
copy the notebooks out, and the grader finds the kit's question modules here
(``importlib.resources.files("minigrad_kit_notebooks") / "assignments"``).
"""
