/**
 * A dialect is one way a model family is asked to act and answers: how tools are declared (function
 * tools, a native computer tool, a grammar in the system prompt), how its answers are read, how results go
 * back, and which coordinates it names points in. The names are shared: config, events and the timeline use
 * them.
 */
import type { ModelProvider } from './providers.js';

export const DIALECT_NAMES = ['function-tools', 'openai-computer', 'ui-tars', 'qwen-computer-use', 'anthropic-computer', 'gemini-computer-use'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/**
 * What is known of a dialect without running it: enough to refuse, before any model call, a combination
 * that cannot work (src/main/app/dialect-compatibility.ts). Each dialect's engineer fills in its row.
 */
export interface DialectFacts {
  /** How the model is asked to act, in a few words (shown by `sightline config show` and `sightline doctor`). */
  protocol: string;
  /** The model API the dialect's requests need (`model.api`); absent when either works. */
  requiredApi?: 'chat-completions' | 'responses';
  /**
   * The provider whose API carries the dialect (`model.provider`, or the one the model name implies); absent
   * when any provider serves it. OpenAI-compatible servers (vLLM, Ollama, LM Studio, OpenRouter) are `openai`.
   */
  requiredProvider?: ModelProvider;
  /**
   * Whether tools beyond the computer can be declared to the model (web_search, MCP servers' tools). A text
   * grammar with a fixed set of actions has no place for them, so offering them would fail every turn.
   */
  offersExtraTools: boolean;
}

export const DIALECT_FACTS: Readonly<Record<DialectName, DialectFacts>> = {
  'function-tools': { protocol: "function calls to Sightline's own tools", offersExtraTools: true },
  'openai-computer': {
    protocol: "OpenAI's native computer tool (Responses API), Sightline's other tools as function tools",
    requiredApi: 'responses',
    requiredProvider: 'openai',
    offersExtraTools: true,
  },
  'ui-tars': { protocol: "UI-TARS's Thought/Action text grammar", requiredProvider: 'openai', offersExtraTools: false },
  'qwen-computer-use': {
    protocol: "Qwen's computer_use function (a native tool call or <tool_call> text)",
    requiredProvider: 'openai',
    offersExtraTools: true,
  },
  'anthropic-computer': {
    protocol: "Claude's native computer tool (Anthropic Messages API), Sightline's other tools as custom tools",
    requiredProvider: 'anthropic',
    offersExtraTools: true,
  },
  'gemini-computer-use': {
    protocol: "Gemini's computer_use tool (Gemini API), Sightline's other tools as function declarations",
    requiredProvider: 'google',
    offersExtraTools: true,
  },
};
