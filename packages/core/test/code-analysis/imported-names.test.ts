/**
 * The names each import takes from its module (SourceAnalysis.importedNames) and the end lines of
 * functions and types: one small source per language with the forms docs/local-model.md ("What
 * the answers mean") defines — aliases after the original, globs as `*`, Rust's `self` and nested
 * groups, static imports, a module bound to an alias (no names), JS/TS as local-model's TypeScript
 * path writes them — and `imports` left as it was (full paths, each once).
 */
import { describe, expect, it } from "vitest";
import { analyzeSource } from "../../src/code-analysis/index.js";

const PYTHON = `from a.b import c, d as e
import os, numpy as np
from . import sibling
from .pkg.mod import *
from x import (y,
    z)
from a.b import c

def f(v):
    if v:
        return 1
    return 2

class K:
    def m(self): ...
`;

const GO = `package p

import f "fmt"

import (
	"os"
	. "strings"
	_ "embed"
)

type T struct {
	A int
}

func (t *T) M() {}

func G() {
}
`;

const RUST = `use std::collections::{HashMap, HashSet};
use a::b::C;
use std::io::{self, Read as R};
use a::{b::{D, E}, e, *};
use super::*;
pub use crate::x::{self as y};
use serde;
extern crate foo as bar;

pub struct S {
    a: u8,
}

impl S {
    fn m(&self) -> u8 {
        self.a
    }
}
`;

const JAVA = `package p;

import java.util.List;
import java.util.Map;
import java.util.*;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.*;

public class A {
    void f() {
    }

    enum E { X }
}
`;

const CSHARP = `using System.Text;
using static System.Math;
using A = B.C;
global using D;

namespace N {
    using Inner.Ns;

    public class K {
        void M() {
        }
    }
}
`;

describe("imported names", () => {
  it("Python: from-imports give their names (alias after the original, * for all); import gives the module, bound to its alias", async () => {
    const analysis = await analyzeSource({ language: "python", text: PYTHON });
    expect(analysis.imports).toEqual(["a.b", "os", "numpy", ".", ".pkg.mod", "x"]);
    expect(analysis.importedNames).toEqual([
      { module: "a.b", names: ["c", "d as e"], line: 1 },
      { module: "os", names: [], line: 2 },
      { module: "numpy", names: [], alias: "np", line: 2 },
      { module: ".", names: ["sibling"], line: 3 },
      { module: ".pkg.mod", names: ["*"], line: 4 },
      { module: "x", names: ["y", "z"], line: 5 },
      { module: "a.b", names: ["c"], line: 7 },
    ]);
  });

  it("Go: a package import takes no names (an alias or _ is not one); a dot import takes all", async () => {
    const analysis = await analyzeSource({ language: "go", text: GO });
    expect(analysis.imports).toEqual(["fmt", "os", "strings", "embed"]);
    expect(analysis.importedNames).toEqual([
      { module: "fmt", names: [], alias: "f", line: 3 },
      { module: "os", names: [], line: 6 },
      { module: "strings", names: ["*"], line: 7 },
      { module: "embed", names: [], alias: "_", line: 8 },
    ]);
  });

  it("Rust: each path's last segment from the path before it; lists and nested groups flattened; self and * as written", async () => {
    const analysis = await analyzeSource({ language: "rust", text: RUST });
    expect(analysis.imports).toEqual([
      "std::collections::HashMap",
      "std::collections::HashSet",
      "a::b::C",
      "std::io",
      "std::io::Read",
      "a::b::D",
      "a::b::E",
      "a::e",
      "a::*",
      "super::*",
      "crate::x",
      "serde",
      "foo",
    ]);
    expect(analysis.importedNames).toEqual([
      { module: "std::collections", names: ["HashMap", "HashSet"], line: 1 },
      { module: "a::b", names: ["C"], line: 2 },
      { module: "std::io", names: ["self", "Read as R"], line: 3 },
      { module: "a::b", names: ["D", "E"], line: 4 },
      { module: "a", names: ["e", "*"], line: 4 },
      { module: "super", names: ["*"], line: 5 },
      { module: "crate::x", names: ["self as y"], line: 6 },
      { module: "serde", names: [], line: 7 },
      { module: "foo", names: [], alias: "bar", line: 8 },
    ]);
    // `pub use crate::x::{self as y}` makes y visible.
    expect(analysis.exports).toEqual(["y", "S"]);
  });

  it("Java: a type from its package, * for all; static imports marked", async () => {
    const analysis = await analyzeSource({ language: "java", text: JAVA });
    expect(analysis.imports).toEqual([
      "java.util.List",
      "java.util.Map",
      "java.util.*",
      "org.junit.Assert.assertEquals",
      "org.junit.Assert.*",
    ]);
    expect(analysis.importedNames).toEqual([
      { module: "java.util", names: ["List"], line: 3 },
      { module: "java.util", names: ["Map"], line: 4 },
      { module: "java.util", names: ["*"], line: 5 },
      { module: "org.junit.Assert", names: ["assertEquals"], static: true, line: 6 },
      { module: "org.junit.Assert", names: ["*"], static: true, line: 7 },
    ]);
  });

  it("C#: a using takes no names; static and alias marked; namespace usings too", async () => {
    const analysis = await analyzeSource({ language: "csharp", text: CSHARP });
    expect(analysis.imports).toEqual(["System.Text", "System.Math", "B.C", "D", "Inner.Ns"]);
    expect(analysis.importedNames).toEqual([
      { module: "System.Text", names: [], line: 1 },
      { module: "System.Math", names: [], static: true, line: 2 },
      { module: "B.C", names: [], alias: "A", line: 3 },
      { module: "D", names: [], line: 4 },
      { module: "Inner.Ns", names: [], line: 7 },
    ]);
  });

  it("JS/TS: the names as local-model's TypeScript path writes them (default, * as ns, a as b; require's bindings)", async () => {
    const text = [
      'import X, { a, b as c, type T } from "m";',
      'import * as ns from "n";',
      'import "side";',
      'import fs = require("node:fs");',
      'const { p, q: r, ...rest } = require("cj");',
      "const whole = require(`w`);",
      'require("bare");',
      'const lazy = await import("dyn");',
      'export { z } from "re";',
      "",
    ].join("\n");
    const analysis = await analyzeSource({ language: "typescript", text });
    expect(analysis.imports).toEqual(["m", "n", "side", "node:fs", "cj", "w", "bare", "dyn"]);
    expect(analysis.importedNames).toEqual([
      { module: "m", names: ["X", "a", "b as c", "T"], line: 1 },
      { module: "n", names: ["* as ns"], line: 2 },
      { module: "side", names: [], line: 3 },
      { module: "node:fs", names: ["fs"], line: 4 },
      { module: "cj", names: ["p", "q as r", "rest"], line: 5 },
      { module: "w", names: ["whole"], line: 6 },
      { module: "bare", names: [], line: 7 },
      { module: "dyn", names: [], line: 8 },
    ]);
  });
});

describe("end lines", () => {
  const span = (facts: { name: string; line: number; endLine?: number }[]) => facts.map((f) => [f.name, f.line, f.endLine]);

  it("gives each function and type the line of its last character", async () => {
    const python = await analyzeSource({ language: "python", text: PYTHON });
    expect(span(python.functions)).toEqual([
      ["f", 9, 12],
      ["m", 15, 15],
    ]);
    expect(span(python.types)).toEqual([["K", 14, 15]]);

    const go = await analyzeSource({ language: "go", text: GO });
    expect(span(go.functions)).toEqual([
      ["M", 15, 15],
      ["G", 17, 18],
    ]);
    expect(span(go.types)).toEqual([["T", 11, 13]]);

    const rust = await analyzeSource({ language: "rust", text: RUST });
    expect(span(rust.functions)).toEqual([["m", 15, 17]]);
    expect(span(rust.types)).toEqual([["S", 10, 12]]);

    const java = await analyzeSource({ language: "java", text: JAVA });
    expect(span(java.functions)).toEqual([["f", 10, 11]]);
    expect(span(java.types)).toEqual([
      ["A", 9, 14],
      ["E", 13, 13],
    ]);

    const csharp = await analyzeSource({ language: "csharp", text: CSHARP });
    expect(span(csharp.functions)).toEqual([["M", 10, 11]]);
    expect(span(csharp.types)).toEqual([["K", 9, 12]]);
  });

  it("ends a body without a final line break on its own last line", async () => {
    const analysis = await analyzeSource({ language: "python", text: "def f():\n    return 1" });
    expect(span(analysis.functions)).toEqual([["f", 1, 2]]);
  });
});
