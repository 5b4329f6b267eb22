/**
 * `npm run demo`'s session, end to end (headless Chromium on the bundled sandbox page, the scripted model):
 * it shows an unchanged screenshot, folded ones in cold storage and a recall, and its closing summary says
 * what the stored session holds. Each figure is checked against the store by another road than the one the
 * summary took: the steps' results, the files on disk, the token reports summed here, `sessions show`.
 */
import { existsSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { dollarText } from '../../src/shared/cost.js';
import { TokenReportSchema } from '../../src/shared/events.js';
import { runCli } from '../../src/main/cli/program.js';
import { formatCount } from '../../src/main/cli/run/progress-lines.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { DEMO_TURNS, TYPED_NAME } from '../../demo/demo-script.js';
import { DEMO_MODEL, runDemoSession, type DemoSession } from '../../demo/demo-session.js';
import { TokenMeter } from '../../src/renderer/src/components/TokenMeter.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome | undefined;
afterEach(() => home?.remove());

async function sessionsShow(root: string, sessionId: string): Promise<string> {
  let stdout = '';
  const io = { stdout: (text: string) => (stdout += text), stderr: () => undefined, env: {}, cwd: process.cwd(), isInteractive: false };
  expect(await runCli(['sessions', 'show', sessionId, '--home', root], io)).toBe(0);
  return stdout;
}

/** The number after `label` in the summary, as formatCount wrote it. */
function countAfter(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (match === null) throw new Error(`the summary has no match for ${pattern.source}:\n${text}`);
  return Number(match[1]!.replace(/,/g, ''));
}

describe('npm run demo', () => {
  it('folds, offloads and recalls, and its summary reports what the stored session holds', { timeout: 180_000 }, async () => {
    home = createTemporaryHome('sightline-demo-e2e');
    let output = '';
    const demo: DemoSession = await runDemoSession({ home: home.root, write: (text) => (output += text) });
    expect(demo.failures, output).toBe(0);
    expect(demo.pageState).toMatchObject({ teamName: 'Platform', weeklySummary: true, members: ['Ada Lovelace'] });
    const sessionId = demo.sessionId!;
    const summary = output.slice(output.indexOf('What Sightline did with the screenshots:'));

    const storage = openHomeStorage(home);
    try {
      const turns = storage.turns.listBySession(sessionId);
      expect(turns).toHaveLength(DEMO_TURNS.length);
      const steps = storage.steps.listBySession(sessionId);
      const screenshots = storage.images.listBySession(sessionId).filter((image) => image.source === 'browser');

      // Unchanged: the steps whose result says the screen did not change, each naming the image it repeats.
      const unchanged = steps.filter((step) => (step.result as { unchanged?: boolean } | null)?.unchanged === true);
      expect(unchanged.length).toBeGreaterThan(0);
      for (const step of unchanged) expect(screenshots.map((image) => image.id)).toContain(step.dedupOfImageId);
      expect(countAfter(summary, /([\d,]+) unchanged/)).toBe(unchanged.length);
      expect(countAfter(summary, /([\d,]+) screenshots taken/)).toBe(screenshots.length + unchanged.length);

      // Folded: files in cold storage only.
      const folded = screenshots.filter((image) => existsSync(storage.blobs.pathFor('cold', image.sha256, image.mime)));
      expect(folded.length).toBeGreaterThan(0);
      for (const image of folded) expect(existsSync(storage.blobs.pathFor('blobs', image.sha256, image.mime))).toBe(false);
      expect(countAfter(summary, /([\d,]+) folded to placeholders/)).toBe(folded.length);

      // Recalled: the last turn asked for the first turn's screenshot after typing the name, read from cold storage.
      const lastTurnSteps = storage.steps.listByTurn(turns.at(-1)!.id);
      const recalls = lastTurnSteps.filter((step) => 'tool' in step.action && step.action.tool === 'get_history_image');
      expect(recalls).toHaveLength(1);
      const typedName = storage.images.listByTurn(turns[TYPED_NAME.turn - 1]!.id)[TYPED_NAME.screen - 1]!;
      expect(recalls[0]!.result).toMatchObject({ ok: true, imageId: typedName.id, location: 'cold-storage' });
      expect(folded.map((image) => image.id)).toContain(typedName.id);
      expect(countAfter(summary, /([\d,]+) recalled/)).toBe(1);

      // Cost: the steps' own tokens and cost, and the kept images' input from the token reports summed here.
      const input = steps.reduce((sum, step) => sum + (step.inputTokens ?? 0), 0);
      const output_ = steps.reduce((sum, step) => sum + (step.outputTokens ?? 0), 0);
      const spent = steps.reduce((sum, step) => sum + (step.costDollars ?? 0), 0);
      const reports = steps.map((step) => TokenReportSchema.parse(step.tokenReport));
      const keptImagesInput = reports.reduce((sum, report) => sum + report.keepEverythingTokens - report.sentTokens, 0);
      expect(keptImagesInput).toBeGreaterThan(0);
      const inputPrice = resolveModelProfile(DEMO_MODEL).pricing!.inputPerMillion;
      const keepEverything = spent + (keptImagesInput * inputPrice) / 1_000_000;
      expect(summary).toContain(`this session: ${formatCount(input)} input + ${formatCount(output_)} output tokens, ${dollarText(spent)}\n`);
      expect(summary).toContain(`with every image kept whole: ${formatCount(input + keptImagesInput)} input tokens, ${dollarText(keepEverything)}: `);
      // The saving is a share of input tokens against every image kept whole: the billed input, against it plus
      // what keeping the images would add.
      const percent = `${Math.round((keptImagesInput / (input + keptImagesInput)) * 100)}%`;
      expect(summary).toContain(`: ${percent} fewer input tokens against every image kept whole`);
      // The timeline shows the same number: its meter, fed the session's totals as the app API serves them.
      const meter = renderToStaticMarkup(createElement(TokenMeter, { ...storage.steps.tokenTotals(sessionId) }));
      expect(meter).toContain(`${percent} saved`);
      expect(meter).toContain('with every image kept whole');
      expect(summary).toContain(`the ${formatCount(keptImagesInput)} input tokens the kept images would add`);
      expect(summary).toContain(`$${inputPrice} per million tokens`);

      // The figures are the session's as `sessions show` prints it too.
      const shown = await sessionsShow(home.root, sessionId);
      expect(shown).toContain(`  cost: ${dollarText(spent)}\n`);
      expect(shown).toContain(`  tokens: ${formatCount(input)} in · ${formatCount(output_)} out\n`);
      expect(shown).toContain(`  images: ${percent} fewer input tokens against every image kept whole (${formatCount(input)} in, ${formatCount(input + keptImagesInput)} kept whole)\n`);
      // Each action in the words `sightline run` uses, the unchanged screenshot named by the one it repeats.
      expect(shown).toContain('2. type "Platform"  [screenshot ');
      expect(shown).toMatch(/3\. wait 1s {2}\[screenshot img_[0-9a-f]{12}/);
      expect(shown).toContain(`(same as ${unchanged[0]!.dedupOfImageId})`);
      expect(shown).toContain('1. get_history_image  [');
      expect(shown).not.toContain('{"');
    } finally {
      storage.close();
    }
  });
});
