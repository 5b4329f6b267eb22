/**
 * axe-core run inside a Playwright page, with the violations a test fails on listed one per element, so a
 * failure reads as "which rule, where, and why" rather than as a dump of axe's results.
 *
 * The script is served as if it came from the page's own origin (a routed request): the timeline's CSP
 * allows scripts from 'self' only, and an inline copy would be refused and logged as a CSP violation,
 * which the browser tests count as a failure of their own.
 */
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** Where the page loads axe from: a path the app does not serve, answered by the route below. */
const AXE_PATH = '/__accessibility-audit__/axe.min.js';

/** Serious and critical rules block a person from using the view: those fail the test. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** What the tests read of axe's results (its own types need the DOM library, which tests are compiled without). */
export interface AccessibilityViolation {
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** The themes the renderer draws: each has its own palette, so contrast is checked in both. */
export const COLOR_SCHEMES = ['dark', 'light'] as const;

/** Pages whose requests for axe are already answered: a second route would answer them twice. */
const routedPages = new WeakSet<Page>();

async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in globalThis)) return;
  if (!routedPages.has(page)) {
    await page.route(`**${AXE_PATH}`, (route) => route.fulfill({ path: AXE_SCRIPT, contentType: 'text/javascript' }));
    routedPages.add(page);
  }
  await page.addScriptTag({ url: AXE_PATH });
}

/** Every violation axe finds in the page as it is drawn now, whatever its impact. */
export async function auditAccessibility(page: Page): Promise<AccessibilityViolation[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    interface AxeNode {
      target: unknown[];
      failureSummary?: string;
    }
    interface AxeResult {
      id: string;
      impact?: string | null;
      help: string;
      nodes: AxeNode[];
    }
    const axe = (globalThis as unknown as { axe: { run(options: unknown): Promise<{ violations: AxeResult[] }> } }).axe;
    const results = await axe.run({ resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target.map(String).join(' '), summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
  });
}

/** One line per element: rule, impact, the element's selector and axe's own explanation. */
export function describeViolations(violations: readonly AccessibilityViolation[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.rule} (${violation.impact}) at ${node.target}: ${violation.help}. ${node.summary}`),
  );
}

/**
 * Fails the test on any serious or critical violation in the view, in the dark and the light theme alike,
 * listing each. The page is left in the theme it was in.
 */
export async function expectNoBlockingViolations(page: Page, view: string): Promise<void> {
  const found: string[] = [];
  const wasLight = await page.evaluate(() => (globalThis as unknown as { matchMedia(query: string): { matches: boolean } }).matchMedia('(prefers-color-scheme: light)').matches);
  for (const colorScheme of COLOR_SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const blocking = (await auditAccessibility(page)).filter((violation) => BLOCKING_IMPACTS.has(violation.impact));
    found.push(...describeViolations(blocking).map((line) => `[${view}, ${colorScheme}] ${line}`));
  }
  await page.emulateMedia({ colorScheme: wasLight ? 'light' : 'dark' });
  expect(found, `accessibility violations in ${view}:\n${found.join('\n')}`).toEqual([]);
}
