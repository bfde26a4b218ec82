import {
  AUTH_MODULES,
  DEFAULT_COOKIE_PREFIX,
  OAUTH_REQUEST_PROVIDERS,
} from '../../../../shared/api/kinds/auth-modules.ts';
import {
  CIRCUIT_BREAKER_DEFAULTS,
  CIRCUIT_BREAKER_MAX_BUCKETS,
} from '../../../../shared/api/kinds/route-modules.ts';
import {
  SECRETLESS_WEBHOOK_PROVIDERS,
  WEBHOOK_PROVIDERS,
} from '../../../../shared/api/kinds/webhook-providers.ts';
import type { Field, Item, ModuleSpec } from './kind-shape.ts';
import { enabled, TLS_EDGE_MODULES } from './edge-modules.ts';

/*
 * The modules of an HTTPS route as forms. Backend and IP restriction are the TLS edge's own;
 * the rest follow their write schemas in shared/api, which check every body before its PUT.
 */

/** Modules whose only setting is whether they apply. */
const toggle = (name: string, label: string): ModuleSpec => ({ name, label, fields: [enabled] });

const breakerHelp: Record<string, string> = {
  num_buckets: `From 1 to ${CIRCUIT_BREAKER_MAX_BUCKETS}.`,
  error_threshold_percentage: 'A fraction from 0 to 1 (0.5 trips at half the requests failing).',
};
const breakerRules: Record<string, string> = {
  num_buckets: `must be a whole number from 1 to ${CIRCUIT_BREAKER_MAX_BUCKETS}`,
  error_threshold_percentage: 'must be a fraction between 0 and 1, like 0.5',
};
const circuitBreaker: ModuleSpec = {
  name: 'circuit_breaker',
  label: 'Circuit breaker',
  fields: [
    enabled,
    ...(
      [
        ['tripped_duration', 'Tripped duration (s)'],
        ['rolling_window', 'Rolling window (s)'],
        ['num_buckets', 'Buckets'],
        ['volume_threshold', 'Volume threshold (requests)'],
        ['error_threshold_percentage', 'Error threshold'],
      ] as const
    ).map(([name, label]): Field => ({
      name,
      label,
      type: 'number',
      help: `${breakerHelp[name] ?? ''} Empty: ${CIRCUIT_BREAKER_DEFAULTS[name]}.`.trim(),
      ...(breakerRules[name] && { rule: breakerRules[name] }),
    })),
  ],
};

const headers = (name: string, label: string): ModuleSpec => ({
  name,
  label,
  fields: [
    enabled,
    { name: 'add', label: 'Headers to add', type: 'map', one: 'header' },
    {
      name: 'remove',
      label: 'Headers to remove',
      type: 'lines',
      one: 'header',
      help: 'One header name a line.',
    },
  ],
});

/** The service a module verifies webhooks for or signs people in through, chosen first. */
const provider = (options: readonly string[]): Field => ({
  name: 'provider',
  label: 'Provider',
  type: 'select',
  options,
});

const needsSecret = (v: Readonly<Record<string, unknown>>) =>
  !SECRETLESS_WEBHOOK_PROVIDERS.some((p) => p === v['provider']);
const webhook: ModuleSpec = {
  name: 'webhook_verification',
  label: 'Webhook verification',
  fields: [
    enabled,
    provider(WEBHOOK_PROVIDERS),
    {
      name: 'secret',
      label: 'Signing secret',
      type: 'text',
      secret: true,
      required: true,
      help: 'Given by the provider. SNS signs with its own certificates and takes none.',
      when: needsSecret,
    },
  ],
};

/** The session settings OAuth, OIDC and SAML share. */
const session: readonly Field[] = [
  {
    name: 'cookie_prefix',
    label: 'Cookie prefix',
    type: 'text',
    help: `Empty: "${DEFAULT_COOKIE_PREFIX}"`,
  },
  { name: 'inactivity_timeout', label: 'Inactivity timeout (s, 0: default)', type: 'number' },
  { name: 'maximum_duration', label: 'Maximum session (s, 0: default)', type: 'number' },
  { name: 'options_passthrough', label: 'Let CORS preflight requests through', type: 'boolean' },
];
/** Booleans other than `enabled` start off, as the API's defaults do. */
const sessionDefaults = { options_passthrough: false };

/** OIDC and SAML keep their settings flat: only their booleans' defaults to fill in. */
const flatSession = (defaults: Readonly<Record<string, boolean>> = {}): ModuleSpec['shape'] => ({
  read: (module) => ({ ...sessionDefaults, ...defaults, ...module }) as Item,
  write: (body) => body,
});

const isGithub = (v: Readonly<Record<string, unknown>>) => v['provider'] === 'github';
const PROVIDER_FIELDS = [
  'client_id',
  'client_secret',
  'scopes',
  'email_addresses',
  'email_domains',
  'teams',
  'organizations',
] as const;

/**
 * The API nests the one chosen provider's settings under its name; the form shows the provider
 * as a choice and only its fields (GitHub alone has teams and organizations).
 */
const oauth: ModuleSpec = {
  name: 'oauth',
  label: 'OAuth',
  fields: [
    enabled,
    provider(OAUTH_REQUEST_PROVIDERS),
    {
      name: 'client_id',
      label: 'Client ID',
      type: 'text',
      help: 'Of your own OAuth app: give its id and secret together, or neither to use the service’s.',
    },
    { name: 'client_secret', label: 'Client secret', type: 'text', secret: true },
    {
      name: 'scopes',
      label: 'Scopes',
      type: 'lines',
      one: 'scope',
      help: 'Only with your own app’s id and secret.',
    },
    { name: 'email_addresses', label: 'Allowed email addresses', type: 'lines', one: 'address' },
    { name: 'email_domains', label: 'Allowed email domains', type: 'lines', one: 'domain' },
    { name: 'teams', label: 'Teams (org/team)', type: 'lines', one: 'team', when: isGithub },
    {
      name: 'organizations',
      label: 'Organizations',
      type: 'lines',
      one: 'organization',
      when: isGithub,
    },
    { name: 'auth_check_interval', label: 'Re-check every (s, 0: default)', type: 'number' },
    ...session,
  ],
  shape: {
    read: (module) => {
      const providers = (module?.['provider'] ?? {}) as Record<string, Item | null>;
      const [name, settings] = Object.entries(providers).find(([, p]) => p) ?? [];
      return { ...sessionDefaults, ...module, ...settings, provider: name ?? '' } as Item;
    },
    write: (body) => {
      const rest: Record<string, unknown> = {};
      const settings: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(body))
        ((PROVIDER_FIELDS as readonly string[]).includes(key) ? settings : rest)[key] = value;
      // No provider chosen yet: the body lacks one, and the form says so beside Provider.
      const { provider, ...others } = rest;
      return provider ? { ...others, provider: { [String(provider)]: settings } } : others;
    },
  },
};

const oidc: ModuleSpec = {
  name: 'oidc',
  label: 'OpenID Connect',
  fields: [
    enabled,
    { name: 'issuer', label: 'Issuer URL', type: 'text', required: true },
    { name: 'client_id', label: 'Client ID', type: 'text', required: true },
    {
      name: 'client_secret',
      label: 'Client secret',
      type: 'text',
      secret: true,
      required: true,
    },
    { name: 'scopes', label: 'Scopes', type: 'lines', one: 'scope' },
    ...session,
  ],
  shape: flatSession(),
};

const saml: ModuleSpec = {
  name: 'saml',
  label: 'SAML',
  fields: [
    enabled,
    {
      name: 'idp_metadata',
      label: 'IdP metadata',
      type: 'textarea',
      required: true,
      help: 'The EntityDescriptor XML your identity provider publishes.',
    },
    { name: 'authorized_groups', label: 'Authorized groups', type: 'lines', one: 'group' },
    {
      name: 'nameid_format',
      label: 'NameID format',
      type: 'text',
      help: 'Empty: the IdP chooses.',
    },
    { name: 'force_authn', label: 'Sign in again every time', type: 'boolean' },
    { name: 'allow_idp_initiated', label: 'Allow sign-in started at the IdP', type: 'boolean' },
    ...session,
  ],
  shape: flatSession({ force_authn: false, allow_idp_initiated: false }),
};

export const ROUTE_MODULES: readonly ModuleSpec[] = [
  ...TLS_EDGE_MODULES.filter((m) => m.name === 'backend' || m.name === 'ip_restriction'),
  circuitBreaker,
  toggle('compression', 'Compression'),
  headers('request_headers', 'Request headers'),
  headers('response_headers', 'Response headers'),
  webhook,
  oauth,
  oidc,
  saml,
  toggle('websocket_tcp_converter', 'Websocket-TCP converter'),
];

const AUTH_LABELS = { oauth: 'OAuth', oidc: 'OpenID Connect', saml: 'SAML' } as const;

/** A route authenticates its users one way: another auth module must go first. */
export function authModuleBlocked(route: Item, module: string): string | undefined {
  if (!(AUTH_MODULES as readonly string[]).includes(module)) return undefined;
  const other = AUTH_MODULES.find((m) => m !== module && route[m]);
  return other
    ? `A route takes one of OAuth, OpenID Connect and SAML: remove ${AUTH_LABELS[other]} first.`
    : undefined;
}
