import type { ReactElement } from 'react';
import { imageSavings, savingsPercent, SAVINGS_BASIS } from '../../../shared/image-savings.js';
import { formatTokens } from '../timeline/format.js';

export interface TokenMeterProps {
  /** Input tokens the model calls reported; the builder's `sent` estimate stands in where none was reported. */
  input?: number | null;
  sent: number | null;
  keepEverything: number | null;
  /** `compact` for a step row; the full meter states both numbers in words. */
  size?: 'compact' | 'full';
}

/**
 * What the input cost against keeping every image whole: a bar of the kept-whole input with the part
 * actually taken filled in, and the share saved, computed by the one function the demo, `sessions show` and
 * the report use (shared/image-savings.ts). Drawn in SVG, so its width is an attribute, not a style.
 */
export function TokenMeter({ input, sent, keepEverything, size = 'full' }: TokenMeterProps): ReactElement | null {
  // Null without token reports (sent or keepEverything null): nothing to meter.
  const savings = imageSavings({ input: input ?? sent ?? 0, sent, keepEverything });
  if (savings === null) return null;
  const filled = savings.keptWhole <= 0 ? 100 : Math.max(1, Math.min(100, (savings.input / savings.keptWhole) * 100));
  const label = `${formatTokens(savings.input)} input tokens, ${formatTokens(savings.keptWhole)} with every image kept whole: ${savingsPercent(savings)} saved ${SAVINGS_BASIS}`;
  return (
    <span className={`token-meter token-meter-${size}`} title={label} aria-label={label} role="img">
      <svg className="token-meter-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
        <rect className="token-meter-track" x="0" y="0" width="100" height="6" rx="3" />
        <rect className="token-meter-fill" x="0" y="0" width={filled} height="6" rx="3" />
      </svg>
      {size === 'full' ? (
        <span className="token-meter-text">
          <strong>{formatTokens(savings.input)}</strong> in · {formatTokens(savings.keptWhole)} with every image kept whole
          <span className="token-meter-saved"> · {savingsPercent(savings)} saved</span>
        </span>
      ) : (
        <span className="token-meter-text">
          {formatTokens(savings.input)} / {formatTokens(savings.keptWhole)} tokens
        </span>
      )}
    </span>
  );
}
