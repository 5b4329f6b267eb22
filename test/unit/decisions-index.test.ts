/**
 * docs/decisions/ holds one decision per file, and docs/decisions/README.md is their index. A newcomer finds a
 * decision from the table and sees there which ones still stand, so the table and the files must agree: every
 * file has its row and every row its file, numbers run 0001, 0002, … without a gap or a repeat, each file says
 * its status and date the way its row does and has the sections of the template, a superseded or refined one
 * links to decisions that exist, and every heading of the old single log (docs/decisions.md) still leads to a
 * file.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DECISIONS = resolve(import.meta.dirname, '../../docs/decisions');
const FILE_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const ROW = /^\| (\d{4}) \| \[(.+)\]\(([^)]+)\) \| (.+?) \| (\d{4}-\d{2}-\d{2}) \| (.*?) \|$/;
const STATUS = /^- Status: (accepted|superseded by \[(\d{4})\]\(([^)]+)\))$/m;
const DATE = /^- Date: (\d{4}-\d{2}-\d{2})\b/m;
const ISSUE = /^- Issue: (.+)$/m;
const LINK = /\[(\d{4})\]\(([^)]+)\)/g;
const SECTIONS = ['Context', 'Decision', 'Consequences'];
const OPTIONAL_SECTION = 'Measurements';

interface IndexRow {
  number: string;
  title: string;
  file: string;
  status: string;
  date: string;
  issue: string;
}

function indexRows(readme: string): IndexRow[] {
  return readme.split('\n').flatMap((line) => {
    const match = ROW.exec(line);
    if (!match) return [];
    const [, number, title, file, status, date, issue] = match;
    return [{ number: number!, title: title!.replace(/\\\|/g, '|'), file: file!, status: status!, date: date!, issue: issue! }];
  });
}

/** The `- ` lines of the README's "From the old log" section. */
function oldLogEntries(readme: string): string[] {
  const section = readme.split(/^## From the old log$/m)[1];
  if (section === undefined) return [];
  return section.split(/^## /m)[0]!.split('\n').filter((line) => line.startsWith('- '));
}

/** A link to a decision file must name the file that carries its number. */
function badLinks(text: string, files: ReadonlyMap<string, string>, where: string): string[] {
  return [...text.matchAll(LINK)].flatMap(([, number, target]) => {
    if (!files.has(target!)) return [`${where}: links ${target}, which does not exist`];
    if (!target!.startsWith(`${number}-`)) return [`${where}: the link text ${number} does not name ${target}`];
    return [];
  });
}

function fileProblems(name: string, text: string, row: IndexRow | undefined, files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const [head, ...sections] = text.split(/^## /m);
  const title = /^# (\d{4})\. (.+)$/m.exec(head!);
  if (!title || title[1] !== name.slice(0, 4)) problems.push(`${name}: the first line is not "# ${name.slice(0, 4)}. Title"`);
  else if (row && title[2] !== row.title) problems.push(`${name}: its title "${title[2]}" is "${row.title}" in the index`);
  const status = STATUS.exec(head!);
  if (!status) problems.push(`${name}: no "- Status: accepted" or "- Status: superseded by [NNNN](file)"`);
  else if (row && status[1] !== row.status) problems.push(`${name}: status "${status[1]}" is "${row.status}" in the index`);
  const date = DATE.exec(head!);
  if (!date) problems.push(`${name}: no "- Date: YYYY-MM-DD"`);
  else if (row && date[1] !== row.date) problems.push(`${name}: date ${date[1]} is ${row.date} in the index`);
  const issue = ISSUE.exec(head!)?.[1] ?? '';
  if (row && issue !== row.issue) problems.push(`${name}: issue "${issue}" is "${row.issue}" in the index`);
  problems.push(...badLinks(head!, files, name));
  const names = sections.map((section) => section.split('\n', 1)[0]!.trim());
  const expected = names.includes(OPTIONAL_SECTION) ? [...SECTIONS, OPTIONAL_SECTION] : SECTIONS;
  if (names.join(', ') !== expected.join(', ')) {
    problems.push(`${name}: sections ${names.join(', ')}, not ${expected.join(', ')}`);
  }
  for (const section of sections) {
    const [heading, ...body] = section.split('\n');
    if (body.join('\n').trim() === '') problems.push(`${name}: section ${heading} is empty`);
  }
  return problems;
}

/** Everything that keeps the index and the files apart; empty when they agree. */
function indexProblems(readme: string, files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const name of files.keys()) {
    if (!FILE_NAME.test(name)) problems.push(`${name}: not NNNN-short-title.md`);
  }
  const rows = indexRows(readme);
  const byFile = new Map(rows.map((row) => [row.file, row]));
  rows.forEach((row, at) => {
    const number = String(at + 1).padStart(4, '0');
    if (row.number !== number) problems.push(`index row ${at + 1}: numbered ${row.number}, ${number} expected (unique, in order, no gaps)`);
    if (!row.file.startsWith(`${row.number}-`)) problems.push(`index row ${row.number}: links ${row.file}, another number's file`);
    if (!files.has(row.file)) problems.push(`index row ${row.number}: ${row.file} does not exist`);
    problems.push(...badLinks(row.status, files, `index row ${row.number}`));
  });
  for (const [name, text] of files) {
    const row = byFile.get(name);
    if (!row) problems.push(`${name}: not in the index`);
    problems.push(...fileProblems(name, text, row, files));
  }
  const entries = oldLogEntries(readme);
  if (entries.length === 0) problems.push('the index has no "From the old log" list');
  entries.forEach((entry, at) => {
    if ([...entry.matchAll(LINK)].length === 0) problems.push(`old log entry ${at + 1}: points to no decision file`);
    problems.push(...badLinks(entry, files, `old log entry ${at + 1}`));
  });
  return problems;
}

function decisionFiles(): Map<string, string> {
  return new Map(
    readdirSync(DECISIONS)
      .filter((name) => name !== 'README.md')
      .sort()
      .map((name) => [name, readFileSync(resolve(DECISIONS, name), 'utf8')]),
  );
}

const decision = (number: string, title: string, extra = ''): string =>
  `# ${number}. ${title}\n\n- Status: accepted\n- Date: 2026-11-28\n${extra}\n## Context\n\nc\n\n## Decision\n\nd\n\n## Consequences\n\nq\n`;
const index = (rows: string[], old: string[]): string =>
  `# Decisions\n\n| # | Decision | Status | Date | Issue |\n|---|---|---|---|---|\n${rows.join('\n')}\n\n## From the old log\n\n${old.join('\n')}\n`;

describe('the decisions index', () => {
  it('lists every decision file, and every file is as the index says', () => {
    const readme = readFileSync(resolve(DECISIONS, 'README.md'), 'utf8');
    const files = decisionFiles();
    expect(files.size).toBeGreaterThan(0);
    expect(indexRows(readme)).toHaveLength(files.size);
    expect(indexProblems(readme, files)).toEqual([]);
  });

  it('keeps every heading of the old log reachable', () => {
    const entries = oldLogEntries(readFileSync(resolve(DECISIONS, 'README.md'), 'utf8'));
    // docs/decisions.md had 89 `## ` headings when it was split (issue 37).
    expect(entries).toHaveLength(89);
  });

  it('would catch a missing row, a gap, a dead link and a missing section (the checks can fail)', () => {
    const files = new Map([
      ['0001-one.md', decision('0001', 'One')],
      ['0002-two.md', decision('0002', 'Two', '- Refined by: [0009](0009-nine.md) (gone)\n').replace('## Consequences\n\nq\n', '')],
      ['0004-four.md', decision('0004', 'Four').replace('- Status: accepted', '- Status: superseded by [0003](0003-three.md)')],
      ['0005-five.md', decision('0005', 'Five')],
    ]);
    const readme = index(
      [
        '| 0001 | [One](0001-one.md) | accepted | 2026-11-28 |  |',
        '| 0002 | [Two](0002-two.md) | accepted | 2026-11-27 |  |',
        '| 0004 | [Four](0004-four.md) | accepted | 2026-11-28 |  |',
      ],
      ['- Old heading → [0001](0001-one.md)', '- Lost heading → nowhere', '- Gone → [0007](0007-seven.md)'],
    );
    expect(indexProblems(readme, files)).toEqual([
      'index row 3: numbered 0004, 0003 expected (unique, in order, no gaps)',
      '0002-two.md: date 2026-11-28 is 2026-11-27 in the index',
      '0002-two.md: links 0009-nine.md, which does not exist',
      '0002-two.md: sections Context, Decision, not Context, Decision, Consequences',
      '0004-four.md: status "superseded by [0003](0003-three.md)" is "accepted" in the index',
      '0004-four.md: links 0003-three.md, which does not exist',
      '0005-five.md: not in the index',
      'old log entry 2: points to no decision file',
      'old log entry 3: links 0007-seven.md, which does not exist',
    ]);
  });
});
