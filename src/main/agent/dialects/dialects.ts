/** Every dialect the agent speaks, by name. */
import { DIALECT_NAMES, type DialectName } from '../../../shared/dialects.js';
import type { AgentDialect } from './agent-dialect.js';
import { ANTHROPIC_COMPUTER_DIALECT } from './anthropic-computer-dialect.js';
import { FUNCTION_TOOLS_DIALECT } from './function-tools-dialect.js';
import { GEMINI_COMPUTER_USE_DIALECT } from './gemini-computer-use-dialect.js';
import { OPENAI_COMPUTER_DIALECT } from './openai-computer-dialect.js';
import { QWEN_COMPUTER_USE_DIALECT } from './qwen-computer-use-dialect.js';
import { UI_TARS_DIALECT } from './ui-tars-dialect.js';

const DIALECTS: Partial<Record<DialectName, AgentDialect>> = {
  'function-tools': FUNCTION_TOOLS_DIALECT,
  'openai-computer': OPENAI_COMPUTER_DIALECT,
  'qwen-computer-use': QWEN_COMPUTER_USE_DIALECT,
  'ui-tars': UI_TARS_DIALECT,
  'anthropic-computer': ANTHROPIC_COMPUTER_DIALECT,
  'gemini-computer-use': GEMINI_COMPUTER_USE_DIALECT,
};

export class UnknownDialectError extends Error {
  override name = 'UnknownDialectError';
}

/** The dialects this build can speak, in DIALECT_NAMES order. */
export function availableDialectNames(): DialectName[] {
  return DIALECT_NAMES.filter((name) => DIALECTS[name] !== undefined);
}

export function dialectNamed(name: DialectName): AgentDialect {
  const dialect = DIALECTS[name];
  if (dialect === undefined) throw new UnknownDialectError(`The ${name} dialect is not available in this build of Sightline.`);
  return dialect;
}
