/**
 * Today's date for the search sub-agent. Search engines rank what matches the words of a query, and a
 * query without a date happily returns last year's release notes or prices; the date in the query (and in
 * the prompt, so the model can judge whether what it reads is current) is what keeps answers current.
 * Dates are taken in UTC so that a fixed clock gives the same text on every machine.
 */
import { TAVILY_MAX_QUERY_CHARACTERS } from '../../search/index.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `2025-06-14`. */
export function isoDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** `June 2025`. */
export function monthAndYear(now: Date): string {
  return `${MONTHS[now.getUTCMonth()] ?? ''} ${now.getUTCFullYear()}`;
}

/**
 * The query as it is sent: the model's words, with the month and year appended when the current year is
 * not in them already. Models are told to date their queries but often forget, and their idea of "now"
 * is their training cutoff; appending the real date is the only reliable way. Month and year rather than
 * the full date: a day number matches few pages and pushes good results out. The model's words are cut
 * first if needed so the whole query stays within Tavily's length limit.
 */
export function queryWithDate(query: string, now: Date): string {
  const words = query.trim().replace(/\s+/g, ' ');
  const year = String(now.getUTCFullYear());
  if (words.includes(year)) return words.slice(0, TAVILY_MAX_QUERY_CHARACTERS);
  const suffix = ` ${monthAndYear(now)}`;
  return `${words.slice(0, TAVILY_MAX_QUERY_CHARACTERS - suffix.length).trimEnd()}${suffix}`;
}
