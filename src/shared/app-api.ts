/**
 * The app API: every call the renderer may make of the main process, each with its channel and the zod
 * schemas of its arguments and its result. Both ends read this one table: the preload exposes one method
 * per entry (`window.sightline.<name>`), and the main process validates the arguments it receives and the
 * result it sends back against the same schemas, so neither side trusts the other's types blindly.
 *
 * To add a call: add its channel to APP_API_CHANNELS (app-api-channels.ts), its schemas to APP_API, a method to the preload and
 * an implementation to the main process. The types below then require all four to agree.
 */
import { z } from 'zod';
import { APP_API_CHANNELS, type AppApiName } from './app-api-channels.js';

export { APP_API_CHANNELS, type AppApiName };

/** The platforms Node reports in `process.platform`. */
export const PLATFORMS = ['aix', 'android', 'darwin', 'freebsd', 'haiku', 'linux', 'openbsd', 'sunos', 'win32', 'cygwin', 'netbsd'] as const;

export const AppInfoSchema = z
  .object({
    /** The app's version as package.json states it. */
    version: z.string().min(1),
    platform: z.enum(PLATFORMS),
  })
  .strict();
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** One call of the app API: arguments as a tuple schema (positional, like the preload method), and the result. */
export interface AppApiCall<Arguments extends z.ZodTuple = z.ZodTuple, Result extends z.ZodType = z.ZodType> {
  channel: string;
  arguments: Arguments;
  result: Result;
}

export const APP_API = {
  appInfo: { channel: APP_API_CHANNELS.appInfo, arguments: z.tuple([]), result: AppInfoSchema },
} as const satisfies { [Name in AppApiName]: AppApiCall };

type AppApi = typeof APP_API;

/** The arguments a call takes, as the renderer passes them. */
export type AppApiArguments<Name extends AppApiName> = z.input<AppApi[Name]['arguments']>;
/** The result a call resolves to, as the renderer receives it. */
export type AppApiResult<Name extends AppApiName> = z.output<AppApi[Name]['result']>;

/** What the preload exposes as `window.sightline`: one method per call, nothing generic. */
export type SightlineBridge = {
  [Name in AppApiName]: (...callArguments: AppApiArguments<Name>) => Promise<AppApiResult<Name>>;
};
