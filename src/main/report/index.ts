/** Shareable reports (issue 27): one self-contained HTML file per session or flow run, and an animated GIF/WebP. */
export { buildFlowRunReport, buildSessionReport, type BuiltReport, type FlowRunForReport, type ReportOptions } from './report-builder.js';
export { ReportSessionNotFoundError } from './report-session.js';
export { ReportTooLargeError } from './report-frames.js';
export { REPORT_STYLESHEETS, BUILT_REPORT_STYLES, joinedStyles } from './report-styles.js';
export { AnimationTooLargeError, buildSessionAnimation, NothingToAnimateError, type AnimationFormat, type BuiltAnimation } from './report-gif.js';
