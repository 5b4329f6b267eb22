/**
 * A Midscene script's `web:` target (https://midscenejs.com/automate-with-scripts-in-yaml, "web" section, read for
 * Midscene 1.x; its MidsceneYamlScriptWebEnv type in packages/core/src/yaml.ts): the page to open and the settings
 * of the browser that opens it. `serve:` names a folder inside the script's own, served on loopback for the flow;
 * the browser settings go to the flow's browser context; what only shapes Midscene's own output is ignored with a
 * note. Paths (`serve`, `cookie`, `downloadPath`) are read relative to the script and must stay inside its folder,
 * on their real paths too, as a flow file reads nothing else (docs/decisions/0072-flow-file-confinement.md).
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isScalar, type Node, type Scalar } from 'yaml';
import { z } from 'zod';
import { closestName } from '../../shared/suggestions.js';
import type { FlowBrowserSettings, FlowCookie, FlowTarget } from './flow-model.js';
import { listed, type Entry } from './flow-nodes.js';
import type { FlowReadContext } from './flow-read-context.js';
import { excerpt } from './templates.js';

/** What a `web:` target holds beyond the page: the settings, the model's context, the notes of what was ignored. */
export interface WebTargetReading {
  target: FlowTarget | undefined;
  context: string | undefined;
}

/** Fields that only shape Midscene's own output, or that Sightline already does its own way: ignored, each with why. */
export const IGNORED_WEB_KEYS: Record<string, string> = {
  output: "it names Midscene's own output file; use --out",
  unstableLogContent: "it shapes Midscene's own log",
  waitForNetworkIdle: 'Sightline waits for the page to settle after each action',
  autoFollowNewPage: 'Sightline always acts on the newest page a link opens, and goes back to the one left when it closes',
  forceSameTabNavigation: 'Sightline follows a link that opens a new tab into that tab, which ends where Midscene would',
  closeNewTabsAfterDisconnect: 'Sightline always closes the tabs it opened in your browser, and only those',
};

/**
 * Midscene's bridge mode drives the person's desktop Chrome through its extension
 * (https://midscenejs.com/bridge-mode); Sightline reaches the same browser over CDP instead (`--cdp URL`):
 * newTabWithUrl opens the url in a new tab, currentTab acts in the tab in front and, as Midscene does, opens no url.
 * Sightline always closes the tabs it opened, so closeNewTabsAfterDisconnect changes nothing.
 */
const BRIDGE_MODES: Record<string, 'new' | 'current'> = { newTabWithUrl: 'new', currentTab: 'current' };

/** Refused, each with its reason: what Sightline must not let a script do to its browser. */
export const REFUSED_WEB_KEYS: Record<string, string> = {
  chromeArgs: "Sightline's browser starts with its own arguments, which keep its sandbox and URL scope; a script cannot change them",
};

const BROWSER_KEYS = ['viewportWidth', 'viewportHeight', 'viewportScale', 'deviceScaleFactor', 'userAgent', 'cookie', 'acceptInsecureCerts', 'extraHTTPHeaders', 'downloadPath'];
export const CONTEXT_KEYS = ['aiActionContext', 'aiActContext'];
const READ_KEYS = ['url', 'serve', 'bridgeMode', ...BROWSER_KEYS, ...CONTEXT_KEYS];

/** Sightline's default viewport, for the side a script leaves out. */
const DEFAULT_SIZE = { width: 1280, height: 800 };

const CookieSchema = z.object({
  name: z.string().min(1),
  value: z.string(),
  domain: z.string().optional(),
  path: z.string().optional(),
  url: z.string().optional(),
  expires: z.number().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
});
/** Midscene's cookie file: a JSON list of cookies as Puppeteer's page.setCookie takes them (other fields are dropped). */
const CookieFileSchema = z.array(CookieSchema.loose());

export function readWebTarget(
  context: FlowReadContext,
  entry: Entry,
  fields: Entry[],
  at: FlowTarget['at'],
  notes: string[],
  text: (scalar: Scalar<string>) => string,
): WebTargetReading {
  const { nodes } = context;
  const folder = dirname(nodes.source.file);
  let url: string | undefined;
  let serve: string | undefined;
  let modelContext: string | undefined;
  const browser: FlowBrowserSettings = {};
  let width: number | undefined;
  let height: number | undefined;
  let tab: FlowTarget['tab'];
  for (const field of fields) {
    const key = field.key;
    const ignored = IGNORED_WEB_KEYS[key];
    if (ignored !== undefined) {
      notes.push(`${entry.key} ${key} (line ${nodes.at(field.keyNode).line}) is ignored: ${ignored}`);
      continue;
    }
    const refused = REFUSED_WEB_KEYS[key];
    if (refused !== undefined) {
      nodes.problem(field.keyNode, `${entry.key} ${key} cannot be applied: ${refused}; remove it`);
      continue;
    }
    switch (key) {
      case 'url': {
        const scalar = nodes.readString(field.value, `${entry.key} url`, field.keyNode);
        if (scalar !== undefined) url = text(scalar);
        break;
      }
      case 'serve':
        serve = insidePath(context, field, folder, 'folder');
        break;
      case 'bridgeMode':
        tab = readBridgeMode(context, field);
        break;
      case 'viewportWidth':
        width = whole(context, field, 100, 7680);
        break;
      case 'viewportHeight':
        height = whole(context, field, 100, 4320);
        break;
      case 'viewportScale':
      case 'deviceScaleFactor': {
        const value = isScalar(field.value) ? field.value.value : undefined;
        if (typeof value === 'number' && value >= 0.5 && value <= 4) browser.deviceScaleFactor = value;
        else nodes.problem(field.value ?? field.keyNode, `${key}: expected a number from 0.5 to 4, got ${nodes.describe(field.value)}`);
        break;
      }
      case 'userAgent': {
        const scalar = nodes.readString(field.value, key, field.keyNode);
        if (scalar !== undefined) browser.userAgent = scalar.value;
        break;
      }
      case 'acceptInsecureCerts': {
        const value = nodes.readBoolean(field.value, key, field.keyNode);
        if (value !== undefined) browser.acceptInsecureCerts = value;
        break;
      }
      case 'extraHTTPHeaders': {
        const headers = readHeaders(context, field);
        if (headers !== undefined) browser.extraHTTPHeaders = headers;
        break;
      }
      case 'cookie': {
        const path = insidePath(context, field, folder, 'file');
        const cookies = path === undefined ? undefined : readCookies(context, field, path);
        if (cookies !== undefined) browser.cookies = cookies;
        break;
      }
      case 'downloadPath': {
        const path = insidePath(context, field, folder, 'folder');
        if (path !== undefined) browser.downloadPath = path;
        break;
      }
      case 'aiActionContext':
      case 'aiActContext': {
        const scalar = nodes.readString(field.value, key, field.keyNode);
        if (scalar !== undefined) modelContext = scalar.value;
        break;
      }
      default: {
        const suggestion = closestName(key, [...READ_KEYS, ...Object.keys(IGNORED_WEB_KEYS), ...Object.keys(REFUSED_WEB_KEYS)]);
        nodes.problem(field.keyNode, `unknown key ${excerpt(key)} in ${entry.key}${suggestion === undefined ? '' : `; did you mean ${suggestion}?`} (Sightline reads ${listed(READ_KEYS)})`);
      }
    }
  }
  if (width !== undefined || height !== undefined) browser.viewport = { width: width ?? DEFAULT_SIZE.width, height: height ?? DEFAULT_SIZE.height };
  // currentTab acts in the tab in front and opens no url, as in Midscene's own player.
  if (tab === 'current') return { target: { operator: 'browser', tab, at }, context: modelContext };
  if (!fields.some((field) => field.key === 'url')) nodes.problem(entry.keyNode, `${entry.key}: expected url: the page to open`);
  if (url === undefined) return { target: undefined, context: modelContext };
  const target: FlowTarget = { operator: 'browser', url, ...(tab === undefined ? {} : { tab }), at };
  if (serve !== undefined) target.serve = serve;
  if (Object.keys(browser).length > 0) target.browser = browser;
  return { target, context: modelContext };
}

/** `bridgeMode: newTabWithUrl | currentTab` (false: Sightline's own browser); see BRIDGE_MODES. */
function readBridgeMode(context: FlowReadContext, field: Entry): FlowTarget['tab'] {
  const node = context.nodes.resolve(field.value);
  if (isScalar(node) && node.value === false) return undefined;
  const scalar = context.nodes.readString(field.value, 'bridgeMode', field.keyNode);
  if (scalar === undefined) return undefined;
  const tab = BRIDGE_MODES[scalar.value];
  if (tab === undefined) context.nodes.problem(scalar, `bridgeMode: expected newTabWithUrl, currentTab or false, got ${context.nodes.describe(scalar)}`);
  return tab;
}

function whole(context: FlowReadContext, field: Entry, min: number, max: number): number | undefined {
  const value = isScalar(field.value) ? field.value.value : undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  context.nodes.problem(field.value ?? field.keyNode, `${field.key}: expected a whole number of pixels from ${min} to ${max}, got ${context.nodes.describe(field.value)}`);
  return undefined;
}

function readHeaders(context: FlowReadContext, field: Entry): Record<string, string> | undefined {
  const { nodes } = context;
  const map = nodes.readMap(field.value, field.key, field.keyNode);
  if (map === undefined) return undefined;
  const headers: Record<string, string> = {};
  let ok = true;
  for (const header of nodes.entries(map)) {
    // A header name is a token (RFC 9110); a value holds no line break, which would start another header.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header.key)) {
      nodes.problem(header.keyNode, `extraHTTPHeaders: ${excerpt(header.key)} is not a header name`);
      ok = false;
      continue;
    }
    const scalar = isScalar(header.value) && (typeof header.value.value === 'number' || typeof header.value.value === 'boolean') ? String(header.value.value) : nodes.readString(header.value, `extraHTTPHeaders ${header.key}`, header.keyNode, { allowEmpty: true })?.value;
    if (scalar === undefined) ok = false;
    else if (/[\r\n\0]/.test(scalar)) {
      nodes.problem(header.value ?? header.keyNode, `extraHTTPHeaders ${header.key}: a header value cannot hold a line break`);
      ok = false;
    } else headers[header.key] = scalar;
  }
  return ok ? headers : undefined;
}

/**
 * A path the script names, relative to its folder, that must stay inside that folder on its real path: no
 * absolute path, no `..` out of it, no symbolic link that leads out. The refusal names the path as written.
 */
export function insidePath(context: FlowReadContext, field: Entry | { key: string; keyNode: Node; value: Node | undefined }, folder: string, kind: 'file' | 'folder'): string | undefined {
  const { nodes } = context;
  const scalar = nodes.readString(field.value, field.key, field.keyNode);
  if (scalar === undefined) return undefined;
  const written = scalar.value;
  const refuse = (why: string) => {
    nodes.problem(scalar, `${field.key}: ${excerpt(written)} ${why}`);
    return undefined;
  };
  if (isAbsolute(written) || /^[A-Za-z]:[\\/]/.test(written) || written.startsWith('\\')) return refuse(`is an absolute path; give a ${kind} inside the script's folder, relative to it`);
  const path = resolve(folder, written);
  if (!inside(folder, path, kind === 'folder')) return refuse(`leads outside the script's folder; give a ${kind} inside it`);
  if (!existsSync(path)) return refuse(`does not exist (read relative to the script's folder)`);
  let real: string;
  let realFolder: string;
  try {
    real = realpathSync(path);
    realFolder = realpathSync(folder);
  } catch {
    return refuse('cannot be read');
  }
  if (!inside(realFolder, real, kind === 'folder')) return refuse(`leads outside the script's folder through a symbolic link; give a ${kind} inside it`);
  const isFolder = statSync(real).isDirectory();
  if (kind === 'folder' && !isFolder) return refuse('is not a folder');
  if (kind === 'file' && isFolder) return refuse('is a folder, not a file');
  return real;
}

function inside(folder: string, path: string, folderItself: boolean): boolean {
  const between = relative(folder, path);
  if (between === '') return folderItself;
  return !between.startsWith(`..${sep}`) && between !== '..' && !isAbsolute(between);
}

function readCookies(context: FlowReadContext, field: Entry, path: string): FlowCookie[] | undefined {
  const { nodes } = context;
  const at = field.value ?? field.keyNode;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    nodes.problem(at, 'cookie: the file is not JSON; Midscene\'s cookie file is a JSON list of cookies ({"name", "value", "domain", …})');
    return undefined;
  }
  const checked = CookieFileSchema.safeParse(parsed);
  if (!checked.success) {
    nodes.problem(at, `cookie: the file is not a list of cookies: ${excerpt(z.prettifyError(checked.error).split('\n').join(' '))}`);
    return undefined;
  }
  const cookies = checked.data.map((cookie) => CookieSchema.parse(cookie));
  for (const cookie of cookies) {
    if (cookie.url === undefined && cookie.domain === undefined) {
      nodes.problem(at, `cookie: the cookie ${excerpt(cookie.name)} needs a domain or a url`);
      return undefined;
    }
  }
  return cookies;
}
