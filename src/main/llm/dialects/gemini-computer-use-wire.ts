/**
 * The wire of the `gemini-computer-use` dialect: nothing to change. Gemini's computer_use is a tool of the Gemini
 * API itself, so its calls come back as function calls named by Gemini's predefined functions, which the Gemini
 * adapter reads as ordinary tool calls, and its results go back as function responses; the adapter declares the
 * tool from the registry's native declaration.
 */
import type { DialectWire } from './dialect-wire.js';

export const GEMINI_COMPUTER_USE_WIRE: DialectWire = {
  dialect: 'gemini-computer-use',
  encodeRequest: (request) => request,
  decodeReply: (reply) => reply,
};
