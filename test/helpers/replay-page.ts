/**
 * A small shop page for the replay tests and the replay bench, served on 127.0.0.1 at a 1280×800 viewport. Its
 * variant is chosen by the server (`setVariant`), so one URL recorded in a flow can be replayed on a changed page:
 *
 * - `same`: two rows (Apples, Pears) with an Add button each, a name field, a status line;
 * - `banner`: a 120 px banner on top moves everything down;
 * - `swapped`: the two rows' labels swapped, in the same layout (Add on the first row now adds Pears);
 * - `popup`: a cookie popup over the middle of the page, with its own Accept button;
 * - `out-of-stock`: the same page, but Add opens an "Out of stock" panel over the middle instead of adding: the screen
 *   before the click is the recorded one, the screen after it is not;
 * - `clock`: the same page with a clock in the top-right corner that ticks (its text set by `tick()` from the page's
 *   own timer, so two captures differ there and nowhere else).
 *
 * What was clicked is written in the status line and kept by the server (`added`, `names`): a wrong click is seen.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const REPLAY_VARIANTS = ['same', 'banner', 'swapped', 'popup', 'clock', 'out-of-stock'] as const;
export type ReplayVariant = (typeof REPLAY_VARIANTS)[number];

/** Where the first row's Add button is on the `same` page (and on the clock page). */
export const FIRST_ADD = { x: 330, y: 150 };
/** Where the name field is on the `same` page. */
export const NAME_INPUT = { x: 300, y: 300 };
/** Where the popup's Accept button is on the `popup` page. */
export const POPUP_ACCEPT = { x: 640, y: 470 };
/** The banner's height on the `banner` page: everything below moves down by it. */
export const BANNER_HEIGHT = 120;

export function replayPageHtml(variant: ReplayVariant, clockText = '10:00:00'): string {
  const [first, second] = variant === 'swapped' ? ['Pears', 'Apples'] : ['Apples', 'Pears'];
  const top = variant === 'banner' ? BANNER_HEIGHT : 0;
  return `<!doctype html><html><head><title>Shop</title><style>
  body { margin: 0; font: 22px sans-serif; background: #fff; color: #111; }
  #page { position: absolute; left: 0; top: ${top}px; width: 1280px; }
  .row { position: absolute; left: 100px; width: 300px; height: 44px; }
  .row span { position: absolute; left: 0; top: 8px; }
  .row button { position: absolute; left: 190px; top: 0; width: 80px; height: 44px; font-size: 20px; }
  #name { position: absolute; left: 100px; top: 280px; width: 400px; height: 40px; font-size: 20px; }
  #status { position: absolute; left: 100px; top: 380px; }
  #banner { position: absolute; left: 0; top: 0; width: 1280px; height: ${BANNER_HEIGHT}px; background: #ffd54f; font-size: 28px; line-height: ${BANNER_HEIGHT}px; text-align: center; }
  #popup { position: fixed; left: 390px; top: 300px; width: 500px; height: 220px; background: #263238; color: #fff; box-shadow: 0 0 30px #000; }
  #popup p { margin: 30px; }
  #popup button { position: absolute; left: 190px; top: 150px; width: 120px; height: 40px; font-size: 20px; }
  #clock { position: absolute; right: 20px; top: 10px; font: 18px monospace; color: #555; }
</style></head><body>
  ${variant === 'banner' ? '<div id="banner">Summer sale: everything 20% off</div>' : ''}
  <div id="page">
    <div class="row" style="top: 128px"><span>${first}</span><button id="add-1" onclick="add('${first}')">Add</button></div>
    <div class="row" style="top: 198px"><span>${second}</span><button id="add-2" onclick="add('${second}')">Add</button></div>
    <input id="name" autocomplete="off" aria-label="Name" oninput="report('name', this.value)">
    <div id="status">Cart is empty</div>
  </div>
  ${variant === 'popup' ? '<div id="popup"><p>We use cookies to run this shop.</p><button id="accept" onclick="document.getElementById(\'popup\').remove(); report(\'accepted\', \'yes\')">Accept</button></div>' : ''}
  ${variant === 'clock' ? `<div id="clock">${clockText}</div>` : ''}
  <script>
    function report(kind, value) { fetch('/report?' + new URLSearchParams({ kind, value }), { method: 'POST' }); }
    function add(item) {
      ${variant === 'out-of-stock' ? "const panel = document.createElement('div'); panel.id = 'stock'; panel.textContent = item + ' are out of stock'; panel.style.cssText = 'position:fixed;left:390px;top:420px;width:500px;height:200px;background:#b71c1c;color:#fff;font-size:28px;padding:30px;box-sizing:border-box'; document.body.appendChild(panel); report('out-of-stock', item); return;" : ''}
      document.getElementById('status').textContent = 'Added ' + item; report('added', item);
    }
    ${variant === 'clock' ? "let seconds = 0; setInterval(() => { seconds += 1; document.getElementById('clock').textContent = '10:00:' + String(seconds % 60).padStart(2, '0'); }, 700);" : ''}
  </script>
</body></html>`;
}

export interface ReplayPageServer {
  url: string;
  setVariant(variant: ReplayVariant): void;
  /** What the page reported, in order: `added` (the item an Add button added), `name` (the field's value), `accepted`. */
  reports: Array<{ kind: string; value: string }>;
  close(): Promise<void>;
}

export async function startReplayPage(): Promise<ReplayPageServer> {
  let variant: ReplayVariant = 'same';
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
    response.end(replayPageHtml(variant));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    setVariant: (next) => {
      variant = next;
    },
    reports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
