"""The web client's sentence tables, read from its JavaScript, and its own
rendering code run by node: so tests check the sentences the page writes, in
each language, against what the server sends."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any


def sentence_tables(path: Path, prefix: str) -> dict[str, dict[str, str]]:
    """The `"<prefix>.<kind>": "sentence"` strings of each language's table (`en`,
    `es`, `fr`, `de`) of the JS file `path`, per language; a kind given twice in
    one table fails."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf'^\s*"{re.escape(prefix)}\.(\w+)": ("(?:[^"\\]|\\.)*"),$', re.M)
    tables = {}
    for lang in re.findall(r"^  (\w+): \{$", text, re.M):
        start = text.index(f"\n  {lang}: {{")
        found = pattern.findall(text[start : text.index("\n  },", start)])
        tables[lang] = {kind: json.loads(sentence) for kind, sentence in found}
        assert len(tables[lang]) == len(found), f"a kind twice in the {lang} table"
    return tables


def render(path: Path, function: str, language: str, errors: list[dict[str, Any]]) -> list[str]:
    """The JS module `path`'s `function` (in `language`) applied to each error, run by node."""
    assert shutil.which("node"), "node is not installed (.ci/run installs nodejs)"
    script = (
        "const [lang, module] = process.argv.slice(1);"
        "globalThis.localStorage = { getItem: () => lang, setItem() {} };"
        "globalThis.document = { documentElement: {} };"
        f"const {{ {function} }} = await import(module);"
        "let input = ''; for await (const chunk of process.stdin) input += chunk;"
        f"process.stdout.write(JSON.stringify(JSON.parse(input).map({function})));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, language, path.as_uri()],
        input=json.dumps(errors),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def core_kinds(module: Any, error: str) -> set[str]:
    """The kinds that `module`'s raises of `error` name (a constant second argument:
    `MatchError(message, kind, params)`, `RulesError(...)`)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    kinds = set()
    for node in ast.walk(tree):
        called = isinstance(node, ast.Call) and getattr(node.func, "id", None) == error
        if called and len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            kinds.add(node.args[1].value)
    return kinds
