/** Namespaced MCP tool names: usable by the model's API, never the same twice, stable from run to run. */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { MAX_TOOL_NAME_LENGTH, ToolNameAllocator } from '../../src/main/agent/mcp/tool-names.js';
import { ToolRegistry } from '../../src/main/agent/tools/registry.js';

const USABLE = /^[a-zA-Z0-9_-]{1,64}$/;

describe('namespaced MCP tool names', () => {
  it('keeps a usable name as <server>__<tool>', () => {
    expect(new ToolNameAllocator('files').allocate('read_file')).toBe('files__read_file');
  });

  it('cleans and shortens other names, marking them with a hash of the original so they stay apart', () => {
    const names = new ToolNameAllocator('web');
    const dotted = names.allocate('search.query');
    const underscored = names.allocate('search_query');
    const long = names.allocate(`${'x'.repeat(100)}.tool`);
    expect(dotted).toMatch(/^web__search_query_[0-9a-f]{8}$/);
    expect(underscored).toBe('web__search_query');
    for (const name of [dotted, underscored, long]) expect(name).toMatch(USABLE);
    expect(long.length).toBe(MAX_TOOL_NAME_LENGTH);
    expect(new ToolNameAllocator('web').allocate('search.query')).toBe(dotted);
  });

  it('never gives the same name twice, even to names made to collide', () => {
    const names = new ToolNameAllocator('s');
    const first = names.allocate('a.b');
    const twin = names.allocate(first.slice('s__'.length));
    const unicode = ['ä', 'ö', 'ü', 'ß', '💥'].map((name) => names.allocate(name));
    const all = [first, twin, ...unicode];
    expect(new Set(all).size).toBe(all.length);
    for (const name of all) expect(name).toMatch(USABLE);
  });

  it('keeps two servers apart, since server names hold no "_"', () => {
    expect(() => ConfigSchema.parse({ mcp: { servers: { a_: { command: 'x' } } } })).toThrow();
    const tools = [new ToolNameAllocator('a').allocate('_b'), new ToolNameAllocator('a-').allocate('b')];
    expect(tools).toEqual(['a___b', 'a-__b']);
    expect(() => new ToolRegistry(tools.map((name) => ({ name, description: '', arguments: ConfigSchema, execute: async () => ({ parts: [] }) })))).not.toThrow();
  });
});
