/** Every dialect the agent speaks, by name. */
import type { DialectName } from '../../../shared/dialects.js';
import type { AgentDialect } from './agent-dialect.js';
import { FUNCTION_TOOLS_DIALECT } from './function-tools-dialect.js';
import { OPENAI_COMPUTER_DIALECT } from './openai-computer-dialect.js';

const DIALECTS: Partial<Record<DialectName, AgentDialect>> = {
  'function-tools': FUNCTION_TOOLS_DIALECT,
  'openai-computer': OPENAI_COMPUTER_DIALECT,
};

export class UnknownDialectError extends Error {
  override name = 'UnknownDialectError';
}

export function dialectNamed(name: DialectName): AgentDialect {
  const dialect = DIALECTS[name];
  if (dialect === undefined) throw new UnknownDialectError(`The ${name} dialect is not available in this build of Sightline.`);
  return dialect;
}
