/**
 * The management API's resource model: for each shape one zod schema and the TS type of the same
 * name. Read shapes (responses) keep unknown fields, as the spec's versioning asks; write shapes
 * (request bodies) refuse them. A request body's type is the schema's input (what a client sends),
 * a response's type the schema's output.
 */
export * from './abuse-reports.ts';
export * from './acl.ts';
export * from './agent-ingresses.ts';
export * from './auth-modules.ts';
export * from './backends.ts';
export * from './bytes.ts';
export * from './certificate-authorities.ts';
export * from './common.ts';
export * from './credentials.ts';
export * from './edge-modules.ts';
export * from './endpoints.ts';
export * from './error-body.ts';
export * from './errors.ts';
export * from './hosts.ts';
export * from './http-headers.ts';
export * from './https-edge-routes.ts';
export * from './https-edges.ts';
export * from './ids.ts';
export * from './ip-policies.ts';
export * from './labels.ts';
export * from './list.ts';
export * from './module-forms.ts';
export * from './path-echo.ts';
export * from './route-modules.ts';
export * from './rules.ts';
export * from './ssh-certificate-authorities.ts';
export * from './ssh-certificates.ts';
export * from './ssh-keys.ts';
export * from './tls-edges.ts';
export * from './tunnel-sessions.ts';
export * from './validate.ts';
export * from './version.ts';
export * from './webhook-providers.ts';
