/**
 * The desktop rows of bench/step-overhead.ts, in a child process: node-screenshots and nut-js open their X
 * connection at their first call and keep it for the life of the process, so the process that captures and
 * clicks must be started with DISPLAY set to the bench's Xvfb, and must be gone before that Xvfb is stopped.
 *
 *   node --import tsx bench/support/desktop-step-overhead.ts <static|transition>   (DISPLAY set)
 *
 * Prints the rows (watched, then the fixed sleep) as JSON on stdout.
 */
import { DesktopOperator } from '../../src/main/operators/desktop-operator.js';
import { runRow, windowGeometry, type PageKind, type RowResult } from './step-pipeline.js';
import { temporaryStorage } from './scripted-session.js';

const page = process.argv[2] as PageKind;
if (page !== 'static' && page !== 'transition') throw new Error(`usage: desktop-step-overhead.ts static|transition (got ${page})`);

const operator = new DesktopOperator();
const temporary = temporaryStorage('step-overhead-desktop');
try {
  const geometry = await windowGeometry(operator);
  const rows: RowResult[] = [];
  for (const mode of ['watch', 'sleep-500'] as const) rows.push(await runRow(operator, 'desktop (Xvfb)', page, mode, geometry, temporary.storage));
  process.stdout.write(JSON.stringify(rows));
} finally {
  temporary.remove();
  await operator.close();
}
