import { useState, type FormEvent, type ReactElement } from 'react';
import type { PendingRequest } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';

type Question = Extract<PendingRequest, { kind: 'question' }>;

/** The agent asked the user something (ask_user) and waits for the answer typed here. */
export function QuestionPrompt({ request }: { request: Question }): ReactElement {
  const client = useAppApi();
  const [answer, setAnswer] = useState('');
  const [state, setState] = useState<{ status: 'idle' | 'sending' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (client === null || answer.trim() === '') return;
    setState({ status: 'sending' });
    try {
      const { answered } = await client.answerQuestion({ requestId: request.requestId, answer: answer.trim() });
      if (!answered) setState({ status: 'failed', message: 'The agent no longer waits on this: it was answered elsewhere or the run ended.' });
    } catch (error) {
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <form className="prompt prompt-question" aria-label="Answer the agent's question" onSubmit={(event) => void submit(event)}>
      <div className="prompt-text">
        <p className="prompt-kicker">The agent asks</p>
        <p className="prompt-title">{request.question}</p>
        <input
          className="text-input"
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
          placeholder="Your answer"
          aria-label="Your answer"
          maxLength={20_000}
        />
        {state.status === 'failed' ? <p className="prompt-failure">{state.message}</p> : null}
      </div>
      <div className="prompt-actions">
        <button type="submit" className="button button-primary" disabled={state.status === 'sending' || answer.trim() === ''}>
          Answer
        </button>
      </div>
    </form>
  );
}
