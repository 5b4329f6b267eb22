/**
 * The report as one HTML file: the React document of src/renderer/src/report/ rendered to static markup, with
 * the styles, a few lines of script and the model inline, under a Content-Security-Policy that allows those
 * exactly (by hash) and data: images, and nothing else: opened from disk, the file requests nothing.
 */
import { createHash } from 'node:crypto';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReportModel } from '../../shared/report-model.js';
import { ReportDocument } from '../../renderer/src/report/ReportDocument.js';
import { reportStyles } from './report-styles.js';

/**
 * Each frame's bytes are written on its first <img>; the later ones name the frame and get the same URL here.
 * A link to a frame (Evidence) opens the frame it goes to before the browser scrolls there, on a click and when
 * the page is opened at one. Our code, fixed text: nothing from a session is ever part of a script.
 */
export const REPORT_SCRIPT =
  "(function(){var urls={};document.querySelectorAll('img[data-frame][src]').forEach(function(img){urls[img.getAttribute('data-frame')]=img.getAttribute('src')});" +
  "document.querySelectorAll('img[data-frame-src]').forEach(function(img){var url=urls[img.getAttribute('data-frame-src')];if(url)img.setAttribute('src',url)});" +
  "function openAt(hash){if(!hash||hash.charAt(0)!=='#')return;var target=document.getElementById(hash.slice(1));if(target&&target.tagName==='DETAILS')target.open=true}" +
  "document.addEventListener('click',function(event){var link=event.target&&event.target.closest?event.target.closest('a[href^=\"#frame-\"]'):null;if(link)openAt(link.getAttribute('href'))});" +
  "window.addEventListener('hashchange',function(){openAt(location.hash)});openAt(location.hash)})();";

/**
 * JSON that can sit inside a <script> element: `<`, `>` and `&` as \u escapes (so `</script>` and `<!--` cannot
 * end or change it), and U+2028/U+2029, which older parsers took for line ends.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function reportContentSecurityPolicy(css: string, script: string): string {
  return [
    "default-src 'none'",
    'img-src data:',
    `style-src '${sha256(css)}'`,
    `script-src '${sha256(script)}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderReportHtml(model: ReportModel, urls: ReadonlyMap<string, string>): string {
  const css = reportStyles();
  const markup = renderToStaticMarkup(
    createElement(ReportDocument, {
      model,
      urls,
      css,
      script: REPORT_SCRIPT,
      contentSecurityPolicy: reportContentSecurityPolicy(css, REPORT_SCRIPT),
      dataJson: scriptSafeJson(model),
    }),
  );
  return markup.startsWith('<!DOCTYPE') ? markup : `<!DOCTYPE html>${markup}`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
