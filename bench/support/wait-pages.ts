/**
 * What the flows section (bench/flows.ts) waits on: two pages served on 127.0.0.1, and a fake model that judges
 * them from the screenshot it is sent.
 *
 * Both pages show a banner, "Processing…" on grey, that turns to "Order placed" on green `changeAfterMs` after the
 * bench calls `startChange` in the page, and records when (`changedAt`, the page's clock is this machine's). The
 * clock page also shows a counter that ticks every second, away from the banner.
 *
 * The model is the fake OpenAI server answering every call with `answer`: its verdict is true when the banner in the
 * latest screenshot of the request is green, so it judges what it was shown, never the time; a screenshot taken
 * a moment before the change is judged false, as a real model would judge it. Its usage is estimated the way the
 * scripted test model estimates it (test/helpers/scripted-computer-model.ts).
 * Not a section itself: bench/run.ts loads only the .ts files directly in bench/.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeImageBytes } from '../../src/main/perception/image-encoding.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply, type RecordedRequest } from '../../test/helpers/fake-openai-server.js';
import { scriptedMoves, summarizeRequest } from '../../test/helpers/scripted-computer-model.js';

export const VIEWPORT = { width: 1280, height: 800 };
export const CONDITION = 'The banner says "Order placed"';
export type WaitPageKind = 'once' | 'clock';

const BANNER = { left: 100, top: 300, width: 640, height: 160 };

function pageHtml(kind: WaitPageKind): string {
  const clock = kind === 'clock'
    ? `<div id="clock">00:00</div><script>
         const shownAt = Date.now();
         setInterval(() => {
           const seconds = Math.floor((Date.now() - shownAt) / 1000);
           document.getElementById('clock').textContent = String(Math.floor(seconds / 60)).padStart(2, '0') + ':' + String(seconds % 60).padStart(2, '0');
         }, 1000);
       </script>`
    : '';
  return `<!doctype html><html><head><title>Order</title><style>
    body { margin: 0; font: 24px sans-serif; background: #fff; }
    #clock { position: absolute; left: 100px; top: 120px; font: 48px monospace; }
    #banner { position: absolute; left: ${BANNER.left}px; top: ${BANNER.top}px; width: ${BANNER.width}px; height: ${BANNER.height}px;
      display: flex; align-items: center; justify-content: center; font-size: 40px; background: #c8c8c8; color: #222; }
    #banner.done { background: #1b8a2e; color: #fff; }
  </style></head><body>
    <h1 style="margin: 0; padding: 24px 100px; font-size: 28px">Your order</h1>
    ${clock}
    <div id="banner">Processing…</div>
    <script>
      window.changedAt = null;
      window.startChange = (afterMs) => setTimeout(() => {
        const banner = document.getElementById('banner');
        banner.textContent = 'Order placed';
        banner.className = 'done';
        window.changedAt = Date.now();
      }, afterMs);
    </script>
  </body></html>`;
}

export interface WaitPages {
  urlOf(kind: WaitPageKind): string;
  close(): Promise<void>;
}

export async function serveWaitPages(): Promise<WaitPages> {
  const server: Server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(pageHtml(request.url === '/clock' ? 'clock' : 'once'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urlOf: (kind) => `${origin}/${kind}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One model call as the fake saw it. */
export interface ModelCall {
  /** When the verdict was given (Date.now()). */
  at: number;
  verdict: boolean;
  /** Estimated from what was sent: text at about four characters a token, each image by the model's formula. */
  inputTokens: number;
  images: number;
  bytes: number;
}

export interface JudgingModel {
  baseUrl: string;
  /** Every call answered so far, in order. */
  readonly calls: readonly ModelCall[];
  close(): Promise<void>;
}

const DATA_URL = /data:image\/(?:png|jpeg|webp);base64,([A-Za-z0-9+/=]+)/g;

/** Whether the banner in the request's latest screenshot is green (the page shows "Order placed"). */
async function bannerDone(request: RecordedRequest): Promise<boolean | undefined> {
  const latest = [...request.rawBody.matchAll(DATA_URL)].at(-1)?.[1];
  if (latest === undefined) return undefined;
  const image = await decodeImageBytes(Buffer.from(latest, 'base64'));
  // Near the banner's corner, off its centred text.
  const x = Math.round(((BANNER.left + 20) * image.width) / VIEWPORT.width);
  const y = Math.round(((BANNER.top + 20) * image.height) / VIEWPORT.height);
  const at = (y * image.width + x) * 4;
  const [red, green, blue] = [image.rgba[at]!, image.rgba[at + 1]!, image.rgba[at + 2]!];
  return green > 100 && red < 90 && blue < 90;
}

export async function startJudgingModel(): Promise<JudgingModel> {
  const server: FakeOpenAiServer = await startFakeOpenAiServer();
  const calls: ModelCall[] = [];
  const judge = async (request: RecordedRequest): Promise<FakeReply> => {
    // One reply is always queued ahead, so the fake never runs out however long a wait lasts.
    server.script([judge]);
    const verdict = await bannerDone(request);
    // No screenshot: the scripted model refuses, loudly, as it does in the tests.
    const [reply] = scriptedMoves([
      { tool: 'answer', arguments: { verdict: verdict === true, reason: verdict === true ? 'The banner says Order placed.' : 'The banner still says Processing.', evidence: [] } },
    ]);
    const answered = reply!(request);
    if (verdict !== undefined && answered.type === 'answer') {
      calls.push({
        at: Date.now(),
        verdict,
        inputTokens: answered.usage?.inputTokens ?? 0,
        images: summarizeRequest(request).images,
        bytes: Buffer.byteLength(request.rawBody),
      });
    }
    return answered;
  };
  server.script([judge]);
  return { baseUrl: server.baseUrl, calls, close: () => server.close() };
}
