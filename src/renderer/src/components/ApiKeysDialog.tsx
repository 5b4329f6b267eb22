import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { API_KEY_KINDS, MAX_API_KEY_LENGTH, type ApiKeyKind, type KeyStatus } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useFocusTrap } from '../hooks/use-focus-trap.js';

const KEY_LABELS: Record<ApiKeyKind, string> = { model: 'Model provider', anthropic: 'Anthropic (Claude)', tavily: 'Tavily (web search)' };
/** How each provider's keys begin, as a hint in the empty field. */
const KEY_PLACEHOLDERS: Record<ApiKeyKind, string> = { model: 'sk-…', anthropic: 'sk-ant-…', tavily: 'tvly-…' };
const SOURCE_LABELS = { config: 'Set in config.json', environment: 'Set in the environment', saved: 'Saved in Sightline' } as const;

/** What the dialog knows: the status once loaded, and how the last save went. */
export type ApiKeysLoaded = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; keys: KeyStatus };
export type ApiKeySaving = { status: 'idle' } | { status: 'saving' } | { status: 'saved'; kind: ApiKeyKind; warning?: string | undefined } | { status: 'failed'; message: string };

export interface ApiKeysDialogProps {
  onClose: () => void;
}

/**
 * The API keys dialog: which keys are set and where from, and, in the desktop app, a way to save one. The
 * key typed here goes to the main process once and never comes back: the status says only whether it is set.
 */
export function ApiKeysDialog({ onClose }: ApiKeysDialogProps): ReactElement {
  const client = useAppApi();
  const [loaded, setLoaded] = useState<ApiKeysLoaded>({ status: 'loading' });
  const [saving, setSaving] = useState<ApiKeySaving>({ status: 'idle' });
  const dialog = useRef<HTMLDivElement | null>(null);
  useFocusTrap(dialog);

  const refresh = useCallback(() => {
    if (client === null) return;
    client.getKeyStatus().then(
      (keys) => setLoaded({ status: 'ready', keys }),
      (error: unknown) => setLoaded({ status: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [client]);

  useEffect(() => {
    refresh();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [refresh, onClose]);

  const save = async (kind: ApiKeyKind, key: string): Promise<boolean> => {
    if (client === null) return false;
    setSaving({ status: 'saving' });
    try {
      const result = await client.saveApiKey({ kind, key });
      setSaving({ status: 'saved', kind, warning: result.warning });
      refresh();
      return true;
    } catch (error) {
      setSaving({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      return false;
    }
  };

  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        ref={dialog}
        className="dialog api-keys"
        role="dialog"
        aria-modal="true"
        aria-labelledby="api-keys-title"
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
      >
        <ApiKeysView loaded={loaded} saving={saving} inBrowser={client?.transport === 'http'} onSave={save} onClose={onClose} />
      </div>
    </div>
  );
}

export interface ApiKeysViewProps {
  loaded: ApiKeysLoaded;
  saving: ApiKeySaving;
  /** Opened by `sightline timeline` in a browser, where keys cannot be saved. */
  inBrowser: boolean;
  /** Resolves true when the key was saved (the field is then cleared). */
  onSave: (kind: ApiKeyKind, key: string) => Promise<boolean>;
  onClose: () => void;
}

/** The dialog's content for a given state (rendered on its own in tests). */
export function ApiKeysView({ loaded, saving, inBrowser, onSave, onClose }: ApiKeysViewProps): ReactElement {
  const [kind, setKind] = useState<ApiKeyKind>('model');
  const [key, setKey] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onSave(kind, key)) setKey('');
  };

  const keys = loaded.status === 'ready' ? loaded.keys : undefined;
  return (
    <>
      <h2 id="api-keys-title" className="dialog-title">
        API keys
      </h2>
      {loaded.status === 'loading' ? <p className="api-keys-note">Loading…</p> : null}
      {loaded.status === 'failed' ? (
        <p className="form-failure" role="alert">
          {loaded.message}
        </p>
      ) : null}
      {keys === undefined ? null : (
        <ul className="api-key-list">
          {API_KEY_KINDS.map((name) => (
            <li key={name} className="api-key-row">
              <span className="api-key-name">{KEY_LABELS[name]}</span>
              <span className={keys[name].source === null ? 'badge' : 'badge badge-ok'}>
                {keys[name].source === null ? 'Not set' : SOURCE_LABELS[keys[name].source]}
              </span>
            </li>
          ))}
        </ul>
      )}
      {keys?.warning === undefined ? null : (
        <p className="form-warning" role="note">
          {keys.warning}
        </p>
      )}
      {inBrowser ? (
        <p className="api-keys-note">
          Keys are saved in the Sightline desktop app. Here, set them in config.json, or with OPENAI_API_KEY / ANTHROPIC_API_KEY /
          TAVILY_API_KEY in the environment, and restart sightline timeline.
        </p>
      ) : null}
      {keys?.canSave === true ? (
        <form className="api-key-form" onSubmit={(event) => void submit(event)}>
          <div className="segmented" role="radiogroup" aria-label="Which key">
            {API_KEY_KINDS.map((name) => (
              <button key={name} type="button" role="radio" aria-checked={kind === name} className={kind === name ? 'selected' : ''} onClick={() => setKind(name)}>
                {KEY_LABELS[name]}
              </button>
            ))}
          </div>
          <label className="field">
            <span className="field-label">New key</span>
            <input
              className="text-input"
              type="password"
              name="api-key"
              autoComplete="off"
              spellCheck={false}
              maxLength={MAX_API_KEY_LENGTH}
              value={key}
              onChange={(event) => setKey(event.target.value)}
              placeholder={KEY_PLACEHOLDERS[kind]}
            />
          </label>
          <p className="api-keys-note">Encrypted with the system keychain (Electron safeStorage); used from the next run on.</p>
          <div className="dialog-actions">
            <button type="submit" className="button button-primary" disabled={key.trim() === '' || saving.status === 'saving'}>
              {saving.status === 'saving' ? 'Saving…' : 'Save key'}
            </button>
          </div>
        </form>
      ) : null}
      {saving.status === 'saved' ? (
        <p className="api-keys-note" role="status">
          {KEY_LABELS[saving.kind]} key saved; the next run uses it.
        </p>
      ) : null}
      {saving.status === 'saved' && saving.warning !== undefined ? (
        <p className="form-warning" role="note">
          {saving.warning}
        </p>
      ) : null}
      {saving.status === 'failed' ? (
        <p className="form-failure" role="alert">
          {saving.message}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}
