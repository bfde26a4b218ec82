/**
 * Names as management-api.md and api-gaps.md write them, typed out here rather than read from
 * shared/api, so that a test comparing the model (or the server) with them can fail.
 */
export const SPEC_ROUTE_MODULES = [
  'backend',
  'ip_restriction',
  'circuit_breaker',
  'compression',
  'request_headers',
  'response_headers',
  'webhook_verification',
  'oauth',
  'saml',
  'oidc',
  'websocket_tcp_converter',
] as const;
