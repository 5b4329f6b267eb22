/**
 * The app API, implemented once over storage and the run manager. The Electron IPC handlers and the
 * `sightline timeline` HTTP server both call this one object through dispatchAppApiCall, which validates
 * arguments and results. Nothing here returns a secret: results are built field by field from rows that hold
 * none (the configuration, with its keys, never enters a result).
 */
import {
  AppApiError,
  type AppInfo,
  type EvidenceFrame,
  type ImageSummary,
  type SearchReport,
  type SessionSummary,
  type Step,
  type Turn,
} from '../../shared/app-api.js';
import { COMPUTER_TOOL_NAME, isComputerAction } from '../../shared/actions.js';
import { NO_COST } from '../../shared/cost.js';
import { ScreenshotViewSchema } from '../../shared/model-view.js';
import { TokenReportSchema } from '../../shared/events.js';
import type { NextRequestTreatment } from '../../shared/images.js';
import { nextRequestImages, picturesByTurn } from '../context/index.js';
import type { ImageRecord, SessionRecord, SessionSummary as StoredSessionSummary, StepRecord, Storage } from '../storage/index.js';
import type { ApiKeySettings } from './api-keys.js';
import type { AppApiImplementation } from './app-api-dispatch.js';
import { loadImage, timelineZone } from './image-loading.js';
import type { NextRequestSettings } from './next-request-settings.js';
import type { PictureAttachment } from '../../shared/pictures.js';
import { checkAttachedPictures, PictureRefusedError, type CheckedPicture } from '../perception/attached-pictures.js';
import { loadMedia } from './media-loading.js';
import { buildSessionReport, ReportTooLargeError } from '../report/index.js';
import { secretRedactor } from '../../shared/secret-redaction.js';
import type { RunManager } from '../app/run-manager.js';
import { desktopRunRefusal, SettingsUnavailableError, type DesktopPermissions } from '../app/permissions/index.js';
import type { OperatorKind } from '../../shared/config.js';

export interface AppApiImplementationOptions {
  storage: Storage;
  runs: RunManager;
  appInfo: () => AppInfo;
  /** The API keys in use and the desktop app's saved ones (api-keys.ts). */
  keys: ApiKeySettings;
  /** How the next request is planned, as the configuration now says (next-request-settings.ts). */
  nextRequest: () => NextRequestSettings;
  /** What the desktop operator needs from the OS; a desktop run is refused while some of it is missing. */
  permissions: DesktopPermissions;
  /** The operator a run gets when startRun names none (the configuration's agent.operator). */
  defaultOperator: () => OperatorKind;
}

/** What a page of steps tells of each screenshot beyond its row: pinned, and how the next request carries it. */
interface ScreenshotContext {
  pinned: ReadonlySet<string>;
  nextRequest: ReadonlyMap<string, NextRequestTreatment>;
}

export function createAppApiImplementation({
  storage,
  runs,
  appInfo,
  keys,
  nextRequest,
  permissions,
  defaultOperator,
}: AppApiImplementationOptions): AppApiImplementation {
  const requireSession = (sessionId: string): SessionRecord => {
    const session = storage.sessions.get(sessionId);
    if (session === undefined) throw new AppApiError('not-found', `There is no session ${sessionId}.`);
    return session;
  };

  const requireSummary = (sessionId: string): StoredSessionSummary => {
    const session = storage.sessions.summary(sessionId);
    if (session === undefined) throw new AppApiError('not-found', `There is no session ${sessionId}.`);
    return session;
  };

  const summarize = (session: StoredSessionSummary): SessionSummary => ({
    id: session.id,
    title: session.title,
    status: session.status,
    operator: session.operator,
    model: session.model,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    turnCount: session.turnCount,
    stepCount: session.stepCount,
    tokens: storage.steps.tokenTotals(session.id),
    cost: storage.steps.costTotals(session.id),
    run: runs.stateOf(session.id),
    flowName: session.flowName,
  });

  const requireImage = (imageId: string): ImageRecord => {
    const image = storage.images.get(imageId);
    if (image === undefined) throw new AppApiError('not-found', `There is no image ${imageId}.`);
    return image;
  };

  /** Each frame an answer names, with what the timeline needs to open it; an id the session has no image of stays a bare id. */
  const evidenceOf = (sessionId: string, imageIds: readonly string[], pinned: ReadonlySet<string>): EvidenceFrame[] =>
    imageIds.map((imageId) => {
      const image = storage.images.get(imageId);
      return { imageId, image: image === undefined || image.sessionId !== sessionId ? null : imageSummary(image, { pinned, nextRequest: NO_PLAN }) };
    });

  const stepOf = (record: StepRecord, context: ScreenshotContext): Step => {
    const screenshot = record.screenshotImageId === null ? undefined : storage.images.get(record.screenshotImageId);
    const { action } = record;
    const tokenReport = TokenReportSchema.safeParse(record.tokenReport);
    const screenshotView = ScreenshotViewSchema.safeParse(record.screenshotView);
    return {
      id: record.id,
      turnId: record.turnId,
      sequence: record.sequence,
      tool: isComputerAction(action) ? COMPUTER_TOOL_NAME : action.tool,
      action: isComputerAction(action) ? action : null,
      toolArguments: isComputerAction(action) ? null : action.arguments,
      thought: record.thought,
      screenshot: screenshot === undefined ? null : imageSummary(screenshot, context),
      screenshotView: screenshotView.success ? screenshotView.data : null,
      dedupOf: record.dedupOfImageId,
      result: jsonOrNull(record.result),
      error: record.error,
      latencyMs: record.latencyMs,
      inputTokens: record.inputTokens,
      outputTokens: record.outputTokens,
      cachedInputTokens: record.cachedInputTokens,
      cacheWriteInputTokens: record.cacheWriteInputTokens,
      costDollars: record.costDollars,
      tokenReport: tokenReport.success ? tokenReport.data : null,
      createdAt: record.createdAt,
    };
  };

  return {
    appInfo,

    listSessions({ query, limit, offset }) {
      const page = storage.sessions.summaries({ matching: query, limit, offset });
      return { sessions: page.sessions.map(summarize), total: page.total };
    },

    getSession(sessionId) {
      const session = requireSummary(sessionId);
      const stepCounts = storage.steps.countsByTurn(sessionId);
      const turnTokens = storage.steps.tokenTotalsByTurn(sessionId);
      const turnCosts = storage.steps.costTotalsByTurn(sessionId);
      const turnPictures = picturesByTurn(storage, sessionId);
      const pinned = storage.pins.pinnedIds(sessionId);
      const turns: Turn[] = storage.turns.listBySession(sessionId).map((turn) => ({
        id: turn.id,
        sequence: turn.sequence,
        request: turn.userRequest,
        status: turn.status,
        startedAt: turn.startedAt,
        endedAt: turn.endedAt,
        compactedAt: turn.compactedAt,
        summary: turn.summary,
        stepCount: stepCounts.get(turn.id) ?? 0,
        tokens: turnTokens.get(turn.id) ?? { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 },
        cost: turnCosts.get(turn.id) ?? NO_COST,
        pictures: (turnPictures.get(turn.id) ?? []).map((image) => imageSummary(image, PICTURE_CONTEXT)),
        stepKind: turn.stepKind,
        answer:
          turn.answer === null
            ? null
            : { kind: turn.answer.kind, value: jsonOrNull(turn.answer.value), reason: turn.answer.reason, evidence: evidenceOf(sessionId, turn.answer.evidence, pinned) },
        ...(turn.replay === null ? {} : { replay: turn.replay }),
        ...(turn.allowedFailure === true ? { allowedFailure: true as const } : {}),
      }));
      return { session: summarize(session), turns };
    },

    async deleteSession(sessionId) {
      const session = requireSession(sessionId);
      if (runs.isRunning(sessionId) || session.status === 'running') {
        throw new AppApiError('conflict', `Session ${sessionId} is running a task; stop it before deleting the session.`);
      }
      const result = await storage.deleteSession(sessionId);
      return { deleted: true as const, ...result };
    },

    async exportReport({ sessionId, maxBytes }) {
      requireSession(sessionId);
      try {
        const report = await buildSessionReport(sessionId, { storage, redact: secretRedactor(keys.config()), maxBytes, sightlineVersion: appInfo().version });
        return { fileName: `sightline-${sessionId}.html`, html: report.html, bytes: report.bytes, notices: report.model.notices.map((notice) => notice.text) };
      } catch (error) {
        if (error instanceof ReportTooLargeError) throw new AppApiError('refused', `The report would be too large: ${error.message.replace(/; raise --max-size$/, '')}.`);
        throw error;
      }
    },

    listMedia(sessionId) {
      requireSession(sessionId);
      return { media: storage.media.listBySession(sessionId) };
    },

    getMedia(request) {
      return loadMedia(storage, request);
    },

    listSteps({ sessionId, turnId, offset, limit }) {
      requireSession(sessionId);
      if (turnId !== undefined && storage.turns.get(turnId)?.sessionId !== sessionId) {
        throw new AppApiError('not-found', `Session ${sessionId} has no turn ${turnId}.`);
      }
      const page = storage.steps.page({ sessionId, turnId, limit, offset });
      const context: ScreenshotContext = {
        pinned: storage.pins.pinnedIds(sessionId),
        nextRequest: page.steps.some((step) => step.screenshotImageId !== null) ? nextRequestImages({ storage, sessionId, ...nextRequest() }) : new Map(),
      };
      return { steps: page.steps.map((step) => stepOf(step, context)), total: page.total, offset };
    },

    getImage({ imageId, maxBytes, thumbnailWidth }) {
      return loadImage(storage, { imageId, maxBytes, thumbnailWidth });
    },

    pinImage(imageId) {
      const outcome = storage.pins.pin(imageId);
      if (outcome.status === 'refused') throw new AppApiError(outcome.reason === 'not-found' ? 'not-found' : 'refused', outcome.message);
      return { imageId, pinned: true };
    },

    unpinImage(imageId) {
      requireImage(imageId);
      storage.pins.unpin(imageId);
      return { imageId, pinned: false };
    },

    listSearchReports(sessionId) {
      requireSession(sessionId);
      const reports: SearchReport[] = storage.searchReports.listBySession(sessionId).map((report) => ({
        id: report.id,
        turnId: report.turnId,
        question: report.question,
        queries: report.queries.map((value) => jsonOrNull(value)),
        sources: report.sources.map((value) => jsonOrNull(value)),
        answer: report.answer,
        confidence: report.confidence,
        iterations: report.iterations,
        durationMs: report.durationMs,
        createdAt: report.createdAt,
      }));
      return { reports };
    },

    listInjections(sessionId) {
      requireSession(sessionId);
      const injections = storage.injections.listBySession(sessionId).map((injection) => ({
        id: injection.id,
        turnId: injection.turnId,
        type: injection.type,
        contentLength: injection.contentLength,
        createdAt: injection.createdAt,
      }));
      return { injections };
    },

    listRuns() {
      return { runs: runs.list() };
    },

    async startRun({ sessionId, task, operator, url, ephemeral, pictures }) {
      if (sessionId !== undefined) {
        const session = requireSession(sessionId);
        if (session.status === 'closed') throw new AppApiError('conflict', `Session ${sessionId} is closed and cannot take a new task.`);
      }
      // Checked afresh: a run without Screen Recording would work blind on black screenshots.
      const refusal = (operator ?? defaultOperator()) === 'desktop' ? desktopRunRefusal(permissions.status()) : undefined;
      if (refusal !== undefined) throw new AppApiError('refused', refusal);
      return runs.start({ sessionId, task, pictures: await checkedPictures(pictures ?? []), operator, url, ephemeral });
    },

    stopRun(sessionId) {
      return { stopped: runs.stop(sessionId) };
    },

    pauseRun(sessionId) {
      return { sessionId, state: runs.pause(sessionId) };
    },

    resumeRun(sessionId) {
      return { sessionId, state: runs.resume(sessionId) };
    },

    answerConfirmation({ requestId, approved }) {
      return { answered: runs.answerConfirmation(requestId, approved) };
    },

    answerQuestion({ requestId, answer }) {
      return { answered: runs.answerQuestion(requestId, answer) };
    },

    getKeyStatus() {
      return keys.status();
    },

    saveApiKey({ kind, key }) {
      return keys.save(kind, key);
    },

    permissionStatus() {
      return { ...permissions.status(), desktopByDefault: defaultOperator() === 'desktop' };
    },

    async openPermissionSettings(permission) {
      try {
        return await permissions.openSettings(permission);
      } catch (error) {
        if (error instanceof SettingsUnavailableError) throw new AppApiError('refused', error.message);
        throw error;
      }
    },
  };
}

/** The pictures people attached to each turn's request (image rows from the user), in the order they were stored. */
/** Every picture checked before the run starts: a bad one is the caller's mistake, named, and nothing is stored. */
async function checkedPictures(pictures: readonly PictureAttachment[]): Promise<CheckedPicture[]> {
  try {
    return await checkAttachedPictures(pictures);
  } catch (error) {
    if (error instanceof PictureRefusedError) throw new AppApiError('invalid-arguments', `Picture ${error.message}.`);
    throw error;
  }
}

/** No request plan is asked for an answer's evidence: the timeline goes by each frame's zone. */
const NO_PLAN: ReadonlyMap<string, NextRequestTreatment> = new Map();

/** Pictures are not pinnable and no request plan is asked for them: they show as attached. */
const PICTURE_CONTEXT: ScreenshotContext = { pinned: new Set(), nextRequest: new Map() };

function imageSummary(image: ImageRecord, context: ScreenshotContext): ImageSummary {
  const nextRequest = context.nextRequest.get(image.id);
  return {
    imageId: image.id,
    zone: timelineZone(image),
    caption: image.caption,
    width: image.width,
    height: image.height,
    isErrorFrame: image.isErrorFrame,
    pinned: context.pinned.has(image.id),
    // An image no message names has no plan to tell of: the timeline goes by its zone.
    ...(nextRequest === undefined ? {} : { nextRequest }),
  };
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Stored JSON as the result schema's JSON type; undefined (a missing field) becomes null. */
function jsonOrNull(value: unknown): Json {
  return value === undefined ? null : (value as Json);
}
