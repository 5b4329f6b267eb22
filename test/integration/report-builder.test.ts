/**
 * The report builder over a real store: frames embedded once by content hash, cited frames whole and the others
 * reduced, the size cap giving up the least important whole frames first (and saying so), and what pages and
 * models wrote kept as text, in the markup and in the embedded JSON alike.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildFlowRunReport, buildSessionReport, ReportSessionNotFoundError, ReportTooLargeError } from '../../src/main/report/index.js';
import { scriptSafeJson } from '../../src/main/report/report-html.js';
import type { Storage } from '../../src/main/storage/index.js';
import { redactorOf } from '../../src/shared/secret-redaction.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { failingFlow, flowRun, healedReplay, hostileSession, HOSTILE_TITLE, passingFlow } from '../helpers/report-sessions.js';

let home: TemporaryHome;
let storage: Storage;
const options = () => ({ storage, redact: (text: string) => text, sightlineVersion: '0.1.0' });

beforeEach(() => {
  home = createTemporaryHome('sightline-report');
  storage = openHomeStorage(home);
});

afterEach(() => {
  storage.close();
  home.remove();
});

function dataUrls(html: string): string[] {
  return html.match(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g) ?? [];
}

describe('a report', () => {
  it('embeds each distinct frame once, the cited ones whole and the others reduced', async () => {
    const passing = await passingFlow(storage);
    const report = await buildSessionReport(passing.session.id, options());
    const urls = dataUrls(report.html);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.length).toBe(report.model.frames.length);
    // The extract and the assert cite the same last frame: one frame, shown twice, written once.
    const cited = report.model.frames.filter((frame) => frame.full);
    expect(cited.map((frame) => frame.citedFor)).toEqual([['evidence']]);
    expect(urls.filter((url) => url.startsWith('data:image/png')).length).toBe(1);
    expect(urls.filter((url) => url.startsWith('data:image/webp')).length).toBe(report.model.frames.length - 1);
    expect(report.html.match(/data-frame-src=/g)?.length).toBeGreaterThan(0);
    // A reduced copy carries its own size, which the page never draws it past.
    const reduced = report.model.frames.filter((frame) => !frame.full);
    expect(reduced.length).toBeGreaterThan(0);
    for (const frame of reduced) expect([frame.pixelWidth, frame.pixelHeight]).toEqual([480, 300]);
    for (const frame of report.model.frames.filter((whole) => whole.full)) expect([frame.pixelWidth, frame.pixelHeight]).toEqual([frame.width, frame.height]);
    expect(report.html).toContain('width="480" height="300"');
  });

  it('puts failing flows first and cites the failure whole', async () => {
    const passing = await passingFlow(storage);
    const failing = await failingFlow(storage);
    const report = await buildFlowRunReport(flowRun([passing, failing]), 'failed', options());
    if (report.model.body.kind !== 'flow-run') throw new Error('expected a flow run');
    expect(report.model.body.flows.map((flow) => flow.name)).toEqual(['invite-confirmed', 'invite-viewer']);
    const failure = failing.images.at(-1)!;
    // The failure is also the flow's last frame; its first is cited for being the first.
    const frameOf = (imageId: string) => report.model.frames.find((frame) => frame.imageIds.includes(imageId));
    expect(frameOf(failure.id)?.citedFor).toEqual(['failure', 'first-or-last']);
    expect(frameOf(failing.images[0]!.id)?.citedFor).toEqual(['first-or-last']);
    // Open on load by image id: the same pixels shown for another flow's step stay a thumbnail.
    expect(frameOf(failure.id)?.openImageIds).toEqual([failure.id]);
    expect(report.html.indexOf('invite-confirmed')).toBeLessThan(report.html.indexOf('invite-viewer'));
  });

  it('carries a divergence and keeps both its frames whole', async () => {
    const replay = await healedReplay(storage);
    const report = await buildSessionReport(replay.session.id, options());
    const byId = (id: string) => report.model.frames.find((frame) => frame.imageIds.includes(id));
    expect(byId(replay.recorded.id)?.citedFor).toEqual(['divergence']);
    expect(byId(replay.divergence.liveImageId)?.full).toBe(true);
    expect(report.html).toContain('class="changed-tile"');
    expect(report.html).toContain('healed');
  });

  it('under a tight cap reduces the least important whole frames first and says so', async () => {
    const replay = await healedReplay(storage);
    const unlimited = await buildSessionReport(replay.session.id, options());
    const png = (id: string) => dataUrls(unlimited.html).find((url) => url.startsWith('data:image/png') && unlimited.model.frames.find((frame) => frame.imageIds.includes(id)))!;
    expect(png(replay.recorded.id)).toBeDefined();
    // Room for all but one whole frame: the evidence (an extract's) goes, the divergence stays.
    const evidenceFrame = unlimited.model.frames.find((frame) => frame.full && frame.citedFor[0] !== 'divergence');
    const tight = await buildSessionReport(replay.session.id, { ...options(), maxBytes: unlimited.bytes - 1000 });
    expect(tight.bytes).toBeLessThanOrEqual(unlimited.bytes - 1000);
    const dropped = tight.model.frames.filter((frame) => frame.droppedForSize);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((frame) => !frame.citedFor.includes('divergence'))).toBe(evidenceFrame !== undefined || dropped.length === 0);
    expect(tight.model.notices.map((notice) => notice.kind)).toContain('size-cap');
    expect(tight.html).toContain('shown smaller to keep the file small');
    await expect(buildSessionReport(replay.session.id, { ...options(), maxBytes: 20_000 })).rejects.toBeInstanceOf(ReportTooLargeError);
  });

  it('keeps what pages and models wrote as text, in the markup and in the embedded JSON', async () => {
    const hostile = await hostileSession(storage);
    const report = await buildSessionReport(hostile.session.id, options());
    expect(report.html).not.toContain('<img src=x');
    expect(report.html).not.toContain('<script>window.__pwned');
    expect(report.html).toContain('&lt;/script&gt;&lt;img src=x onerror=');
    // Exactly our two script elements: the JSON data block and the frames' script.
    expect(report.html.match(/<script/g)?.length).toBe(2);
    const json = /<script type="application\/json" id="sightline-report-data">([\s\S]*?)<\/script>/.exec(report.html)?.[1] ?? '';
    expect(json).not.toMatch(/[<>\u2028\u2029]/);
    expect(JSON.parse(json).title).toBe(HOSTILE_TITLE);
  });

  it('allows exactly its own style and script by hash, and nothing else', async () => {
    const passing = await passingFlow(storage);
    const { html } = await buildSessionReport(passing.session.id, options());
    const policy = (/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&#x27;/g, "'");
    expect(policy).toMatch(/^default-src 'none'; img-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const hash = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
    expect(policy).toContain(hash(style.replace(/&gt;/g, '>')));
    expect(policy).toContain(hash(script));
  });

  it('masks configured secrets in every text', async () => {
    const passing = await passingFlow(storage);
    const report = await buildSessionReport(passing.session.id, { ...options(), redact: redactorOf(['alex@example.com']) });
    expect(report.html).not.toContain('alex@example.com');
    expect(report.html).toContain('[redacted]');
  });

  it('refuses a session that is not there', async () => {
    await expect(buildSessionReport('ses_000000000000', options())).rejects.toBeInstanceOf(ReportSessionNotFoundError);
  });
});

describe('scriptSafeJson', () => {
  it('escapes what could end a script element or a line', () => {
    const text = scriptSafeJson({ value: '</script><!-- & \u2028 \u2029' });
    expect(text).toBe('{"value":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028 \\u2029"}');
    expect(JSON.parse(text)).toEqual({ value: '</script><!-- & \u2028 \u2029' });
  });
});
