/** One benchmark figure; `ratio` = value / baseline (measured in the same run). */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  /** The target, e.g. "≤ 1.5× bare server". */
  target?: string;
  note?: string;
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A percentile (0–100) by nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Formats results as aligned lines. */
export function formatResults(results: BenchResult[]): string {
  return results.map((r) => {
    const v = `${r.value.toFixed(r.value < 10 ? 2 : 1)} ${r.unit}`;
    const b = r.baseline !== undefined
      ? ` | baseline ${r.baseline.toFixed(r.baseline < 10 ? 2 : 1)} ${r.unit}`
      : "";
    const q = r.ratio !== undefined ? ` | ratio ${r.ratio.toFixed(2)}×` : "";
    const t = r.target ? ` | target ${r.target}` : "";
    const n = r.note ? ` (${r.note})` : "";
    return `${r.name}: ${v}${b}${q}${t}${n}`;
  }).join("\n");
}
