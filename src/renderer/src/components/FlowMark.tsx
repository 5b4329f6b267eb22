import type { ReactElement } from 'react';

/** Marks a session a flow ran: a small "flow" badge and the flow's name (set as text: it comes from a file). */
export function FlowMark({ name, className }: { name: string; className?: string }): ReactElement {
  return (
    <span className={`flow-mark${className === undefined ? '' : ` ${className}`}`} title={`Ran by the flow ${name}`}>
      <span className="flow-badge">flow</span>
      <span className="flow-name">{name}</span>
    </span>
  );
}
