/**
 * `sightline doctor` on a real (virtual) X display: the display and input checks pass, and with keys set
 * and a fresh home nothing is a problem, so the exit code is 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandExists, hasSystemPackage } from '../helpers/system-packages.js';
import { canStartAccessibilityBus, startAccessibilityBus, type AccessibilityBus } from '../helpers/accessibility-bus.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

// The focus check passes only with the accessibility bus on a session bus, as in a desktop session.
const hasXvfb = process.platform === 'linux' && hasSystemPackage('xvfb', commandExists('Xvfb')) && canStartAccessibilityBus;

/** Starts Xvfb on a free display; `-displayfd` makes it print the number once it accepts connections. */
async function startXvfb(): Promise<{ display: string; server: ChildProcess }> {
  const server = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    server.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  return { display: `:${number}`, server };
}

describe.skipIf(!hasXvfb)('sightline doctor under Xvfb', () => {
  let xvfb: { display: string; server: ChildProcess };
  let home: TemporaryHome;
  let previousDisplay: string | undefined;
  let bus: AccessibilityBus;

  beforeAll(async () => {
    xvfb = await startXvfb();
    home = createTemporaryHome('sightline-doctor-xvfb');
    // node-screenshots and nut-js read DISPLAY from the real environment of this (forked) test process.
    previousDisplay = process.env.DISPLAY;
    process.env.DISPLAY = xvfb.display;
    bus = await startAccessibilityBus({ ...process.env, DISPLAY: xvfb.display });
  });

  afterAll(async () => {
    await bus?.stop();
    if (previousDisplay === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = previousDisplay;
    xvfb.server.kill();
    home.remove();
  });

  it('lists the display, captures it, reaches the input and exits 0', async () => {
    const run = await runSightline(['--home', home.root, 'doctor'], {
      DISPLAY: xvfb.display,
      DBUS_SESSION_BUS_ADDRESS: bus.env.DBUS_SESSION_BUS_ADDRESS,
      OPENAI_API_KEY: 'sk-e2e',
      TAVILY_API_KEY: 'tvly-e2e',
    });
    expect(run.stdout).toMatch(/^ok\s+display\s+1 display: #\d+ 1280x800 @1x.*; captured 1280x800$/m);
    expect(run.stdout).toMatch(/^ok\s+input\s+nut-js ready; mouse at \(\d+, \d+\)$/m);
    expect(run.stdout).toContain('All checks passed.');
    expect(run.exitCode).toBe(0);
  });
});
