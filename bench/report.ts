/**
 * `npm run bench -- report`: the bytes of a shareable report (issue 27) against the naive one, every step's
 * screenshot embedded as PNG, for a 10-step flow and a 100-step session. The screens are the seeded "Acme
 * Workspace" app with a photo-like panel (blurred noise) so they compress like real pages, not like flat
 * drawings; the 100-step session repeats a screen now and then, as dedup sees in real runs. Aim: the 100-step
 * report at least 10× smaller and under 5 MB.
 */
import sharp from 'sharp';
import type { StepAction } from '../src/shared/actions.js';
import type { ImageRecord, Storage } from '../src/main/storage/index.js';
import { buildFlowRunReport, buildSessionReport, type BuiltReport } from '../src/main/report/index.js';
import { createTemporaryHome, openHomeStorage } from '../test/helpers/seed.js';
import { drawScreen } from '../test/helpers/seed-timeline.js';
import { formatMs, markdownTable, speedup, type BenchSection } from './harness.js';

const WIDTH = 1280;
const HEIGHT = 800;
const PAGES = ['Overview', 'Projects', 'Team', 'Billing', 'Settings'];

async function screen(index: number): Promise<Buffer> {
  const base = await drawScreen({ width: WIDTH, height: HEIGHT, page: PAGES[index % PAGES.length]!, highlightRow: index % 5, typed: index % 3 === 0 ? `user${index}@example.com` : '' });
  const photo = await sharp({ create: { width: 360, height: 220, channels: 3, background: { r: 90 + (index * 37) % 120, g: 120, b: 160 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(2.5)
    .png()
    .toBuffer();
  return sharp(base).composite([{ input: photo, left: WIDTH - 420, top: 300 }]).png().toBuffer();
}

async function putScreen(storage: Storage, sessionId: string, turnId: string, index: number): Promise<ImageRecord> {
  return storage.images.put({ sessionId, turnId, bytes: await screen(index), mime: 'image/png', width: WIDTH, height: HEIGHT, source: 'browser' });
}

/** `turns` turns of `perTurn` steps; every `repeatEvery`-th step shows the screen before it again; `errors` failing steps. */
async function seedSession(storage: Storage, turns: number, perTurn: number, options: { repeatEvery: number; errors: number; flowName?: string }) {
  const session = storage.sessions.create({ title: `Bench: ${turns * perTurn} steps`, operator: 'browser', model: 'gpt-4.1', flowName: options.flowName ?? null });
  const turnIds: string[] = [];
  let previous: ImageRecord | undefined;
  let index = 0;
  for (let turnIndex = 0; turnIndex < turns; turnIndex += 1) {
    const asks = turnIndex % 3 === 2;
    const turn = storage.turns.start({ sessionId: session.id, userRequest: asks ? `Check step ${turnIndex + 1} worked` : `Do part ${turnIndex + 1} of the task`, stepKind: asks ? 'assert' : 'do' });
    turnIds.push(turn.id);
    for (let step = 0; step < perTurn; step += 1, index += 1) {
      const repeat = previous !== undefined && index % options.repeatEvery === options.repeatEvery - 1;
      const image = repeat ? previous! : await putScreen(storage, session.id, turn.id, index);
      previous = image;
      const action: StepAction = { action: 'click', x: 100 + ((index * 97) % 1000), y: 100 + ((index * 53) % 600) };
      const failing = index < options.errors * 17 && index % 17 === 16;
      storage.steps.append({
        sessionId: session.id,
        turnId: turn.id,
        action,
        thought: `Step ${index + 1}: clicking the next control on the ${PAGES[index % PAGES.length]} page.`,
        screenshotImageId: image.id,
        screenshotView: { imageWidth: WIDTH, imageHeight: HEIGHT, coordinateSpace: 'pixels' },
        result: { ok: !failing, settle: { settled: true, waitedMs: 300, frames: 2, maxMs: 3000 } },
        error: failing ? 'The click landed outside the button.' : null,
        latencyMs: 1300,
        inputTokens: 4000,
        outputTokens: 100,
        costDollars: 0.01,
      });
    }
    storage.turns.end(turn.id, 'finished', asks ? { kind: 'verdict', value: true, reason: 'The page shows the change.', evidence: previous === undefined ? [] : [previous.id] } : undefined);
  }
  return { session, turnIds };
}

interface Row {
  name: string;
  report: BuiltReport;
  steps: number;
  naiveBytes: number;
  ms: number;
}

/** What the same page weighs with each step's screenshot embedded as its PNG, repeats and all. */
async function naiveBytes(storage: Storage, report: BuiltReport, sessionIds: string[]): Promise<number> {
  const embedded = (report.html.match(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g) ?? []).reduce((sum, url) => sum + url.length, 0);
  let pngs = 0;
  for (const sessionId of sessionIds) {
    for (const step of storage.steps.listBySession(sessionId)) {
      if (step.screenshotImageId === null) continue;
      const read = await storage.images.read(step.screenshotImageId);
      if (read.status === 'ok') pngs += 'data:image/png;base64,'.length + Math.ceil(read.bytes.byteLength / 3) * 4;
    }
  }
  return report.bytes - embedded + pngs;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

export const section: BenchSection = {
  name: 'report',
  title: 'Shareable reports: bytes against every screenshot embedded as PNG',
  async run() {
    const home = createTemporaryHome('sightline-bench-report');
    const storage = openHomeStorage(home);
    try {
      const options = { storage, redact: (text: string) => text, sightlineVersion: 'bench' };
      const rows: Row[] = [];

      const flow = await seedSession(storage, 10, 1, { repeatEvery: 1000, errors: 0, flowName: 'bench-flow' });
      const flowSteps = storage.turns.listBySession(flow.session.id).map((turn, index) => ({
        path: String(index + 1),
        label: turn.stepKind ?? 'do',
        kind: turn.stepKind ?? 'do',
        text: turn.userRequest,
        at: { line: 3 + index * 2 },
        status: 'passed' as const,
        reason: turn.answer?.reason,
        evidence: turn.answer?.evidence ?? [],
        ...(turn.answer === null ? {} : { value: turn.answer.value }),
        durationMs: 2000,
        costDollars: 0.01,
        turnId: turn.id,
      }));
      const run = {
        startedAt: flow.session.createdAt,
        durationMs: 20_000,
        shard: undefined,
        flows: [{ name: 'bench-flow', file: 'bench.yaml', status: 'passed' as const, sessionId: flow.session.id, attempts: 1, startedAt: flow.session.createdAt, durationMs: 20_000, costDollars: 0.1, error: undefined, steps: flowSteps }],
      };
      let started = performance.now();
      const flowReport = await buildFlowRunReport(run, 'passed', options);
      rows.push({ name: '10-step flow', report: flowReport, steps: 10, naiveBytes: await naiveBytes(storage, flowReport, [flow.session.id]), ms: performance.now() - started });

      const long = await seedSession(storage, 10, 10, { repeatEvery: 6, errors: 2 });
      started = performance.now();
      const longReport = await buildSessionReport(long.session.id, options);
      rows.push({ name: '100-step session', report: longReport, steps: 100, naiveBytes: await naiveBytes(storage, longReport, [long.session.id]), ms: performance.now() - started });

      const table = markdownTable(
        ['report', 'steps', 'distinct frames', 'whole', 'reduced', 'Sightline report', 'every screenshot as PNG', 'smaller by', 'built in'],
        rows.map((row) => [
          row.name,
          String(row.steps),
          String(row.report.model.frames.length),
          String(row.report.model.frames.filter((frame) => frame.full).length),
          String(row.report.model.frames.filter((frame) => !frame.full).length),
          megabytes(row.report.bytes),
          megabytes(row.naiveBytes),
          speedup(row.naiveBytes, row.report.bytes),
          `${formatMs(row.ms)} ms`,
        ]),
      );
      const hundred = rows[1]!;
      const verdict =
        hundred.naiveBytes / hundred.report.bytes >= 10 && hundred.report.bytes < 5 * 1024 * 1024
          ? 'The 100-step report meets the aim: at least 10× smaller and under 5 MB.'
          : 'The 100-step report misses the aim (10× smaller and under 5 MB).';
      return `${table}\n\nFrames the text cites (evidence, failures, divergences, anchors) are embedded whole as stored; the others as WebP copies 480 px wide; each distinct frame once. ${verdict}`;
    } finally {
      storage.close();
      home.remove();
    }
  },
};
