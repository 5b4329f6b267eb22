/**
 * What folding images saved, said one way everywhere: the demo's summary, `sightline sessions show`, the
 * timeline and the report all call `imageSavings`, so they print the same number for the same session.
 *
 * The basis is the input the model calls reported (`input`, what the provider billed), against the same calls
 * with every image kept whole: `input` plus what keeping them would have added. That addition is the request
 * builder's estimate of each request with every image whole, less its estimate of the request as sent
 * (`keepEverything - sent`, the accounting `npm run bench` uses). A share of the builder's own estimates alone
 * (`sent / keepEverything`) had made the timeline say 54% where the demo, pricing the billed input, said 37%.
 */

/** Token totals as stored: `sent` and `keepEverything` are null when no step has a token report. */
export interface SavingsTotals {
  input: number;
  sent: number | null;
  keepEverything: number | null;
}

export interface ImageSavings {
  /** Input tokens the model calls reported. */
  input: number;
  /** What the same calls would have taken with every image kept whole. */
  keptWhole: number;
  /** `keptWhole - input`. */
  saved: number;
  /** `saved / keptWhole`, between 0 and 1. */
  share: number;
}

/** What the images cost less than with every image kept whole; null when no step has a token report. */
export function imageSavings(totals: SavingsTotals): ImageSavings | null {
  if (totals.sent === null || totals.keepEverything === null) return null;
  const saved = Math.max(0, totals.keepEverything - totals.sent);
  const keptWhole = totals.input + saved;
  return { input: totals.input, keptWhole, saved, share: keptWhole <= 0 ? 0 : saved / keptWhole };
}

/** The words every face puts after the figure, so nobody reads a saving without what it is against. */
export const SAVINGS_BASIS = 'against every image kept whole';

/** "37%": rounded the one way every face rounds it. */
export function savingsPercent(savings: ImageSavings): string {
  return `${Math.round(savings.share * 100)}%`;
}
