/**
 * The Python programs of the test step. Neither judges anything: the server does (test-verdict.ts).
 *
 * `HARNESS_SOURCE` runs inside the sandbox. It reads `spec.json` — the function's name and the
 * probes: calls with their arguments and expressions to evaluate, never an expected value —
 * loads `function.py`, runs every probe and writes one JSON line per probe to its result
 * channel (the stdout it had at start; the code's own prints go to stderr). Saved code runs in
 * the same process and can patch the harness or write lines itself: all it can do that way is
 * claim return values, which the server then compares with expected values the code never saw.
 * It applies the memory and CPU limits itself when `prlimit` was not available.
 *
 * `PLANNER_SOURCE` runs outside the sandbox, with the interpreter of the environment and no user
 * code (`-I -S`, nothing is executed, only parsed): it splits each assert statement into the
 * expressions to evaluate inside and the literal values kept outside.
 *
 * Values cross as JSON with tags for what JSON lacks (both programs share the encoder):
 * `{"$float": "1.5"}`, `{"$int": "<digits>"}` beyond ±2^53, `{"$dict": {...}}` (keys as str),
 * `{"$set": [...]}`, `{"$bytes": "<hex>"}`, `{"$repr": "..."}` (anything else: never equal).
 * Tuples are lists (JSON has no tuples).
 */
export const HARNESS_FILE = "_solo_harness.py";

const VALUE_ENCODER = String.raw`
import math

MAX_DEPTH = 64


def encode(value, depth=0):
    if depth > MAX_DEPTH:
        return {"$repr": "<nested too deep>"}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if -(2 ** 53) < value < 2 ** 53 else {"$int": str(value)}
    if isinstance(value, float):
        return {"$float": repr(value)}
    if isinstance(value, (list, tuple)):
        return [encode(item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {"$dict": {(key if isinstance(key, str) else str(key)): encode(item, depth + 1) for key, item in value.items()}}
    if isinstance(value, (set, frozenset)):
        return {"$set": [encode(item, depth + 1) for item in value]}
    if isinstance(value, (bytes, bytearray)):
        return {"$bytes": bytes(value).hex()}
    try:
        text = repr(value)
    except Exception:
        text = "<%s>" % type(value).__name__
    return {"$repr": text[:2000]}
`;

export const HARNESS_SOURCE = String.raw`
import asyncio
import inspect
import json
import os
import sys
import traceback
${VALUE_ENCODER}
HARNESS = __file__
MAX_LINE = 256 * 1024


def apply_limits(limits):
    if not limits:
        return
    try:
        import resource
        if limits.get("memory_bytes"):
            resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"], limits["memory_bytes"]))
        if limits.get("cpu_seconds"):
            resource.setrlimit(resource.RLIMIT_CPU, (limits["cpu_seconds"], limits["cpu_seconds"] + 1))
    except Exception:
        pass


def user_traceback(error):
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == HARNESS:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))[-8000:]


def main():
    # The result channel: our stdout as it was at start. The code's prints go to stderr.
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)

    def emit(record):
        line = json.dumps(record, ensure_ascii=False)
        if len(line) > MAX_LINE:
            record = {key: value for key, value in record.items() if key != "value"}
            record["value"] = {"$repr": "<a value of %d bytes: too large to compare>" % len(line)}
            line = json.dumps(record)
        channel.write(line + "\n")
        channel.flush()

    with open("spec.json", encoding="utf-8") as handle:
        spec = json.load(handle)
    apply_limits(spec.get("limits"))
    if spec.get("library"):
        # The solo_lib package of the library functions the code imports.
        sys.path.insert(0, os.path.abspath(spec["library"]))
    with open("function.py", encoding="utf-8") as handle:
        source = handle.read()
    try:
        code = compile(source, "function.py", "exec")
    except SyntaxError as error:
        return emit({"load": "syntax_error", "error": "".join(traceback.format_exception_only(type(error), error))})
    namespace = {"__name__": "solo_function", "__file__": "function.py", "__builtins__": __builtins__}
    try:
        exec(code, namespace)
    except BaseException as error:
        return emit({"load": "load_error", "error": user_traceback(error)})
    name = spec["name"]
    function = namespace.get(name)
    if not callable(function):
        return emit({"load": "load_error", "error": "function.py defines no function named %r" % name})
    emit({"load": "ok"})
    for probe in spec["probes"]:
        try:
            if probe["kind"] == "call":
                value = function(**probe["input"])
            else:
                value = eval(compile(probe["source"], "<test %d>" % probe["case"], "eval"), namespace)
            if inspect.isawaitable(value):
                async def wait(awaitable):
                    return await awaitable
                value = asyncio.run(wait(value))
            if probe.get("truth"):
                value = bool(value)
            emit({"id": probe["id"], "value": encode(value)})
        except BaseException as error:
            emit({"id": probe["id"], "error": user_traceback(error)})


main()
`;

export const PLANNER_SOURCE = String.raw`
import ast
import json
import sys
${VALUE_ENCODER}
OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


def side(statement, node):
    try:
        return {"literal": encode(ast.literal_eval(node))}
    except Exception:
        return {"expr": ast.get_source_segment(statement, node)}


def plan(statement):
    try:
        tree = ast.parse(statement, mode="exec")
    except SyntaxError as error:
        return {"kind": "invalid", "error": "".join(__import__("traceback").format_exception_only(type(error), error)).strip()}
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assert):
        return {"kind": "invalid", "error": "A string test case must be one assert statement, e.g. assert f(2) == 4."}
    test = tree.body[0].test
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in OPS:
        operands = (test.left, test.comparators[0])
        singleton = any(isinstance(n, ast.Constant) and (n.value is None or isinstance(n.value, bool)) for n in operands)
        if isinstance(test.ops[0], (ast.Is, ast.IsNot)) and not singleton:
            return {"kind": "truth", "expr": ast.get_source_segment(statement, test), "negate": False}
        return {"kind": "compare", "op": OPS[type(test.ops[0])], "left": side(statement, test.left), "right": side(statement, test.comparators[0])}
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return {"kind": "truth", "expr": ast.get_source_segment(statement, test.operand), "negate": True}
    return {"kind": "truth", "expr": ast.get_source_segment(statement, test), "negate": False}


statements = json.load(sys.stdin)
results = []
for statement in statements:
    try:
        results.append(plan(statement))
    except Exception as error:
        results.append({"kind": "invalid", "error": "%s: %s" % (type(error).__name__, error)})
sys.stdout.write(json.dumps(results))
`;
