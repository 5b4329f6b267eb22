/**
 * The names MCP servers' tools get in our registry: `<server>__<tool>`, within what OpenAI-style APIs
 * accept as a function name (1–64 of letters, digits, "_" and "-").
 *
 * Why two names can never be the same:
 * - Across servers: a server's name is made of letters, digits and "-" only (the config schema holds it),
 *   so the first "_" of a namespaced name is where the server's name ends. Different servers, different
 *   prefixes, different names.
 * - With built-in tools: every namespaced name contains "__" right after a name without "_"; a built-in
 *   tool would have to start with a configured server's name followed by "__", and none does (the registry
 *   still refuses any duplicate, so a future built-in named that way is found when the agent is built).
 * - Within one server: a tool name that is already usable and fits is kept as is (one-to-one); any other is
 *   cleaned and shortened, then marked with a hash of its original name so that names differing only in
 *   the characters cleaned away stay apart; and the allocator remembers every name it gave, adding a counter
 *   on the (astronomically unlikely) hash collision, so it never gives the same name twice.
 */
import { createHash } from 'node:crypto';

export const NAMESPACE_SEPARATOR = '__';
export const MAX_TOOL_NAME_LENGTH = 64;

const USABLE_CHARACTER = /[A-Za-z0-9_-]/;
const USABLE_NAME = /^[A-Za-z0-9_-]+$/;
const HASH_LENGTH = 8;

/** Gives each tool of one server its registry name, never the same name twice. */
export class ToolNameAllocator {
  private readonly given = new Set<string>();

  constructor(private readonly serverName: string) {}

  /** The registry name of the server's tool `toolName`. */
  allocate(toolName: string): string {
    const prefix = `${this.serverName}${NAMESPACE_SEPARATOR}`;
    const room = MAX_TOOL_NAME_LENGTH - prefix.length;
    let name = prefix + toolPart(toolName, room);
    for (let counter = 2; this.given.has(name); counter += 1) {
      const suffix = `_${counter}`;
      name = prefix + toolPart(toolName, room - suffix.length) + suffix;
    }
    this.given.add(name);
    return name;
  }
}

function toolPart(toolName: string, room: number): string {
  if (USABLE_NAME.test(toolName) && toolName.length <= room) return toolName;
  const hash = createHash('sha256').update(toolName).digest('hex').slice(0, HASH_LENGTH);
  const cleaned = [...toolName].map((character) => (USABLE_CHARACTER.test(character) ? character : '_')).join('');
  return `${cleaned.slice(0, Math.max(0, room - HASH_LENGTH - 1))}_${hash}`;
}
