/** `catdoc search <query…>`: ranked full-text search (BM25+) over objects and their documents. */
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from "../../defaults.js";
import { formatOption, positiveInteger } from "../option-parsers.js";
import type { CommandRegistry } from "../program.js";

interface SearchOptions {
  format: "table" | "json";
  domain?: string;
  category?: string;
  limit: number;
}

export function registerSearchCommand({ program, action }: CommandRegistry): void {
  program
    .command("search")
    .description("ranked full-text search over ids, titles, domains, tags, metadata and document content")
    .argument("<query...>", "words to look for (several words are one query)")
    .addOption(formatOption(["table", "json"], "table"))
    .option("-d, --domain <domain>", "only objects of this domain")
    .option("--category <id>", "only objects of this category")
    .option("-l, --limit <n>", `at most n results (1-${MAX_SEARCH_LIMIT})`, positiveInteger, DEFAULT_SEARCH_LIMIT)
    .addHelpText("after", "\nScores are BM25+ with field boosts (title > id > tags > domain > metadata, content); higher is better.")
    .action(
      action(async (context, words: string[], options: SearchOptions) => {
        const project = await context.load();
        const query = words.join(" ");
        const result = await context.progress.around("Indexing documents", () =>
          project.search(query, {
            limit: options.limit,
            ...(options.domain === undefined ? {} : { domain: options.domain }),
            ...(options.category === undefined ? {} : { categoryId: options.category }),
          }),
        );
        if (options.format === "json") {
          context.json(result);
          return;
        }
        if (result.hits.length === 0) {
          context.out(`No matches for '${query}'.`);
          return;
        }
        const { renderTable } = await import("../table.js");
        context.out(
          renderTable(
            ["SCORE", "ID", "TITLE", "DOMAIN", "CATEGORY"],
            result.hits.map((hit) => [hit.score.toFixed(2), hit.id, hit.title, hit.domain, hit.categoryId]),
          ),
        );
        if (result.hits.length < result.total)
          context.note(`Showing ${result.hits.length} of ${result.total} matches (--limit ${options.limit}).`);
      }),
    );
}
