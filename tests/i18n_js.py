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

#: Placeholders a translation may leave out, by key: their values are English text from
#: the server (a `detail`, `what` or `reason` sentence, the engine's name of a `phase`), or
#: say nothing a reader needs (the empty name; the code of the room just asked for). A
#: translation never adds one.
OMITTABLE = {
    "illegal.round_not_over": {"phase"},
    "kind.not_over": {"detail"},
    "kind.text_empty": {"what"},
    "kind.text_too_long": {"what"},
    "kind.text_control": {"what"},
    "kind.match_stopped": {"reason"},
    "kind.no_room": {"code"},
    "kind.name_empty": {"name"},
    "mistake.name_empty": {"name"},
    "mistake.no_sheet": {"detail"},
    "mistake.not_a_number": {"what"},
    "mistake.request_fields": {"what"},
}


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


#: A browser's globals as the client's modules read them: the saved choice (every
#: `localStorage` key answers it) and the browser's languages.
BROWSER = (
    "const [module, setup] = process.argv.slice(1);"
    "const { saved, languages, language } = JSON.parse(setup);"
    "globalThis.localStorage = { getItem: () => saved, setItem() {} };"
    "const browser = { value: { languages, language }, configurable: true };"
    "Object.defineProperty(globalThis, 'navigator', browser);"
    "globalThis.document = { documentElement: {} };"
)


def run_js(module: Path, expression: str, data: Any = None, **browser: Any) -> Any:
    """The JSON value of `expression` over the JS module `module` (imported as `mod`) and
    `data` (as `input`), run by node in a stubbed browser: `saved` (the language chosen
    before), `languages` and `language` (the browser's)."""
    assert shutil.which("node"), "node is not installed (.ci/run installs nodejs)"
    script = BROWSER + (
        "let text = ''; for await (const chunk of process.stdin) text += chunk;"
        "const input = JSON.parse(text);"
        "const mod = await import(module);"
        f"process.stdout.write(JSON.stringify({expression}));"
    )
    setup = {"saved": None, "languages": [], "language": "en-US", **browser}
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, module.as_uri(), json.dumps(setup)],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def render(path: Path, function: str, language: str, errors: list[dict[str, Any]]) -> list[str]:
    """The JS module `path`'s `function` (in `language`) applied to each error, run by node."""
    return run_js(path, f"input.map((error) => mod.{function}(error))", errors, saved=language)


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
