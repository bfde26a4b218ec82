import { net, protocol, session } from 'electron';
import { APP_ORIGIN, isGrantedPermission } from '../core/ipc/sender.ts';
import { CONTENT_SECURITY_POLICY } from '../core/security/csp.ts';
import { appSchemeHandler } from './app-scheme.ts';

const SCHEME = new URL(APP_ORIGIN).protocol.slice(0, -1);

/** Must run before the app is ready: the scheme behaves like https (secure, own origin). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * Serves the built renderer from its folder and nothing outside it, with the CSP on every
 * response, and refuses every permission a page might ask for but its own clipboard writes.
 */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(
    SCHEME,
    appSchemeHandler(rendererDir, (fileUrl) => net.fetch(fileUrl)),
  );
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });
  // Chromium checks a permission before it asks for it: both answer the same.
  session.defaultSession.setPermissionCheckHandler((_contents, permission, origin, details) =>
    isGrantedPermission(permission, details.requestingUrl ?? origin, details.isMainFrame),
  );
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isGrantedPermission(permission, details.requestingUrl, details.isMainFrame)),
  );
}
