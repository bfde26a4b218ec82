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

export const ERRORS = {
  noAuthorization: { code: 'ERR_SERVICE_200', status: 401, condition: 'no Authorization header' },
  malformedAuthorization: {
    code: 'ERR_SERVICE_201',
    status: 401,
    condition: 'Authorization is not "Bearer <key>"',
  },
  unknownApiKey: { code: 'ERR_SERVICE_203', status: 401, condition: 'unknown or revoked API key' },
  authtokenAsApiKey: {
    code: 'ERR_SERVICE_206',
    status: 401,
    condition: 'an agent authtoken was sent where an API key belongs',
  },
  unsupportedContentType: {
    code: 'ERR_SERVICE_210',
    status: 415,
    condition: 'body sent with a Content-Type other than application/json',
  },
  invalidJsonBody: {
    code: 'ERR_SERVICE_213',
    status: 400,
    condition: 'body is not valid JSON, or not a JSON object',
  },
  unknownField: { code: 'ERR_SERVICE_214', status: 400, condition: 'unknown field in the body' },
  invalidValue: {
    code: 'ERR_SERVICE_215',
    status: 400,
    condition: 'field of the wrong type or an invalid value',
  },
  missingContentType: {
    code: 'ERR_SERVICE_216',
    status: 400,
    condition: 'body sent without Content-Type',
  },
  unsupportedVersion: {
    code: 'ERR_SERVICE_217',
    status: 400,
    condition: 'Service-Version holds an unsupported version',
  },
  missingVersion: { code: 'ERR_SERVICE_218', status: 400, condition: 'no Service-Version header' },
  malformedPathId: {
    code: 'ERR_SERVICE_222',
    status: 404,
    condition: 'an id in the path is malformed or has the wrong prefix',
  },
  invalidReference: {
    code: 'ERR_SERVICE_223',
    status: 400,
    condition: 'an id inside the body refers to nothing, or to the wrong kind of resource',
  },
  rateLimited: { code: 'ERR_SERVICE_226', status: 429, condition: 'rate limit exceeded' },
  unknownQueryParameter: {
    code: 'ERR_SERVICE_231',
    status: 400,
    condition: 'unknown query parameter',
  },
  invalidLimit: {
    code: 'ERR_SERVICE_233',
    status: 400,
    condition: 'limit is not an integer from 1 to 100',
  },
  descriptionTooLong: {
    code: 'ERR_SERVICE_420',
    status: 400,
    condition: 'description over 255 bytes',
  },
  metadataTooLong: { code: 'ERR_SERVICE_421', status: 400, condition: 'metadata over 4096 bytes' },

  missingField: { code: 'ERR_SERVICE_300', status: 400, condition: 'required field missing' },
  notFound: {
    code: 'ERR_SERVICE_301',
    status: 404,
    condition: 'no resource with this (well-formed) id',
  },
  unknownPath: { code: 'ERR_SERVICE_302', status: 404, condition: 'unknown path' },
  methodNotAllowed: {
    code: 'ERR_SERVICE_303',
    status: 405,
    condition: 'method not allowed on this path',
  },
  ownerNotAllowed: {
    code: 'ERR_SERVICE_304',
    status: 403,
    condition: 'only admins may assign an owner other than themselves',
  },
  abuseReportsNotEnabled: {
    code: 'ERR_SERVICE_305',
    status: 403,
    condition: 'abuse reports are not enabled for this account',
  },
  stillReferenced: {
    code: 'ERR_SERVICE_306',
    status: 409,
    condition: 'the resource is still referenced by another',
  },
  moduleNotConfigured: {
    code: 'ERR_SERVICE_307',
    status: 404,
    condition: 'the module is not configured',
  },
  routeMatchTaken: {
    code: 'ERR_SERVICE_308',
    status: 409,
    condition: 'another route of this edge already uses this match',
  },
  invalidAclRule: { code: 'ERR_SERVICE_309', status: 400, condition: 'invalid ACL rule' },
  moduleNeedsEdgeTermination: {
    code: 'ERR_SERVICE_310',
    status: 400,
    condition: 'module not allowed when TLS terminates upstream',
  },
  minVersionWithUpstream: {
    code: 'ERR_SERVICE_311',
    status: 400,
    condition: 'min_version must be null when terminate_at is upstream',
  },
  conflictingAuthModules: {
    code: 'ERR_SERVICE_312',
    status: 400,
    condition: 'more than one of oauth, oidc and saml on a route',
  },
  oauthProviderCount: {
    code: 'ERR_SERVICE_313',
    status: 400,
    condition: 'OAuth provider must name exactly one provider',
  },
  oauthClientCredentials: {
    code: 'ERR_SERVICE_314',
    status: 400,
    condition: 'OAuth client_id, client_secret and scopes must come together',
  },
  webhookProvider: {
    code: 'ERR_SERVICE_315',
    status: 400,
    condition: 'webhook provider unknown, or its secret missing or forbidden',
  },
  invalidPublicKey: { code: 'ERR_SERVICE_317', status: 400, condition: 'invalid public key' },
  invalidValidity: {
    code: 'ERR_SERVICE_318',
    status: 400,
    condition: 'valid_until is not after valid_after',
  },
  unknownCriticalOption: {
    code: 'ERR_SERVICE_319',
    status: 400,
    condition: 'unknown SSH critical option',
  },
  abuseReportUrl: {
    code: 'ERR_SERVICE_320',
    status: 400,
    condition: 'abuse report URL is not an http(s) URL',
  },
  invalidBeforeId: {
    code: 'ERR_SERVICE_321',
    status: 400,
    condition: 'before_id is malformed or of the wrong kind',
  },
  bodyTooLarge: { code: 'ERR_SERVICE_322', status: 413, condition: 'request body too large' },
  bodyNotAllowed: {
    code: 'ERR_SERVICE_323',
    status: 400,
    condition: 'request body sent on a method that takes none',
  },
  malformedRequest: {
    code: 'ERR_SERVICE_324',
    status: 400,
    condition: 'the request is not well-formed HTTP',
  },
  restartUnsupportedOnWindows: {
    code: 'ERR_SERVICE_330',
    status: 400,
    condition: 'restart is not supported on Windows agents',
  },
  commandUnsupportedOnSsh: {
    code: 'ERR_SERVICE_331',
    status: 400,
    condition: 'command not supported on SSH-transport sessions',
  },
  noUpdateAvailable: {
    code: 'ERR_SERVICE_332',
    status: 409,
    condition: 'update: no update available',
  },
  updateChecksDisabled: {
    code: 'ERR_SERVICE_333',
    status: 409,
    condition: 'update: the agent configuration disabled update checks',
  },
  alreadyUpdating: {
    code: 'ERR_SERVICE_334',
    status: 409,
    condition: 'update: the agent is already updating',
  },
  updatedAwaitingRestart: {
    code: 'ERR_SERVICE_335',
    status: 409,
    condition: 'update: the agent already updated and awaits a restart',
  },
  agentTimeout: {
    code: 'ERR_SERVICE_336',
    status: 504,
    condition: 'the agent did not answer the command in time',
  },
  internalError: { code: 'ERR_SERVICE_340', status: 500, condition: 'internal error' },
  injectedFault: {
    code: 'ERR_SERVICE_341',
    status: 503,
    condition: 'fault injected by the sandbox',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

export function isErrorName(name: unknown): name is ErrorName {
  return typeof name === 'string' && Object.hasOwn(ERRORS, name);
}
