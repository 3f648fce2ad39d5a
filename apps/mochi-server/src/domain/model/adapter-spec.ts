/** One LoRA adapter to apply, with its scale (1 = as trained, 0 = off). */
export interface AdapterSpec {
  path: string;
  scale: number;
}

/**
 * Parses `MOCHI_ADAPTER`: one or more GGUF LoRA paths separated by commas, each optionally
 * followed by `:scale` — `mochi.gguf`, `mochi.gguf:1,style.gguf:0.5`. The scale is the text after
 * the last colon when it is a number, so Windows paths (`C:\models\a.gguf:0.8`) work. Paths cannot
 * contain commas. Throws an Error naming the bad entry.
 */
export function parseAdapterList(value: string): AdapterSpec[] {
  const specs: AdapterSpec[] = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const colon = entry.lastIndexOf(":");
    const tail = colon >= 0 ? entry.slice(colon + 1).trim() : "";
    const isScale = tail !== "" && /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(tail);
    const path = isScale ? entry.slice(0, colon).trim() : entry;
    const scale = isScale ? Number(tail) : 1;
    if (path === "") throw new Error(`adapter entry '${entry}' has no path`);
    if (!(scale >= 0 && scale <= 8)) throw new Error(`adapter '${path}' has scale ${tail}; use a number from 0 to 8`);
    specs.push({ path, scale });
  }
  if (specs.length === 0) throw new Error("no adapter path given");
  return specs;
}
