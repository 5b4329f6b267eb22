/** File extensions for the image and audio types Sightline stores; anything else is kept as opaque `.bin`. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
};

export function extensionForMime(mime: string): string {
  return EXTENSIONS[mime.trim().toLowerCase()] ?? 'bin';
}
