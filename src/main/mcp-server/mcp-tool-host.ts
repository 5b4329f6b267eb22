/**
 * Sightline's eyes and memory for another agent: the tools `sightline mcp` serves, each call run through
 * the same tool definitions, screen recorder and safety policy as the agent's own, and recorded as the
 * agent's calls are (a tool message and a step row in one transaction), so `sightline sessions show` and
 * the timeline show what the other agent did.
 *
 * Recording: one session per host (per server process), titled "MCP: <client name>", created at the first
 * call (a connection that calls nothing leaves nothing behind). Calls are grouped into turns by bursts: a
 * turn begins with a call and ends once no call has come for `idleTurnEndMs` (or when the host closes).
 * Not a turn per call: the screen recorder dedups within a turn, so a turn per call would store every
 * screenshot again, and the timeline would show a one-step turn per click. Not one turn for the whole
 * process either: a turn that ends only at exit would stay "running" for hours and never be compacted.
 *
 * Each call is stored as the agent stores a model's call: an assistant message carrying the tool call,
 * then the tool's result, so the session's history stays well formed should `sightline run --session`
 * continue it. Calls run one at a time, in the order they came: one operator has one screen and one
 * pointer, as the agent runs one turn at a time.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import { textOfParts, userText, type MessagePart, type ToolCall } from '../../shared/messages.js';
import { EncodedImageCache } from '../context/index.js';
import type { ModelView } from '../../shared/model-view.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import type { ConfirmationHandler, TurnEndHook } from '../agent/agent-contract.js';
import { createEventEmitter, createSecretRedactor, type Emit } from '../agent/event-emitter.js';
import { ScreenRecorder } from '../agent/screen-recorder.js';
import { recordToolStep } from '../agent/step-recording.js';
import { emptyUsage } from '../agent/token-usage-totals.js';
import { dispatchToolCall, type DispatchOutcome } from '../agent/tool-dispatch.js';
import { COMPUTER_TOOL_NAME, createComputerTool } from '../agent/tools/computer-tool.js';
import { createCropImageTool } from '../agent/tools/crop-image-tool.js';
import { createGetHistoryImageTool } from '../agent/tools/get-history-image-tool.js';
import { ToolRegistry } from '../agent/tools/registry.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../agent/tools/tool-definition.js';
import { TurnLifecycle } from '../agent/turn-lifecycle.js';
import { createListSessionsTool } from './list-sessions-tool.js';
import { createScreenshotTool, SCREENSHOT_TOOL_NAME } from './screenshot-tool.js';

/** Content of an MCP tool result, as the protocol carries it. */
export type McpResultContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export type McpCallOutcome =
  | { kind: 'result'; content: McpResultContent[]; isError: boolean }
  /** The call could not be run as written (unknown tool, arguments off the schema): an MCP invalid-params error. */
  | { kind: 'invalid'; message: string };

/** A tool as MCP lists it. */
export interface McpListedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

export interface McpToolHostOptions {
  storage: Storage;
  config: Config;
  operator: Operator;
  /**
   * Over MCP nobody is at a terminal to approve a risky action: it is refused, unless the server was
   * started with --yes (approved by the flag). `--confirm never` asks for no approval at all.
   */
  approveRiskyActions: boolean;
  /** Tools beyond the built-in ones (web_search when Tavily is configured). */
  extraTools?: ToolDefinition[];
  onEvent?: (event: AgentEvent) => void;
  turnEndHooks?: TurnEndHook[];
  /** A turn ends after this long without a call (default one minute). */
  idleTurnEndMs?: number;
  /** How long to let the screen settle after an action (default 500 ms; tests pass 0). */
  settleDelayMs?: number;
}

const DEFAULT_IDLE_TURN_END_MS = 60_000;
const DEFAULT_SETTLE_DELAY_MS = 500;
const UNKNOWN_CLIENT = 'an MCP client';

export class McpToolHost {
  private readonly storage: Storage;
  private readonly emit: Emit;
  private readonly redact: (text: string) => string;
  private readonly screen: ScreenRecorder;
  private readonly registry: ToolRegistry;
  /** Per turn, as the agent keeps one: a long-lived server must not hold every screenshot it ever sent. */
  private imageCache = new EncodedImageCache();
  private readonly maxImageEdge: number;
  private clientName = UNKNOWN_CLIENT;
  private sessionId: string | undefined;
  private turn: TurnLifecycle | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private lastRefusalReason: string | undefined;
  private closed = false;

  constructor(private readonly options: McpToolHostOptions) {
    const { storage, config, operator } = options;
    this.storage = storage;
    this.redact = createSecretRedactor([config.model.apiKey, config.search.tavilyApiKey]);
    this.emit = createEventEmitter(options.onEvent, this.redact);
    this.maxImageEdge = config.perception.maxImageEdge;
    this.screen = new ScreenRecorder({
      operator,
      storage,
      dedup: config.perception.dedup,
      emit: this.emit,
      settleDelayMs: options.settleDelayMs ?? DEFAULT_SETTLE_DELAY_MS,
    });
    const screenshot = createScreenshotTool(this.screen);
    const computer = createComputerTool({ operator, screen: this.screen, policy: config.agent.confirm, confirm: this.confirmation() });
    this.registry = new ToolRegistry([
      screenshot,
      withScreenshotAction(computer, screenshot),
      createGetHistoryImageTool(),
      createCropImageTool(),
      createListSessionsTool(),
      ...(options.extraTools ?? []),
    ]);
  }

  /** The tools as MCP lists them, with the JSON schemas the agent's model is shown. */
  listTools(): McpListedTool[] {
    return this.registry.forModel().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { ...tool.parameters, type: 'object' },
    }));
  }

  /** Names the session after the client, from the initialize handshake. */
  setClientName(name: string | undefined): void {
    if (name !== undefined && name.trim() !== '') this.clientName = name.trim();
  }

  /** The session this host records into, once the first call has made it. */
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }

  /** Runs one call after those before it; never throws for what the tool or the arguments did. */
  call(name: string, argumentsValue: unknown, signal: AbortSignal): Promise<McpCallOutcome> {
    return this.enqueue(() => this.runCall(name, argumentsValue, signal));
  }

  /** Ends the open turn (the calls so far stay recorded). Later calls are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.enqueue(() => this.endTurn());
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private async runCall(name: string, argumentsValue: unknown, signal: AbortSignal): Promise<McpCallOutcome> {
    if (this.closed) return { kind: 'result', content: [{ type: 'text', text: 'The Sightline MCP server is shutting down.' }], isError: true };
    clearTimeout(this.idleTimer);
    const turn = await this.ensureTurn();
    const call: ToolCall = { id: `mcp_${randomUUID()}`, name, argumentsText: JSON.stringify(argumentsValue ?? {}) };
    this.storage.messages.append({
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      message: { role: 'assistant', parts: [], toolCalls: [call] },
    });
    const screenshotSeen = this.screen.modelScreenshotId;
    const viewSeen = this.screen.modelView;
    const context: ToolContext = { sessionId: turn.sessionId, turnId: turn.turnId, signal, storage: this.storage, emit: this.emit };
    this.lastRefusalReason = undefined;
    const outcome = await this.dispatch(call, context);
    const result = this.explainRefusal(outcome.result);
    recordToolStep(this.storage, this.emit, this.redact, {
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      call,
      result,
      arguments: outcome.arguments,
      thought: undefined,
      screenshotImageId: screenshotSeen,
      screenshotView: viewSeen,
      latencyMs: outcome.latencyMs,
    });
    this.scheduleTurnEnd();
    if (outcome.malformed) return { kind: 'invalid', message: this.redact(textOfParts(result.parts)) };
    const showsScreen = name === SCREENSHOT_TOOL_NAME || name === COMPUTER_TOOL_NAME;
    return { kind: 'result', content: await this.toContent(result.parts, showsScreen), isError: result.isError === true };
  }

  private async dispatch(call: ToolCall, context: ToolContext): Promise<DispatchOutcome> {
    const started = performance.now();
    try {
      return await dispatchToolCall(this.registry, call, context);
    } catch {
      // Only a cancelled call gets here (the dispatcher turns every other failure into a result).
      return {
        result: { parts: [{ type: 'text', text: 'The call was cancelled by the client.' }], isError: true },
        malformed: false,
        latencyMs: Math.round(performance.now() - started),
      };
    }
  }

  private async ensureTurn(): Promise<TurnLifecycle> {
    if (this.turn !== undefined) return this.turn;
    const kind = this.options.operator.describe().kind;
    this.sessionId ??= this.storage.sessions.create({ title: `MCP: ${this.clientName}`, operator: kind }).id;
    const request = userText(`Tool calls from ${this.clientName} over MCP.`);
    const turn = TurnLifecycle.begin(this.storage, this.emit, { request, sessionId: this.sessionId, operatorKind: kind, modelName: '' });
    await turn.storeRequest(request);
    // The client's coordinates still refer to the last screenshot it was sent, whichever turn sent it.
    const view = this.screen.modelView;
    const shownId = this.screen.modelScreenshotId;
    this.screen.beginTurn({ sessionId: turn.sessionId, turnId: turn.turnId });
    this.screen.showModel(view, shownId);
    this.imageCache = new EncodedImageCache();
    this.turn = turn;
    return turn;
  }

  private scheduleTurnEnd(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.enqueue(() => this.endTurn()), this.options.idleTurnEndMs ?? DEFAULT_IDLE_TURN_END_MS);
    // A pending turn end must not keep the process alive once the client has gone.
    this.idleTimer.unref();
  }

  private async endTurn(): Promise<void> {
    const turn = this.turn;
    if (turn === undefined) return;
    this.turn = undefined;
    const calls = this.storage.steps.listByTurn(turn.turnId).length;
    const summary = `${calls} call${calls === 1 ? '' : 's'} from ${this.clientName} over MCP.`;
    await turn.end({ status: 'finished', reason: 'finished', summary }, emptyUsage(), this.options.turnEndHooks ?? []);
  }

  /** Approval as MCP allows it: nobody can be asked, so --yes approves and anything else refuses. */
  private confirmation(): ConfirmationHandler {
    return async (request) => {
      if (this.options.approveRiskyActions) return { approved: true, by: 'flag' };
      this.lastRefusalReason = request.reason;
      return { approved: false, by: 'policy' };
    };
  }

  /** The computer tool words a refusal as a person's; over MCP it was the policy, and the fix is a flag. */
  private explainRefusal(result: ToolResult): ToolResult {
    const refused = (result.record?.result as { refused?: boolean } | undefined)?.refused === true;
    if (!refused || this.lastRefusalReason === undefined) return result;
    const text =
      `Refused: ${this.lastRefusalReason}. Nothing was done. Over MCP nobody can approve a risky action; ` +
      'start `sightline mcp` with --yes (or --confirm never) to allow such actions.';
    return { ...result, parts: [{ type: 'text', text }] };
  }

  /**
   * Our parts as MCP content: images by id become pixels at the configured size. A screenshot sent to the
   * client becomes the one its coordinates refer to, as the screenshot last sent to our model does.
   */
  private async toContent(parts: readonly MessagePart[], showsScreen: boolean): Promise<McpResultContent[]> {
    const content: McpResultContent[] = [];
    for (const part of parts) {
      if (part.type === 'text') content.push({ type: 'text', text: this.redact(part.text) });
      if (part.type !== 'image' || part.imageId === undefined) continue;
      const resolved = await this.imageCache.resolve(this.storage.images, part.imageId, this.maxImageEdge);
      if (resolved.status !== 'ok') {
        content.push({ type: 'text', text: `(image ${part.imageId} cannot be shown: ${resolved.reason})` });
        continue;
      }
      const { image } = resolved;
      // The client refers to images by id (recall tools, crops): every image it is sent comes with its id.
      const named = parts.some((other) => other.type === 'text' && other.text.includes(image.imageId));
      if (!named) content.push({ type: 'text', text: `${image.imageId}:` });
      content.push({ type: 'image', data: image.data, mimeType: image.mime });
      const scaled = image.width !== image.frameWidth || image.height !== image.frameHeight;
      if (scaled) {
        content.push({
          type: 'text',
          text: `(${image.imageId} is shown at ${image.width}×${image.height}${showsScreen ? '; computer coordinates are in this image' : ''}; crop_image boxes are in its full ${image.frameWidth}×${image.frameHeight} pixels)`,
        });
      }
      if (showsScreen) this.screen.showModel(viewOf(image), image.imageId);
    }
    return content;
  }
}

function viewOf(image: { width: number; height: number; frameWidth: number; frameHeight: number }): ModelView {
  return {
    frameWidth: image.frameWidth,
    frameHeight: image.frameHeight,
    imageWidth: image.width,
    imageHeight: image.height,
    coordinateSpace: 'pixels',
  };
}

/** `computer` with action "screenshot" is the screenshot tool: it works before any screenshot was taken. */
function withScreenshotAction(computer: ToolDefinition, screenshot: ToolDefinition<Record<string, never>>): ToolDefinition {
  return {
    ...computer,
    execute: (action, context) =>
      (action as { action?: string }).action === 'screenshot' ? screenshot.execute({}, context) : computer.execute(action, context),
  };
}
