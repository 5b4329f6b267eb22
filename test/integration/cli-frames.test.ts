/** `sightline frames compare|hash` on real files, in-process through runCli, as the bin runs it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/main/cli/io.js';
import { runCli } from '../../src/main/cli/program.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/frames');
const TYPED_A = join(FIXTURES, '03-type-one-char-a.png');
const TYPED_B = join(FIXTURES, '03-type-one-char-b.png');
const JPEG_A = join(FIXTURES, '15-jpeg-recompress-a.png');
const JPEG_B = join(FIXTURES, '15-jpeg-recompress-b.jpg');

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-frames-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { SIGHTLINE_HOME: folder }, cwd: folder, isInteractive: false };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe('sightline frames compare', () => {
  it('reports one typed character as a change, with its region, in JSON', async () => {
    const result = await run('frames', 'compare', TYPED_A, TYPED_B, '--json');
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { duplicate: boolean; distance: number; algorithm: string; regions: { x: number; y: number; width: number; height: number }[] };
    expect(parsed).toMatchObject({ duplicate: false, algorithm: 'phash' });
    expect(Object.keys(parsed).sort()).toEqual(['algorithm', 'distance', 'duplicate', 'regions']);
    expect(parsed.regions).toHaveLength(1);
    // The typed glyph sits around (386..393, 206..214) in the fixture.
    const [region] = parsed.regions;
    expect(region!.x).toBeLessThanOrEqual(386);
    expect(region!.x + region!.width).toBeGreaterThanOrEqual(394);
    expect(region!.width).toBeLessThan(32);
  });

  it('folds a JPEG re-encode of the same screen, in text and with the chosen algorithm', async () => {
    const result = await run('frames', 'compare', JPEG_A, JPEG_B, '--algorithm', 'dhash');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^duplicate \(dhash distance \d+, threshold 10; no changed region\)\n$/);
  });

  it('decides with the configured algorithm and threshold when no flag is given', async () => {
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ perception: { dedup: { algorithm: 'ahash', threshold: 3 } } }));
    try {
      const result = await run('frames', 'compare', JPEG_A, JPEG_B, '--json');
      expect(JSON.parse(result.stdout)).toMatchObject({ algorithm: 'ahash' });
      const text = await run('frames', 'compare', JPEG_A, JPEG_B);
      expect(text.stdout).toContain('threshold 3');
    } finally {
      rmSync(join(folder, 'config.json'));
    }
  });

  it('says which file is missing, and exits with 2', async () => {
    const missing = join(folder, 'nope.png');
    const result = await run('frames', 'compare', TYPED_A, missing);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`sightline: no such file: ${missing}\n`);
  });

  it('rejects a file that is not an image, and exits with 2', async () => {
    const text = join(folder, 'notes.png');
    writeFileSync(text, 'not a picture');
    const result = await run('frames', 'compare', text, TYPED_B);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`not an image (expected PNG, JPEG or WebP): ${text}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses images of different sizes, naming both sizes, and exits with 2', async () => {
    const small = join(folder, 'small.png');
    await sharp({ create: { width: 64, height: 48, channels: 4, background: '#336699' } }).png().toFile(small);
    const result = await run('frames', 'compare', TYPED_A, small);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('different sizes');
    expect(result.stderr).toContain('1920x1080');
    expect(result.stderr).toContain('64x48');
  });

  it('rejects a threshold out of range with exit code 2', async () => {
    const result = await run('frames', 'compare', TYPED_A, TYPED_B, '--threshold', '65');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--threshold');
  });
});

describe('sightline frames hash', () => {
  it('prints 16 hex characters, the same for a file and its lossless copy', async () => {
    const copy = join(folder, 'copy.webp');
    await sharp(TYPED_A).webp({ lossless: true }).toFile(copy);
    const original = await run('frames', 'hash', TYPED_A);
    const copied = await run('frames', 'hash', copy);
    expect(original.code).toBe(0);
    expect(original.stdout).toMatch(/^[0-9a-f]{16}\n$/);
    expect(copied.stdout).toBe(original.stdout);
  });

  it('hashes with image-hash blockhash on request, in JSON', async () => {
    const result = await run('frames', 'hash', TYPED_A, '--algorithm', 'blockhash', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{16}$/), algorithm: 'blockhash', width: 1920, height: 1080 });
  });

  it('rejects an unknown algorithm and a missing file with exit code 2', async () => {
    expect((await run('frames', 'hash', TYPED_A, '--algorithm', 'md5')).code).toBe(2);
    const missing = await run('frames', 'hash', join(folder, 'gone.png'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
