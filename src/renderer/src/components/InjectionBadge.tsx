import type { ReactElement } from 'react';
import type { Injection } from '../../../shared/app-api.js';
import { formatTokens } from '../timeline/format.js';

/** An ephemeral injection into one request: its type and length only (the content was never stored). */
export function InjectionBadge({ injection }: { injection: Injection }): ReactElement {
  return (
    <span className="injection-badge" title={`A ${injection.type} attached to this request only: ${injection.contentLength} characters, not kept in history`}>
      <span className="injection-badge-type">{injection.type}</span>
      <span className="injection-badge-length">{formatTokens(injection.contentLength)} chars</span>
    </span>
  );
}
