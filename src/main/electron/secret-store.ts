/**
 * API keys kept by the desktop app, encrypted with Electron's safeStorage (the OS keychain on macOS, DPAPI on
 * Windows, the Secret Service or KWallet on Linux) in a file of the home folder readable by the user alone.
 * On Linux without a keyring, safeStorage falls back to a hard-coded password ('basic_text'): the keys are
 * then as good as plain text, and the user is told so. Keys are never logged and never sent to the renderer.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SECRET_FIELD_PATHS, type SecretFieldPath } from '../../shared/config.js';
import type { ApiKeySecrets } from '../api/api-keys.js';

/** The part of Electron's safeStorage used here (a fake in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

export const SECRET_FILE_NAME = 'secrets.json';

const SecretFileSchema = z
  .object({ version: z.literal(1), secrets: z.partialRecord(z.enum(SECRET_FIELD_PATHS), z.string()) })
  .strict();

export class SecretStoreError extends Error {
  override name = 'SecretStoreError';
}

/** The desktop app's ApiKeySecrets: what the app API's getKeyStatus and saveApiKey use. */
export class SecretStore implements ApiKeySecrets {
  private readonly file: string;

  constructor(
    homeRoot: string,
    private readonly safeStorage: SafeStorageLike,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    this.file = join(homeRoot, SECRET_FILE_NAME);
  }

  canSave(): boolean {
    return this.safeStorage.isEncryptionAvailable();
  }

  /** A sentence for the user when the keys are only obfuscated, not encrypted; undefined when they are safe. */
  weakEncryptionWarning(): string | undefined {
    if (this.platform !== 'linux') return undefined;
    if (this.safeStorage.getSelectedStorageBackend?.() !== 'basic_text') return undefined;
    return 'No keyring (Secret Service or KWallet) was found: API keys saved by Sightline are protected only by a fixed password, as good as plain text. Install and unlock a keyring, or set the keys in the environment instead.';
  }

  save(path: SecretFieldPath, value: string): void {
    if (!this.canSave()) {
      throw new SecretStoreError('This system offers no way to encrypt the key; set it in the environment instead.');
    }
    const secrets = { ...this.readFile(), [path]: this.safeStorage.encryptString(value).toString('base64') };
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: 1, secrets }), { mode: 0o600 });
    renameSync(temporary, this.file);
    if (this.platform !== 'win32') chmodSync(this.file, 0o600);
  }

  /** Every stored key, decrypted. A key that cannot be decrypted (another user, another machine) is skipped. */
  load(): Partial<Record<SecretFieldPath, string>> {
    if (!this.safeStorage.isEncryptionAvailable()) return {};
    const loaded: Partial<Record<SecretFieldPath, string>> = {};
    for (const [path, encrypted] of Object.entries(this.readFile()) as Array<[SecretFieldPath, string]>) {
      try {
        loaded[path] = this.safeStorage.decryptString(Buffer.from(encrypted, 'base64'));
      } catch {
        console.error(`Sightline could not decrypt the stored ${path}; set it again.`);
      }
    }
    return loaded;
  }

  private readFile(): Partial<Record<SecretFieldPath, string>> {
    if (!existsSync(this.file)) return {};
    const parsed = SecretFileSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
    if (!parsed.success) throw new SecretStoreError(`${this.file} is damaged; delete it and save the keys again.`);
    return parsed.data.secrets;
  }
}
