/**
 * Hostile pages for the replay (issue 36, "Act only on what was verified"), served on 127.0.0.1 at 1280×800. One
 * shop page is recorded (`same`: click Add on the Apples row); each variant is the same URL changed the way a
 * replay must not be fooled by, or must not be upset by:
 *
 * - `overlay`: a "Delete account" button of the Add button's size and colour appears over it `delay` ms after load;
 * - `hover-swap`: the Add button becomes a "Delete account" button when the pointer enters it;
 * - `invisible-layer`: a transparent layer over the Add button takes its clicks;
 * - `quantity`, `total`, `heading`, `far-labels`: a change of meaning away from the target ("Qty: 1" to
 *   "Qty: 9999", "Total: $10.00" to "Total: $9,999.00", the heading "Shop" to "Bank", the labels of a row 540 px
 *   right of the point swapped);
 * - `shift`: the whole page 3 px lower and to the right;
 * - `clock`: a clock in the top-right corner that ticks.
 *
 * Every click anywhere is reported to the server by the page (capture phase, before any handler), with the id of
 * the element it reached: `add` is the only right one. `settle()` waits for the page's reports to arrive.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

export const HOSTILE_VARIANTS = ['same', 'overlay', 'hover-swap', 'invisible-layer', 'quantity', 'total', 'heading', 'far-labels', 'shift', 'clock'] as const;
export type HostileVariant = (typeof HOSTILE_VARIANTS)[number];

/** The changes of meaning: a replay must diverge on each. */
export const MEANING_VARIANTS = ['quantity', 'total', 'heading', 'far-labels'] as const satisfies readonly HostileVariant[];
/** The noise: a replay must not diverge on either. */
export const NOISE_VARIANTS = ['shift', 'clock'] as const satisfies readonly HostileVariant[];

/** The Add button's centre on the recorded page. */
export const ADD_POINT = { x: 330, y: 150 };

export function hostilePageHtml(variant: HostileVariant, delayMs = 0): string {
  const shift = variant === 'shift' ? 3 : 0;
  const heading = variant === 'heading' ? 'Bank' : 'Shop';
  const quantity = variant === 'quantity' ? '9999' : '1';
  const total = variant === 'total' ? '$9,999.00' : '$10.00';
  const [near, far] = variant === 'far-labels' ? ['Express delivery', 'Gift wrap'] : ['Gift wrap', 'Express delivery'];
  return `<!doctype html><html><head><title>Shop</title><style>
  body { margin: 0; font: 22px sans-serif; background: #fff; color: #111; }
  #page { position: absolute; left: ${shift}px; top: ${shift}px; width: 1270px; height: 790px; }
  h1 { position: absolute; left: 100px; top: 20px; margin: 0; font-size: 34px; }
  .label { position: absolute; left: 100px; }
  .far { position: absolute; left: 870px; }
  .action { position: absolute; left: 290px; top: 128px; width: 80px; height: 44px; font-size: 20px; background: #1565c0; color: #fff; border: 0; border-radius: 4px; }
  #qty { position: absolute; left: 100px; top: 460px; }
  #total { position: absolute; left: 100px; top: 520px; }
  #clock { position: absolute; right: 20px; top: 10px; font: 18px monospace; color: #555; }
  #layer { position: absolute; left: 270px; top: 110px; width: 120px; height: 80px; background: transparent; }
</style></head><body>
  <div id="page">
    <h1>${heading}</h1>
    <span class="label" style="top: 136px">Apples</span>
    <button class="action" id="add" onclick="say('added', 'Apples')">Add</button>
    <span class="far" style="top: 136px">${near}</span>
    <span class="far" style="top: 206px">${far}</span>
    <div id="qty">Qty: ${quantity}</div>
    <div id="total">Total: ${total}</div>
    ${variant === 'clock' ? '<div id="clock">10:00:00</div>' : ''}
    ${variant === 'invisible-layer' ? '<div id="layer" onclick="say(\'deleted\', \'account\')"></div>' : ''}
  </div>
  <script>
    window.__reports = [];
    function say(kind, value) { window.__reports.push(fetch('/report?' + new URLSearchParams({ kind, value }), { method: 'POST' })); }
    document.addEventListener('click', (event) => say('click', event.target.id || event.target.tagName.toLowerCase()), true);
    function deleteButton() {
      const button = document.createElement('button');
      button.className = 'action';
      button.id = 'delete';
      button.textContent = 'Delete account';
      button.style.fontSize = '10px';
      button.onclick = () => say('deleted', 'account');
      return button;
    }
    ${variant === 'overlay' ? `setTimeout(() => { const over = deleteButton(); over.style.zIndex = '5'; document.getElementById('page').appendChild(over); }, ${Number(delayMs)});` : ''}
    ${variant === 'hover-swap' ? "document.getElementById('add').addEventListener('pointerenter', (event) => event.target.replaceWith(deleteButton()), { once: true });" : ''}
    ${variant === 'clock' ? "let seconds = 0; setInterval(() => { seconds += 1; document.getElementById('clock').textContent = '10:00:' + String(seconds % 60).padStart(2, '0'); }, 300);" : ''}
  </script>
</body></html>`;
}

export interface HostilePageServer {
  /** The page's URL; the variant (and an overlay's delay) is the server's, so the recorded URL stays the same. */
  url: string;
  setVariant(variant: HostileVariant, delayMs?: number): void;
  /** Every click the page saw (`click`, with the id of what it reached) and what the page did (`added`, `deleted`). */
  reports: Array<{ kind: string; value: string }>;
  /** The ids of the elements clicked, in order. */
  clicks(): string[];
  /** Waits for the page's reports sent so far to reach the server. */
  settle(page: Page): Promise<void>;
  close(): Promise<void>;
}

export async function startHostilePages(): Promise<HostilePageServer> {
  let variant: HostileVariant = 'same';
  let delay = 0;
  const reports: Array<{ kind: string; value: string }> = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://page');
    if (url.pathname === '/report') {
      reports.push({ kind: url.searchParams.get('kind') ?? '', value: url.searchParams.get('value') ?? '' });
      response.writeHead(204);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(hostilePageHtml(variant, delay));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    setVariant: (next, delayMs = 0) => {
      variant = next;
      delay = delayMs;
    },
    reports,
    clicks: () => reports.filter((report) => report.kind === 'click').map((report) => report.value),
    settle: async (page) => {
      await page.evaluate('Promise.all(window.__reports)');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
