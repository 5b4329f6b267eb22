/**
 * What a benchmark section is and the tools every section shares. A section lives in its own bench/*.ts
 * file and exports `section`; bench/run.ts finds and runs them all (or those named on the command line).
 */

export interface BenchSection {
  /** Short name to select the section: `npm run bench -- perception`. */
  name: string;
  title: string;
  /** Runs the measurements and returns markdown (usually a table and a few notes). */
  run(): Promise<string>;
}

export interface Measurement {
  medianMs: number;
  runs: number;
}

/** Median wall time of `runs` calls after `warmup` untimed ones (the JIT needs a few to settle). */
export async function measure(work: () => unknown, options: { runs?: number; warmup?: number } = {}): Promise<Measurement> {
  const { runs = 15, warmup = 3 } = options;
  for (let index = 0; index < warmup; index++) await work();
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((first, second) => first - second);
  const middle = times.length >> 1;
  const medianMs = times.length % 2 === 0 ? (times[middle - 1]! + times[middle]!) / 2 : times[middle]!;
  return { medianMs, runs };
}

export function formatMs(milliseconds: number): string {
  return milliseconds >= 100 ? milliseconds.toFixed(0) : milliseconds >= 10 ? milliseconds.toFixed(1) : milliseconds.toFixed(2);
}

/** How many times faster `fast` is than `reference`, e.g. "12.3×". */
export function speedup(reference: number, fast: number): string {
  return `${(reference / fast).toFixed(1)}×`;
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = sorted.length >> 1;
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 0 ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[middle]!;
}

/** The value below which `fraction` of the values fall (nearest rank, no interpolation). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function percent(value: number): string {
  return `${(value * 100).toFixed(value === 1 || value === 0 ? 0 : 1)}%`;
}
