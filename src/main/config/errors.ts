/**
 * ConfigError: everything wrong with the configuration at once, one line per field, each naming the
 * dotted path, what was expected, what was found (never a secret's value) and which source set it.
 */
import { describeSource, type ConfigSource } from './sources.js';

export interface ConfigIssue {
  /** Dotted path of the field, or of the unknown key. */
  path: string;
  /** What is wrong, e.g. `expected an integer >= 1, got 0` or `unknown field; did you mean dedup?`. */
  problem: string;
  source: ConfigSource;
}

export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];
  /** The config file, when the error is about its text rather than about fields. */
  readonly file: string | undefined;

  constructor(message: string, options: { issues?: readonly ConfigIssue[]; file?: string } = {}) {
    super(message);
    this.name = 'ConfigError';
    this.issues = options.issues ?? [];
    this.file = options.file;
  }

  static fromIssues(issues: readonly ConfigIssue[], configFile: string): ConfigError {
    const lines = issues.map((issue) => `  ${formatIssue(issue)}`);
    const fromFile = issues.some((issue) => issue.source.kind === 'file');
    const heading =
      issues.length === 1 ? 'invalid configuration:' : `invalid configuration (${issues.length} problems):`;
    const fileNote = fromFile ? [`  (config.json is ${configFile})`] : [];
    return new ConfigError([heading, ...lines, ...fileNote].join('\n'), { issues });
  }
}

export function formatIssue(issue: ConfigIssue): string {
  return `${issue.path}: ${issue.problem} (from ${describeSource(issue.source)})`;
}
