"""The package's layers, checked on the import graph drawn from the source.

Data flows one way: an interface calls the core, never the reverse. The layers,
lowest first; a module may import a module of its own part or of a part in a
lower layer, never one of a higher layer nor one of another part of its own
layer:

1. core: `skyjo` and its modules (rules, engine, scoring, record, render, wording,
   seeds, shuffle, stall, errors, names, paths, jsondepth, commandline: what
   every part's commands share), but `match`, `cli` and `__main__`;
2. kernel: `skyjo.kernel`, the compiled game (the engine's rules on arrays,
   and the playouts, policies, game loop and observation encoder that run on
   them), the only part that compiles; and, side by side with it, persistence:
   `skyjo.persistence`, the database (where it is, its engine, every table, the
   schema's versions and migrations), which the interfaces that keep things
   (scorepad, web) stand on;
3. bots: `skyjo.bots` (players, built on the core and the kernel);
4. match: `skyjo.match` (a table whose seats bots or humans play), and, side
   by side with it, batch: `skyjo.batch` (many games at once, driving the
   kernel's game loop) and analysis: `skyjo.analysis` (reviews of played
   games built on the bots' values, which the interfaces show);
5. sim (tournaments of bots), scorepad (score sheets of games played at a real
   table), tui (the terminal app) and env (the agents' PettingZoo and
   Gymnasium environments): four interfaces side by side;
6. web: the web app (which also serves the scorepad's pages), and, side by
   side with it, train: `skyjo train`, the trainer (PyTorch) of the `best`
   bot's learned value;
7. cli: `skyjo.cli` and `skyjo.__main__`, which assemble the commands each
   part owns (its `cli` module) into `skyjo`.

The graph is static (`ast`): every `import` and `from ... import` of a module,
at its top, in a function or under `TYPE_CHECKING`, counts. A package's
`__init__` running before its modules is not counted as an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

#: The layers, lowest first: each a tuple of the parts that sit side by side.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("kernel", "persistence"),
    ("bots",),
    ("match", "batch", "analysis"),
    ("sim", "scorepad", "tui", "env"),
    ("web", "train"),
    ("cli",),
)
#: The subpackages of `skyjo` that are parts of their own.
PACKAGES = frozenset(
    {
        "kernel",
        "persistence",
        "bots",
        "batch",
        "analysis",
        "sim",
        "scorepad",
        "tui",
        "env",
        "web",
        "train",
    }
)
#: The modules of `skyjo` that are parts of their own, or of the cli.
MODULES = {"match": "match", "cli": "cli", "__main__": "cli"}
RANK = {part: rank for rank, layer in enumerate(LAYERS) for part in layer}


def modules(src: Path = SRC) -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    found = {}
    for path in sorted((src / "skyjo").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(src: Path = SRC) -> dict[str, set[str]]:
    """The import graph: each module -> the package's modules it imports."""
    known = modules(src)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module or ""
                for alias in node.names:
                    submodule = f"{module}.{alias.name}"
                    targets.add(submodule if submodule in known else module)
        graph[name] = {target for target in targets if target in known and target != name}
    return graph


def part(module: str) -> str:
    """The part (see `LAYERS`) a module belongs to."""
    names = module.split(".")
    if len(names) == 1:
        return "core"
    if names[1] in PACKAGES:
        return names[1]
    return MODULES.get(names[1], "core")


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def against_the_layers(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a module of a higher layer, or of a side-by-side part."""
    wrong = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = part(source), part(target)
            if here != there and RANK[there] >= RANK[here]:
                wrong.append(f"{source} ({here}) imports {target} ({there})")
    return wrong


def test_the_graph_is_drawn_from_the_source() -> None:
    graph = imports()
    assert "skyjo.sim.results" in graph["skyjo.sim.stats"]
    assert "skyjo.bots" in graph["skyjo.match"]
    assert "skyjo.persistence.tables" in graph["skyjo.scorepad.store"]
    # a function-level import counts: cli imports a part's commands when one runs
    assert "skyjo.sim.cli" in graph["skyjo.cli"]
    # and the tournament imports the batch engine when it plays with it
    assert "skyjo.batch" in graph["skyjo.sim.tournament"]


def test_every_module_is_in_a_layer() -> None:
    assert {part(module) for module in modules()} <= set(RANK)
    assert {*PACKAGES, *MODULES.values(), "core"} == set(RANK)


def test_no_module_imports_itself_back_through_others() -> None:
    assert circles(imports()) == []


def test_no_import_runs_up_the_layers() -> None:
    assert against_the_layers(imports()) == []


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules `start` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_scorepad_stands_on_the_core_alone() -> None:
    """A score sheet of a game played at a real table needs no bot and no match:
    the scorepad (its model, store and terminal app) reaches the core and the
    persistence (its tables) only."""
    graph = imports()
    for module in (m for m in graph if part(m) == "scorepad"):
        beyond = {part(target) for target in reached(graph, module)}
        beyond -= {"core", "persistence", "scorepad"}
        assert not beyond, f"{module} reaches {sorted(beyond)}"


def test_the_environments_stand_on_the_core_kernel_bots_and_match() -> None:
    """The agents' environments adapt the engine (or its compiled twin, the
    kernel) and seat the bots: they reach the core, the kernel, the bots and at
    most the match, and only the trainer and the cli may import them."""
    graph = imports()
    envs = [m for m in graph if part(m) == "env"]
    assert "skyjo.env.aec" in envs and "skyjo.engine" in graph["skyjo.env.table"]
    for module in envs:
        beyond = {part(target) for target in reached(graph, module)}
        allowed = {"core", "kernel", "bots", "match", "env"}
        assert beyond <= allowed, f"{module} reaches {sorted(beyond)}"
    for module, targets in graph.items():
        if part(module) not in ("env", "train", "cli"):
            assert not {t for t in targets if part(t) == "env"}, f"{module} imports the env"


def test_only_the_trainer_imports_pytorch() -> None:
    """Playing never needs PyTorch (the `[train]` extra): only `skyjo.train`
    imports it, and only the cli imports `skyjo.train` (in its command)."""
    torch_users = set()
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(n.split(".")[0] == "torch" for n in names):
                torch_users.add(name)
    assert {f"skyjo.train.value_{m}" for m in ("net", "fit", "run")} <= torch_users
    assert {part(m) for m in torch_users} == {"train"}
    for module, targets in imports().items():
        if part(module) not in ("train", "cli"):
            assert not {t for t in targets if part(t) == "train"}, f"{module} imports train"


def test_the_batch_simulator_stands_on_the_core_the_kernel_and_the_bots() -> None:
    """The batch simulator drives the kernel's game loop and compiled policies:
    it reaches the core, the kernel and the bots only (which bot specs the
    policies play), never a match, a tournament or an interface (the
    tournament imports it, not the reverse)."""
    graph = imports()
    for module in (m for m in graph if part(m) == "batch"):
        beyond = {part(target) for target in reached(graph, module)}
        beyond -= {"core", "kernel", "bots", "batch"}
        assert not beyond, f"{module} reaches {sorted(beyond)}"


def test_the_kernel_stands_on_the_core_alone() -> None:
    """The compiled game is the engine's rules on arrays and what plays them: it
    reaches the core only, never a bot, a driver or an interface."""
    graph = imports()
    kernel = [m for m in graph if part(m) == "kernel"]
    assert {"skyjo.kernel.table", "skyjo.kernel.loop", "skyjo.kernel.encoding"} <= set(kernel)
    for module in kernel:
        beyond = {part(target) for target in reached(graph, module)} - {"core", "kernel"}
        assert not beyond, f"{module} reaches {sorted(beyond)}"


def test_only_the_kernel_compiles() -> None:
    """Numba is imported by the modules of `skyjo.kernel` and by no other (the
    drivers in bots, batch and env call the kernel's compiled functions)."""
    compiling = set()
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                found = [node.module or ""]
            else:
                continue
            if any(module.split(".")[0] in ("numba", "llvmlite") for module in found):
                compiling.add(name)
    assert "skyjo.kernel.table" in compiling
    assert {part(module) for module in compiling} == {"kernel"}, sorted(compiling)


def test_the_review_lives_in_the_analysis_part() -> None:
    """The coach's review is computed in `skyjo.analysis`, on the core, the
    kernel and the bots; the command line only shows it."""
    graph = imports()
    assert "skyjo.analysis.review" in graph["skyjo.tui.replay_cli"]
    for module in (m for m in graph if part(m) == "analysis"):
        beyond = {part(target) for target in reached(graph, module)}
        assert beyond <= {"core", "kernel", "bots", "analysis"}, module


def test_the_persistence_stands_on_the_core_alone_and_the_core_never_reaches_it() -> None:
    """Every table, the engine and the migrations are one part (`skyjo.persistence`)
    on the core alone; the core, the game's own modules, never imports it, and
    only the interfaces that keep things (scorepad, web) and the cli do."""
    graph = imports()
    kept = [m for m in graph if part(m) == "persistence"]
    assert {f"skyjo.persistence.{m}" for m in ("tables", "engine", "schema")} <= set(kept)
    assert "skyjo.database" not in graph  # no longer on the core's floor
    for module in kept:
        beyond = {part(target) for target in reached(graph, module)} - {"core", "persistence"}
        assert not beyond, f"{module} reaches {sorted(beyond)}"
    users = {
        part(m) for m, targets in graph.items() if {part(t) for t in targets} & {"persistence"}
    }
    assert {"scorepad", "web"} <= users - {"persistence"} <= {"scorepad", "web", "cli"}
    assert "persistence" not in {part(t) for m in graph if part(m) == "core" for t in graph[m]}
