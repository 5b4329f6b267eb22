/**
 * A flow as the runner sees it: what src/main/flows/flow-file.ts makes of a Sightline flow file or a Midscene
 * YAML script, every check already passed (docs/flows.md, "File format"). Plain data: no file is read and no
 * model is called to use it.
 */

/** Where a thing stands in its file, 1-based, for messages. */
export interface SourceAt {
  file: string;
  line: number;
  column: number;
}

export interface Flow {
  name: string;
  /** Absolute path of the file it came from. */
  file: string;
  /** Which format the file was written in. */
  format: 'sightline' | 'midscene';
  /** Absent in a sub-flow that only runs under `use`. */
  target: FlowTarget | undefined;
  /** Declared variables with their default values (JSON values; strings may hold ${…} templates). */
  vars: Record<string, unknown>;
  /** Names of secrets, read from the environment only. */
  secrets: string[];
  steps: FlowStep[];
  /**
   * Midscene's `aiActionContext`: what the model is told before every step of this flow. Absent in Sightline's
   * own format.
   */
  context?: string;
  /** One line for each item or option of the file that was read and ignored, said before the flow runs. */
  notes?: string[];
}

export interface FlowTarget {
  operator: 'browser' | 'desktop';
  /** A template. */
  url?: string;
  /** The person's running Chrome to act in over CDP (`target.cdpEndpoint`), checked as a URL; `--cdp` overrides it. */
  cdpEndpoint?: string;
  /**
   * Which tab of the person's browser (Midscene's `bridgeMode`): `new` opens one, `current` acts in the one in
   * front. Set, it needs an endpoint (`--cdp` or target.cdpEndpoint).
   */
  tab?: 'new' | 'current';
  at: SourceAt;
  /**
   * Midscene's `serve:`: a folder (absolute, inside the script's own) served read-only on loopback for the flow's
   * lifetime; `url` is a path under it.
   */
  serve?: string;
  /** Settings of the flow's browser context (Midscene's web target options). */
  browser?: FlowBrowserSettings;
}

/** What a Midscene web target sets on the browser the flow opens; each absent one keeps Sightline's own. */
export interface FlowBrowserSettings {
  viewport?: { width: number; height: number };
  deviceScaleFactor?: number;
  userAgent?: string;
  /** Accept the page's certificate even when the browser would not (a local test server's own). */
  acceptInsecureCerts?: boolean;
  extraHTTPHeaders?: Record<string, string>;
  /** Cookies to set before the first page loads (read from Midscene's `cookie:` file at load time). */
  cookies?: FlowCookie[];
  /** Where the page's downloads are saved (absolute). */
  downloadPath?: string;
}

export interface FlowCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  url?: string;
  expires?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

interface StepBase {
  at: SourceAt;
  /** What the file called this step (`do`, `aiTap`, `aiQuery`…), shown in reports and the timeline. */
  label: string;
  /** Midscene's continueOnError, or Sightline's `continue_on_error: true`: a failure here does not fail the flow. */
  continueOnError: boolean;
}

export type FlowStep = StepBase &
  (
    | { kind: 'do'; text: string; files?: string[] } // text: template; files: Midscene's fileChooserAccept, absolute
    | { kind: 'assert'; text: string }
    | { kind: 'extract'; text: string; as: string | undefined; schema: JsonSchema }
    | { kind: 'locate'; text: string; as: string | undefined } // Midscene's aiLocate: { rect, center, dpr } in page coordinates
    | { kind: 'if'; text: string; then: FlowStep[]; else: FlowStep[] }
    | { kind: 'for_each'; items: string /* exactly one ${ref} */; as: string; steps: FlowStep[] }
    | { kind: 'use'; flow: Flow; with: Record<string, unknown> }
    | { kind: 'wait_for'; text: string; timeoutMs: number }
    | { kind: 'goto'; url: string }
    | { kind: 'sleep'; ms: number }
    | { kind: 'javascript'; code: string /* template */; as: string | undefined } // Midscene's javascript: in the page
    | { kind: 'group'; name: string; steps: FlowStep[] } // a Midscene task
    | { kind: 'note'; title: string; content: string } // Midscene's recordToReport: a titled frame of the screen, no model; templates
  );

export type JsonSchema = Record<string, unknown>;
