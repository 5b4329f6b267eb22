/**
 * The agent: `createAgent(dependencies)` wires the tools, the screen recorder and the turn loop together
 * and returns an Agent whose `runTurn` takes one user request to its end. A turn always ends exactly once
 * and leaves the session ready for the next request, whether it finished, failed or was stopped.
 *
 * One agent drives one operator, so it runs one turn at a time.
 */
import { parseCostCeiling } from '../../shared/cost-ceiling.js';
import type { EphemeralContext } from '../../shared/ephemeral.js';
import { textOfParts } from '../../shared/messages.js';
import { withDialectWire } from '../llm/dialects/dialect-wire.js';
import type { ImageSizing } from '../llm/model-profiles.js';
import type { Operator } from '../operators/operator.js';
import type { Agent, AgentDependencies, AnswerRequest, TurnOutcome, TurnRequest } from './agent-contract.js';
import { buildAnswerSystemPrompt } from './answer-prompt.js';
import { createAnswerTool } from './tools/answer-tool.js';
import { createCropImageTool } from './tools/crop-image-tool.js';
import { createGetHistoryImageTool } from './tools/get-history-image-tool.js';
import { createToolRegistry, type ToolRegistry } from './tools/registry.js';
import {
  EncodedImageCache,
  ShownImages,
  TurnRequestCache,
  cleanUserRequest,
  effectiveMaxImageEdge,
  injectionDebugLogFromEnvironment,
  modelImageSize,
} from '../context/index.js';
import { createAgentToolRegistry } from './agent-tool-registry.js';
import type { AnswerToolParts } from './dialects/agent-dialect.js';
import { dialectNamed } from './dialects/dialects.js';
import { isStorageFailure, storageFailureSummary } from './storage-failure.js';
import { noSpending, type TurnSpending } from './turn-spending.js';
import { ToolTurn, type ToolTurnParts } from './tool-turn.js';
import { SpelledSecrets } from './spelled-secrets.js';
import { TypedPasswords } from './typed-passwords.js';
import { checkedEphemeralContexts, recordTurnInjections } from './turn-injections.js';
import type { TurnEnding } from './turn-lifecycle.js';
import { runTurnLoop } from './turn-loop.js';
import { createComputerTool } from './tools/computer-tool.js';
import { replayStep, turnReplayOf, type ReplayNote } from './replay-step.js';
import { watchOperator } from './watched-operator.js';

const STOPPED_CALL_NOTICE = 'Interrupted: the user stopped the turn.';

const ANSWER_NUDGE = 'You replied without calling answer. Call answer with the fields asked for.';

/** runTurn was called while a turn was still running on this agent. */
export class AgentBusyError extends Error {
  override name = 'AgentBusyError';
  constructor() {
    super('The agent is already running a turn; wait for it to end (or stop it) before starting another.');
  }
}

export function createAgent(dependencies: AgentDependencies): Agent {
  const { storage, config, operator } = dependencies;
  const { redact, emit, screen } = watchOperator(dependencies);
  // The protocol the model was trained on: its tools, its system prompt, how its answers are read.
  const dialect = dialectNamed(dependencies.model.profile.dialect);
  const model = withDialectWire(dependencies.model, dialect.wire);
  const maxImageEdge = effectiveMaxImageEdge(model.profile.maxImageEdge, config.perception.maxImageEdge);
  // Built now, so a name collision is found when the agent is made, not in the middle of a turn.
  const registry = createAgentToolRegistry({
    operator,
    screen,
    policy: config.agent.confirm,
    confirm: dependencies.confirm,
    redactSecrets: redact,
    askUser: dependencies.askUser,
    extraTools: dependencies.extraTools,
    dialect,
    screenshotSize: shownSizeOf(operator, maxImageEdge, model.profile.imageSizing),
    coordinateSpace: model.profile.coordinateSpace,
    modelFamily: model.profile.family,
    anthropicComputerTool: model.profile.anthropicComputerTool,
    computerUseDesktop: model.profile.computerUseDesktop,
  });
  // A replay acts in Sightline's own action form, whatever the model's dialect: the recording is in that form.
  const replayRegistry = createToolRegistry([
    createComputerTool({ operator, screen, policy: config.agent.confirm, confirm: dependencies.confirm, redactSecrets: redact }),
  ]);
  const hooks = dependencies.turnEndHooks ?? [];
  const injectionDebugLog =
    dependencies.injectionDebugLog ??
    injectionDebugLogFromEnvironment(process.env, (line) => void process.stderr.write(`${line}\n`));
  const turnParts: ToolTurnParts = {
    storage,
    emit,
    redact,
    registry,
    screen,
    operator,
    stoppedNotice: STOPPED_CALL_NOTICE,
    injectionDebugLog,
    typedPasswords: new TypedPasswords(),
    spelledSecrets: new SpelledSecrets(redact),
    maskWrittenCall: dialect.wire.maskWrittenCall,
  };
  let running = false;

  /** The tools of a turn that answers a question: the dialect's, or the answer tool and the tools that only look. */
  function answeringTools(answer: AnswerRequest): ToolRegistry {
    const parts: AnswerToolParts = {
      answer: { request: answer, screen, startedAt: Date.now(), coordinateSpace: model.profile.coordinateSpace },
      coordinateSpace: model.profile.coordinateSpace,
      operatorKind: operator.describe().kind,
      modelFamily: model.profile.family,
      computerUseDesktop: model.profile.computerUseDesktop,
    };
    const tools = dialect.answerTools?.(parts) ?? [
      createAnswerTool(parts.answer),
      createGetHistoryImageTool(),
      createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
    ];
    return createToolRegistry(tools);
  }

  async function runTurn(request: TurnRequest): Promise<TurnOutcome> {
    if (running) throw new AgentBusyError();
    const ephemeral = checkedEphemeralContexts(request.ephemeral);
    running = true;
    // The loop always has a signal; the caller's, when given, stops it.
    const controller = new AbortController();
    const forwardAbort = () => controller.abort();
    request.signal?.addEventListener('abort', forwardAbort, { once: true });
    if (request.signal?.aborted === true) controller.abort();
    try {
      const answering = request.answer === undefined ? undefined : answeringTools(request.answer);
      const turn = ToolTurn.begin(answering === undefined ? turnParts : { ...turnParts, registry: answering }, {
        request: request.request,
        sessionId: request.sessionId,
        operatorKind: operator.describe().kind,
        modelName: model.profile.model,
        stepKind: request.stepKind,
        flowName: request.flowName,
        replayKey: request.replayKey,
      });
      const usage = noSpending();
      const note: ReplayNote = { mode: 'model', recorded: undefined, replayedActions: 0 };
      let ending: TurnEnding;
      try {
        ending = await playTurn(turn, request, ephemeral, controller.signal, usage, answering ?? registry, note);
      } catch (error) {
        ending = controller.signal.aborted
          ? { status: 'stopped', reason: 'stopped', summary: 'Stopped by the user.' }
          : isStorageFailure(error)
            ? { status: 'failed', reason: 'error', summary: storageFailureSummary(error, storage.paths, redact) }
            : { status: 'failed', reason: 'error', summary: `The turn failed: ${redact(errorMessage(error))}` };
      }
      if (request.replayKey !== undefined) ending = { ...ending, replay: turnReplayOf(note, usage, ending.status) };
      return await turn.end(ending, hooks, usage.total, usage.cost);
    } finally {
      request.signal?.removeEventListener('abort', forwardAbort);
      running = false;
    }
  }

  async function playTurn(
    turn: ToolTurn,
    request: TurnRequest,
    ephemeral: readonly EphemeralContext[],
    signal: AbortSignal,
    usage: TurnSpending,
    tools: ToolRegistry,
    note: ReplayNote,
  ): Promise<TurnEnding> {
    await turn.storeRequest(request.request);
    recordTurnInjections(storage, turn, ephemeral);
    // A replay compares the screen with its recording: it waits for the screen to settle first.
    const first = await screen.capture(request.replay !== undefined);
    if (first.kind !== 'new') throw new Error('The first screenshot of a turn must be a stored image.');
    storage.messages.append({
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      message: {
        role: 'user',
        parts: [{ type: 'text', text: 'The screen now:' }, { type: 'image', imageId: first.imageId }],
      },
    });
    const shown = modelImageSize(first.width, first.height, maxImageEdge, model.profile.imageSizing);
    const promptInput = {
      task: textOfParts(cleanUserRequest(request.request).parts),
      operatorKind: operator.describe().kind,
      screenshotWidth: shown.width,
      screenshotHeight: shown.height,
      coordinateSpace: model.profile.coordinateSpace,
      tools: tools.list(),
    };
    const answer = request.answer;
    const systemPrompt =
      answer === undefined
        ? dialect.systemPrompt(promptInput)
        : (dialect.answerPrompt?.(promptInput, answer) ?? buildAnswerSystemPrompt(promptInput, answer.kind));
    if (request.replay !== undefined && request.replayKey !== undefined) {
      const replayed = await replayStep(
        {
          storage,
          screen,
          turn,
          registry: replayRegistry,
          comparison: { algorithm: config.perception.dedup.algorithm, threshold: config.perception.dedup.threshold },
          shownImages: ShownImages.of({ maxImageEdge, imageSizing: model.profile.imageSizing, coordinateSpace: model.profile.coordinateSpace }),
          signal,
          pageTexts: async () => operator.pageTexts?.(),
        },
        { key: request.replayKey, heal: request.replay.heal, fromTurnId: request.replay.fromTurnId, answering: answer !== undefined, first },
        note,
      );
      if (replayed !== undefined) return replayed;
    }
    return runTurnLoop({
      storage,
      model,
      registry: tools,
      turn,
      emit,
      redact,
      signal,
      systemPrompt,
      maxImageEdge,
      maxSteps: config.agent.maxSteps,
      maxCost: config.agent.maxCost === undefined ? undefined : parseCostCeiling(config.agent.maxCost),
      budget: request.budget,
      // A question is answered by a call in every dialect: a reply without one is nudged, never taken as the end.
      replyWithoutCalls: answer === undefined ? dialect.replyWithoutCalls : 'nudge',
      ...(answer !== undefined ? { nudge: ANSWER_NUDGE } : dialect.nudge === undefined ? {} : { nudge: dialect.nudge }),
      imageCache: new EncodedImageCache(),
      turnCache: new TurnRequestCache(),
      contextSettings: config.context,
      ephemeral,
      injectionDebugLog,
      usage,
    });
  }

  return { runTurn };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The size the operator's screenshots are shown to the model at (a native computer tool declares it). */
function shownSizeOf(operator: Operator, maxImageEdge: number, sizing: ImageSizing): { width: number; height: number } {
  const { screen, scaleFactor } = operator.describe();
  return modelImageSize(Math.round(screen.width * scaleFactor), Math.round(screen.height * scaleFactor), maxImageEdge, sizing);
}
