/**
 * The browser's URL scope (agent.allowedUrls, agent.blockedUrls, agent.allowFileUrls) held against the URLs a
 * flow names literally: its target's `url` and every `goto`, sub-flows and nested steps included. The browser
 * refuses them anyway when it gets there; checked here, at load, the mistake is said with its file, line and
 * column before any browser starts, as `run --url` says it up front. A URL with a `${…}` is known only when the
 * flow runs, and a served folder's (Midscene's `serve:`) only once it is served: the browser checks those.
 */
import { BrowserUrlScope, type BrowserUrlScopeSettings } from '../operators/browser-url-scope.js';
import type { Flow, FlowStep, SourceAt } from './flow-model.js';
import type { FlowFileProblem } from './flow-source.js';

export function flowUrlScopeProblems(flows: readonly Flow[], settings: BrowserUrlScopeSettings): FlowFileProblem[] {
  const scope = BrowserUrlScope.from(settings);
  const problems: FlowFileProblem[] = [];
  const seen = new Set<string>();
  const check = (url: string, at: SourceAt, what: string): void => {
    if (!isLiteralWebUrl(url)) return;
    const refusal = scope.refusal(url);
    const key = `${at.file}:${at.line}:${at.column}`;
    if (refusal === undefined || seen.has(key)) return;
    seen.add(key);
    problems.push({ ...at, message: `${what}: ${refusal}, so the browser would not open it: change the URL, or the scope in the configuration (agent.allowedUrls, agent.blockedUrls)` });
  };
  const visit = (steps: readonly FlowStep[]): void => {
    for (const step of steps) {
      if (step.kind === 'goto') check(step.url, step.at, 'goto');
      else if (step.kind === 'if') visit([...step.then, ...step.else]);
      else if (step.kind === 'for_each' || step.kind === 'group') visit(step.steps);
      else if (step.kind === 'use') visit(step.flow.steps);
    }
  };
  for (const flow of flows) {
    const target = flow.target;
    if (target?.operator === 'browser' && target.url !== undefined && target.serve === undefined) check(target.url, target.at, 'target url');
    // A desktop flow has no browser, and so no scope, for its goto steps to leave.
    if (target?.operator !== 'desktop') visit(flow.steps);
  }
  return problems;
}

/** An http(s) URL written out whole: nothing left for the run to fill in. */
function isLiteralWebUrl(text: string): boolean {
  if (text.includes('${')) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
