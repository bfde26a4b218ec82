/**
 * Every error condition of the management API, shared by the sandbox (which answers with them)
 * and the client (which recognises them). Codes 200–233 and 420–421 are those of the real
 * service; 300 and up are ours, for conditions the spec leaves without a number.
 */
export type ErrorSpec = {
  readonly code: `ERR_SERVICE_${number}`;
  readonly status: number;
  readonly condition: string;
};

/** A row of the table below: the code's number, the HTTP status and the condition it names. */
function row<const N extends number, const S extends number>(
  number: N,
  status: S,
  condition: string,
) {
  return { code: `ERR_SERVICE_${number}` as const, status, condition };
}

export const ERRORS = {
  noAuthorization: row(200, 401, 'no Authorization header'),
  malformedAuthorization: row(201, 401, 'Authorization is not "Bearer <key>"'),
  unknownApiKey: row(203, 401, 'unknown or revoked API key'),
  authtokenAsApiKey: row(206, 401, 'an agent authtoken was sent where an API key belongs'),
  unsupportedContentType: row(
    210,
    415,
    'body sent with a Content-Type other than application/json',
  ),
  invalidJsonBody: row(213, 400, 'body is not valid JSON, or not a JSON object'),
  unknownField: row(214, 400, 'unknown field in the body'),
  invalidValue: row(215, 400, 'field of the wrong type or an invalid value'),
  missingContentType: row(216, 400, 'body sent without Content-Type'),
  unsupportedVersion: row(217, 400, 'Service-Version holds an unsupported version'),
  missingVersion: row(218, 400, 'no Service-Version header'),
  malformedPathId: row(222, 404, 'an id in the path is malformed or has the wrong prefix'),
  invalidReference: row(
    223,
    400,
    'an id inside the body refers to nothing, or to the wrong kind of resource',
  ),
  rateLimited: row(226, 429, 'rate limit exceeded'),
  unknownQueryParameter: row(231, 400, 'unknown query parameter'),
  invalidLimit: row(233, 400, 'limit is not an integer from 1 to 100'),
  descriptionTooLong: row(420, 400, 'description over 255 bytes'),
  metadataTooLong: row(421, 400, 'metadata over 4096 bytes'),

  missingField: row(300, 400, 'required field missing'),
  notFound: row(301, 404, 'no resource with this (well-formed) id'),
  unknownPath: row(302, 404, 'unknown path'),
  methodNotAllowed: row(303, 405, 'method not allowed on this path'),
  ownerNotAllowed: row(304, 403, 'only admins may assign an owner other than themselves'),
  abuseReportsNotEnabled: row(305, 403, 'abuse reports are not enabled for this account'),
  stillReferenced: row(306, 409, 'the resource is still referenced by another'),
  moduleNotConfigured: row(307, 404, 'the module is not configured'),
  routeMatchTaken: row(308, 409, 'another route of this edge already uses this match'),
  invalidAclRule: row(309, 400, 'invalid ACL rule'),
  moduleNeedsEdgeTermination: row(310, 400, 'module not allowed when TLS terminates upstream'),
  minVersionWithUpstream: row(311, 400, 'min_version must be null when terminate_at is upstream'),
  conflictingAuthModules: row(312, 400, 'more than one of oauth, oidc and saml on a route'),
  oauthProviderCount: row(313, 400, 'OAuth provider must name exactly one provider'),
  oauthClientCredentials: row(
    314,
    400,
    'OAuth client_id, client_secret and scopes must come together',
  ),
  webhookProvider: row(315, 400, 'webhook provider unknown, or its secret missing or forbidden'),
  invalidPublicKey: row(317, 400, 'invalid public key'),
  invalidValidity: row(318, 400, 'valid_until is not after valid_after'),
  unknownCriticalOption: row(319, 400, 'unknown SSH critical option'),
  abuseReportUrl: row(320, 400, 'abuse report URL is not an http(s) URL'),
  invalidBeforeId: row(321, 400, 'before_id is malformed or of the wrong kind'),
  bodyTooLarge: row(322, 413, 'request body too large'),
  bodyNotAllowed: row(323, 400, 'request body sent on a method that takes none'),
  malformedRequest: row(324, 400, 'the request is not well-formed HTTP'),
  restartUnsupportedOnWindows: row(330, 400, 'restart is not supported on Windows agents'),
  commandUnsupportedOnSsh: row(331, 400, 'command not supported on SSH-transport sessions'),
  noUpdateAvailable: row(332, 409, 'update: no update available'),
  updateChecksDisabled: row(333, 409, 'update: the agent configuration disabled update checks'),
  alreadyUpdating: row(334, 409, 'update: the agent is already updating'),
  updatedAwaitingRestart: row(335, 409, 'update: the agent already updated and awaits a restart'),
  agentTimeout: row(336, 504, 'the agent did not answer the command in time'),
  internalError: row(340, 500, 'internal error'),
  injectedFault: row(341, 503, 'fault injected by the sandbox'),
} as const satisfies Record<string, ErrorSpec>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

export function isErrorName(name: unknown): name is ErrorName {
  return typeof name === 'string' && Object.hasOwn(ERRORS, name);
}
