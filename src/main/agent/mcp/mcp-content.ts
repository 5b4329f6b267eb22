/**
 * What an MCP tool returned, as our message parts. Text stays text. Images are stored in the image store
 * (source 'tool') and referred to by id, like every other image: messages never hold pixels, the timeline
 * shows them, and the model can recall or crop them later by that id. What a model cannot take as a tool
 * result (audio, binary resources) is described in a line of text instead of dropped silently.
 */
import type { MessagePart } from '../../../shared/messages.js';
import { decodeImageBytes } from '../../perception/image-encoding.js';
import type { ToolCallScope } from '../tools/tool-definition.js';

/** The content blocks of an MCP CallToolResult, as the SDK's schema types them (kept loose on purpose). */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; description?: string | undefined }
  | { type: 'resource'; resource: { uri: string; mimeType?: string | undefined; text?: string; blob?: string } }
  | { type: string; [field: string]: unknown };

export interface McpToolOutput {
  content?: readonly McpContentBlock[];
  structuredContent?: Record<string, unknown> | undefined;
}

export async function partsFromMcpResult(output: McpToolOutput, toolName: string, scope: ToolCallScope): Promise<MessagePart[]> {
  const parts: MessagePart[] = [];
  for (const block of output.content ?? []) parts.push(...(await partsOfBlock(block, toolName, scope)));
  // A tool that answers with structured content only still says something the model can read.
  if (parts.length === 0 && output.structuredContent !== undefined) {
    parts.push({ type: 'text', text: JSON.stringify(output.structuredContent) });
  }
  if (parts.length === 0) parts.push({ type: 'text', text: '(the tool returned no content)' });
  return parts;
}

async function partsOfBlock(block: McpContentBlock, toolName: string, scope: ToolCallScope): Promise<MessagePart[]> {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: String(block.text) }];
    case 'image':
      return storedImage(String(block.data), String(block.mimeType), toolName, scope);
    case 'audio':
      return [{ type: 'text', text: `(the tool returned ${String(block.mimeType)} audio, which is not passed on)` }];
    case 'resource_link':
      return [{ type: 'text', text: `Resource: ${String(block.name)} <${String(block.uri)}>` }];
    case 'resource': {
      const resource = block.resource as { uri: string; mimeType?: string; text?: string };
      if (typeof resource.text === 'string') return [{ type: 'text', text: `Resource <${resource.uri}>:\n${resource.text}` }];
      return [{ type: 'text', text: `(the tool returned a binary resource <${resource.uri}>${resource.mimeType ? ` of type ${resource.mimeType}` : ''}, which is not passed on)` }];
    }
    default:
      return [{ type: 'text', text: `(the tool returned content of type "${block.type}", which is not passed on)` }];
  }
}

async function storedImage(data: string, mime: string, toolName: string, scope: ToolCallScope): Promise<MessagePart[]> {
  const bytes = Buffer.from(data, 'base64');
  let size: { width: number; height: number };
  try {
    size = await decodeImageBytes(bytes);
  } catch {
    return [{ type: 'text', text: `(the tool returned an image of type ${mime} that could not be read)` }];
  }
  const record = await scope.storage.images.put({
    sessionId: scope.sessionId,
    turnId: scope.turnId,
    bytes,
    mime,
    width: size.width,
    height: size.height,
    source: 'tool',
    caption: `returned by ${toolName}`,
  });
  return [{ type: 'image', imageId: record.id }];
}
