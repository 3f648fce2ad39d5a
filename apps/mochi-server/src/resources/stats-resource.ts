import { basename } from "node:path";
import { defineResource, type ResourceDefinition } from "@local-mcp/core";
import { readAdapterMetadata } from "../domain/model/adapter-metadata.js";
import { lastEvalPath, readEvalRecord } from "../domain/eval/eval-record.js";
import { adapterGgufFacts } from "../domain/model/adapter-gguf-facts.js";
import { RemoteMochiModel } from "../domain/model/remote-model.js";
import { remoteModelNote, STOCK_MODEL_NOTE } from "../domain/model/served-model.js";
import type { MochiRuntime } from "../runtime.js";
import { STATS_URI } from "./mochi-uris.js";

/**
 * `mochi://stats`: the catalog (version and counts), the model and each adapter with its config
 * and training metadata when present next to it, inference latency p50/p95 per tool, the last
 * `mochi eval`, and the laws' settings. Always readable, also while the model is not: it is where NOT_READY is explained.
 */
export function statsResource(runtime: MochiRuntime): ResourceDefinition {
  return defineResource({
    uri: STATS_URI,
    name: "stats",
    title: "Mochi statistics",
    description: "Catalog, model, adapter and training metadata, inference latency p50/p95.",
    mimeType: "application/json",
    read: async () => {
      const config = runtime.config;
      const catalog = runtime.catalog.peek();
      const readiness = runtime.model.readiness.state;
      const serving = runtime.serving;
      const model = runtime.model;
      const adapters = await Promise.all(
        config.adapters.map(async (a) => ({
          path: a.path,
          scale: a.scale,
          ...readAdapterMetadata(a.path),
          gguf: await adapterGgufFacts(a.path),
        })),
      );
      return {
        json: {
          catalog: catalog
            ? {
                path: config.catalogPath,
                version: catalog.version,
                ...catalog.stats,
                patterns: catalog.patterns.length,
                conventions: catalog.conventions.length,
                examples: catalog.examples.length,
              }
            : { path: config.catalogPath, state: "missing: run `mochi index <repo>`" },
          model: {
            readiness,
            // adapter: the codebase's LoRA (MOCHI_ADAPTER); stock: MOCHI_ADAPTER=none; remote: MOCHI_BACKEND_URL.
            serving: serving.kind,
            ...(serving.kind === "stock" ? { adapter: null, note: STOCK_MODEL_NOTE } : {}),
            ...(serving.kind === "remote"
              ? {
                  backend: {
                    url: serving.url,
                    model: serving.model,
                    api_key: config.backend?.apiKey ? "[set]" : null,
                    check: model instanceof RemoteMochiModel ? model.check : null,
                  },
                  note: remoteModelNote(serving.url),
                }
              : {}),
            base: config.modelPath ? { path: config.modelPath, file: basename(config.modelPath) } : null,
            adapters,
            fill_in_the_middle: model.readiness.isReady ? model.hasInfillTokens : null,
            gpu: config.gpu,
            threads: config.threads ?? null,
            context_size: config.contextSize,
          },
          inference: runtime.latency.summary(),
          eval: lastEval(config.catalogPath),
          retrieval: { embedder: runtime.search.model },
          laws: {
            deadline_ms: config.deadlineMs,
            memory_bound_bytes: config.memoryBoundBytes,
            require_adapter: config.requireAdapter,
          },
        },
      };
    },
  });
}

/** The last `mochi eval` recorded beside the catalog: each model's metrics, the lifts with their intervals, when, on which files. */
function lastEval(catalogPath: string): Record<string, unknown> {
  const path = lastEvalPath(catalogPath);
  const record = readEvalRecord(path);
  if (!record) return { path, state: "none: run `mochi eval` in the repository" };
  return {
    path,
    when: record.when,
    held_out: record.held_out,
    files: record.files,
    cases: record.cases,
    context: record.context,
    base_model: record.base_model,
    models: record.models.map((m) => ({
      label: m.label,
      exact_match: m.exact_match,
      similarity: m.similarity,
      cross_entropy: m.cross_entropy,
    })),
    lift: record.lift,
  };
}
