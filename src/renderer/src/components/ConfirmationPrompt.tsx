import { useState, type ReactElement } from 'react';
import type { PendingRequest } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { approvalLabel } from '../timeline/step-presentation.js';

type Confirmation = Extract<PendingRequest, { kind: 'confirmation' }>;

/** The agent waits before a risky action: approve or refuse it here. Nothing runs until someone answers. */
export function ConfirmationPrompt({ request }: { request: Confirmation }): ReactElement {
  const client = useAppApi();
  const [state, setState] = useState<{ status: 'idle' | 'sending' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const answer = async (approved: boolean) => {
    if (client === null) return;
    setState({ status: 'sending' });
    try {
      const { answered } = await client.answerConfirmation({ requestId: request.requestId, approved });
      if (!answered) setState({ status: 'failed', message: 'The agent no longer waits on this: it was answered elsewhere or the run ended.' });
    } catch (error) {
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <section className="prompt prompt-confirmation" role="alertdialog" aria-label="Confirm a risky action">
      <div className="prompt-text">
        <p className="prompt-kicker">Approval needed</p>
        <p className="prompt-title">{approvalLabel(request.action)}</p>
        <p className="prompt-detail">{request.reason}</p>
        {state.status === 'failed' ? <p className="prompt-failure">{state.message}</p> : null}
      </div>
      <div className="prompt-actions">
        <button type="button" className="button" disabled={state.status === 'sending'} onClick={() => void answer(false)}>
          Refuse
        </button>
        <button type="button" className="button button-primary" disabled={state.status === 'sending'} onClick={() => void answer(true)}>
          Allow
        </button>
      </div>
    </section>
  );
}
