/**
 * Anthropic's computer toolset, `computer_toolset_20260801`: one `tools` entry `{ type, configs }` whose 17
 * member tools Claude calls each by its own name, with `toolset_name: "computer"` on every member call and on
 * every result that answers one; no beta header (https://platform.claude.com/docs/en/agents-and-tools/tool-use/
 * computer-use-tool, "Available actions", "Tool parameters", "Batch actions", "Migrate from computer_20251124").
 *
 * The shapes are checked against the installed `@anthropic-ai/sdk`'s own types (BetaComputerToolset20260801,
 * BetaComputerToolsetConfigs, BetaComputerMemberName), so a drift in the SDK fails the build. Where the docs and the
 * SDK types differ, the SDK's types are taken for shapes: the docs list an `allowed_callers` parameter on the entry,
 * which this SDK version's BetaComputerToolset20260801 does not carry, so it is not sent.
 */
import type {
  BetaComputerMemberName,
  BetaComputerToolset20260801,
  BetaComputerToolsetConfigs,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';

/** The toolset's family name, which member calls carry as `toolset_name` and their results must echo. */
export const COMPUTER_TOOLSET_NAME = 'computer';

/** The 17 members, in the SDK's order (BETA_COMPUTER_MEMBER_NAME_VALUES). */
export const COMPUTER_TOOLSET_MEMBERS = [
  'key',
  'hold_key',
  'type',
  'cursor_position',
  'mouse_move',
  'left_mouse_down',
  'left_mouse_up',
  'left_click',
  'left_click_drag',
  'right_click',
  'middle_click',
  'double_click',
  'triple_click',
  'scroll',
  'wait',
  'screenshot',
  'zoom',
] as const satisfies readonly BetaComputerMemberName[];
export type ComputerToolsetMember = (typeof COMPUTER_TOOLSET_MEMBERS)[number];

// Both ways: a member the SDK adds (or drops) fails the build here until the list above follows it.
type MissingMembers = Exclude<BetaComputerMemberName, ComputerToolsetMember>;
const everyMemberListed: [MissingMembers] extends [never] ? true : MissingMembers = true;
void everyMemberListed;

/**
 * The halt text the docs prescribe for the calls of a batch after the one that failed ("Batch actions": "For
 * every later action in the batch, return is_error: true with exactly this text").
 */
export const COMPUTER_TOOLSET_HALT_TEXT = 'Not executed: an earlier computer action in this turn failed.';

export function isComputerToolsetMember(name: string): name is ComputerToolsetMember {
  return (COMPUTER_TOOLSET_MEMBERS as readonly string[]).includes(name);
}

/**
 * The `tools` entry: the members the operator cannot perform withheld with `enabled: false` (every member is
 * enabled by default, zoom included); `configs` left out when none is.
 */
export function computerToolsetEntry(disabledMembers: readonly string[] = []): BetaComputerToolset20260801 {
  const configs: BetaComputerToolsetConfigs = {};
  for (const member of disabledMembers) {
    if (isComputerToolsetMember(member)) configs[member] = { enabled: false };
  }
  const entry = { type: 'computer_toolset_20260801' } satisfies BetaComputerToolset20260801;
  return Object.keys(configs).length === 0 ? entry : ({ ...entry, configs } satisfies BetaComputerToolset20260801);
}
