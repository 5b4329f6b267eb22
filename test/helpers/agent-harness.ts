/**
 * Everything an agent test needs, wired the way `sightline run` wires it: a temporary home with real
 * storage, the real model adapter (and openai client) pointed at the fake model server, and a fake
 * operator. Events and turn-end hook calls are collected for assertions.
 *
 *   const harness = await startAgentHarness();
 *   harness.server.script([computerCall({ action: 'click', x: 10, y: 20 }), finishCall('done')]);
 *   const outcome = await harness.agent.runTurn({ request: userText('click it') });
 *   await harness.close();
 */
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import type { AgentEvent } from '../../src/shared/events.js';
import { createAgent } from '../../src/main/agent/agent.js';
import type {
  Agent,
  AgentDependencies,
  AskUserHandler,
  ConfirmationHandler,
  TurnEndHook,
} from '../../src/main/agent/agent-contract.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { Storage } from '../../src/main/storage/index.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from './fake-openai-server.js';
import { FakeOperator, type FakeOperatorOptions } from './fake-operator.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from './seed.js';

export const TEST_API_KEY = 'sk-test-0123456789abcdef-secret';

export interface HarnessOptions {
  operator?: FakeOperatorOptions;
  /** Changes to the default configuration, section by section. */
  config?: {
    model?: Partial<Config['model']>;
    agent?: Partial<Config['agent']>;
    perception?: Partial<Omit<Config['perception'], 'dedup'>> & { dedup?: Partial<Config['perception']['dedup']> };
    context?: Partial<Config['context']>;
  };
  confirm?: ConfirmationHandler;
  askUser?: AskUserHandler;
  extra?: Partial<AgentDependencies>;
}

export interface AgentHarness {
  agent: Agent;
  server: FakeOpenAiServer;
  storage: Storage;
  operator: FakeOperator;
  home: TemporaryHome;
  config: Config;
  events: AgentEvent[];
  /** Every call of the turn-end hook, in order. */
  hookCalls: Parameters<TurnEndHook>[0][];
  /** Every confirmation the agent asked for. */
  confirmations: Parameters<ConfirmationHandler>[0][];
  close(): Promise<void>;
}

export async function startAgentHarness(options: HarnessOptions = {}): Promise<AgentHarness> {
  const server = await startFakeOpenAiServer();
  const home = createTemporaryHome('sightline-agent');
  const storage = openHomeStorage(home);
  const operator = new FakeOperator(options.operator);
  const config: Config = {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, name: 'gpt-4.1', baseUrl: server.baseUrl, apiKey: TEST_API_KEY, maxRetries: 0, ...options.config?.model },
    agent: { ...DEFAULT_CONFIG.agent, ...options.config?.agent },
    context: { ...DEFAULT_CONFIG.context, ...options.config?.context },
    perception: {
      ...DEFAULT_CONFIG.perception,
      ...options.config?.perception,
      dedup: { ...DEFAULT_CONFIG.perception.dedup, ...options.config?.perception?.dedup },
    },
  };
  const events: AgentEvent[] = [];
  const hookCalls: Parameters<TurnEndHook>[0][] = [];
  const confirmations: Parameters<ConfirmationHandler>[0][] = [];
  const confirm: ConfirmationHandler = async (request, signal) => {
    confirmations.push(request);
    return options.confirm === undefined ? false : options.confirm(request, signal);
  };
  const agent = createAgent({
    storage,
    config,
    model: createModelAdapter(config.model),
    operator,
    confirm,
    askUser: options.askUser ?? (async () => undefined),
    onEvent: (event) => events.push(event),
    turnEndHooks: [(turn) => void hookCalls.push(turn)],
    watchSettling: false,
    ...options.extra,
  });
  return {
    agent,
    server,
    storage,
    operator,
    home,
    config,
    events,
    hookCalls,
    confirmations,
    close: async () => {
      await server.close();
      storage.close();
      home.remove();
    },
  };
}

let callCounter = 0;

export type FakeAnswer = Extract<FakeReply, { type: 'answer' }>;

/** A model reply that calls one tool with the given arguments (an object, or raw text to send as is). */
export function toolCall(name: string, argumentsValue: unknown, text = `Calling ${name}.`): FakeAnswer {
  callCounter += 1;
  const argumentsText = typeof argumentsValue === 'string' ? argumentsValue : JSON.stringify(argumentsValue);
  return { type: 'answer', text, toolCalls: [{ id: `call_${callCounter}`, name, arguments: argumentsText }] };
}

export function computerCall(action: Record<string, unknown>, text?: string): FakeAnswer {
  return toolCall('computer', action, text);
}

export function finishCall(summary = 'Done.', success = true): FakeAnswer {
  return toolCall('finish', { summary, success }, 'The task is done.');
}

/** The chat messages of a recorded Chat Completions request. */
export function chatMessages(server: FakeOpenAiServer, index: number): Array<Record<string, unknown>> {
  const request = server.requests[index];
  if (request === undefined) throw new Error(`There is no request ${index}; the server received ${server.requests.length}.`);
  return (request.body as { messages: Array<Record<string, unknown>> }).messages;
}

/** A Chat Completions message's text, whether its content is a string or a list of parts. */
export function contentText(message: Record<string, unknown>): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string; image_url?: { url?: string } }) =>
      part.type === 'text' ? (part.text ?? '') : part.type === 'image_url' ? `[image ${part.image_url?.url?.slice(0, 30) ?? ''}]` : '',
    )
    .join('\n');
}
