/**
 * `--junit FILE.xml` as a local run writes it: the XML (flows/junit-report.ts) and, beside it, each failed or
 * stopped step's evidence frames as PNGs (`FILE.img_….png`), named on the XML's `[[ATTACHMENT|path]]` lines so that
 * a CI viewer shows them (Jenkins' JUnit Attachments plugin, GitLab's unit test reports).
 */
import { basename, dirname, extname, join } from 'node:path';
import sharp from 'sharp';
import type { SightlineHome } from '../../config/home.js';
import type { FlowRunResult } from '../../flows/flow-result.js';
import { junitReport } from '../../flows/junit-report.js';
import { openStorage } from '../../storage/index.js';
import { writeOutputFile } from '../output-files.js';

export interface JunitWrite {
  cwd: string;
  /** The home whose sessions hold the frames; none for a run refused before anything was stored. */
  home?: SightlineHome;
  /** The --report file, when one was written, named on the failed cases too. */
  reportFile?: string;
  stderr: (text: string) => void;
}

export async function writeJunitFile(file: string, result: FlowRunResult, options: JunitWrite): Promise<void> {
  const attachments = options.home === undefined ? new Map<string, string>() : await writeFrames(file, result, options.home, options.stderr);
  writeOutputFile('--junit', file, junitReport(result, { cwd: options.cwd, attachments, ...(options.reportFile === undefined ? {} : { reportFile: options.reportFile }) }));
}

/** The frames the failed and stopped steps cite, each once; a frame that cannot be read is said, not fatal. */
async function writeFrames(file: string, result: FlowRunResult, home: SightlineHome, stderr: (text: string) => void): Promise<Map<string, string>> {
  const wanted = new Set(result.flows.flatMap((flow) => flow.steps.filter((step) => step.status === 'failed' || step.status === 'stopped').flatMap((step) => step.evidence)));
  const written = new Map<string, string>();
  if (wanted.size === 0) return written;
  const stem = basename(file, extname(file));
  const storage = openStorage(home);
  try {
    for (const imageId of wanted) {
      // Ids come from the stored result, but a name made of them must never leave the folder.
      if (!/^img_[0-9a-z]+$/i.test(imageId)) continue;
      const read = await storage.images.read(imageId);
      if (read.status !== 'ok') {
        stderr(`sightline: --junit: frame ${imageId} is not attached (${read.message})\n`);
        continue;
      }
      const png = read.record.mime === 'image/png' ? read.bytes : await sharp(read.bytes).png().toBuffer();
      const path = join(dirname(file), `${stem}.${imageId}.png`);
      writeOutputFile('--junit', path, png);
      written.set(imageId, path);
    }
  } finally {
    storage.close();
  }
  return written;
}
