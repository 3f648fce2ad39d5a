/**
 * The Python program that runs a saved function's test cases inside the sandbox. It reads
 * `spec.json` (the function's name and the cases), loads `function.py`, runs every case and
 * writes `result.json`. Tracebacks are cut to the saved code's own frames. It applies the memory
 * and CPU limits itself when `prlimit` was not available to do it from outside.
 *
 * Case kinds: `call` — `{"input": {kwarg: value}, "expected": value}` (the original Solo-MCP
 * format); `assert` — a statement such as `assert slugify("A B") == "a-b"` run in the module's
 * namespace. Results compare equal after turning tuples into lists (JSON has no tuples);
 * floats compare with a relative tolerance of 1e-9.
 */
export const HARNESS_FILE = "_solo_harness.py";

export const HARNESS_SOURCE = String.raw`
import asyncio
import inspect
import json
import math
import os
import sys
import traceback

HARNESS = __file__
RESULT = os.path.abspath("result.json")


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
    return "".join(traceback.format_exception(type(error), error, tb))


def normalise(value):
    if isinstance(value, (list, tuple)):
        return [normalise(item) for item in value]
    if isinstance(value, dict):
        return {(key if isinstance(key, str) else str(key)): normalise(item) for key, item in value.items()}
    return value


def matches(actual, expected):
    if isinstance(actual, bool) or isinstance(expected, bool):
        return actual is expected or actual == expected and type(actual) is type(expected)
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        if isinstance(actual, float) or isinstance(expected, float):
            return math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-12)
        return actual == expected
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(matches(a, e) for a, e in zip(actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(matches(actual[k], expected[k]) for k in actual)
    return actual == expected


def shown(value, limit=2000):
    try:
        text = json.dumps(normalise(value), ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def call_label(name, arguments):
    parts = ", ".join("%s=%s" % (key, shown(value, 200)) for key, value in arguments.items())
    return "%s(%s)" % (name, parts)


def run_call(function, name, case):
    arguments = case.get("input") or {}
    expected = case.get("expected")
    label = call_label(name, arguments) + " == " + shown(expected, 200)
    try:
        actual = function(**arguments)
        if inspect.isawaitable(actual):
            async def wait(awaitable):
                return await awaitable
            actual = asyncio.run(wait(actual))
    except BaseException as error:
        return {"kind": "call", "label": label, "passed": False, "error": user_traceback(error)}
    result = {"kind": "call", "label": label, "actual": shown(actual)}
    if matches(normalise(actual), expected):
        result["passed"] = True
    else:
        result["passed"] = False
        result["error"] = "expected %s, got %s" % (shown(expected), shown(actual))
    return result


def run_assert(namespace, index, statement):
    filename = "<test %d>" % (index + 1)
    try:
        exec(compile(statement, filename, "exec"), namespace)
    except AssertionError as error:
        detail = user_traceback(error)
        return {"kind": "assert", "label": statement, "passed": False, "error": detail}
    except BaseException as error:
        return {"kind": "assert", "label": statement, "passed": False, "error": user_traceback(error)}
    return {"kind": "assert", "label": statement, "passed": True}


def main():
    with open("spec.json", encoding="utf-8") as handle:
        spec = json.load(handle)
    out = {"outcome": "passed", "cases": []}

    def finish():
        with open(RESULT, "w", encoding="utf-8") as handle:
            json.dump(out, handle)

    apply_limits(spec.get("limits"))
    with open("function.py", encoding="utf-8") as handle:
        source = handle.read()
    try:
        code = compile(source, "function.py", "exec")
    except SyntaxError as error:
        out["outcome"] = "syntax_error"
        out["error"] = "".join(traceback.format_exception_only(type(error), error))
        return finish()
    namespace = {"__name__": "solo_function", "__file__": "function.py", "__builtins__": __builtins__}
    try:
        exec(code, namespace)
    except BaseException as error:
        out["outcome"] = "load_error"
        out["error"] = user_traceback(error)
        return finish()
    name = spec["name"]
    function = namespace.get(name)
    if not callable(function):
        out["outcome"] = "load_error"
        out["error"] = "function.py defines no function named %r" % name
        return finish()
    for index, case in enumerate(spec["cases"]):
        if isinstance(case, str):
            result = run_assert(namespace, index, case)
        else:
            result = run_call(function, name, case)
        result["index"] = index
        out["cases"].append(result)
        if not result["passed"]:
            out["outcome"] = "test_failed"
        # Write as we go: a case that hangs still leaves the earlier results.
        finish()
    finish()


main()
`;
