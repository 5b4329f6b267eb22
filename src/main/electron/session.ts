/**
 * Hardens the session the app's window uses: the CSP goes out as a response header, and every permission
 * request or check is answered from the allowlist of security-policy.ts.
 */
import type { Session } from 'electron';
import { contentSecurityPolicy, isPermissionGranted, type RendererLocation } from './security-policy.js';

export function hardenSession(session: Session, location: RendererLocation): void {
  const policy = contentSecurityPolicy({ delivery: 'header', devServerUrl: location.devServerUrl });
  // Every response gets the policy; index.html also carries it in a meta tag, for file:// loads that may
  // not pass through here.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
  session.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    callback(isPermissionGranted(permission, details.requestingUrl, location.entryUrl));
  });
  session.setPermissionCheckHandler((_webContents, permission, _requestingOrigin, details) =>
    isPermissionGranted(permission, details.requestingUrl, location.entryUrl),
  );
  // No USB, HID or serial device is ever offered to the page.
  session.setDevicePermissionHandler(() => false);
}
