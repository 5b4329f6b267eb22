/**
 * What global setup built for this run (test/setup/build-for-tests.ts): the CLI bundle a test spawns instead of
 * a cold `tsx src/main/cli/main.ts`, and the renderer the timeline's browser tests serve. Only the integration
 * and end-to-end projects have that setup; a unit test that needs a build belongs there.
 */
import { inject } from 'vitest';

/** `node <builtCli()> <args>` runs `sightline <args>` from the sources under test. */
export function builtCli(): string {
  return provided('sightlineCli');
}

/** The renderer built from the sources under test, for SIGHTLINE_RENDERER_DIR. */
export function builtRenderer(): string {
  return provided('rendererDirectory');
}

function provided(key: 'sightlineCli' | 'rendererDirectory'): string {
  const value = inject(key);
  if (typeof value !== 'string' || value === '') {
    throw new Error(`no ${key} from global setup: run this test in the integration or e2e project (vitest.config.ts), which builds it once`);
  }
  return value;
}
