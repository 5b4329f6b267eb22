/**
 * Media a model generated goes back to later requests as a line of text naming it, never as the media.
 *
 * Why every model, and not only one that cannot read the modality: generated media sits in an assistant
 * message, and none of the APIs Sightline speaks takes images or audio in the assistant role (Chat
 * Completions and Anthropic's Messages take text and calls; the Responses API takes output text). The
 * converters would drop it silently, so the model would not know it had produced anything. A text-only
 * model, or one that reads images but not audio, would otherwise meet media it cannot read at all. The
 * placeholder says what was produced and where the person can see it; its bytes stay in the blob store.
 *
 * The placeholder depends only on the stored part, so it renders to the same bytes in every request and
 * the prompt cache holds.
 */
import type { Message, MessagePart } from '../../shared/messages.js';
import type { MessageRecord } from '../storage/index.js';

/** The text that stands for one generated image or audio in a request. */
export function generatedMediaText(part: { type: 'image' | 'audio'; mediaId: string; mime?: string | undefined; width?: number | undefined; height?: number | undefined }): string {
  const size = part.width !== undefined && part.height !== undefined ? `, ${part.width}×${part.height}` : '';
  const noun = part.type === 'image' ? 'image' : 'audio';
  const where = part.type === 'image' ? 'shown to the user' : 'played to the user';
  return `[Generated ${noun} ${part.mediaId} (${part.mime ?? 'unknown type'}${size}): ${where} in the timeline; not sent back to the model]`;
}

/** A message with each generated media part replaced by its placeholder; others come back as they were. */
export function withGeneratedMediaNamed(message: Message): Message {
  if (message.role !== 'assistant' || !message.parts.some(isGeneratedMedia)) return message;
  return { ...message, parts: message.parts.map((part): MessagePart => (isGeneratedMedia(part) ? { type: 'text', text: generatedMediaText(part) } : part)) };
}

/** The records with their generated media named (see withGeneratedMediaNamed). */
export function nameGeneratedMediaInRecords(records: readonly MessageRecord[]): MessageRecord[] {
  return records.map((record) => {
    const message = withGeneratedMediaNamed(record.message);
    return message === record.message ? record : { ...record, message };
  });
}

function isGeneratedMedia(part: MessagePart): part is Extract<MessagePart, { type: 'image' | 'audio' }> & { mediaId: string } {
  return (part.type === 'image' || part.type === 'audio') && part.mediaId !== undefined;
}
