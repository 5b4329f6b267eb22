/**
 * What the fake Anthropic server refuses, as the real Messages API refuses it, each rule with the page that says
 * so (read 2026-11-28). Checked on every request before a scripted reply is used; a refusal is a 400
 * `invalid_request_error` with the documented message (or its documented beginning).
 *
 * - Tool types a model does not take: "'<model>' does not support tool types: <type>." then the accepted types
 *   after "Did you mean one of" (https://platform.claude.com/docs/en/api/errors, "Computer use tool version not
 *   supported": Claude Opus 5.5 on the Claude API takes computer use only as computer_toolset_20260801; the same
 *   message for any Anthropic-defined tool type the model does not support). Models whose table row says so here;
 *   a test adds more (`unsupportedToolTypes`) to stand for a platform without the toolset.
 * - The toolset entry: only `type`, `configs`, `cache_control` (and `allowed_callers`); `name`, `display_width_px`,
 *   `display_height_px`, `display_number` and `enable_zoom` are refused, so are unknown `configs` keys, and so is a
 *   toolset declared beside another tool named `computer` (computer-use-tool, "Tool parameters"; the SDK's
 *   BetaComputerToolsetConfigs: "Unknown keys are rejected").
 * - Results: every tool_use of the last assistant turn answered by a tool_result in the next user turn, and every
 *   result for a member tool carrying its `toolset_name` ("Batch actions": "a result that omits it, or that names
 *   a different toolset than its tool_use block, is rejected"; "A request that leaves any tool_use block in the
 *   batch unanswered is rejected").
 * - Thinking: the last assistant turn of a tool loop carries back every thinking block the fake gave it, unmodified
 *   and in order (the SDK's BetaThinkingBlockParam: "a modified block results in a 400 invalid_request_error";
 *   Opus 5's migration guide: "the API rejects thinking blocks that are edited, reordered, or partially removed").
 *   On Opus 5.5 and Fable 5.1 a replayed block is bound to the history before it: changed, it is refused unless
 *   `thinking.block_binding.prefix_mismatch_behavior` is "drop_block", which needs the
 *   `thinking-binding-controls-2026-08-01` beta header (errors page, "Thinking block no longer matches the
 *   conversation").
 * - Forced tool use on Opus 5.5, Fable 5.1 and Mythos 5.1: "tool_choice: type "tool" and "any" are not supported
 *   for this model." (errors page, "Forced tool use not supported"); thinking disabled on the models that always
 *   think (errors page, "Thinking cannot be disabled").
 */
import { createHash } from 'node:crypto';

export interface IssuedThinking {
  type: 'thinking' | 'redacted_thinking';
  thinking?: string;
  signature?: string;
  data?: string;
}

export interface ContractOptions {
  /** Tool types refused for a model on top of the table's (a platform without the toolset): model name → types. */
  unsupportedToolTypes?: Record<string, readonly string[]>;
}

export type ContractVerdict = { ok: true; droppedThinking: number } | { ok: false; message: string };

const BETA_COMPUTER_TOOLS = ['computer_20241022', 'computer_20250124', 'computer_20251124'];
const TOOLSET = 'computer_toolset_20260801';
const TOOLSET_MEMBERS = new Set([
  'key', 'hold_key', 'type', 'cursor_position', 'mouse_move', 'left_mouse_down', 'left_mouse_up', 'left_click', 'left_click_drag',
  'right_click', 'middle_click', 'double_click', 'triple_click', 'scroll', 'wait', 'screenshot', 'zoom',
]);
const TOOLSET_FIELDS = new Set(['type', 'configs', 'cache_control', 'allowed_callers']);

/** Which computer tool types a model takes on the Claude API (computer-use-tool, "Compatibility", "Earlier tool versions"). */
function acceptedComputerTools(model: string): string[] {
  if (/claude-(opus|sonnet|haiku)-5-5/.test(model)) return [TOOLSET];
  if (/claude-(opus-4-[567]|sonnet-4-6)/.test(model)) return ['computer_20251124'];
  if (/claude-(sonnet|haiku)-4-5|claude-(opus|sonnet)-4(-[01])?(-\d{8})?$/.test(model)) return ['computer_20250124'];
  if (/claude-3/.test(model)) return ['computer_20241022', 'computer_20250124'];
  // Opus 4.8, the 5 family (Fable, Mythos, Opus 5, Sonnet 5): the toolset, and computer_20251124 still.
  return [TOOLSET, 'computer_20251124'];
}

const ALWAYS_THINKING = /claude-(opus-5-5|fable-5|mythos-5)/;
const NO_FORCED_TOOL_CHOICE = /claude-(opus-5-5|fable-5-1|mythos-5-1)/;
const BOUND_THINKING = /claude-(opus-5-5|fable-5-1)/;

/** A signature the fake can check: the block's text, and the history before it (the binding). */
export function thinkingSignature(thinking: string, prefix: string): string {
  return `sig_${hash(thinking)}_${hash(prefix)}`;
}

interface Block {
  type: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
  toolset_name?: string;
  thinking?: string;
  signature?: string;
  data?: string;
}

interface Turn {
  role: string;
  content: string | Block[];
}

/** What the history before a message holds, as the binding sees it: system, tools and messages, breakpoints aside. */
export function prefixOf(body: Record<string, unknown>, messageIndex: number): string {
  const messages = (body.messages as Turn[] | undefined) ?? [];
  return canonical({ system: body.system ?? null, tools: body.tools ?? null, messages: messages.slice(0, messageIndex) });
}

export function checkContract(
  body: Record<string, unknown>,
  headers: Record<string, string | string[] | undefined>,
  issued: ReadonlyMap<string, IssuedThinking[]>,
  options: ContractOptions,
): ContractVerdict {
  const model = typeof body.model === 'string' ? body.model : '';
  const tools = (body.tools as Array<Record<string, unknown>> | undefined) ?? [];
  const betas = String(headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim());
  const accepted = acceptedComputerTools(model).filter((type) => !(options.unsupportedToolTypes?.[model] ?? []).includes(type));
  for (const tool of tools) {
    const type = typeof tool.type === 'string' ? tool.type : '';
    if ((type === TOOLSET || BETA_COMPUTER_TOOLS.includes(type)) && !accepted.includes(type)) {
      return refuse(`'${model}' does not support tool types: ${type}. Did you mean one of: ${accepted.join(', ')}?`);
    }
    if (type === TOOLSET) {
      const extra = Object.keys(tool).filter((field) => !TOOLSET_FIELDS.has(field));
      if (extra.length > 0) return refuse(`tools.${tools.indexOf(tool)}.${extra[0]}: Extra inputs are not permitted`);
      const configs = (tool.configs as Record<string, unknown> | null | undefined) ?? {};
      const unknown = Object.keys(configs).filter((member) => !TOOLSET_MEMBERS.has(member));
      if (unknown.length > 0) return refuse(`tools.${tools.indexOf(tool)}.configs.${unknown[0]}: Extra inputs are not permitted`);
      if (tools.some((other) => other !== tool && other.name === 'computer')) return refuse('A computer toolset cannot be declared beside another tool named computer.');
    }
  }
  const toolChoice = body.tool_choice as { type?: string } | undefined;
  if (NO_FORCED_TOOL_CHOICE.test(model) && (toolChoice?.type === 'any' || toolChoice?.type === 'tool')) {
    return refuse('tool_choice: type "tool" and "any" are not supported for this model.');
  }
  const thinkingConfig = body.thinking as { type?: string; block_binding?: { prefix_mismatch_behavior?: string } } | undefined;
  if (ALWAYS_THINKING.test(model) && thinkingConfig?.type === 'disabled') {
    return refuse('"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.');
  }
  if (thinkingConfig?.block_binding !== undefined && !betas.includes('thinking-binding-controls-2026-08-01')) {
    return refuse('thinking.block_binding: Extra inputs are not permitted');
  }
  const messages = (body.messages as Turn[] | undefined) ?? [];
  const results = checkResults(messages);
  if (results !== undefined) return refuse(results);
  const dropBlocks = thinkingConfig?.block_binding?.prefix_mismatch_behavior === 'drop_block';
  return checkThinking(body, messages, issued, BOUND_THINKING.test(model), dropBlocks);
}

function checkResults(messages: readonly Turn[]): string | undefined {
  for (const [index, turn] of messages.entries()) {
    if (turn.role !== 'assistant' || typeof turn.content === 'string') continue;
    const uses = turn.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) continue;
    const next = messages[index + 1];
    if (next === undefined) continue;
    const answers = typeof next.content === 'string' ? [] : next.content.filter((block) => block.type === 'tool_result');
    for (const use of uses) {
      const answer = answers.find((block) => block.tool_use_id === use.id);
      if (answer === undefined) {
        return `messages.${index + 1}: tool_use ids were found without tool_result blocks immediately after: ${use.id}. Each tool_use block must have a corresponding tool_result block in the next message.`;
      }
      if ((use.toolset_name ?? undefined) !== (answer.toolset_name ?? undefined)) {
        return `messages.${index + 1}: the tool_result for ${use.id} must carry toolset_name ${JSON.stringify(use.toolset_name ?? null)}, as its tool_use does; it carries ${JSON.stringify(answer.toolset_name ?? null)}.`;
      }
    }
  }
  return undefined;
}

/** The last assistant turn of a tool loop: its thinking as issued, in order; a bound block's history unchanged. */
function checkThinking(
  body: Record<string, unknown>,
  messages: readonly Turn[],
  issued: ReadonlyMap<string, IssuedThinking[]>,
  bound: boolean,
  dropBlocks: boolean,
): ContractVerdict {
  const lastUser = messages.at(-1);
  const inToolLoop = lastUser?.role === 'user' && typeof lastUser.content !== 'string' && lastUser.content.some((block) => block.type === 'tool_result');
  let dropped = 0;
  for (const [index, turn] of messages.entries()) {
    if (turn.role !== 'assistant' || typeof turn.content === 'string') continue;
    const sent = turn.content.filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking');
    for (const [position, block] of sent.entries()) {
      if (block.type !== 'thinking') continue;
      const [, textHash, prefixHash] = /^sig_([0-9a-f]+)_([0-9a-f]+)$/.exec(block.signature ?? '') ?? [];
      if (textHash !== hash(block.thinking ?? '')) {
        return refuse(`messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block.`);
      }
      if (bound && prefixHash !== hash(prefixOf(body, index))) {
        if (!dropBlocks) {
          return refuse(
            `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. ` +
              'Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
          );
        }
        dropped += 1;
      }
    }
    if (!inToolLoop || index !== messages.length - 2) continue;
    const expected = turn.content.filter((block) => block.type === 'tool_use').flatMap((block) => issued.get(block.id ?? '') ?? []);
    const same =
      sent.length === expected.length &&
      sent.every((block, position) => {
        const want = expected[position]!;
        return block.type === want.type && block.thinking === want.thinking && block.signature === want.signature && block.data === want.data;
      });
    if (!same) {
      return refuse(
        `messages.${index}: the thinking blocks of the last assistant turn must be passed back unmodified and in their original order ` +
          `(expected ${expected.length}, got ${sent.length}).`,
      );
    }
  }
  return { ok: true, droppedThinking: dropped };
}

function refuse(message: string): ContractVerdict {
  return { ok: false, message };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** JSON with sorted keys and without cache_control, which moves between requests without changing the history. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, inner: unknown) => {
    if (key === 'cache_control') return undefined;
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([first], [second]) => first.localeCompare(second)));
  });
}
