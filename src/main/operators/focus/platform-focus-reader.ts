/** The desktop's focus reader for the OS it runs on; elsewhere (BSDs, …) one that always answers 'unknown'. */
import { AtspiFocusClient } from './atspi-focus-client.js';
import { commandRunner, type CommandRunner } from './command-runner.js';
import { UNKNOWN_FOCUS, type DesktopFocusReader } from './focus-reading.js';
import { LinuxFocusReader } from './linux-focus-reader.js';
import { MacosFocusReader } from './macos-focus-reader.js';
import { WindowsFocusReader } from './windows-focus-reader.js';

export interface PlatformFocusReaderOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  run?: CommandRunner;
}

export function createPlatformFocusReader(options: PlatformFocusReaderOptions = {}): DesktopFocusReader {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const run = options.run ?? commandRunner(env);
  switch (platform) {
    case 'linux':
      return new LinuxFocusReader({ accessibility: new AtspiFocusClient({ env }), run, display: env.DISPLAY });
    case 'darwin':
      return new MacosFocusReader(run);
    case 'win32':
      return new WindowsFocusReader(run);
    default:
      return unknownFocusReader(platform);
  }
}

function unknownFocusReader(platform: string): DesktopFocusReader {
  return {
    focusedField: async () => UNKNOWN_FOCUS,
    availability: async () => ({ available: false, reason: `focus detection is not implemented on ${platform}`, fix: 'none: the secret heuristics apply' }),
    close: async () => undefined,
  };
}
