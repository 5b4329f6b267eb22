/**
 * One wording for each flag several commands share, so `--yes` or `--json` reads the same in every
 * `--help` and in docs/cli.md (test/unit/cli-help-docs.test.ts holds them to it). A leaf: commands import it
 * when the CLI starts, so it imports nothing.
 */

/** `--yes` on run, flow, replay and mcp: the same approval, whoever would have been asked. */
export const YES_HELP = 'approve risky actions without asking (needed to allow them where nobody can be asked: no terminal, or over MCP)';

/** `--base-url` on run, flow and replay. */
export const BASE_URL_HELP = "the model API's endpoint; an OpenAI-compatible server's ends in /v1 (OpenRouter, Ollama, vLLM …)";

/** `--json`: "print JSON for scripts: " and what is printed. */
export function jsonHelp(what: string): string {
  return `print JSON for scripts: ${what}`;
}

/** `--limit <count>`: "show at most this many …" with its default. */
export function limitHelp(what: string, fallback: number): string {
  return `show at most this many ${what} (default ${fallback})`;
}
