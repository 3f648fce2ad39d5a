import type { PromptInput } from "@local-mcp/core/inference";
import { completeAt, type CompletionModel } from "../model/complete-at.js";
import { completionPrompt, type ContextSnippet } from "../model/prompts.js";
import type { EvalCase, EvalCaseKind } from "./eval-cases.js";
import { exactMatch, pairedBootstrap, similarity, type Interval } from "./eval-metrics.js";

/** The natural log-likelihood of a text after a prompt, over its tokens. */
export interface ContinuationScore {
  tokens: number;
  /** −Σ ln p(token | what precedes it), in nats. */
  nats: number;
}

/** One model evaluated: the base (no adapter) or the base with an adapter, as the server would serve it. */
export interface EvalSubject {
  /** `base`, or the adapter as served (`mochi-lora.gguf@1`). */
  label: string;
  model: CompletionModel;
  /** The log-likelihood of the expected text given the prompt, where the engine gives logits. */
  score?: ((prompt: PromptInput, expected: string) => Promise<ContinuationScore>) | undefined;
}

export interface CaseOutcome {
  completion: string;
  /** Tokens the model generated for it. */
  generated: number;
  exact: boolean;
  similarity: number;
  /** Tokens of the expected text, and their negative log-likelihood (with a scoring engine). */
  tokens?: number;
  nats?: number;
  ms: number;
}

export interface EvalRunOptions {
  /** Repository snippets for a case's prompt (repository context); none when absent. */
  contextFor?: ((evalCase: EvalCase) => Promise<readonly ContextSnippet[]>) | undefined;
  /** Called after each case with how many are done. */
  onCase?: ((done: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Runs every case through completeAt — complete_code's own path: the same prompt, the scope's
 * stops, the cut at the boundary — greedily, and scores the completion against the expected text;
 * with a scoring engine, also the expected text's log-likelihood under the same prompt.
 */
export async function runEvalCases(subject: EvalSubject, cases: readonly EvalCase[], options: EvalRunOptions = {}): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  for (const evalCase of cases) {
    const started = performance.now();
    const context = await options.contextFor?.(evalCase);
    const done = await completeAt(subject.model, {
      prefix: evalCase.prefix,
      suffix: evalCase.suffix,
      language: evalCase.language,
      scope: evalCase.scope,
      ...(context === undefined ? {} : { context }),
      signal: options.signal,
    });
    const outcome: CaseOutcome = {
      completion: done.text,
      generated: done.result.tokensOut,
      exact: exactMatch(done.text, evalCase.expected),
      similarity: similarity(done.text, evalCase.expected),
      ms: 0,
    };
    if (subject.score && evalCase.expected.trim() !== "") {
      const prompt = completionPrompt({
        prefix: evalCase.prefix,
        suffix: evalCase.suffix,
        ...(context === undefined ? {} : { context }),
        ...done.window,
      });
      const scored = await subject.score(prompt, evalCase.expected);
      if (scored.tokens > 0) {
        outcome.tokens = scored.tokens;
        outcome.nats = scored.nats;
      }
    }
    outcome.ms = performance.now() - started;
    outcomes.push(outcome);
    options.onCase?.(outcomes.length);
  }
  return outcomes;
}

export interface KindSummary {
  cases: number;
  exact_match: number;
  similarity: number;
}

export interface SubjectSummary {
  label: string;
  cases: number;
  /** Share of cases completed exactly. */
  exact_match: number;
  /** Mean of 1 − Levenshtein / longer length. */
  similarity: number;
  /** Nats per token of the expected texts (all tokens pooled); null without logits. */
  cross_entropy: number | null;
  scored_tokens: number;
  by_kind: Partial<Record<EvalCaseKind, KindSummary>>;
  seconds: number;
  cases_per_second: number;
}

const mean = (values: readonly number[]) => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);

/** The metrics of one subject over the cases (outcomes in the cases' order). */
export function summarise(label: string, cases: readonly EvalCase[], outcomes: readonly CaseOutcome[], seconds: number): SubjectSummary {
  const scored = outcomes.filter((o) => o.tokens !== undefined && o.nats !== undefined);
  const tokens = scored.reduce((sum, o) => sum + (o.tokens as number), 0);
  const nats = scored.reduce((sum, o) => sum + (o.nats as number), 0);
  const byKind: Partial<Record<EvalCaseKind, KindSummary>> = {};
  for (const kind of ["next-line", "fim"] as const) {
    const mine = outcomes.filter((_, i) => cases[i]?.kind === kind);
    if (mine.length === 0) continue;
    byKind[kind] = {
      cases: mine.length,
      exact_match: mean(mine.map((o) => (o.exact ? 1 : 0))),
      similarity: mean(mine.map((o) => o.similarity)),
    };
  }
  return {
    label,
    cases: outcomes.length,
    exact_match: mean(outcomes.map((o) => (o.exact ? 1 : 0))),
    similarity: mean(outcomes.map((o) => o.similarity)),
    cross_entropy: tokens > 0 ? nats / tokens : null,
    scored_tokens: tokens,
    by_kind: byKind,
    seconds,
    cases_per_second: seconds > 0 ? outcomes.length / seconds : 0,
  };
}

export interface Lift {
  /** The adapter's label. */
  label: string;
  /** adapter − base, with the paired bootstrap 95 % interval. */
  exact_match: Interval;
  similarity: Interval;
  /** adapter − base in nats/token (below 0: the adapter finds the held-out code likelier); null without logits. */
  cross_entropy: Interval | null;
}

/** The adapter's lift over the base on the same cases, each metric with its paired bootstrap interval. */
export function liftOf(label: string, adapter: readonly CaseOutcome[], base: readonly CaseOutcome[], seed: number): Lift {
  const exact = (o: CaseOutcome) => (o.exact ? 1 : 0);
  const pairs = adapter.map((a, i) => [a, base[i] as CaseOutcome] as const);
  const scored = pairs.filter(([a, b]) => a.tokens !== undefined && b.tokens !== undefined && a.nats !== undefined && b.nats !== undefined);
  return {
    label,
    exact_match: pairedBootstrap(adapter.map(exact), base.map(exact), { seed }),
    similarity: pairedBootstrap(
      adapter.map((o) => o.similarity),
      base.map((o) => o.similarity),
      { seed },
    ),
    cross_entropy:
      scored.length === 0
        ? null
        : pairedBootstrap(
            scored.map(([a]) => (a.nats as number) / (a.tokens as number)),
            scored.map(([, b]) => (b.nats as number) / (b.tokens as number)),
            { seed, weights: scored.map(([a]) => a.tokens as number) },
          ),
  };
}
