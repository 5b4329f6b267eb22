/**
 * The home's memory of computer tools a Claude model refused (llm/computer-tool-memory.ts): a small JSON file,
 * `model-tools.json` in the home, `{ "version": 1, "anthropicComputerTool": { "<model>": { toolType, refused,
 * reason, at } } }`. A file rather than a table: `sightline doctor` and `config show` read it without opening
 * (or creating) the database, and it is a handful of rows a person may read or delete by hand to try the newer
 * tool again. Written whole to a temporary file and renamed over the old one, owner-only like every file of the
 * home; a file that cannot be read or does not parse is taken as empty (and replaced at the next step-down).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ANTHROPIC_COMPUTER_TOOL_TYPES } from '../../shared/providers.js';
import { createPrivateFolder, PRIVATE_FILE_MODE, restrictToOwner } from './private-files.js';

import type { AnthropicComputerToolType } from '../../shared/providers.js';

export const MODEL_TOOLS_FILE_NAME = 'model-tools.json';

export interface RememberedComputerTool {
  /** What the model is offered now. */
  toolType: AnthropicComputerToolType;
  /** What it refused. */
  refused: AnthropicComputerToolType;
  /** The API's words (redacted of keys, cut short), as the refusal said it. */
  reason: string;
  /** ISO 8601 time of the refusal. */
  at: string;
}

export interface ComputerToolMemory {
  /** Where it is kept, for messages ("remembered in …"). */
  readonly location: string;
  recall(model: string): RememberedComputerTool | undefined;
  remember(model: string, entry: RememberedComputerTool): void;
}

const RememberedSchema = z.object({
  toolType: z.enum(ANTHROPIC_COMPUTER_TOOL_TYPES),
  refused: z.enum(ANTHROPIC_COMPUTER_TOOL_TYPES),
  reason: z.string().max(2000),
  at: z.string(),
});

const FileSchema = z.object({
  version: z.literal(1),
  anthropicComputerTool: z.record(z.string(), RememberedSchema),
});
type MemoryFile = z.infer<typeof FileSchema>;

export function modelToolMemoryAt(homeRoot: string): ComputerToolMemory {
  const file = join(homeRoot, MODEL_TOOLS_FILE_NAME);
  const read = (): MemoryFile => {
    try {
      const parsed = FileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // Absent or unreadable: nothing remembered.
    }
    return { version: 1, anthropicComputerTool: {} };
  };
  return {
    location: file,
    recall: (model) => {
      const entries = read().anthropicComputerTool;
      return Object.hasOwn(entries, model) ? entries[model] : undefined;
    },
    remember: (model, entry: RememberedComputerTool) => {
      const current = read();
      const next: MemoryFile = { ...current, anthropicComputerTool: { ...current.anthropicComputerTool, [model]: entry } };
      createPrivateFolder(homeRoot);
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
      restrictToOwner(temporary, PRIVATE_FILE_MODE);
      renameSync(temporary, file);
    },
  };
}
