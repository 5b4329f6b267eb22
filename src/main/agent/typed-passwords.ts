/**
 * What was typed into password fields, remembered per session for as long as the agent (or the MCP tool
 * host) runs, so that it is masked wherever it appears in what is stored after it, not only in the call
 * that typed it: the reply's thought and its other calls, the steps and results the turn stored before the
 * focus was known, and whatever the model writes later (a summary, a thought in the next turn that says
 * "I logged in with hunter2"). Kept in memory only: writing it down anywhere would store the secret.
 *
 * Only strings long enough to be found in free text are masked outside the call that typed them
 * (password-masking.ts); the person's own request is left as they wrote it (see docs/decisions/0052-typed-password-masked-everywhere.md).
 */
import { redactStrings } from '../../shared/secret-redaction.js';
import type { Storage } from '../storage/index.js';
import { maskedAssistantMessage, maskedToolMessage, MIN_MASKED_SUBSTRING_LENGTH, typedMasker } from './password-masking.js';
import type { ToolResult } from './tools/tool-definition.js';

export class TypedPasswords {
  private readonly bySession = new Map<string, Set<string>>();

  /** Remembers what a call typed; true when any of it was new to the session. */
  learn(sessionId: string, typed: readonly string[]): boolean {
    const known = this.bySession.get(sessionId) ?? new Set<string>();
    this.bySession.set(sessionId, known);
    const before = known.size;
    for (const text of typed) known.add(text);
    return known.size > before;
  }

  /** What the session typed into password fields that can be found in free text. */
  findable(sessionId: string): string[] {
    return [...(this.bySession.get(sessionId) ?? [])].filter((text) => text.length >= MIN_MASKED_SUBSTRING_LENGTH);
  }
}

/** A tool's result, before it is recorded, with what was typed masked in its text and its step record. */
export function maskedToolResult(result: ToolResult, typed: readonly string[]): ToolResult {
  if (typed.length === 0) return result;
  const mask = typedMasker(typed);
  return {
    ...result,
    parts: result.parts.map((part) => (part.type === 'text' ? { ...part, text: mask(part.text) } : part)),
    ...(result.endTurn === undefined ? {} : { endTurn: { ...result.endTurn, summary: mask(result.endTurn.summary) } }),
    ...(result.record === undefined ? {} : { record: maskedStepRecord(result.record, mask) }),
    ...(result.providerData?.currentUrl === undefined ? {} : { providerData: { ...result.providerData, currentUrl: mask(result.providerData.currentUrl) } }),
  };
}

function maskedStepRecord(record: NonNullable<ToolResult['record']>, mask: (text: string) => string): NonNullable<ToolResult['record']> {
  return {
    ...record,
    ...(record.action === undefined ? {} : { action: redactStrings(record.action, mask) }),
    ...(record.result === undefined ? {} : { result: redactStrings(record.result, mask) }),
  };
}

/**
 * Masks what was typed in the search reports of a turn (the search sub-agent's question, queries, sources
 * and answer), which its tool writes while it runs. Rows are rewritten only where they change.
 */
export function maskStoredSearchReports(storage: Storage, turnId: string, typed: readonly string[]): void {
  if (typed.length === 0) return;
  const mask = typedMasker(typed);
  for (const report of storage.searchReports.listByTurn(turnId)) {
    const texts = { question: report.question, queries: report.queries, sources: report.sources, answer: report.answer };
    const masked = redactStrings(texts, mask);
    if (JSON.stringify(masked) !== JSON.stringify(texts)) storage.searchReports.rewriteTexts(report.id, masked);
  }
}

/**
 * Masks what was typed in every row the turn stored so far but the person's request: its steps (action,
 * thought, result, error), its assistant and tool messages, its images' captions and its search reports.
 * Rows are rewritten only where they change.
 */
export function maskStoredTurn(storage: Storage, turnId: string, typed: readonly string[]): void {
  if (typed.length === 0) return;
  const mask = typedMasker(typed);
  storage.transaction(() => {
    for (const step of storage.steps.listByTurn(turnId)) {
      const texts = { action: step.action, thought: step.thought, result: step.result, error: step.error };
      const masked = {
        action: redactStrings(step.action, mask),
        thought: step.thought === null ? null : mask(step.thought),
        result: redactStrings(step.result, mask),
        error: step.error === null ? null : mask(step.error),
      };
      if (JSON.stringify(masked) !== JSON.stringify(texts)) storage.steps.rewriteTexts(step.id, masked);
    }
    for (const record of storage.messages.listByTurn(turnId)) {
      const message = record.message;
      if (message.role === 'assistant') {
        const masked = maskedAssistantMessage(message, typed);
        if (JSON.stringify(masked) !== JSON.stringify(message)) storage.messages.rewriteCalls(record.id, masked);
      } else if (message.role === 'tool') {
        const masked = maskedToolMessage(message, typed);
        if (JSON.stringify(masked) !== JSON.stringify(message)) storage.messages.rewriteResult(record.id, masked);
      }
    }
    for (const image of storage.images.listByTurn(turnId)) {
      if (image.caption !== null && mask(image.caption) !== image.caption) storage.images.setCaption(image.id, mask(image.caption));
    }
    maskStoredSearchReports(storage, turnId, typed);
  });
}
