/**
 * The doctor's text output: one aligned line per check, an indented fix under the ones that need it, then
 * what the run would be set up with (the dialect in effect), then the summary.
 */
import type { DoctorCheckResult } from './check.js';

export function formatDoctorReport(results: readonly DoctorCheckResult[], setup: readonly string[] = []): string {
  const statusWidth = Math.max(...results.map((result) => result.status.length));
  const nameWidth = Math.max(...results.map((result) => result.name.length));
  const lines: string[] = [];
  for (const result of results) {
    lines.push(`${result.status.padEnd(statusWidth)}  ${result.name.padEnd(nameWidth)}  ${result.detail}`);
    if (result.fix !== undefined && result.status !== 'ok') {
      lines.push(`${' '.repeat(statusWidth + 2)}fix: ${result.fix}`);
    }
  }
  if (setup.length > 0) lines.push('', ...setup);
  lines.push('', summary(results));
  return `${lines.join('\n')}\n`;
}

function summary(results: readonly DoctorCheckResult[]): string {
  const problems = results.filter((result) => result.status === 'problem').length;
  const warnings = results.filter((result) => result.status === 'warning').length;
  if (problems === 0 && warnings === 0) return 'All checks passed.';
  const parts = [plural(problems, 'problem'), plural(warnings, 'warning')].filter((part) => part !== '');
  return `${parts.join(', ')}.`;
}

function plural(count: number, word: string): string {
  if (count === 0) return '';
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
