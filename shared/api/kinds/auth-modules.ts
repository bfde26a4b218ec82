import { z } from 'zod';
import { isSet, NonEmptyString, Uint32 } from '../values/common.ts';
import { DomainName } from '../values/hosts.ts';
import { HeaderName } from '../values/http-headers.ts';
import { enabledRead, enabledWrite } from './module-forms.ts';
import { flag } from '../errors/rules.ts';

export const DEFAULT_COOKIE_PREFIX = 'service.';

/**
 * The session settings OIDC, OAuth and SAML share. A timeout or duration of 0 leaves it to the
 * service's own default.
 */
const sessionRead = {
  options_passthrough: z.boolean(),
  cookie_prefix: z.string(),
  inactivity_timeout: Uint32,
  maximum_duration: Uint32,
};
const sessionWrite = {
  options_passthrough: z.boolean().default(false),
  // The prefix starts a cookie name, which must be an RFC 6265 token like a header name.
  cookie_prefix: HeaderName.default(DEFAULT_COOKIE_PREFIX),
  inactivity_timeout: Uint32.default(0),
  maximum_duration: Uint32.default(0),
};

const HttpUrl = z.url({ protocol: /^https?$/ });

export const EndpointOIDC = z.looseObject({
  enabled: enabledRead,
  ...sessionRead,
  issuer: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  scopes: z.array(z.string()),
});
export type EndpointOIDC = z.output<typeof EndpointOIDC>;

export const EndpointOIDCMutate = z.strictObject({
  enabled: enabledWrite,
  ...sessionWrite,
  issuer: HttpUrl,
  client_id: NonEmptyString,
  client_secret: NonEmptyString,
  scopes: z.array(NonEmptyString).default(() => []),
});
export type EndpointOIDCMutate = z.input<typeof EndpointOIDCMutate>;

/** Providers a request may choose; responses also carry twitch and amazon (the older ones). */
export const OAUTH_REQUEST_PROVIDERS = [
  'github',
  'facebook',
  'microsoft',
  'google',
  'linkedin',
  'gitlab',
] as const;
export const OAUTH_PROVIDERS = [...OAUTH_REQUEST_PROVIDERS, 'twitch', 'amazon'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/** Each OAuth provider as people know it. */
export const OAUTH_PROVIDER_NAMES: Readonly<Record<OAuthProviderName, string>> = {
  github: 'GitHub',
  facebook: 'Facebook',
  microsoft: 'Microsoft',
  google: 'Google',
  linkedin: 'LinkedIn',
  gitlab: 'GitLab',
  twitch: 'Twitch',
  amazon: 'Amazon',
};

const oauthProviderRead = {
  client_id: z.string().nullable(),
  client_secret: z.string().nullable(),
  scopes: z.array(z.string()),
  email_addresses: z.array(z.string()),
  email_domains: z.array(z.string()),
};
const OAuthProviderRead = z.looseObject(oauthProviderRead);
const OAuthGitHubRead = z.looseObject({
  ...oauthProviderRead,
  teams: z.array(z.string()),
  organizations: z.array(z.string()),
});

/** Unset providers are null; all eight members are present. */
const EndpointOAuthProvider = z.looseObject({
  ...Object.fromEntries(OAUTH_PROVIDERS.map((name) => [name, OAuthProviderRead.nullable()])),
  github: OAuthGitHubRead.nullable(),
} as {
  [P in OAuthProviderName]: z.ZodNullable<
    P extends 'github' ? typeof OAuthGitHubRead : typeof OAuthProviderRead
  >;
});
export type EndpointOAuthProvider = z.output<typeof EndpointOAuthProvider>;

const oauthProviderWrite = {
  client_id: NonEmptyString.nullable().default(null),
  client_secret: NonEmptyString.nullable().default(null),
  scopes: z.array(NonEmptyString).default(() => []),
  email_addresses: z.array(z.email()).default(() => []),
  email_domains: z.array(DomainName).default(() => []),
};

type ClientCredentials = {
  client_id: string | null;
  client_secret: string | null;
  scopes: readonly string[];
};

/** Your own OAuth app needs both its id and secret; scopes can only be asked for with your own app. */
function clientCredentials(provider: ClientCredentials, ctx: z.RefinementCtx): void {
  if (provider.client_id !== null && provider.client_secret === null)
    flag(ctx, ['client_secret'], 'is required when "client_id" is set', 'oauthClientCredentials');
  if (provider.client_secret !== null && provider.client_id === null)
    flag(ctx, ['client_id'], 'is required when "client_secret" is set', 'oauthClientCredentials');
  if (
    provider.scopes.length > 0 &&
    (provider.client_id === null || provider.client_secret === null)
  )
    flag(
      ctx,
      ['scopes'],
      'need your own OAuth app: set "client_id" and "client_secret"',
      'oauthClientCredentials',
    );
}

const OAuthProviderWrite = z.strictObject(oauthProviderWrite).superRefine(clientCredentials);
const OAuthGitHubWrite = z
  .strictObject({
    ...oauthProviderWrite,
    teams: z
      .array(z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be "<org>/<team>"'))
      .default(() => []),
    organizations: z.array(NonEmptyString).default(() => []),
  })
  .superRefine(clientCredentials);

const EndpointOAuthProviderMutate = z
  .strictObject({
    ...Object.fromEntries(
      OAUTH_REQUEST_PROVIDERS.map((name) => [name, OAuthProviderWrite.nullable().optional()]),
    ),
    github: OAuthGitHubWrite.nullable().optional(),
  } as {
    [P in (typeof OAUTH_REQUEST_PROVIDERS)[number]]: z.ZodOptional<
      z.ZodNullable<P extends 'github' ? typeof OAuthGitHubWrite : typeof OAuthProviderWrite>
    >;
  })
  .superRefine((provider, ctx) => {
    const chosen = OAUTH_REQUEST_PROVIDERS.filter((name) => isSet(provider[name]));
    if (chosen.length !== 1)
      flag(
        ctx,
        [],
        `must set exactly one provider of ${OAUTH_REQUEST_PROVIDERS.join(', ')}; got ${chosen.length}`,
        'oauthProviderCount',
      );
  });
export type EndpointOAuthProviderMutate = z.input<typeof EndpointOAuthProviderMutate>;

export const EndpointOAuth = z.looseObject({
  enabled: enabledRead,
  provider: EndpointOAuthProvider,
  ...sessionRead,
  auth_check_interval: Uint32,
});
export type EndpointOAuth = z.output<typeof EndpointOAuth>;

export const EndpointOAuthMutate = z.strictObject({
  enabled: enabledWrite,
  provider: EndpointOAuthProviderMutate,
  ...sessionWrite,
  auth_check_interval: Uint32.default(0),
});
export type EndpointOAuthMutate = z.input<typeof EndpointOAuthMutate>;

// An IdP's metadata document is an XML EntityDescriptor, with or without a namespace prefix.
const ENTITY_DESCRIPTOR = /<(?:[A-Za-z_][\w.-]*:)?EntityDescriptor[\s/>]/;

/**
 * Beyond the spec's fields, the read form carries what the service derives for the IdP's side
 * (entity_id, assertion_consumer_service_url, single_logout_url, metadata_url) and both forms the
 * NameID format to ask for ("" lets the IdP choose).
 */
export const EndpointSAML = z.looseObject({
  enabled: enabledRead,
  ...sessionRead,
  idp_metadata: z.string(),
  force_authn: z.boolean(),
  allow_idp_initiated: z.boolean(),
  authorized_groups: z.array(z.string()),
  nameid_format: z.string(),
  entity_id: z.string(),
  assertion_consumer_service_url: z.string(),
  single_logout_url: z.string(),
  metadata_url: z.string(),
});
export type EndpointSAML = z.output<typeof EndpointSAML>;

export const EndpointSAMLMutate = z.strictObject({
  enabled: enabledWrite,
  ...sessionWrite,
  idp_metadata: z
    .string()
    .regex(ENTITY_DESCRIPTOR, 'must be the IdP metadata XML, an EntityDescriptor'),
  force_authn: z.boolean().default(false),
  allow_idp_initiated: z.boolean().default(false),
  authorized_groups: z.array(NonEmptyString).default(() => []),
  nameid_format: z.string().default(''),
});
export type EndpointSAMLMutate = z.input<typeof EndpointSAMLMutate>;

/** Each auth module's two forms, in the spec's order of a route's modules. */
export const AUTH_MODULE_FORMS = {
  oauth: { read: EndpointOAuth, write: EndpointOAuthMutate },
  saml: { read: EndpointSAML, write: EndpointSAMLMutate },
  oidc: { read: EndpointOIDC, write: EndpointOIDCMutate },
} as const;

/** A route authenticates its users in one way at most. */
export const AUTH_MODULES = ['oauth', 'oidc', 'saml'] as const;

export function authModulesSet(route: {
  readonly [M in (typeof AUTH_MODULES)[number]]?: unknown;
}): (typeof AUTH_MODULES)[number][] {
  return AUTH_MODULES.filter((name) => isSet(route[name]));
}
