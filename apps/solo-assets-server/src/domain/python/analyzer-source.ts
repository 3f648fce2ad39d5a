/**
 * The Python program that reads saved code with `ast` (parsed, never executed), outside the
 * sandbox, with the configured interpreter (`-I -S`): like the assert planner in
 * domain/gate/tests/harness-source.ts, no user code runs. It reads a JSON list of sources on stdin
 * and writes one JSON object per source:
 *
 * - `library_imports`: `from solo_lib import a, b` — the library functions a source composes,
 *   with their lines; `bad_library_imports`: other ways of naming solo_lib (`import solo_lib`,
 *   `from solo_lib.x import`, `*`, an alias), which composition does not take;
 * - `fingerprint`: a hash of the module's AST with docstrings removed and every name the module
 *   binds (functions, parameters, variables) renamed by order of appearance — two sources with
 *   the same fingerprint are the same code whatever their names, docstrings and formatting;
 * - `dangerous`: calls of eval, exec, os.system, os.popen and subprocess with shell=True (through
 *   import aliases too), with their lines;
 * - `statements`: the top-level statements (first line with decorators, last line, kind — import,
 *   future, solo_lib or code — and the names each binds), which composition's bundling uses;
 * - `third_party_imports`: each top-level package the code imports that is neither the standard
 *   library (`sys.stdlib_module_names`, Python 3.10+; older Pythons list none) nor `solo_lib` nor
 *   `__future__`, with its first line; imports under a `try` that catches ImportError (optional
 *   ones) and under `if TYPE_CHECKING:` are left out (domain/python/import-requirements.ts).
 *
 * A source that does not parse answers `{"ok": false}`: the gate's lint step reports why.
 */
export const ANALYZER_SOURCE = String.raw`
import ast
import hashlib
import json
import sys

STDLIB = getattr(sys, "stdlib_module_names", None)
NOT_THIRD_PARTY = {"__future__", "solo_lib"}
IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
SUBPROCESS = {"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"}


def strip_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]


def bound_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def fingerprint(source):
    tree = ast.parse(source)
    strip_docstrings(tree)
    bound = bound_names(tree)
    renamed = {}

    def rename(name):
        if name not in bound:
            return name
        if name not in renamed:
            renamed[name] = "_v%d" % len(renamed)
        return renamed[name]

    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            node.id = rename(node.id)
        elif isinstance(node, ast.arg):
            node.arg = rename(node.arg)
            node.annotation = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            node.name = rename(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            node.name = rename(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            node.names = [rename(n) for n in node.names]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
    dump = ast.dump(tree, annotate_fields=False, include_attributes=False)
    return hashlib.sha256(dump.encode("utf-8")).hexdigest()[:32]


def qualified_names(tree):
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    names[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = node.module + "." + alias.name
    return names


def dotted(node, names):
    if isinstance(node, ast.Name):
        return names.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        base = dotted(node.value, names)
        return None if base is None else base + "." + node.attr
    return None


def dangerous_calls(tree):
    names = qualified_names(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = dotted(node.func, names)
        if name is None:
            continue
        if name in ("eval", "exec", "builtins.eval", "builtins.exec", "os.system", "os.popen"):
            found.append({"line": node.lineno, "call": name})
        elif name.startswith("subprocess.") and name.split(".", 1)[1] in SUBPROCESS:
            shell = next((k.value for k in node.keywords if k.arg == "shell"), None)
            always = name.endswith("getoutput") or name.endswith("getstatusoutput")
            if always or (shell is not None and not (isinstance(shell, ast.Constant) and not shell.value)):
                found.append({"line": node.lineno, "call": name + ("" if always else "(shell=True)")})
    found.sort(key=lambda item: item["line"])
    return found


def target_names(node):
    out = []
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            out.append(child.id)
    return out


def statements(tree):
    out = []
    for node in tree.body:
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        end = getattr(node, "end_lineno", None) or node.lineno
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            kind, names = "future", []
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "solo_lib" and not node.level:
            kind, names = "solo_lib", [a.asname or a.name for a in node.names]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            kind = "import"
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kind, names = "code", [node.name]
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            kind, names = "code", [n for t in targets for n in target_names(t)]
        else:
            kind, names = "code", []
        out.append({"start": start, "end": end, "kind": kind, "names": names})
    return out


def library_imports(tree):
    good, bad = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "solo_lib":
                    bad.append({"line": node.lineno, "text": "import " + alias.name})
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "solo_lib" and not node.level:
            top = node in tree.body
            for alias in node.names:
                text = "from %s import %s%s" % (node.module, alias.name, " as " + alias.asname if alias.asname else "")
                if node.module != "solo_lib" or alias.name == "*" or (alias.asname and alias.asname != alias.name) or not top:
                    bad.append({"line": node.lineno, "text": text})
                else:
                    good.append({"line": node.lineno, "name": alias.name})
    return good, bad


def catches_import_error(handler):
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, (ast.Name, ast.Attribute)) and getattr(t, "id", getattr(t, "attr", "")) in IMPORT_ERRORS for t in types)


def type_checking(test):
    return getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING"


def third_party_imports(tree):
    if STDLIB is None:
        return []
    found = {}
    tries = (ast.Try, getattr(ast, "TryStar", ast.Try))

    def visit(node, optional):
        if isinstance(node, tries):
            guarded = optional or any(catches_import_error(h) for h in node.handlers)
            for child in node.body:
                visit(child, guarded)
            for child in node.handlers + node.orelse + node.finalbody:
                visit(child, optional)
            return
        if isinstance(node, ast.If) and type_checking(node.test):
            for child in node.orelse:
                visit(child, optional)
            return
        modules = []
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules = [node.module]
        for module in modules:
            top = module.split(".")[0]
            if not optional and top not in STDLIB and top not in NOT_THIRD_PARTY:
                found[top] = min(found.get(top, node.lineno), node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, optional)

    visit(tree, False)
    return sorted(({"module": m, "line": n} for m, n in found.items()), key=lambda i: (i["line"], i["module"]))


def analyze(source):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {"ok": False}
    good, bad = library_imports(tree)
    return {
        "ok": True,
        "library_imports": good,
        "bad_library_imports": bad,
        "fingerprint": fingerprint(source),
        "dangerous": dangerous_calls(tree),
        "statements": statements(tree),
        "third_party_imports": third_party_imports(tree),
    }


results = []
for source in json.load(sys.stdin):
    try:
        results.append(analyze(source))
    except RecursionError:
        results.append({"ok": False})
sys.stdout.write(json.dumps(results))
`;
