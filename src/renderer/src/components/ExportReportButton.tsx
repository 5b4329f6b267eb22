import { useState, type ReactElement } from 'react';
import './export-report.css';
import { useAppApi } from '../hooks/app-api-context.js';

type ExportState = { status: 'idle' } | { status: 'working' } | { status: 'done'; text: string } | { status: 'failed'; text: string };

/**
 * Exports the session as one self-contained HTML report (issue 27): the main process builds it (exportReport)
 * and the page hands it to the browser as a download: a save dialog in the app, the downloads folder in a
 * browser opened by `sightline timeline`.
 */
export function ExportReportButton({ sessionId }: { sessionId: string }): ReactElement | null {
  const client = useAppApi();
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  if (client === null) return null;
  const exportReport = async () => {
    setState({ status: 'working' });
    try {
      const report = await client.exportReport({ sessionId });
      const url = URL.createObjectURL(new Blob([report.html], { type: 'text/html' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = report.fileName;
      link.click();
      // The download has its own copy once it starts; the next task is late enough.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      const size = report.bytes >= 1024 * 1024 ? `${(report.bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(report.bytes / 1024))} KB`;
      setState({ status: 'done', text: `Exported ${report.fileName} (${size})${report.notices.length > 0 ? `. ${report.notices.join(' ')}` : ''}` });
    } catch (error) {
      setState({ status: 'failed', text: `Could not export the report: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  return (
    <div className="export-report">
      <button type="button" className="button" onClick={() => void exportReport()} aria-busy={state.status === 'working' ? true : undefined}>
        {state.status === 'working' ? 'Exporting…' : 'Export report'}
      </button>
      <span className="export-report-status" role={state.status === 'failed' ? 'alert' : 'status'}>
        {state.status === 'done' || state.status === 'failed' ? state.text : ''}
      </span>
    </div>
  );
}
