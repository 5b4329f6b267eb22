/**
 * The app API: every call the renderer may make of the main process, each with its channel and the zod
 * schemas of its arguments and its result. Both transports read this one table: the Electron preload exposes
 * one method per entry (`window.sightline.<name>`) and the main process validates what it receives and what
 * it sends back; `sightline timeline` serves the same calls as POST /api/<name> with the same schemas. Neither
 * side trusts the other's types blindly.
 *
 * Images never travel inside other results or events: a step names its screenshot by id, and the renderer
 * fetches the pixels with getImage (or GET /api/images/<id> over HTTP) when it shows them. Media a model
 * generated is listed by listMedia and fetched with getMedia the same way.
 *
 * To add a call: add its channel to APP_API_CHANNELS (app-api-channels.ts), its schemas to APP_API, a method
 * to the preload and an implementation to src/main/api. The types below then require all of them to agree.
 */
import { z } from 'zod';
import { REPORT_MAX_BYTES_DEFAULT, REPORT_MAX_BYTES_LIMIT } from './report-model.js';
import { ComputerActionSchema, StepActionSchema, ToolArgumentsSchema } from './actions.js';
import { ANSWER_KINDS, STEP_KINDS } from './answers.js';
import { ScreenshotViewSchema } from './model-view.js';
import { TurnReplaySchema } from './replay.js';
import { APP_API_CHANNELS, APP_EVENT_CHANNEL, type AppApiName } from './app-api-channels.js';
import { OPERATOR_KINDS } from './config.js';
import { CostTotalsSchema } from './cost.js';
import { EphemeralContextSchema, type EphemeralContext } from './ephemeral.js';
import { AgentEventSchema, TokenReportSchema } from './events.js';
import { GENERATED_MEDIA_KINDS, GeneratedMediaIdSchema, GeneratedMediaSchema } from './generated-media.js';
import { IMAGE_UNAVAILABLE_REASONS, NEXT_REQUEST_TREATMENTS, TIMELINE_IMAGE_ZONES } from './images.js';
import { OpenPermissionSettingsResultSchema, PermissionStatusSchema, SETTINGS_PERMISSIONS } from './permissions.js';
import { PictureAttachmentsSchema } from './pictures.js';
import { SESSION_STATUSES, TURN_STATUSES } from './statuses.js';

export { APP_API_CHANNELS, APP_EVENT_CHANNEL, type AppApiName };

/** The platforms Node reports in `process.platform`. */
export const PLATFORMS = ['aix', 'android', 'darwin', 'freebsd', 'haiku', 'linux', 'openbsd', 'sunos', 'win32', 'cygwin', 'netbsd'] as const;

// ---- identifiers and shared pieces --------------------------------------------------------------------

// The type error names the id too: a positional argument's message has no field name to go by.
const idOf = (prefix: string, what: string) =>
  z
    .string({ error: `expected ${what} id (${prefix} followed by 12 hex digits)` })
    .regex(new RegExp(`^${prefix}[0-9a-f]{12}$`), `${what} id (${prefix} followed by 12 hex digits)`);

export const SessionIdSchema = idOf('ses_', 'a session');
export const TurnIdSchema = idOf('turn_', 'a turn');
export const ImageIdSchema = idOf('img_', 'an image');
/** Confirmation and question ids come from the agent (UUIDs today); only their shape is bounded here. */
export const RequestIdSchema = z.string().min(1).max(100);
/** ISO 8601 UTC, as storage writes it. */
const TimeSchema = z.string();
/** JSON as stored (step results, search queries and sources). */
const JsonSchema = z.json();

export const RUN_STATES = ['running', 'paused', 'stopping'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Largest image getImage returns by default, and the most a caller may ask for. */
export const DEFAULT_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_MAX_BYTES_LIMIT = 50 * 1024 * 1024;
export const MAX_TASK_LENGTH = 20_000;

// ---- results ----------------------------------------------------------------------------------------

export const AppInfoSchema = z
  .object({
    /** The app's version as package.json states it. */
    version: z.string().min(1),
    platform: z.enum(PLATFORMS),
  })
  .strict();
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** Token totals of a session's steps. `keepEverything` is what the requests would have cost with every image whole. */
export const TokenTotalsSchema = z
  .object({
    input: z.number().int().min(0),
    output: z.number().int().min(0),
    /** Of `input`, the tokens the provider's prompt cache served (read); 0 when no step reported any. */
    cachedInput: z.number().int().min(0),
    /** Input tokens written to the provider's prompt cache; 0 when no step reported any. */
    cacheWriteInput: z.number().int().min(0),
    /** Sums of the steps' token reports; null when no step has a report. */
    sent: z.number().int().min(0).nullable(),
    keepEverything: z.number().int().min(0).nullable(),
  })
  .strict();
export type TokenTotals = z.infer<typeof TokenTotalsSchema>;

export const SessionSummarySchema = z
  .object({
    id: SessionIdSchema,
    title: z.string(),
    status: z.enum(SESSION_STATUSES),
    operator: z.string().nullable(),
    model: z.string().nullable(),
    createdAt: TimeSchema,
    updatedAt: TimeSchema,
    turnCount: z.number().int().min(0),
    stepCount: z.number().int().min(0),
    tokens: TokenTotalsSchema,
    /** What the session's model calls cost, as priced when each was made (src/shared/cost.ts). */
    cost: CostTotalsSchema,
    /** The live run of this app on the session, if any (a run from another process shows only as status running). */
    run: z.enum(RUN_STATES).nullable(),
    /** The flow that ran the session (`sightline flow`, the SDK's `flow` option); null for any other session. */
    flowName: z.string().nullable(),
  })
  .strict();
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SessionListSchema = z
  .object({ sessions: z.array(SessionSummarySchema), total: z.number().int().min(0) })
  .strict();
export type SessionList = z.infer<typeof SessionListSchema>;

/** What a turn's steps cost: input (with what the prompt cache served and took of it) and output. */
export const TurnTokenTotalsSchema = z
  .object({
    input: z.number().int().min(0),
    output: z.number().int().min(0),
    /** Of `input`, what the provider's prompt cache served (read). */
    cachedInput: z.number().int().min(0),
    /** Input tokens written to the provider's prompt cache. */
    cacheWriteInput: z.number().int().min(0),
  })
  .strict();
export type TurnTokenTotals = z.infer<typeof TurnTokenTotalsSchema>;

/** What the timeline knows of an image without loading it. */
export const ImageSummarySchema = z
  .object({
    imageId: ImageIdSchema,
    zone: z.enum(TIMELINE_IMAGE_ZONES),
    caption: z.string().nullable(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    isErrorFrame: z.boolean(),
    /**
     * Whether a person pinned it (issue 16): the next requests send it whole. The app API always says;
     * absent on a step the timeline built from live events before reading the session again.
     */
    pinned: z.boolean().optional(),
    /**
     * How the session's next request carries it: whole, as a reduced view, or folded (NEXT_REQUEST_TREATMENTS).
     * The timeline draws it whole unless folded. Absent on a step known only from live events, and for an
     * image no stored message names (the request says nothing of it): the timeline then goes by its zone.
     */
    nextRequest: z.enum(NEXT_REQUEST_TREATMENTS).optional(),
  })
  .strict();
export type ImageSummary = z.infer<typeof ImageSummarySchema>;

/**
 * A frame an answer names as its evidence: its id, and what the timeline knows of the image (null when the
 * session holds no image of that id: an answer stored by hand, or its image's row deleted).
 */
export const EvidenceFrameSchema = z.object({ imageId: z.string(), image: ImageSummarySchema.nullable() }).strict();
export type EvidenceFrame = z.infer<typeof EvidenceFrameSchema>;

/**
 * A turn's answer (answers.ts): a verdict (assert, if), a value (extract) or whether a condition came true
 * (wait_for), with the model's reason and the frames it relied on.
 */
export const TurnAnswerViewSchema = z
  .object({
    kind: z.enum(ANSWER_KINDS),
    /** true or false for a verdict and an until; a JSON value for a value. */
    value: JsonSchema,
    reason: z.string(),
    evidence: z.array(EvidenceFrameSchema),
  })
  .strict();
export type TurnAnswerView = z.infer<typeof TurnAnswerViewSchema>;

export const TurnSchema = z
  .object({
    id: TurnIdSchema,
    sequence: z.number().int().min(1),
    request: z.string(),
    status: z.enum(TURN_STATUSES),
    startedAt: TimeSchema,
    endedAt: TimeSchema.nullable(),
    compactedAt: TimeSchema.nullable(),
    summary: z.string().nullable(),
    stepCount: z.number().int().min(0),
    tokens: TurnTokenTotalsSchema,
    /** What the turn's model calls cost, as priced when each was made. */
    cost: CostTotalsSchema,
    /** The pictures the person attached to the request, in order (fetch them with getImage). */
    pictures: z.array(ImageSummarySchema),
    /** The kind of flow step (or SDK call) the turn ran for; null for a plain request. */
    stepKind: z.enum(STEP_KINDS).nullable(),
    /** The model's answer, for a turn that asked one (assert, extract, if, wait_for); null otherwise. */
    answer: TurnAnswerViewSchema.nullable(),
    /** A flow step's replay: replayed, healed (and why), diverged or the model's, with what it saved. */
    replay: TurnReplaySchema.optional(),
    /** The flow step failed where failing was allowed (continue_on_error): the flow did not fail for it. */
    allowedFailure: z.literal(true).optional(),
  })
  .strict();
export type Turn = z.infer<typeof TurnSchema>;

export const SessionDetailSchema = z.object({ session: SessionSummarySchema, turns: z.array(TurnSchema) }).strict();
export type SessionDetail = z.infer<typeof SessionDetailSchema>;

export const StepSchema = z
  .object({
    id: z.string(),
    turnId: TurnIdSchema,
    sequence: z.number().int().min(1),
    /** `computer` for a computer action, else the tool's name (finish, ask_user, web_search, an MCP tool…). */
    tool: z.string(),
    /** The computer action, when the step was one. */
    action: ComputerActionSchema.nullable(),
    /** The arguments of any other tool call, as stored (the model's raw text when they were malformed). */
    toolArguments: ToolArgumentsSchema.nullable(),
    thought: z.string().nullable(),
    /** The screenshot the model was looking at when it chose this step; null when none was recorded. */
    screenshot: ImageSummarySchema.nullable(),
    /**
     * How that screenshot was shown to the model (size, coordinate space): the action's coordinates are in
     * this space. Null for steps recorded before it was kept; the timeline then does not draw the action.
     */
    screenshotView: ScreenshotViewSchema.nullable(),
    /** When the screen had not changed after the action: the earlier image the new capture repeated. */
    dedupOf: ImageIdSchema.nullable(),
    result: JsonSchema.nullable(),
    error: z.string().nullable(),
    latencyMs: z.number().int().min(0).nullable(),
    inputTokens: z.number().int().min(0).nullable(),
    outputTokens: z.number().int().min(0).nullable(),
    /** Of `inputTokens`, what the provider's prompt cache served; null when the provider reported none. */
    cachedInputTokens: z.number().int().min(0).nullable(),
    /** Input tokens this call wrote to the provider's prompt cache; null when the provider reported none. */
    cacheWriteInputTokens: z.number().int().min(0).nullable(),
    /** What the step's model call cost in dollars, as priced when it was made; null when the price was unknown or no call is on this step. */
    costDollars: z.number().min(0).nullable(),
    tokenReport: TokenReportSchema.nullable(),
    createdAt: TimeSchema,
  })
  .strict();
export type Step = z.infer<typeof StepSchema>;

export const StepPageSchema = z
  .object({ steps: z.array(StepSchema), total: z.number().int().min(0), offset: z.number().int().min(0) })
  .strict();
export type StepPage = z.infer<typeof StepPageSchema>;

export const ImageResultSchema = z.discriminatedUnion('status', [
  z
    .object({
      status: z.literal('ok'),
      imageId: ImageIdSchema,
      mime: z.string(),
      dataBase64: z.string(),
      /** Of the bytes returned: a thumbnail's size, not the original's. */
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      byteSize: z.number().int().min(0),
      zone: z.enum(TIMELINE_IMAGE_ZONES),
      thumbnail: z.boolean(),
    })
    .strict(),
  z
    .object({
      status: z.literal('unavailable'),
      imageId: z.string(),
      reason: z.enum(IMAGE_UNAVAILABLE_REASONS),
      message: z.string(),
    })
    .strict(),
]);
export type ImageResult = z.infer<typeof ImageResultSchema>;

/** The media a session's model generated, in the order it was produced (no bytes: getMedia fetches them). */
export const MediaListSchema = z.object({ media: z.array(GeneratedMediaSchema) }).strict();
export type MediaList = z.infer<typeof MediaListSchema>;

/** Why getMedia returns no bytes: no message names the id, its file is gone or damaged, or it is too large. */
export const MEDIA_UNAVAILABLE_REASONS = ['not-found', 'missing', 'corrupt', 'too-large'] as const;

export const MediaResultSchema = z.discriminatedUnion('status', [
  z
    .object({
      status: z.literal('ok'),
      mediaId: GeneratedMediaIdSchema,
      kind: z.enum(GENERATED_MEDIA_KINDS),
      mime: z.string(),
      dataBase64: z.string(),
      byteSize: z.number().int().min(0),
    })
    .strict(),
  z.object({ status: z.literal('unavailable'), mediaId: z.string(), reason: z.enum(MEDIA_UNAVAILABLE_REASONS), message: z.string() }).strict(),
]);
export type MediaResult = z.infer<typeof MediaResultSchema>;

export const SearchReportSchema = z
  .object({
    id: z.string(),
    turnId: TurnIdSchema.nullable(),
    question: z.string(),
    queries: z.array(JsonSchema),
    sources: z.array(JsonSchema),
    answer: z.string(),
    confidence: z.number().min(0).max(1).nullable(),
    iterations: z.number().int().min(0),
    durationMs: z.number().int().min(0).nullable(),
    createdAt: TimeSchema,
  })
  .strict();
export type SearchReport = z.infer<typeof SearchReportSchema>;

/** An ephemeral injection as recorded: its type and length only, never its content. */
export const InjectionSchema = z
  .object({
    id: z.string(),
    turnId: TurnIdSchema.nullable(),
    type: z.string(),
    contentLength: z.number().int().min(0),
    createdAt: TimeSchema,
  })
  .strict();
export type Injection = z.infer<typeof InjectionSchema>;

/** A question the running agent waits on a person for. */
export const PendingRequestSchema = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('confirmation'), requestId: RequestIdSchema, turnId: TurnIdSchema, action: StepActionSchema, reason: z.string() })
    .strict(),
  z.object({ kind: z.literal('question'), requestId: RequestIdSchema, turnId: TurnIdSchema, question: z.string() }).strict(),
]);
export type PendingRequest = z.infer<typeof PendingRequestSchema>;

export const RunSchema = z
  .object({
    sessionId: SessionIdSchema,
    turnId: TurnIdSchema,
    state: z.enum(RUN_STATES),
    task: z.string(),
    startedAt: z.number(),
    pending: z.array(PendingRequestSchema),
  })
  .strict();
export type Run = z.infer<typeof RunSchema>;

// ---- arguments ----------------------------------------------------------------------------------------

export const ListSessionsArgumentsSchema = z
  .object({
    /** Words that must appear in the title or a turn's request (case-insensitive). */
    query: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(500).default(50),
    offset: z.number().int().min(0).default(0),
  })
  .strict();

export const ListStepsArgumentsSchema = z
  .object({
    sessionId: SessionIdSchema,
    turnId: TurnIdSchema.optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();

export const GetImageArgumentsSchema = z
  .object({
    imageId: ImageIdSchema,
    /** Refuse (reason `too-large`) rather than return more bytes than this. */
    maxBytes: z.number().int().min(1).max(IMAGE_MAX_BYTES_LIMIT).default(DEFAULT_IMAGE_MAX_BYTES),
    /** Return a PNG scaled down to this width (never up), for lists and filmstrips. */
    thumbnailWidth: z.number().int().min(16).max(2048).optional(),
  })
  .strict();

/** The result of pinImage and unpinImage: whether the image is pinned now. */
export const PinStateSchema = z.object({ imageId: ImageIdSchema, pinned: z.boolean() }).strict();
export type PinState = z.infer<typeof PinStateSchema>;

export const GetMediaArgumentsSchema = z
  .object({
    mediaId: GeneratedMediaIdSchema,
    /** Refuse (reason `too-large`) rather than return more bytes than this. */
    maxBytes: z.number().int().min(1).max(IMAGE_MAX_BYTES_LIMIT).default(DEFAULT_IMAGE_MAX_BYTES),
  })
  .strict();

/** Context for this one request (see ephemeral.ts): passed to the agent, never stored, only its type and length recorded. */
export const EphemeralSchema = EphemeralContextSchema;
export type Ephemeral = EphemeralContext;

export const StartRunArgumentsSchema = z
  .object({
    /** Continue this session; a new one is created when absent. */
    sessionId: SessionIdSchema.optional(),
    task: z.string().trim().min(1, 'the task is empty').max(MAX_TASK_LENGTH),
    operator: z.enum(OPERATOR_KINDS).optional(),
    /** The page the browser operator opens first. */
    url: z.url({ protocol: /^(https?|file)$/ }).optional(),
    /** Extra context for this turn only (a note, a quote, a document); never stored, only its type and length. */
    ephemeral: EphemeralSchema.optional(),
    /**
     * Pictures for the model with this request (pictures.ts: PNG, JPEG, WebP or GIF, each at most
     * MAX_PICTURE_BYTES, at most MAX_PICTURES_PER_TASK). Checked before the turn begins; a bad one is an
     * invalid-arguments error naming it, and nothing is stored.
     */
    pictures: PictureAttachmentsSchema.optional(),
  })
  .strict();
export type StartRunArguments = z.input<typeof StartRunArgumentsSchema>;

/**
 * The API keys a person may give the desktop app: the OpenAI-compatible model provider's (model.apiKey),
 * Anthropic's for Claude models (model.anthropicApiKey) and Tavily's (web search).
 */
export const API_KEY_KINDS = ['model', 'anthropic', 'tavily'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];
/** Where a key in use comes from: config.json, an environment variable, or saved in the desktop app. */
export const API_KEY_SOURCES = ['config', 'environment', 'saved'] as const;
export type ApiKeySource = (typeof API_KEY_SOURCES)[number];
export const MAX_API_KEY_LENGTH = 1_000;

export const SaveApiKeyArgumentsSchema = z
  .object({
    kind: z.enum(API_KEY_KINDS),
    // Printable ASCII without spaces: a key travels in an HTTP header, and a space is a pasting slip. The
    // messages never quote the value.
    key: z
      .string()
      .trim()
      .min(1, 'the key is empty')
      .max(MAX_API_KEY_LENGTH, `the key is longer than ${MAX_API_KEY_LENGTH} characters`)
      .regex(/^[\x21-\x7e]+$/, 'the key may hold only printable characters without spaces'),
  })
  .strict();
export type SaveApiKeyArguments = z.input<typeof SaveApiKeyArgumentsSchema>;

export const AnswerConfirmationArgumentsSchema = z.object({ requestId: RequestIdSchema, approved: z.boolean() }).strict();
export const AnswerQuestionArgumentsSchema = z.object({ requestId: RequestIdSchema, answer: z.string().max(20_000) }).strict();

/** Whether a key is set and where it comes from; never the key itself. */
export const ApiKeyStatusSchema = z.object({ set: z.boolean(), source: z.enum(API_KEY_SOURCES).nullable() }).strict();

export const KeyStatusSchema = z
  .object({
    model: ApiKeyStatusSchema,
    anthropic: ApiKeyStatusSchema,
    tavily: ApiKeyStatusSchema,
    /** Whether saveApiKey can store a key here (the desktop app with a way to encrypt it). */
    canSave: z.boolean(),
    /** For the person: saved keys would be as good as plain text, or cannot be encrypted at all. */
    warning: z.string().optional(),
  })
  .strict();
export type KeyStatus = z.infer<typeof KeyStatusSchema>;

export const SaveApiKeyResultSchema = z.object({ saved: z.literal(true), warning: z.string().optional() }).strict();

/** exportReport: a session as one self-contained HTML file (issue 27), under a size cap in bytes. */
export const ExportReportArgumentsSchema = z
  .object({
    sessionId: SessionIdSchema,
    maxBytes: z.number().int().min(100 * 1024).max(REPORT_MAX_BYTES_LIMIT).default(REPORT_MAX_BYTES_DEFAULT),
  })
  .strict();

/** The file to save: a name to offer, the HTML itself, its size, and what the size cap gave up. */
export const ExportedReportSchema = z
  .object({
    fileName: z.string().regex(/^[A-Za-z0-9._-]+\.html$/),
    html: z.string().min(1),
    bytes: z.number().int().positive(),
    notices: z.array(z.string()),
  })
  .strict();
export type ExportedReport = z.infer<typeof ExportedReportSchema>;

// ---- the table ----------------------------------------------------------------------------------------

/** One call of the app API: arguments as a tuple schema (positional, like the preload method), and the result. */
export interface AppApiCall<Arguments extends z.ZodTuple = z.ZodTuple, Result extends z.ZodType = z.ZodType> {
  channel: string;
  arguments: Arguments;
  result: Result;
}

const RunIdentitySchema = z.object({ sessionId: SessionIdSchema, turnId: TurnIdSchema }).strict();
const RunStateResultSchema = z.object({ sessionId: SessionIdSchema, state: z.enum(RUN_STATES) }).strict();
const AnsweredSchema = z.object({ answered: z.boolean() }).strict();

export const APP_API = {
  appInfo: { channel: APP_API_CHANNELS.appInfo, arguments: z.tuple([]), result: AppInfoSchema },
  listSessions: {
    channel: APP_API_CHANNELS.listSessions,
    arguments: z.tuple([ListSessionsArgumentsSchema]),
    result: SessionListSchema,
  },
  getSession: { channel: APP_API_CHANNELS.getSession, arguments: z.tuple([SessionIdSchema]), result: SessionDetailSchema },
  deleteSession: {
    channel: APP_API_CHANNELS.deleteSession,
    arguments: z.tuple([SessionIdSchema]),
    result: z.object({ deleted: z.literal(true), imagesDeleted: z.number().int().min(0), filesDeleted: z.number().int().min(0) }).strict(),
  },
  /** A session as one self-contained HTML file to save or download (docs/reports.md). */
  exportReport: { channel: APP_API_CHANNELS.exportReport, arguments: z.tuple([ExportReportArgumentsSchema]), result: ExportedReportSchema },
  listSteps: { channel: APP_API_CHANNELS.listSteps, arguments: z.tuple([ListStepsArgumentsSchema]), result: StepPageSchema },
  getImage: { channel: APP_API_CHANNELS.getImage, arguments: z.tuple([GetImageArgumentsSchema]), result: ImageResultSchema },
  /** A person pins a screenshot: every later request of its session sends it whole. Only screenshots; idempotent. */
  pinImage: { channel: APP_API_CHANNELS.pinImage, arguments: z.tuple([ImageIdSchema]), result: PinStateSchema },
  /** Undoes pinImage; unpinning an image that is not pinned is not an error. */
  unpinImage: { channel: APP_API_CHANNELS.unpinImage, arguments: z.tuple([ImageIdSchema]), result: PinStateSchema },
  listMedia: { channel: APP_API_CHANNELS.listMedia, arguments: z.tuple([SessionIdSchema]), result: MediaListSchema },
  getMedia: { channel: APP_API_CHANNELS.getMedia, arguments: z.tuple([GetMediaArgumentsSchema]), result: MediaResultSchema },
  listSearchReports: {
    channel: APP_API_CHANNELS.listSearchReports,
    arguments: z.tuple([SessionIdSchema]),
    result: z.object({ reports: z.array(SearchReportSchema) }).strict(),
  },
  listInjections: {
    channel: APP_API_CHANNELS.listInjections,
    arguments: z.tuple([SessionIdSchema]),
    result: z.object({ injections: z.array(InjectionSchema) }).strict(),
  },
  listRuns: { channel: APP_API_CHANNELS.listRuns, arguments: z.tuple([]), result: z.object({ runs: z.array(RunSchema) }).strict() },
  startRun: { channel: APP_API_CHANNELS.startRun, arguments: z.tuple([StartRunArgumentsSchema]), result: RunIdentitySchema },
  stopRun: {
    channel: APP_API_CHANNELS.stopRun,
    arguments: z.tuple([SessionIdSchema]),
    result: z.object({ stopped: z.boolean() }).strict(),
  },
  pauseRun: { channel: APP_API_CHANNELS.pauseRun, arguments: z.tuple([SessionIdSchema]), result: RunStateResultSchema },
  resumeRun: { channel: APP_API_CHANNELS.resumeRun, arguments: z.tuple([SessionIdSchema]), result: RunStateResultSchema },
  answerConfirmation: {
    channel: APP_API_CHANNELS.answerConfirmation,
    arguments: z.tuple([AnswerConfirmationArgumentsSchema]),
    result: AnsweredSchema,
  },
  answerQuestion: {
    channel: APP_API_CHANNELS.answerQuestion,
    arguments: z.tuple([AnswerQuestionArgumentsSchema]),
    result: AnsweredSchema,
  },
  getKeyStatus: { channel: APP_API_CHANNELS.getKeyStatus, arguments: z.tuple([]), result: KeyStatusSchema },
  saveApiKey: { channel: APP_API_CHANNELS.saveApiKey, arguments: z.tuple([SaveApiKeyArgumentsSchema]), result: SaveApiKeyResultSchema },
  /** What the desktop operator needs from the OS (permissions.ts), checked afresh at each call. */
  permissionStatus: { channel: APP_API_CHANNELS.permissionStatus, arguments: z.tuple([]), result: PermissionStatusSchema },
  /** Opens the System Settings pane of a macOS permission; refused where there is none (other systems, the browser timeline). */
  openPermissionSettings: {
    channel: APP_API_CHANNELS.openPermissionSettings,
    arguments: z.tuple([z.enum(SETTINGS_PERMISSIONS, { error: `expected a permission: ${SETTINGS_PERMISSIONS.join(' or ')}` })]),
    result: OpenPermissionSettingsResultSchema,
  },
} as const satisfies { [Name in AppApiName]: AppApiCall };

type AppApi = typeof APP_API;

/** The arguments a call takes, as the renderer passes them. */
export type AppApiArguments<Name extends AppApiName> = z.input<AppApi[Name]['arguments']>;
/** The result a call resolves to, as the renderer receives it. */
export type AppApiResult<Name extends AppApiName> = z.output<AppApi[Name]['result']>;

// ---- live events ----------------------------------------------------------------------------------------

/** A run's state changed (started, paused, resumed, stopping, ended); the agent's own events say the rest. */
export const RunStateEventSchema = z
  .object({
    type: z.literal('run-state'),
    sessionId: SessionIdSchema,
    at: z.number(),
    turnId: TurnIdSchema.optional(),
    state: z.enum([...RUN_STATES, 'ended']),
  })
  .strict();

/** A run could not start or crashed outside a turn (the operator failed to open, the model is misconfigured). */
export const RunErrorEventSchema = z
  .object({ type: z.literal('run-error'), sessionId: SessionIdSchema.optional(), at: z.number(), message: z.string() })
  .strict();

/** The desktop app re-checked the OS permissions (its window regained the focus) and the answer changed. */
export const PermissionsEventSchema = z.object({ type: z.literal('permissions'), at: z.number(), status: PermissionStatusSchema }).strict();

/**
 * Sessions changed underneath the timeline without a run of its own: a team timeline (`--store`) pulled new rows
 * of these sessions from the team store, which workers on other machines write.
 */
export const StoreChangedEventSchema = z
  .object({ type: z.literal('store-changed'), at: z.number(), sessionIds: z.array(SessionIdSchema).max(10_000) })
  .strict();

/**
 * What the live stream carries: the agent's events of every run, plus the run manager's own, plus the desktop
 * app's permission changes, plus a team store's changes. No pixels, no secrets.
 */
export const AppEventSchema = z.union([AgentEventSchema, RunStateEventSchema, RunErrorEventSchema, PermissionsEventSchema, StoreChangedEventSchema]);
export type AppEvent = z.infer<typeof AppEventSchema>;

// ---- errors ---------------------------------------------------------------------------------------------

/**
 * Why a call failed, in a form both transports carry: over HTTP the status and a JSON body
 * `{error: {code, message}}`; over IPC the error message `[code] message`.
 */
export const APP_API_ERROR_CODES = ['invalid-arguments', 'not-found', 'conflict', 'unavailable', 'refused', 'internal'] as const;
export type AppApiErrorCode = (typeof APP_API_ERROR_CODES)[number];

export const AppApiErrorBodySchema = z
  .object({ error: z.object({ code: z.enum(APP_API_ERROR_CODES), message: z.string() }).strict() })
  .strict();

/** A failed call, as the main process throws it and the renderer's client rejects with it. */
export class AppApiError extends Error {
  override name = 'AppApiError';
  constructor(
    readonly code: AppApiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The IPC form of an error: Electron carries only the message across. */
export function encodeAppApiError(error: AppApiError): string {
  return `[${error.code}] ${error.message}`;
}

/** Reads an error that came over IPC (Electron prefixes "Error invoking remote method '…': Error: "). */
export function decodeAppApiError(message: string): AppApiError {
  const match = /\[([a-z-]+)\] ([\s\S]*)$/.exec(message);
  const code = APP_API_ERROR_CODES.find((known) => known === match?.[1]);
  return code && match ? new AppApiError(code, match[2] ?? '') : new AppApiError('internal', message);
}

// ---- the bridge -------------------------------------------------------------------------------------------

/** What the preload exposes as `window.sightline`: one method per call, plus the event subscription. */
export type SightlineBridge = {
  [Name in AppApiName]: (...callArguments: AppApiArguments<Name>) => Promise<AppApiResult<Name>>;
} & {
  /** Calls `listener` with every live event until the returned function is called. */
  onEvent(listener: (event: AppEvent) => void): () => void;
};
