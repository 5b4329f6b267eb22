/**
 * Raw PCM in a WAV container. OpenAI streams generated audio as bare 16-bit PCM (the Chat Completions
 * adapter labels it `audio/L16;rate=24000;channels=1`); nothing can play bare samples, so before they are
 * stored they get the 44-byte RIFF header that makes them an `audio/wav` file a browser's player opens.
 */

const HEADER_BYTES = 44;
const BITS_PER_SAMPLE = 16;

export interface PcmFormat {
  sampleRate: number;
  channels: number;
}

/**
 * The format a raw 16-bit PCM mime type states (`audio/L16;rate=24000;channels=1`), or undefined for any
 * other type. RFC 2586's defaults fill what it leaves out (one channel); the rate is required.
 */
export function pcmFormatOf(mime: string): PcmFormat | undefined {
  const [type, ...parameters] = mime.split(';').map((piece) => piece.trim().toLowerCase());
  if (type !== 'audio/l16') return undefined;
  const values = new Map(parameters.map((parameter) => parameter.split('=') as [string, string | undefined]));
  const sampleRate = Number(values.get('rate'));
  const channels = Number(values.get('channels') ?? '1');
  if (!Number.isInteger(sampleRate) || sampleRate <= 0 || !Number.isInteger(channels) || channels <= 0) return undefined;
  return { sampleRate, channels };
}

/**
 * A WAV file holding `samples` as they are. OpenAI's pcm16 is little-endian, which is what WAV stores, so
 * the samples are copied unchanged.
 */
export function wavFromPcm(samples: Uint8Array, format: PcmFormat): Buffer {
  const blockAlign = format.channels * (BITS_PER_SAMPLE / 8);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(HEADER_BYTES - 8 + samples.byteLength, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.sampleRate, 24);
  header.writeUInt32LE(format.sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(BITS_PER_SAMPLE, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, samples]);
}
