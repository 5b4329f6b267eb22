/**
 * A request of the computer toolset's vocabulary, as a beta computer tool reads it, and the reply back. The
 * toolset's members are the beta tool's actions under their own names, with the same inputs minus `action`
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool, "Available actions",
 * "Migrate from computer_20251124"), so the translation is a renaming and nothing is lost either way:
 *
 * - the toolset's member declarations become one beta `computer` declaration (zoom enabled where the beta
 *   version has it and the member was offered);
 * - a member call of the history (`left_click {coordinate}` with `toolset_name: "computer"`) goes back as the
 *   beta tool's call (`computer {action: "left_click", coordinate}`, no toolset_name, so its result carries none);
 * - a `computer {action}` call of the reply comes back as the member call the agent's tools answer.
 *
 * Used when a model refuses the toolset in the middle of a run (the adapter steps down once and re-sends), and
 * whenever a request declares a beta tool over a history written with the toolset (a session continued after
 * the step-down). Thinking blocks ride on the calls untouched.
 */
import type { AssistantMessage, Message, ToolCall } from '../../shared/messages.js';
import type { AnthropicComputerToolType } from '../../shared/providers.js';
import { COMPUTER_TOOLSET_NAME, isComputerToolsetMember } from './anthropic-computer-toolset.js';
import type { AnthropicComputerToolDeclaration, CompletedAssistantMessage, ModelRequest, ModelToolDeclaration } from './model-adapter.js';

const BETA_TOOL_NAME = 'computer';

/** The request with the toolset's members declared as the beta tool `toolType`, its history in that tool's vocabulary. */
export function requestWithBetaComputerTool(request: ModelRequest, toolType: AnthropicComputerToolType): ModelRequest {
  if (toolType === 'computer_toolset_20260801') return request;
  const tools = request.tools ?? [];
  const members = tools.filter(isToolsetMemberDeclaration);
  const first = members[0]?.native;
  if (first === undefined) return historyForDeclaredTool(request);
  const offered = new Set(members.map((member) => member.name));
  const beta: ModelToolDeclaration = {
    name: BETA_TOOL_NAME,
    description: "Claude's computer tool: coordinates are pixels of the latest screenshot.",
    parameters: { type: 'object' },
    native: {
      kind: 'anthropic-computer',
      toolType,
      displayWidth: first.displayWidth,
      displayHeight: first.displayHeight,
      ...(toolType === 'computer_20251124' && offered.has('zoom') ? { enableZoom: true } : {}),
    },
  };
  let placed = false;
  const reshaped = tools.flatMap((tool) => {
    if (!isToolsetMemberDeclaration(tool)) return [tool];
    if (placed) return [];
    placed = true;
    return [beta];
  });
  return historyForDeclaredTool({ ...request, tools: reshaped });
}

/**
 * A request that declares a beta computer tool has the toolset's member calls of its history rewritten as that
 * tool's calls: the API reads a call by the tools declared, and a member result's toolset_name names a toolset
 * the request does not have.
 */
export function historyForDeclaredTool(request: ModelRequest): ModelRequest {
  const declaresBeta = (request.tools ?? []).some(
    (tool) => tool.native?.kind === 'anthropic-computer' && tool.native.toolType !== 'computer_toolset_20260801',
  );
  if (!declaresBeta || !request.messages.some(holdsMemberCall)) return request;
  return { ...request, messages: request.messages.map((message) => (holdsMemberCall(message) ? asBetaCalls(message) : message)) };
}

/** The reply's beta `computer` calls as the toolset's member calls the agent's tools answer; other calls as they are. */
export function replyAsToolsetCalls(reply: CompletedAssistantMessage): CompletedAssistantMessage {
  if (!reply.toolCalls.some((call) => call.name === BETA_TOOL_NAME)) return reply;
  return { ...reply, toolCalls: reply.toolCalls.map(asMemberCall) };
}

function isToolsetMemberDeclaration(tool: ModelToolDeclaration): tool is ModelToolDeclaration & { native: AnthropicComputerToolDeclaration } {
  return tool.native?.kind === 'anthropic-computer' && tool.native.toolType === 'computer_toolset_20260801';
}

function holdsMemberCall(message: Message): message is AssistantMessage {
  return message.role === 'assistant' && message.toolCalls.some((call) => call.providerData?.toolsetName === COMPUTER_TOOLSET_NAME);
}

function asBetaCalls(message: AssistantMessage): AssistantMessage {
  return {
    ...message,
    toolCalls: message.toolCalls.map((call) => {
      if (call.providerData?.toolsetName !== COMPUTER_TOOLSET_NAME) return call;
      const { providerData: _providerData, ...rest } = call;
      const { toolsetName: _toolsetName, ...providerData } = call.providerData;
      const input = objectOf(call.argumentsText);
      // What the model wrote that is not an object goes back as the text it was, under the action it named.
      const argumentsText = JSON.stringify(input === undefined ? { action: call.name, unparsed_arguments: call.argumentsText } : { action: call.name, ...input });
      return { ...rest, name: BETA_TOOL_NAME, argumentsText, ...(Object.keys(providerData).length === 0 ? {} : { providerData }) };
    }),
  };
}

function asMemberCall(call: ToolCall): ToolCall {
  if (call.name !== BETA_TOOL_NAME) return call;
  const input = objectOf(call.argumentsText);
  const action = input?.action;
  // An action no member performs stays the beta tool's call: the agent answers it as a tool it does not have.
  if (input === undefined || typeof action !== 'string' || !isComputerToolsetMember(action)) return call;
  const { action: _action, ...rest } = input;
  return { ...call, name: action, argumentsText: JSON.stringify(rest), providerData: { ...call.providerData, toolsetName: COMPUTER_TOOLSET_NAME } };
}

function objectOf(argumentsText: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(argumentsText === '' ? '{}' : argumentsText);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
