/**
 * The Gemini API key from an environment record the caller passes in (an app's config module
 * hands over its `env`; the library never reads `process.env`). GOOGLE_API_KEY wins over
 * GEMINI_API_KEY, as in `@google/genai`. Blank values count as unset.
 */
export function geminiApiKeyFromEnv(env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const name of ["GOOGLE_API_KEY", "GEMINI_API_KEY"]) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Google API keys look like this; redacted wherever they appear, even when not ours. */
const GOOGLE_KEY_PATTERN = /AIza[0-9A-Za-z_-]{35}/g;

/** Removes `secret` (and anything shaped like a Google API key) from text bound for messages or logs. */
export function redactSecret(text: string, secret: string): string {
  const withoutSecret = secret.length > 0 ? text.split(secret).join("[redacted]") : text;
  return withoutSecret.replace(GOOGLE_KEY_PATTERN, "[redacted]");
}
