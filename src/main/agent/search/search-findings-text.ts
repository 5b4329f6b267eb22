/**
 * What the main agent reads of a web search: the answer, how sure the research is, and where it comes
 * from. Short on purpose: the sub-agent's pages and queries stay out of the main context.
 */
import type { SearchFindings } from './search-sub-agent.js';

export function searchFindingsText(findings: SearchFindings, confidenceThreshold: number): string {
  const searches = `${findings.iterations} ${findings.iterations === 1 ? 'search' : 'searches'}`;
  const lines: string[] = [];
  if (findings.outcome === 'nothing-found') {
    lines.push(`Web search found nothing for "${findings.question}" (${searches}). Do not rely on the web for this; use what is on the screen or ask the user.`);
    return lines.join('\n');
  }
  if (findings.outcome === 'confident') {
    lines.push(`Answer (confidence ${findings.confidence.toFixed(2)}): ${findings.answer}`);
  } else {
    lines.push(
      `Web search did not reach a confident answer after ${searches} (confidence ${findings.confidence.toFixed(2)}, ` +
        `wanted ${confidenceThreshold}). Best answer found, treat with care: ${findings.answer}`,
    );
  }
  if (findings.sources.length > 0) {
    lines.push('Sources:');
    for (const source of findings.sources) lines.push(`- ${source.title} — ${source.url}`);
  } else {
    lines.push('Sources: none cited.');
  }
  return lines.join('\n');
}
