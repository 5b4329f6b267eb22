import type { ReactElement } from 'react';
import type { SearchReport } from '../../../shared/app-api.js';
import { formatDuration, formatPercent, plural } from '../timeline/format.js';

interface Source {
  title: string;
  url: string;
}

/** Sources are stored as the search layer wrote them; those with a url are shown as links. */
function sourcesOf(report: SearchReport): Source[] {
  return report.sources.flatMap((source) => {
    if (typeof source !== 'object' || source === null || Array.isArray(source)) return [];
    const url = source['url'];
    const title = source['title'];
    if (typeof url !== 'string') return [];
    return [{ url, title: typeof title === 'string' && title.trim() !== '' ? title : hostOf(url) }];
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What the search sub-agent found: the question, its answer, confidence and sources. */
export function SearchReportCard({ report }: { report: SearchReport }): ReactElement {
  const sources = sourcesOf(report);
  return (
    <article className="search-report" aria-label={`Search report: ${report.question}`}>
      <header className="search-report-header">
        <span className="search-report-kind">Search sub-agent</span>
        <span className="search-report-question" title={report.question}>
          {report.question}
        </span>
        {report.confidence !== null ? <span className="search-report-confidence">{formatPercent(report.confidence)} confident</span> : null}
      </header>
      <p className="search-report-answer" title={report.answer}>
        {report.answer}
      </p>
      <footer className="search-report-footer">
        <span className="search-report-meta">
          {plural(sources.length, 'source')}
          {report.iterations > 0 ? ` · ${plural(report.iterations, 'round')}` : ''}
          {report.durationMs !== null ? ` · ${formatDuration(report.durationMs)}` : ''}
        </span>
        <span className="search-report-sources">
          {sources.slice(0, 4).map((source) => (
            <a key={source.url} className="source-chip" href={source.url} target="_blank" rel="noreferrer noopener" title={source.url}>
              {source.title}
            </a>
          ))}
        </span>
      </footer>
    </article>
  );
}
