/** Where a configuration value came from; shown by `sightline config show` and in every config error. */
export type ConfigSource =
  | { kind: 'default' }
  | { kind: 'file'; file: string }
  | { kind: 'env'; variable: string }
  | { kind: 'flag'; flag: string };

/** Short human form: `default`, `config.json`, `env OPENAI_API_KEY`, `--model`. */
export function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'file':
      return 'config.json';
    case 'env':
      return `env ${source.variable}`;
    case 'flag':
      return source.flag;
  }
}
