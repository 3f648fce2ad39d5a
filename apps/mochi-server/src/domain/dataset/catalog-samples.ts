import type { Catalog, NamingKind } from "../catalog/catalog-schema.js";
import { fenceTag, languageName, LANGUAGES } from "../files/languages.js";
import { IDENTIFIER_KIND_LABELS } from "../analysis/source-facts.js";
import { domainPrompt } from "../model/prompts.js";
import type { AlpacaRecord, DatasetSample } from "./alpaca-record.js";

/** A question-and-answer sample, served as domain_query asks it (no grounding: the answer is the catalog's). */
function qa(kind: DatasetSample["kind"], group: string, record: AlpacaRecord): DatasetSample {
  return {
    kind,
    group,
    record,
    served: { prompt: domainPrompt({ instruction: record.instruction, input: record.input }), completion: record.output },
  };
}

/** Identifier kinds in questions; "files" reads better than "file names" there. */
const KIND_WORDS: Record<string, string> = { ...IDENTIFIER_KIND_LABELS, file: "files" };

/**
 * Question-and-answer samples from the catalog: for each pattern, what it is and where it is used,
 * and an example of it; for each convention, its rules; for each naming kind, its style. They teach
 * the model the catalog that `domain_query` later grounds its answers in.
 */
export function catalogSamples(catalog: Catalog): DatasetSample[] {
  const samples: DatasetSample[] = [];
  const examples = new Map(catalog.examples.map((e) => [e.id, e]));
  for (const pattern of catalog.patterns) {
    const example = examples.get(pattern.example);
    const where = [...new Set(pattern.locations.map((l) => l.file))].slice(0, 5).join(", ");
    const shown = example
      ? `\n\nExample from ${example.file} (\`${example.symbol}\`):\n\`\`\`${fenceTag(example.language)}\n${example.code}\n\`\`\``
      : "";
    const group = `catalog:pattern:${pattern.name}`;
    samples.push(
      qa("pattern-qa", group, {
        instruction: `What is the "${pattern.title}" pattern in this codebase, and where is it used?`,
        input: "",
        output: `${pattern.description}\n\nUsed in: ${where}.${shown}`,
      }),
    );
    if (example) {
      samples.push(
        qa("pattern-qa", group, {
          instruction: `Show how this codebase writes ${pattern.title.toLowerCase()}.`,
          input: "",
          output: `From ${example.file}:\n\`\`\`${fenceTag(example.language)}\n${example.code}\n\`\`\``,
        }),
      );
    }
  }
  for (const convention of catalog.conventions) {
    samples.push(
      qa("convention-qa", `catalog:convention:${convention.name}`, {
        instruction: `What are the ${convention.title.toLowerCase()} of this codebase?`,
        input: "",
        output: [convention.summary, ...convention.rules.map((r) => `- ${r}`)].join("\n"),
      }),
    );
  }
  const naming = catalog.conventions.find((c) => c.name === "naming");
  const byLanguage = (naming?.details.byLanguage ?? {}) as Record<string, NamingKind[]>;
  for (const language of LANGUAGES) {
    for (const kind of byLanguage[language] ?? []) {
      const examples = kind.examples.length > 0 ? ` For example: ${kind.examples.join(", ")}.` : "";
      samples.push(
        qa("convention-qa", "catalog:convention:naming", {
          instruction: `How are ${KIND_WORDS[kind.kind] ?? kind.kind} named in the ${languageName(language)} code of this codebase?`,
          input: "",
          output: `${kind.dominant} (${Math.round(kind.consistency * 100)}% of ${kind.total}).${examples}`,
        }),
      );
    }
  }
  return samples;
}
