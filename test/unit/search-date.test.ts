/** The date the search sub-agent puts into its queries and prompt. */
import { describe, expect, it } from 'vitest';
import { isoDate, monthAndYear, queryWithDate } from '../../src/main/agent/search/search-date.js';
import { TAVILY_MAX_QUERY_CHARACTERS } from '../../src/main/search/index.js';

const TODAY = new Date('2025-06-14T12:00:00Z');

describe('queryWithDate', () => {
  it('appends the month and year when the current year is missing', () => {
    expect(queryWithDate('  node   lts version ', TODAY)).toBe('node lts version June 2025');
  });

  it('leaves a query that already names the current year alone', () => {
    expect(queryWithDate('node lts 2025 schedule', TODAY)).toBe('node lts 2025 schedule');
  });

  it('still dates a query that names only another year', () => {
    expect(queryWithDate('changes since 2019', TODAY)).toBe('changes since 2019 June 2025');
  });

  it('cuts the model words so the dated query fits Tavily', () => {
    const dated = queryWithDate('word '.repeat(200), TODAY);
    expect(dated.length).toBeLessThanOrEqual(TAVILY_MAX_QUERY_CHARACTERS);
    expect(dated.endsWith(' June 2025')).toBe(true);
  });
});

describe('dates in UTC', () => {
  it('gives the same text whatever the local time zone', () => {
    const lateOnNewYearsEve = new Date('2024-12-31T23:30:00Z');
    expect(isoDate(lateOnNewYearsEve)).toBe('2024-12-31');
    expect(monthAndYear(lateOnNewYearsEve)).toBe('December 2024');
  });
});
