/**
 * Checks a JUnit file against the schema CI readers hold it to (test/fixtures/junit/jenkins-junit-10-structure.xsd,
 * written from the Jenkins xunit plugin's junit-10.xsd) with libxml2's `xmllint --schema`, as a CI job would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const JUNIT_SCHEMA = resolve(import.meta.dirname, '../fixtures/junit/jenkins-junit-10-structure.xsd');

/** xmllint's verdict on the file: `validates` when it passes, else what xmllint said. */
export function junitSchemaVerdict(file: string): string {
  const checked = spawnSync('xmllint', ['--noout', '--schema', JUNIT_SCHEMA, file], { encoding: 'utf8', timeout: 60_000 });
  if (checked.error !== undefined) throw new Error(`xmllint could not run (install libxml2-utils): ${checked.error.message}`);
  return checked.status === 0 ? 'validates' : `${checked.stderr}${checked.stdout}`.trim();
}

/** The same for XML held in memory. */
export function junitTextVerdict(xml: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'sightline-junit-'));
  try {
    const file = join(folder, 'junit.xml');
    writeFileSync(file, xml);
    return junitSchemaVerdict(file).replaceAll(file, 'junit.xml');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
