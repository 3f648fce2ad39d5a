/**
 * Templates: the GSD templates shipped in the package's `templates/` folder, and `.hbs` files in
 * a configured directory (which shadow shipped ones of the same name). A template may start with
 * a Handlebars comment holding YAML — `description`, `required` variables, `defaults` for
 * optional ones, and `variables` (name → meaning) — which renders to nothing.
 */
import { readdir, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { ToolError, isPathInside } from "@local-mcp/core";
import { packageRoot } from "../../package-root.js";
import type * as TemplateHeaderModule from "./template-header.js";

/** `templates/` of this package, beside src/ and dist/ (found from a source file, a built file or a bundle chunk). */
export function shippedTemplatesDir(): string {
  return join(packageRoot(import.meta.url), "templates");
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export interface TemplateInfo {
  name: string;
  source: "shipped" | "custom";
  path: string;
  description: string;
  required: string[];
  defaults: Record<string, unknown>;
  /** Variable name → what it means. */
  variables: Record<string, string>;
  /** Why the template cannot be used (a header that does not parse). */
  problem?: string;
}

export interface LoadedTemplate {
  info: TemplateInfo;
  text: string;
}

function templateName(file: string): string | undefined {
  if (!file.endsWith(".hbs")) return undefined;
  const base = file.slice(0, -".hbs".length).replace(/\.md$/, "");
  return NAME.test(base) ? base : undefined;
}

export class TemplateStore {
  constructor(
    readonly shippedDir: string = shippedTemplatesDir(),
    readonly customDir: string | undefined = undefined,
    /** When set (a templates_dir from a project's own config), a custom template must really lie inside these roots. */
    readonly confineTo: readonly string[] | undefined = undefined,
  ) {}

  /** Every template by name; custom ones replace shipped ones of the same name. */
  async list(): Promise<TemplateInfo[]> {
    const byName = new Map<string, TemplateInfo>();
    let headers: typeof TemplateHeaderModule | undefined;
    for (const [dir, source] of [
      [this.shippedDir, "shipped"],
      [this.customDir, "custom"],
    ] as const) {
      if (dir === undefined) continue;
      const files = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (source === "custom" && error.code === "ENOENT") return [] as string[];
        throw error;
      });
      for (const file of files.sort()) {
        const name = templateName(file);
        if (name === undefined) continue;
        const path = join(dir, file);
        if (source === "custom" && !(await this.confined(path))) {
          const empty = { description: "", required: [], defaults: {}, variables: {} };
          byName.set(name, {
            name,
            source,
            path,
            ...empty,
            problem: `it resolves outside the roots ${(this.confineTo ?? []).join(", ")} (a symlink out of the project)`,
          });
          continue;
        }
        const text = await readFile(path, "utf8");
        // The YAML parser loads with the first listing, not at start.
        headers ??= await import("./template-header.js");
        byName.set(name, { name, source, path, ...headers.templateHeader(text) });
      }
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async load(name: string): Promise<LoadedTemplate> {
    const all = await this.list();
    const info = all.find((t) => t.name === name);
    if (!info) {
      throw new ToolError("NOT_FOUND", `No template named '${name}'. Templates: ${all.map((t) => t.name).join(", ") || "none"}.`, {
        suggestion: "Use one of the listed names, or pass the template text itself (anything with {{…}} is taken as an inline template).",
        details: { template: name, available: all.map((t) => t.name) },
      });
    }
    if (info.source === "custom" && !(await this.confined(info.path))) {
      throw new ToolError("FORBIDDEN", `Template '${name}' (${info.path}) resolves outside the roots.`, {
        suggestion:
          "Keep the project's templates inside the roots, or name a templates folder in the client's config (LOCAL_MODEL_TEMPLATES_DIR).",
        details: { template: name },
      });
    }
    if (info.problem) {
      throw new ToolError("INVALID_INPUT", `Template '${name}' (${info.path}) cannot be used: ${info.problem}.`, {
        suggestion: "Fix the template's header, or pass the template inline.",
        details: { template: name },
      });
    }
    return { info, text: await readFile(info.path, "utf8") };
  }

  /** Whether a custom template's real path lies inside `confineTo` (always, when unset). */
  private async confined(path: string): Promise<boolean> {
    if (this.confineTo === undefined) return true;
    const real = await realpath(path).catch(() => undefined);
    return real !== undefined && this.confineTo.some((root) => isPathInside(root, real));
  }
}

/** A `template` argument is inline when it holds Handlebars syntax or a line break, else a name. */
export function isInlineTemplate(template: string): boolean {
  return template.includes("{{") || template.includes("\n");
}
