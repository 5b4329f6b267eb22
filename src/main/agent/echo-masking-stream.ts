/**
 * The model's streamed words with what the session typed into password fields masked, though a password
 * may arrive split across two pieces ("hun", "ter2"): the end of what has arrived that could still be the
 * start of a password is held back until the next piece (or the end of the reply) says whether it is.
 */
import { typedMasker } from './password-masking.js';

export class EchoMaskingStream {
  private held = '';
  private readonly mask: (text: string) => string;

  /** `typed`: the passwords findable in free text (typed-passwords.ts); none lets every piece through as it is. */
  constructor(private readonly typed: readonly string[]) {
    this.mask = typedMasker(typed);
  }

  /** What of the text so far can be shown now; '' when all of it is held back. */
  push(text: string): string {
    if (this.typed.length === 0) return text;
    const masked = this.mask(this.held + text);
    const kept = this.longestPasswordStartAtEnd(masked);
    this.held = masked.slice(masked.length - kept);
    return masked.slice(0, masked.length - kept);
  }

  /** What is still held back, once the reply has ended: it can no longer become a password. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }

  /** The length of the longest end of `text` that a password begins with (shorter than the password). */
  private longestPasswordStartAtEnd(text: string): number {
    let longest = 0;
    for (const password of this.typed) {
      for (let length = Math.min(password.length - 1, text.length); length > longest; length -= 1) {
        if (text.endsWith(password.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
