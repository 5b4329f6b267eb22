/**
 * The wire of the `anthropic-computer` dialect: nothing to change. Claude's computer tool is a native tool
 * of Anthropic's Messages API, so its calls come back as tool_use blocks, which the Anthropic adapter reads
 * as ordinary tool calls, and its results go back as tool_result blocks; the adapter declares the tool from
 * the registry's native declaration.
 */
import type { DialectWire } from './dialect-wire.js';

export const ANTHROPIC_COMPUTER_WIRE: DialectWire = {
  dialect: 'anthropic-computer',
  encodeRequest: (request) => request,
  decodeReply: (reply) => reply,
};
