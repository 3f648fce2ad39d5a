/**
 * Confidence of a generation, in [0,1]: the geometric mean of the probabilities the model gave
 * the tokens it chose, including the end-of-generation token when it stopped by itself:
 *
 *     confidence = exp( (1/n) · Σᵢ ln pᵢ )
 *
 * pᵢ is the probability of the i-th chosen token under the sampling distribution. The geometric
 * mean is the inverse of the per-token perplexity of the model's own output: 1 when the model was
 * certain of every token, near 0 when it guessed. Probabilities are clamped to [1e-9, 1] so one
 * impossible token does not give -Infinity. An empty generation has confidence 0.
 */
export function confidenceFromProbabilities(probabilities: readonly number[]): number {
  if (probabilities.length === 0) return 0;
  let sum = 0;
  for (const p of probabilities) sum += Math.log(Math.min(1, Math.max(1e-9, Number.isFinite(p) ? p : 0)));
  return Math.exp(sum / probabilities.length);
}

/** The same from log-probabilities (what OpenAI-compatible servers return). */
export function confidenceFromLogprobs(logprobs: readonly number[]): number {
  return confidenceFromProbabilities(logprobs.map((lp) => Math.exp(lp)));
}
