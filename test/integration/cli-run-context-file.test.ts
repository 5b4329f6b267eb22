/**
 * `sightline run --context-file FILE --context-type TYPE`: the file's text reaches the model's requests and
 * not the database; every problem with the flags exits 2 naming the flag, before any model call.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_EPHEMERAL_CONTEXT_LENGTH } from '../../src/shared/ephemeral.js';
import { runCli } from '../../src/main/cli/program.js';
import { captureIo } from '../helpers/cli-io.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { openHomeStorage } from '../helpers/seed.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

const environment = useRunEnvironment('sightline-cli-context');

async function run(flags: string[], env: Record<string, string | undefined> = {}) {
  const io = captureIo(env, environment.home.root);
  const argv = ['--home', environment.home.root, 'run', 'Look at the page', '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, ...flags];
  const exitCode = await runCli(argv, io);
  return { exitCode, ...io.output };
}

function writeContext(name: string, content: string | Buffer): string {
  const path = join(environment.home.root, name);
  writeFileSync(path, content);
  return path;
}

const CONTENT = 'CONTEXT-FILE-5521: the customer prefers email.';

describe('sightline run --context-file', () => {
  it('sends the file with every request of the run, records only its type and length, and logs lengths when debugged', async () => {
    environment.model.script(scriptedMoves([{ action: { action: 'click', x: 10, y: 10 } }, { finish: 'Looked.' }]));
    writeContext('note.txt', CONTENT);
    const result = await run(['--context-file', 'note.txt', '--context-type', 'quote'], { SIGHTLINE_DEBUG_INJECTION: '1' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(environment.model.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of environment.model.requests) expect(request.rawBody).toContain('CONTEXT-FILE-5521');
    expect(result.stderr).toMatch(new RegExp(`ephemeral injection: 1 context\\(s\\) \\(quote ${CONTENT.length} characters\\)`));
    expect(result.stderr).not.toContain('CONTEXT-FILE-5521');

    const storage = openHomeStorage(environment.home);
    try {
      withRawDatabase(storage.paths.databaseFile, (database) => {
        const messages = JSON.stringify(database.prepare('SELECT * FROM messages').all());
        expect(messages).not.toContain('CONTEXT-FILE-5521');
        const injections = database.prepare('SELECT type, content_length FROM injections').all();
        expect(injections).toEqual([{ type: 'quote', content_length: CONTENT.length }]);
      });
    } finally {
      storage.close();
    }
  });

  const refusals: Array<[string, () => string[], RegExp]> = [
    ['a missing file', () => ['--context-file', 'nowhere.txt'], /--context-file: nowhere\.txt: no such file/],
    ['a folder', () => (mkdirSync(join(environment.home.root, 'folder')), ['--context-file', 'folder']), /--context-file: folder: is a folder/],
    ['an empty file', () => [ '--context-file', writeContext('empty.txt', '  \n')], /--context-file: .*empty\.txt is empty/],
    [
      'a file over the limit',
      () => ['--context-file', writeContext('big.txt', 'x'.repeat(MAX_EPHEMERAL_CONTEXT_LENGTH + 1))],
      /--context-file: .*big\.txt is too large/,
    ],
    ['a binary file', () => ['--context-file', writeContext('binary.bin', Buffer.from([0x89, 0x50, 0x00, 0x01]))], /--context-file: .* is not a text file/],
    ['an unknown type', () => ['--context-file', writeContext('ok.txt', CONTENT), '--context-type', 'secret'], /--context-type: expected one of note, quote, document, custom/],
    ['a type without a file', () => ['--context-type', 'note'], /--context-type: .*give the file too/],
  ];
  for (const [name, flags, message] of refusals) {
    it(`exits 2 naming the flag for ${name}`, async () => {
      const result = await run(flags());
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(environment.model.requests).toHaveLength(0);
    });
  }
});
