/**
 * The wire half of the `openai-computer` dialect. OpenAI's computer tool is part of the Responses API
 * itself, so the Responses adapter speaks it: it declares the tool natively (ModelToolDeclaration.native),
 * reads `computer_call` items as calls of it, and sends them and their screenshots back as `computer_call`
 * and `computer_call_output` items with the reasoning that preceded them. Around the adapter there is
 * nothing left to change: requests and answers pass through as they are.
 */
import type { DialectWire } from './dialect-wire.js';

export const OPENAI_COMPUTER_WIRE: DialectWire = {
  dialect: 'openai-computer',
  encodeRequest: (request) => request,
  decodeReply: (reply) => reply,
};
