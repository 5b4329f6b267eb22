/**
 * The stop indicator's page: shows the state the main process sends (checked against its schema, as any
 * message crossing into the page is) and sends Stop when the button is pressed. No framework: it is one
 * line of text and a button, and it must paint at once.
 */
import { StopIndicatorStateSchema } from '../../../shared/stop-indicator.js';
import { indicatorText } from './indicator-text.js';
import './stop-indicator.css';

function element<Type extends HTMLElement>(id: string): Type {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`stop-indicator.html has no #${id}`);
  return found as Type;
}

const status = element<HTMLSpanElement>('stop-indicator-status');
const shortcut = element<HTMLSpanElement>('stop-indicator-shortcut');
const button = element<HTMLButtonElement>('stop-indicator-button');
const bridge = window.sightlineStopIndicator;

if (bridge === undefined) {
  status.textContent = 'The stop indicator runs only inside Sightline.';
  button.disabled = true;
} else {
  bridge.onState((received) => {
    const parsed = StopIndicatorStateSchema.safeParse(received);
    if (!parsed.success) return;
    const text = indicatorText(parsed.data);
    status.textContent = text.status;
    shortcut.textContent = text.shortcut;
    button.textContent = text.button;
    button.disabled = !text.buttonEnabled;
  });
  button.addEventListener('click', () => {
    button.disabled = true;
    bridge.stop().catch((error: unknown) => {
      status.textContent = `Could not stop: ${error instanceof Error ? error.message : String(error)}`;
      button.disabled = false;
    });
  });
}
