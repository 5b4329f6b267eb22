/**
 * Sightline's eyes and memory for another agent: the tools `sightline mcp` serves. The agent layer runs
 * each call as it runs its own model's (the same tool definitions, screen recorder and safety policy) and
 * records it the same way (an assistant message carrying the call, then a tool message and a step row in
 * one transaction), so `sightline sessions show` and the timeline show what the other agent did, and the
 * session's history stays well formed should `sightline run --session` continue it.
 *
 * What is particular to MCP lives beside this file: calls grouped into turns by bursts
 * (turns-by-burst.ts), and results encoded as MCP content (result-content.ts). This file joins them and
 * keeps what a client's calls carry over from each other: the screenshot it was last sent, which its next
 * coordinates refer to, whichever turn sent it, and how every image was sent, which its crop boxes refer to.
 */
import { randomUUID } from 'node:crypto';
import { COMPUTER_TOOL_NAME } from '../../shared/actions.js';
import type { Config } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import { textOfParts, type ToolCall } from '../../shared/messages.js';
import type { ShownScreenshot } from '../../shared/model-view.js';
import {
  createHostedTools,
  SCREENSHOT_TOOL_NAME,
  type ConfirmationHandler,
  type HostedTools,
  type ToolDefinition,
  type ToolTurn,
  type TurnEndHook,
} from '../agent/index.js';
import { ShownImages } from '../context/index.js';
import { FIT_EDGE } from '../llm/model-profiles.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import { createListSessionsTool } from './list-sessions-tool.js';
import { CLIENT_COORDINATE_SPACE, ResultContentEncoder, type McpResultContent } from './result-content.js';
import { TurnsByBurst } from './turns-by-burst.js';

export type { McpResultContent } from './result-content.js';

export type McpCallOutcome =
  | { kind: 'result'; content: McpResultContent[]; isError: boolean }
  /**
   * The call names no tool this server has: an MCP invalid-params error (-32602). Arguments off a tool's
   * schema are a `result` with isError instead, naming the field and the reason, so the calling model can
   * correct itself (MCP 2025-11-25).
   */
  | { kind: 'unknown-tool'; message: string };

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
  /** False takes the screenshot after an action at once instead of watching the screen settle (tests' screens never change on their own). */
  watchSettling?: boolean;
}

const DEFAULT_IDLE_TURN_END_MS = 60_000;
/** Views kept of the images sent: a few bytes each, bounded all the same for a server that runs for days. */
const SHOWN_IMAGES_KEPT = 10_000;
const SHUTTING_DOWN: McpCallOutcome = {
  kind: 'result',
  content: [{ type: 'text', text: 'The Sightline MCP server is shutting down.' }],
  isError: true,
};

export class McpToolHost {
  private readonly tools: HostedTools;
  private readonly turns: TurnsByBurst;
  private readonly encoder: ResultContentEncoder;
  /** The screenshot last sent to the client: what the coordinates of its next call refer to. */
  private shown: ShownScreenshot | undefined;
  /** How each image was sent to the client (an image it was not sent, as get_history_image would send it). */
  private shownImages: ShownImages;

  constructor(options: McpToolHostOptions) {
    const { storage, config, operator } = options;
    this.shownImages = ShownImages.of({
      maxImageEdge: config.perception.maxImageEdge,
      imageSizing: FIT_EDGE,
      coordinateSpace: CLIENT_COORDINATE_SPACE,
    });
    this.tools = createHostedTools({
      storage,
      config,
      operator,
      confirm: confirmationOverMcp(options.approveRiskyActions),
      extraTools: [createListSessionsTool(), ...(options.extraTools ?? [])],
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      ...(options.watchSettling === undefined ? {} : { watchSettling: options.watchSettling }),
      cancelledNotice: 'The call was cancelled by the client.',
    });
    this.turns = new TurnsByBurst({
      tools: this.tools,
      storage,
      operator,
      idleTurnEndMs: options.idleTurnEndMs ?? DEFAULT_IDLE_TURN_END_MS,
      turnEndHooks: options.turnEndHooks ?? [],
    });
    this.encoder = new ResultContentEncoder({
      images: storage.images,
      maxImageEdge: config.perception.maxImageEdge,
      redact: this.tools.redact,
    });
  }

  /** The tools as MCP lists them, each with its exact schema: what it accepts, a client's validator accepts. */
  listTools(): McpListedTool[] {
    return this.tools.listed.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { ...tool.inputSchema, type: 'object' },
    }));
  }

  /** Names the session after the client, from the initialize handshake. */
  setClientName(name: string | undefined): void {
    this.turns.setClientName(name);
  }

  /** The session this host records into, once the first call has made it. */
  get currentSessionId(): string | undefined {
    return this.turns.currentSessionId;
  }

  /** Runs one call after those before it; never throws for what the tool or the arguments did. */
  async call(name: string, argumentsValue: unknown, signal: AbortSignal): Promise<McpCallOutcome> {
    return (await this.turns.run((turn) => this.runCall(turn, name, argumentsValue, signal))) ?? SHUTTING_DOWN;
  }

  /** Ends the open turn (the calls so far stay recorded). Later calls are refused. */
  close(): Promise<void> {
    return this.turns.close();
  }

  private async runCall(turn: ToolTurn, name: string, argumentsValue: unknown, signal: AbortSignal): Promise<McpCallOutcome> {
    const call: ToolCall = { id: `mcp_${randomUUID()}`, name, argumentsText: JSON.stringify(argumentsValue ?? {}) };
    turn.storeCalls([], [call]);
    const { result, malformed } = await turn.take(call, { shown: this.shown, shownImages: this.shownImages }, signal);
    if (malformed) {
      const message = this.tools.redact(textOfParts(result.parts));
      if (!this.tools.listed.some((tool) => tool.name === name)) return { kind: 'unknown-tool', message };
      return { kind: 'result', content: [{ type: 'text', text: message }], isError: true };
    }
    const showsScreen = name === SCREENSHOT_TOOL_NAME || name === COMPUTER_TOOL_NAME;
    const encoded = await this.encoder.encode(result.parts, turn.turnId, showsScreen);
    if (encoded.shown !== undefined) this.shown = encoded.shown;
    this.shownImages = this.shownImages.with(encoded.images, SHOWN_IMAGES_KEPT);
    return { kind: 'result', content: encoded.content, isError: result.isError === true };
  }
}

/** Approval as MCP allows it: nobody can be asked, so --yes approves, and anything else refuses and says how to allow it. */
function confirmationOverMcp(approveRiskyActions: boolean): ConfirmationHandler {
  return async (request) => {
    if (approveRiskyActions) return { approved: true, by: 'flag' };
    const refusal =
      `Refused: ${request.reason}. Nothing was done. Over MCP nobody can approve a risky action; ` +
      'start `sightline mcp` with --yes (or --confirm never) to allow such actions.';
    return { approved: false, by: 'policy', refusal };
  };
}
