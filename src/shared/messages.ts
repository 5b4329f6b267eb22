/**
 * Provider-neutral conversation messages. A message's content is a list of parts (text, image, audio,
 * file), and tool results use the same parts, so a tool can return a screenshot. The model adapters in
 * src/main/llm translate these to each provider's wire format; nothing else knows provider shapes.
 *
 * Image parts have two lives. In storage they hold only an `imageId` (pixels live in the blob store or
 * cold storage, never base64 in the database); when a request is built, the context layer resolves the id
 * and fills in `data` (or `url`). The same type says both, and `imageHasPixels` tells them apart.
 *
 * Only the outermost entry points (CLI, app API) accept a plain string; they convert it with `userText`.
 */
import { z } from 'zod';

export const TextPartSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
  /**
   * Gemini's opaque thought signature on this part of a model reply, kept so the part goes back as the model
   * wrote it (https://ai.google.dev/gemini-api/docs/thought-signatures). Set only in assistant messages.
   */
  thoughtSignature: z.string().min(1).optional(),
});

export const ImagePartSchema = z
  .object({
    type: z.literal('image'),
    /** Our id (`img_…`) when the image is in the store; what placeholders and recall tools refer to. */
    imageId: z.string().min(1).optional(),
    /**
     * An image a model generated, once stored: `med_<sha256>` (shared/generated-media.ts). Set only in
     * assistant messages; the request builder turns such a part into a text placeholder.
     */
    mediaId: z.string().min(1).optional(),
    /** e.g. `image/png`. Needed whenever `data` is present. */
    mime: z.string().min(1).optional(),
    /** Base64 pixels, without a `data:` prefix. */
    data: z.string().min(1).optional(),
    /** An http(s) or data URL the provider can fetch itself. */
    url: z.string().min(1).optional(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    /**
     * `reduced`: a reduced view of the image, a small copy of a frame the model saw in full before (the
     * running turn's recent screens; ARCHITECTURE.md, "Zones"). Provider-neutral: each adapter says it the
     * way its provider can (OpenAI's `detail: "low"`); the copy is already downscaled for the others.
     * Absent: the image at the size sent (full detail). Never stored: only a request's planning sets it.
     */
    resolution: z.literal('reduced').optional(),
  })
  .refine((part) => part.imageId !== undefined || part.mediaId !== undefined || part.data !== undefined || part.url !== undefined, {
    message: 'An image part needs an imageId, a mediaId, base64 data or a URL',
  })
  .refine((part) => part.data === undefined || part.mime !== undefined, {
    message: 'An image part with base64 data needs its mime type',
  });

export const AudioPartSchema = z
  .object({
    type: z.literal('audio'),
    /** e.g. `audio/wav`, `audio/mpeg`. */
    mime: z.string().min(1),
    /** Base64 bytes. */
    data: z.string().min(1).optional(),
    /** Audio a model generated, once stored: `med_<sha256>`, like a generated image's `mediaId`. */
    mediaId: z.string().min(1).optional(),
  })
  .refine((part) => part.data !== undefined || part.mediaId !== undefined, {
    message: 'An audio part needs base64 data or a mediaId',
  });

export const FilePartSchema = z.object({
  type: z.literal('file'),
  name: z.string().min(1),
  mime: z.string().min(1),
  /** Base64 bytes. */
  data: z.string().min(1),
});

export const MessagePartSchema = z.discriminatedUnion('type', [
  TextPartSchema,
  ImagePartSchema,
  AudioPartSchema,
  FilePartSchema,
]);

export type TextPart = z.infer<typeof TextPartSchema>;
export type ImagePart = z.infer<typeof ImagePartSchema>;
export type AudioPart = z.infer<typeof AudioPartSchema>;
export type FilePart = z.infer<typeof FilePartSchema>;
export type MessagePart = z.infer<typeof MessagePartSchema>;

/**
 * A reasoning item of OpenAI's Responses API, as the API requires it back: requests are stateless
 * (`store: false`), so the item travels in full, its reasoning encrypted by OpenAI (never readable here).
 */
export const ResponsesReasoningItemSchema = z.object({
  id: z.string().min(1),
  /** OpenAI's encrypted reasoning (`include: ['reasoning.encrypted_content']`); an item without it cannot go back. */
  encryptedContent: z.string().min(1),
  /** The reasoning summary's texts, as the model wrote them. */
  summary: z.array(z.string()),
});
export type ResponsesReasoningItem = z.infer<typeof ResponsesReasoningItemSchema>;

/** Most reasoning items kept before one call: a model emits one or two; more is junk not worth storing. */
export const MAX_REASONING_ITEMS_PER_CALL = 8;

/**
 * What a provider needs back with a call, as it gave it: small ids and the provider's own opaque data,
 * never pixels. Today OpenAI's Responses API: the output item's id (a computer call's `cu_…`) and the
 * reasoning items that came just before the call, which go back in the next request right before it.
 */
/**
 * A thinking block of Anthropic's Messages API (`thinking` with its `signature`, or `redacted_thinking` with its
 * encrypted `data`), exactly as the API returned it: in a tool loop the API refuses a request whose last assistant
 * turn does not carry its thinking blocks back unmodified and in order
 * (https://platform.claude.com/docs/en/build-with-claude/extended-thinking#preserving-thinking-blocks).
 */
export const AnthropicThinkingBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
]);
export type AnthropicThinkingBlock = z.infer<typeof AnthropicThinkingBlockSchema>;

/** Most thinking blocks kept before one call: a reply has a few; more is junk not worth storing. */
export const MAX_THINKING_BLOCKS_PER_CALL = 32;

export const ToolCallProviderDataSchema = z.object({
  itemId: z.string().min(1).optional(),
  /**
   * Anthropic's client toolsets: the toolset a member call belongs to (`toolset_name`, `computer` for the computer
   * toolset), which the call and its result must carry back.
   */
  toolsetName: z.string().min(1).optional(),
  /** Anthropic's thinking blocks that came before this call in the reply (after the call before it), as returned. */
  anthropicThinking: z.array(AnthropicThinkingBlockSchema).max(MAX_THINKING_BLOCKS_PER_CALL).optional(),
  reasoning: z.array(ResponsesReasoningItemSchema).max(MAX_REASONING_ITEMS_PER_CALL).optional(),
  /** Gemini's thought signature on the function call part, which the Gemini API requires back with the call. */
  thoughtSignature: z.string().min(1).optional(),
});
export type ToolCallProviderData = z.infer<typeof ToolCallProviderDataSchema>;

/** A safety check OpenAI's computer tool attached to a call (`pending_safety_checks`), as OpenAI wrote it. */
export const SafetyCheckSchema = z.object({
  id: z.string().min(1),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type SafetyCheck = z.infer<typeof SafetyCheckSchema>;

/**
 * What a provider needs back with a tool's result beyond its parts. Today OpenAI's computer tool: the
 * safety checks a person acknowledged before the call ran (`acknowledged_safety_checks`), and the browser
 * page's URL after it (`current_url`, which OpenAI's own checks read).
 */
export const ToolResultProviderDataSchema = z.object({
  acknowledgedSafetyChecks: z.array(SafetyCheckSchema).optional(),
  currentUrl: z.string().optional(),
  /** Gemini's `safety_decision` asked for a confirmation and a person gave it: the response acknowledges it. */
  safetyAcknowledged: z.boolean().optional(),
});
export type ToolResultProviderData = z.infer<typeof ToolResultProviderDataSchema>;

export const ToolCallSchema = z.object({
  /** The provider's call id; the tool message that answers it carries the same id. */
  id: z.string().min(1),
  name: z.string().min(1),
  /**
   * The arguments exactly as the model wrote them. Kept raw (not parsed) so that malformed JSON can be
   * reported back to the model, which then corrects itself.
   */
  argumentsText: z.string(),
  /**
   * Set by a dialect when the model's native answer could not be read as a call (a broken grammar, an
   * unknown action): what was wrong. The call is answered as malformed with this text and never runs.
   */
  invalid: z.string().optional(),
  /**
   * The call was written in the reply's text (a UI-TARS action, Qwen's `<tool_call>` text), not as the
   * provider's tool call; the dialect sends it and its result back the same way.
   */
  inText: z.boolean().optional(),
  /** What the provider needs back with the call (see ToolCallProviderDataSchema). */
  providerData: ToolCallProviderDataSchema.optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const SystemMessageSchema = z.object({
  role: z.literal('system'),
  parts: z.array(TextPartSchema),
});

export const UserMessageSchema = z.object({
  role: z.literal('user'),
  parts: z.array(MessagePartSchema),
});

export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  /** Text, and media the model generated (image or audio out, where its profile allows). */
  parts: z.array(MessagePartSchema),
  toolCalls: z.array(ToolCallSchema),
});

export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  toolCallId: z.string().min(1),
  /** The tool's name, repeated here so a history can be read (and rendered) without its assistant message. */
  name: z.string().min(1),
  parts: z.array(MessagePartSchema),
  /** The tool failed; its parts explain why. */
  isError: z.boolean().optional(),
  /** What the provider needs back with the result beyond its parts (see ToolResultProviderDataSchema). */
  providerData: ToolResultProviderDataSchema.optional(),
});

export const MessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

export type SystemMessage = z.infer<typeof SystemMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type MessageRole = Message['role'];
/** Every role, for the database's role column (its CHECK constraint names the same four). */
export const MESSAGE_ROLES = ['system', 'user', 'assistant', 'tool'] as const satisfies readonly MessageRole[];

/** The one place a plain string becomes a message: for the CLI and app API entry points. */
export function userText(text: string): UserMessage {
  return { role: 'user', parts: [{ type: 'text', text }] };
}

export function systemText(text: string): SystemMessage {
  return { role: 'system', parts: [{ type: 'text', text }] };
}

/** Whether an image part carries pixels (data or URL) rather than only a stored id. */
export function imageHasPixels(part: ImagePart): boolean {
  return part.data !== undefined || part.url !== undefined;
}

/** All the text parts of a list, joined with blank lines: what a text-only view of the parts says. */
export function textOfParts(parts: readonly MessagePart[]): string {
  return parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n\n');
}
