"""Small modules and small functions stay so (issue 10): someone new reads any one of them in a
sitting. A module of the app, the benchmarks, the task runner or the tests holds at most
MODULE_LINES lines, and a function at most FUNCTION_LINES (decorators and docstring included).
Past either, split along the game's own lines (docs/ARCHITECTURE.md says where things go).
DATA names the modules that are a text, not code: the Rules page's plain-words rules, one entry
per rule, read as a whole (no function in it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULE_LINES = 300
FUNCTION_LINES = 60
CHECKED = ("app", "bench", "devtasks", "tests")
DATA = {"app/web/rule_texts.py"}


def sources() -> list[Path]:
    found = [path for folder in CHECKED for path in sorted((ROOT / folder).rglob("*.py"))]
    return [*found, ROOT / "tasks.py"]


def functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return (node.end_lineno or node.lineno) - first + 1


def test_the_sources_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in sources()}
    assert {"app/engine/turn.py", "app/web/service.py", "bench/load.py", "tasks.py"} <= names


def test_no_module_is_longer_than_the_bound() -> None:
    long = {name: lines for path in sources()
            if (name := path.relative_to(ROOT).as_posix()) not in DATA
            and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert not long, f"modules over {MODULE_LINES} lines: {long}"


def test_a_data_module_holds_no_code() -> None:
    for name in DATA:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        assert not functions(tree), name


def test_no_function_is_longer_than_the_bound() -> None:
    long = {}
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in functions(tree):
            if length(node) > FUNCTION_LINES:
                long[f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {node.name}"] = \
                    length(node)
    assert not long, f"functions over {FUNCTION_LINES} lines: {long}"


@pytest.mark.parametrize(("source", "longest"), [
    ("def f():\n    return 1\n", 2),
    ("@decorated\n@twice\ndef f():\n    '''Doc.'''\n    return 1\n", 5),
    ("class C:\n    async def f(self):\n" + "        x = 1\n" * 70, 71),
], ids=["plain", "decorated with a docstring", "an async method"])
def test_a_function_is_measured_from_its_first_decorator_to_its_last_line(
        source: str, longest: int) -> None:
    assert max(length(node) for node in functions(ast.parse(source))) == longest
