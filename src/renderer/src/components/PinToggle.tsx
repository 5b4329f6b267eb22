import { useEffect, useState, type ReactElement } from 'react';
import type { ImageSummary } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { pinControl } from '../timeline/step-presentation.js';

export interface PinToggleProps {
  screenshot: ImageSummary;
  /** Called once a pin or unpin is stored: the session is read again (what the next request sends changed). */
  onChanged: () => void;
}

/**
 * Pins a screenshot or unpins it (issue 16). A person's choice only: the model has no such tool. A purged
 * frame cannot be pinned (nothing is left to send); a failed call says why in the button's title.
 */
export function PinToggle({ screenshot, onChanged }: PinToggleProps): ReactElement {
  const client = useAppApi();
  const [pinned, setPinned] = useState(screenshot.pinned === true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPinned(screenshot.pinned === true), [screenshot.pinned]);

  const toggle = () => {
    if (client === null) return;
    setBusy(true);
    setError(null);
    const change = pinned ? client.unpinImage(screenshot.imageId) : client.pinImage(screenshot.imageId);
    change
      .then((state) => {
        setPinned(state.pinned);
        onChanged();
      })
      .catch((caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)))
      .finally(() => setBusy(false));
  };

  const words = pinControl(pinned);
  return (
    <button
      type="button"
      className={`pin-toggle ${pinned ? 'pin-toggle-on' : ''}`}
      aria-pressed={pinned}
      aria-label={`${words.label} ${screenshot.imageId}`}
      title={error ?? words.title}
      disabled={busy || client === null || screenshot.zone === 'purged'}
      onClick={toggle}
    >
      {words.label}
    </button>
  );
}
