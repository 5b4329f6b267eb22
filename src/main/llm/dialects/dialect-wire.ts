/**
 * The wire half of a dialect: what changes between Sightline's provider-neutral request and what a model
 * family reads, and between what it answers and calls of the dialect's tools. The adapters (Chat
 * Completions, Responses) still do the provider's wire format; a dialect's wire works on neutral messages
 * around them, so one dialect serves any endpoint that speaks the family's protocol.
 *
 * Examples: UI-TARS gets no tools (its grammar is in the system prompt) and its tool results as user
 * messages holding the next screenshot, and its "Thought: … Action: …" text becomes calls; Qwen's
 * `<tool_call>` text becomes calls when the server has no tool parser.
 */
import type { DialectName } from '../../../shared/dialects.js';
import type { AssistantMessage } from '../../../shared/messages.js';
import type { CompletedAssistantMessage, ModelAdapter, ModelRequest } from '../model-adapter.js';

export interface DialectWire {
  readonly dialect: DialectName;
  /** The request as this dialect's model reads it: the history's form, and which tools are declared. */
  encodeRequest(request: ModelRequest): ModelRequest;
  /**
   * The model's answer as calls of the dialect's tools. A call that cannot be read is kept with `invalid`
   * saying why (the model is told, the step counts); it never throws for what the model wrote.
   */
  decodeReply(reply: CompletedAssistantMessage): CompletedAssistantMessage;
  /**
   * For a dialect whose calls are written in the reply's text (UI-TARS): the stored reply with the text a
   * call was written in masked by `masked`, for a call that typed into a password field. The call's
   * arguments are masked by the agent; this is the reply's text, which only the dialect can read.
   */
  maskWrittenCall?(message: AssistantMessage, callId: string, masked: string): AssistantMessage;
}

/** Function tools as the provider declares them, answers as the provider returns them: nothing to change. */
export const FUNCTION_TOOLS_WIRE: DialectWire = {
  dialect: 'function-tools',
  encodeRequest: (request) => request,
  decodeReply: (reply) => reply,
};

/** The adapter, speaking the dialect: requests encoded before the call, answers decoded after it. */
export function withDialectWire(adapter: ModelAdapter, wire: DialectWire): ModelAdapter {
  if (wire === FUNCTION_TOOLS_WIRE) return adapter;
  return {
    profile: adapter.profile,
    complete: async (request, options) => wire.decodeReply(await adapter.complete(wire.encodeRequest(request), options)),
  };
}
