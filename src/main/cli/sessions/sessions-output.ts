/** How `sightline sessions` prints: a table for `ls`, a readable outline for `show`, and the JSON shapes. */
import { describeAction } from '../../../shared/action-descriptions.js';
import { answerHeading, answerValueText, answerVerdict } from '../../../shared/answer-wording.js';
import type { TurnAnswer } from '../../../shared/answers.js';
import { costText, dollarText, NO_COST, type CostTotals } from '../../../shared/cost.js';
import { imageSavings, savingsPercent, SAVINGS_BASIS } from '../../../shared/image-savings.js';
import { terminalLine, terminalText } from '../../../shared/terminal-text.js';
import { stepUsageTotals, usageText, type UsageTotals } from '../../../shared/usage-text.js';
import { replaySavings, type TurnReplay } from '../../../shared/replay.js';
import { historyPictureText, picturesByTurn } from '../../context/index.js';
import { formatCount } from '../run/progress-lines.js';
import type {
  ImageRecord,
  PinRecord,
  SearchReportRecord,
  SessionRecord,
  SessionSummary,
  StepRecord,
  StepTokenTotals,
  Storage,
  TurnRecord,
  TurnTokenTotals,
} from '../../storage/index.js';

export interface SessionDetail {
  /**
   * With what its steps' model calls cost, summed: tokens (cache reads and writes beside input and output), and
   * dollars as priced when each call was made (the tokens of calls whose price was unknown beside them).
   */
  session: SessionRecord & { tokens: StepTokenTotals; cost: CostTotals };
  turns: (TurnRecord & { tokens: TurnTokenTotals; cost: CostTotals; steps: StepRecord[]; pictures: TurnPicture[] })[];
  searchReports: SearchReportRecord[];
  /** Frames a person pinned (`sightline sessions pin`): every later request sends them whole. */
  pins: PinRecord[];
}

/** A picture the person attached to a turn's request, by the name later turns give it (`[Picture:history_…]`). */
export interface TurnPicture {
  imageId: string;
  name: string;
  mime: string;
  width: number;
  height: number;
}

const NO_TOKENS: TurnTokenTotals = { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 };

export function sessionDetail(storage: Storage, sessionId: string): SessionDetail | undefined {
  const session = storage.sessions.get(sessionId);
  if (session === undefined) return undefined;
  const turnTokens = storage.steps.tokenTotalsByTurn(sessionId);
  const turnCosts = storage.steps.costTotalsByTurn(sessionId);
  const turnPictures = picturesByTurn(storage, sessionId);
  const turns = storage.turns.listBySession(sessionId).map((turn) => ({
    ...turn,
    tokens: turnTokens.get(turn.id) ?? NO_TOKENS,
    cost: turnCosts.get(turn.id) ?? NO_COST,
    steps: storage.steps.listByTurn(turn.id),
    pictures: (turnPictures.get(turn.id) ?? []).map(turnPicture),
  }));
  return {
    session: { ...session, tokens: storage.steps.tokenTotals(sessionId), cost: storage.steps.costTotals(sessionId) },
    turns,
    searchReports: storage.searchReports.listBySession(sessionId),
    pins: storage.pins.listBySession(sessionId),
  };
}

function turnPicture(image: ImageRecord): TurnPicture {
  return { imageId: image.id, name: historyPictureText(image.sha256), mime: image.mime, width: image.width, height: image.height };
}

const TITLE_WIDTH = 40;

export function renderSessionTable(summaries: readonly SessionSummary[]): string {
  const header = ['ID', 'TITLE', 'STATUS', 'TURNS', 'STEPS', 'CREATED'];
  const rows = summaries.map((summary) => [
    summary.id,
    // Escaped before it is cut, so the column is as wide as what the terminal shows.
    truncate(terminalText(summary.title), TITLE_WIDTH),
    summary.status,
    String(summary.turnCount),
    String(summary.stepCount),
    shortTime(summary.createdAt),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const numeric = new Set([3, 4]);
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return numeric.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function renderSessionDetail(detail: SessionDetail): string {
  const { session } = detail;
  const lines = [
    `Session ${session.id}: ${terminalLine(session.title)}`,
    ...(session.flowName === null ? [] : [`  flow ${terminalLine(session.flowName)}`]),
    `  status ${session.status}, operator ${session.operator ?? '-'}, model ${session.model ?? '-'}`,
    `  created ${shortTime(session.createdAt)}, updated ${shortTime(session.updatedAt)}`,
  ];
  if (hasTokens(session.tokens)) lines.push(`  tokens: ${usageText(session.tokens, formatCount)}`);
  lines.push(...savingsLine(session.tokens));
  lines.push(...costLine(session.cost));
  if (detail.pins.length > 0) lines.push(`  pinned: ${detail.pins.map((pin) => pin.imageId).join(', ')}`);
  const pinned = new Set(detail.pins.map((pin) => pin.imageId));
  if (detail.turns.length === 0) lines.push('', 'No turns yet.');
  for (const turn of detail.turns) {
    lines.push('', `Turn ${turn.sequence} (${turn.id}): ${turn.status}`);
    // Spelled as flow files spell it (wait_for).
    if (turn.stepKind !== null) lines.push(`  step: ${turn.stepKind}${turn.allowedFailure === true ? ' (failed, allowed by continue_on_error)' : ''}`);
    lines.push(`  request: ${turn.userRequest}`);
    if (turn.answer !== null) lines.push(...renderAnswer(turn.stepKind, turn.answer));
    for (const picture of turn.pictures) lines.push(`  picture: ${picturePhrase(picture)}`);
    lines.push(`  started ${shortTime(turn.startedAt)}${turn.endedAt === null ? '' : `, ended ${shortTime(turn.endedAt)}`}`);
    // An answered step's summary is its answer's reason, printed above.
    if (turn.summary !== null && turn.summary !== turn.answer?.reason) lines.push(`  summary: ${turn.summary}`);
    if (turn.replay !== null) lines.push(`  ${replayPhrase(turn.replay)}`);
    if (hasTokens(turn.tokens)) lines.push(`  tokens: ${usageText(turn.tokens, formatCount)}`);
    lines.push(...costLine(turn.cost));
    if (turn.steps.length === 0) lines.push('  no steps');
    for (const step of turn.steps) lines.push(...renderStep(step, pinned));
  }
  if (detail.searchReports.length > 0) {
    lines.push('', 'Search reports:');
    for (const report of detail.searchReports) lines.push(...renderSearchReport(report));
  }
  return lines.join('\n') + '\n';
}

/**
 * A flow step's answer: its verdict in words (or the extracted value as indented JSON), the model's reason on
 * one line, and the frames it relied on. The reason and the ids are the model's: a line break in them is shown
 * escaped, so they cannot forge lines of their own.
 */
function renderAnswer(stepKind: TurnRecord['stepKind'], answer: TurnAnswer): string[] {
  const heading = answerHeading(stepKind, answer).toLowerCase();
  const verdict = answerVerdict(stepKind, answer);
  const lines =
    verdict === null
      ? [`  ${heading}:`, ...answerValueText(answer.value).split('\n').map((line) => `    ${line}`)]
      : [`  ${heading}: ${verdict.label.toLowerCase()}`];
  lines.push(`  reason: ${terminalLine(answer.reason)}`);
  lines.push(`  evidence: ${answer.evidence.length === 0 ? 'none named' : answer.evidence.map((id) => terminalLine(id)).join(', ')}`);
  return lines;
}

/** Question, answer, how sure and how long, and the sources (title and URL) the answer rests on. */
function renderSearchReport(report: SearchReportRecord): string[] {
  const confidence = report.confidence === null ? 'confidence -' : `confidence ${report.confidence.toFixed(2)}`;
  const searches = `${report.iterations} ${report.iterations === 1 ? 'search' : 'searches'}`;
  const duration = report.durationMs === null ? '' : `, ${(report.durationMs / 1000).toFixed(1)} s`;
  const lines = [
    `  ${report.id}: ${report.question}`,
    `    answer: ${truncate(report.answer, 200)}`,
    `    ${confidence} after ${searches}${duration}`,
  ];
  if (report.sources.length === 0) lines.push('    sources: none');
  else lines.push('    sources:', ...report.sources.map((source) => `      - ${describeSource(source)}`));
  return lines;
}

/** Sources are stored as the search layer wrote them: `{title, url}`, or older rows with less. */
function describeSource(source: unknown): string {
  if (typeof source === 'string') return source;
  if (typeof source === 'object' && source !== null) {
    const { title, url } = source as { title?: unknown; url?: unknown };
    if (typeof url === 'string') return typeof title === 'string' && title !== '' ? `${truncate(title, TITLE_WIDTH * 2)} — ${url}` : url;
  }
  return JSON.stringify(source);
}

/** How later turns name it, what it is, and the stored image it recalls. */
function picturePhrase(picture: TurnPicture): string {
  return `${picture.name} ${picture.mime} ${picture.width}×${picture.height} (${picture.imageId})`;
}

function renderStep(step: StepRecord, pinned: ReadonlySet<string>): string[] {
  const pin = step.screenshotImageId !== null && pinned.has(step.screenshotImageId) ? ', pinned' : '';
  const screenshot =
    step.screenshotImageId === null
      ? 'no screenshot'
      : `screenshot ${step.screenshotImageId}${pin}${step.dedupOfImageId === null ? '' : ` (same as ${step.dedupOfImageId})`}`;
  const lines = [`  ${step.sequence}. ${describeAction(step.action)}  [${screenshot}]`];
  if (step.error !== null) lines.push(`     error: ${step.error}`);
  const usage = stepUsageTotals(step);
  if (usage !== null) lines.push(`     tokens: ${usageText(usage, formatCount)}`);
  // A model call of unknown price: its cost is unknown (its tokens are on the line above), never $0 or left out.
  if (step.costDollars !== null) lines.push(`     cost: ${dollarText(step.costDollars)}`);
  else if (usage !== null) lines.push('     cost: unknown (no price known)');
  return lines;
}

/** "  images: 37% fewer input tokens against every image kept whole (111,893 in, 178,548 kept whole)"; the demo, the timeline and the report say the same number. */
function savingsLine(tokens: StepTokenTotals): string[] {
  const savings = imageSavings(tokens);
  if (savings === null || savings.keptWhole <= 0) return [];
  return [`  images: ${savingsPercent(savings)} fewer input tokens ${SAVINGS_BASIS} (${formatCount(savings.input)} in, ${formatCount(savings.keptWhole)} kept whole)`];
}

/** "  cost: $0.0264", or the tokens of calls whose price was unknown; nothing before any model call. */
function costLine(cost: CostTotals): string[] {
  const text = costText(cost, formatCount);
  return text === null ? [] : [`  cost: ${text}`];
}

/** Sessions and turns without a model call (or from before usage was kept) print no tokens line. */
function hasTokens(usage: UsageTotals): boolean {
  return usage.input > 0 || usage.output > 0;
}

/** `2026-01-02 03:04` (UTC) from a stored ISO time. */
function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

function truncate(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= width ? oneLine : `${oneLine.slice(0, width - 1)}…`;
}

/** "replayed from turn_…: 1 action, 0 model calls (2 saved)", "healed (before action 1 (…): …)", "model: 2 model calls". */
function replayPhrase(replay: TurnReplay): string {
  const saved = replaySavings(replay);
  const calls = `${replay.modelCalls} model call${replay.modelCalls === 1 ? '' : 's'}${saved.modelCalls > 0 ? ` (${saved.modelCalls} saved against the recorded run)` : ''}`;
  const from = replay.recordedTurnId === null ? '' : ` from ${replay.recordedTurnId}`;
  const why = replay.divergence === undefined ? '' : `; diverged ${replay.divergence.phase} action ${replay.divergence.action} (${replay.divergence.actionText}): ${replay.divergence.reason}`;
  const reused = replay.reusedAnswer === true ? ', the recorded verdict reused on an identical frame' : '';
  const notReplayable = replay.notReplayable === undefined ? '' : `; not replayed: ${replay.notReplayable}`;
  return `replay: ${replay.mode}${from}${reused}, ${replay.replayedActions} action${replay.replayedActions === 1 ? '' : 's'} replayed, ${calls}${why}${notReplayable}`;
}
