/**
 * The home's memory of computer tools a Claude model refused (storage/model-tool-memory.ts), and what `doctor` and
 * `config show` say of the computer tool in effect (cli/dialect-in-effect.ts): the configuration first, then a
 * remembered step-down, then Bedrock, then Anthropic's compatibility table.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectInEffect, dialectLines } from '../../src/main/cli/dialect-in-effect.js';
import { homeAt } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { refusesToolType } from '../../src/main/llm/computer-tool-memory.js';
import { modelToolMemoryAt } from '../../src/main/storage/index.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
beforeEach(() => {
  home = createTemporaryHome('sightline-model-tool-memory');
});
afterEach(() => {
  home.remove();
});

const STEP = { toolType: 'computer_20251124', refused: 'computer_toolset_20260801', reason: 'refused', at: '2026-11-28T09:00:00.000Z' } as const;

function inEffect(env: Record<string, string>) {
  const { config, sources } = loadConfig({ home: homeAt(home.root), env });
  return dialectInEffect(config, sources, modelToolMemoryAt(home.root));
}

describe('the memory of refused computer tools', () => {
  it('remembers per model in an owner-only file, and takes a damaged file as empty', () => {
    const memory = modelToolMemoryAt(home.root);
    expect(memory.recall('claude-opus-4-8')).toBeUndefined();
    memory.remember('claude-opus-4-8', STEP);
    expect(modelToolMemoryAt(home.root).recall('claude-opus-4-8')).toEqual(STEP);
    expect(memory.recall('claude-opus-5')).toBeUndefined();
    expect(memory.recall('constructor')).toBeUndefined();
    if (process.platform !== 'win32') expect(statSync(memory.location).mode & 0o777).toBe(0o600);
    writeFileSync(join(home.root, 'model-tools.json'), '{ not json');
    expect(memory.recall('claude-opus-4-8')).toBeUndefined();
    memory.remember('claude-opus-4-8', STEP);
    expect(memory.recall('claude-opus-4-8')).toEqual(STEP);
  });

  it("reads the API's refusal of a tool type by the type it names", () => {
    const message = "'claude-opus-5-5' does not support tool types: computer_20251124. Did you mean one of: computer_toolset_20260801?";
    expect(refusesToolType(message, 'computer_20251124')).toBe(true);
    expect(refusesToolType(message, 'computer_toolset_20260801')).toBe(false);
    expect(refusesToolType('messages.1: something else about computer_20251124', 'computer_20251124')).toBe(false);
  });

  it('says which computer tool is in effect and why: configuration, remembered step-down, Bedrock, the table', () => {
    expect(inEffect({ SIGHTLINE_MODEL_NAME: 'claude-opus-5-5' }).computerTool).toEqual({
      toolType: 'computer_toolset_20260801',
      why: "Anthropic's compatibility table for claude-opus-5-5 (model profile family claude)",
    });
    modelToolMemoryAt(home.root).remember('claude-opus-4-8', STEP);
    const stepped = inEffect({ SIGHTLINE_MODEL_NAME: 'claude-opus-4-8' });
    expect(stepped.computerTool?.toolType).toBe('computer_20251124');
    expect(dialectLines(stepped)).toContain(
      `  computer tool: computer_20251124 (claude-opus-4-8 refused computer_toolset_20260801 on 2026-11-28T09:00:00.000Z (remembered in ${join(home.root, 'model-tools.json')}))`,
    );
    const chosen = inEffect({ SIGHTLINE_MODEL_NAME: 'claude-opus-4-8', SIGHTLINE_MODEL_ANTHROPIC_COMPUTER_TOOL: 'computer_toolset_20260801' });
    expect(chosen.computerTool).toEqual({ toolType: 'computer_toolset_20260801', why: 'environment variable SIGHTLINE_MODEL_ANTHROPIC_COMPUTER_TOOL' });
    const bedrock = inEffect({ SIGHTLINE_MODEL_NAME: 'claude-sonnet-5', ANTHROPIC_BASE_URL: 'https://bedrock-runtime.us-east-1.amazonaws.com' });
    expect(bedrock.computerTool).toEqual({ toolType: 'computer_20251124', why: 'Amazon Bedrock serves the beta computer tools only' });
    expect(inEffect({ SIGHTLINE_MODEL_NAME: 'gpt-4.1' }).computerTool).toBeUndefined();
  });
});
