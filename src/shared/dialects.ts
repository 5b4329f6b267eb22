/**
 * A dialect is one way a model family is asked to act and answers: how tools are declared (function
 * tools, a native computer tool, a grammar in the system prompt), how its answers are read, how results go
 * back, and which coordinates it names points in. The names are shared: config, events and the timeline use
 * them.
 */
export const DIALECT_NAMES = ['function-tools', 'openai-computer', 'ui-tars', 'qwen-computer-use'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];
