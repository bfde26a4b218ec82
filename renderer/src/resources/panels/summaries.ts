import {
  AUTH_MODULES,
  OAUTH_PROVIDER_NAMES,
  type OAuthProviderName,
} from '../../../../shared/api/kinds/auth-modules.ts';
import { fieldLabel } from '../../../../shared/api/words/field-labels.ts';
import { idKindOf } from '../../../../shared/api/values/ids.ts';
import { webhookProviderName } from '../../../../shared/api/kinds/webhook-providers.ts';
import type { Item, ModuleSpec } from '../kinds/kind-shape.ts';
import { kindOf } from '../kinds/kind-list.ts';
import type { References } from '../names/references.svelte.ts';
import { nameOf } from '../names/names.ts';

/*
 * A set module as people say it: one sentence ("Sends traffic to failover backend 'Primary then
 * hello' (2 backends)"), then its settings under their labels. Only what is set is shown: OAuth's
 * one chosen provider, not the seven left null.
 */

type Module = Readonly<Record<string, unknown>>;
type Ref = { readonly id: string };

export type Detail = { readonly name: string; readonly label: string; readonly value: unknown };

const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const strings = (value: unknown): string[] => list(value).map(String);
const ids = (value: unknown): string[] => list(value).map((r) => (r as Ref).id);

/** `'a', 'b' and 'c'` */
function joined(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** `failover backend 'Primary'`, or its kind and a short id while it has no description. */
function named(refs: References, id: string): string {
  const description = refs.item(id)?.description;
  const kind = idKindOf(id);
  const singular = (kind && kindOf(kind)?.singular) ?? 'resource';
  return description ? `${singular} '${description}'` : refs.reference(id).text;
}

function backend(m: Module, refs: References): string {
  const id = (m['backend'] as Ref | undefined)?.id ?? '';
  const children = refs.item(id)?.['backends'];
  const count = Array.isArray(children)
    ? ` (${children.length} ${children.length === 1 ? 'backend' : 'backends'})`
    : '';
  return `Sends traffic to ${named(refs, id)}${count}`;
}

function tlsTermination(m: Module): string {
  if (m['terminate_at'] === 'upstream')
    return 'TLS passed through: terminated by the agent upstream';
  const version = m['min_version'];
  return typeof version === 'string'
    ? `TLS terminated at the edge, TLS ${version} or newer`
    : 'TLS terminated at the edge, the service’s minimum version';
}

/** The OAuth provider that is set, and its settings. */
export function oauthProvider(m: Module): [OAuthProviderName, Module] | undefined {
  const providers = (m['provider'] ?? {}) as Record<string, Module | null>;
  const found = Object.entries(providers).find(([, p]) => p);
  return found as [OAuthProviderName, Module] | undefined;
}

function oauth(m: Module): string {
  const [name, p] = oauthProvider(m) ?? [];
  if (!name || !p) return 'Login with OAuth';
  const who = [
    ...strings(p['teams']).map((t) => `members of ${t}`),
    ...strings(p['organizations']).map((o) => `members of ${o}`),
    ...strings(p['email_domains']).map((d) => `anyone at ${d}`),
    ...strings(p['email_addresses']),
  ];
  const product = OAUTH_PROVIDER_NAMES[name] ?? name;
  return who.length > 0
    ? `Login with ${product} — ${joined(who)}`
    : `Login with ${product} — any ${product} account`;
}

function hostOf(url: unknown): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return String(url);
  }
}

function headers(m: Module, where: string): string {
  const add = Object.keys((m['add'] ?? {}) as object).length;
  const remove = list(m['remove']).length;
  const parts = [
    add > 0 ? `adds ${add} ${add === 1 ? 'header' : 'headers'}` : '',
    remove > 0 ? `removes ${remove} ${remove === 1 ? 'header' : 'headers'}` : '',
  ].filter(Boolean);
  const said = joined(parts) || 'changes no header';
  return `${said[0]?.toUpperCase()}${said.slice(1)} ${where}`;
}

const SENTENCES: Readonly<Record<string, (m: Module, refs: References) => string>> = {
  backend,
  ip_restriction: (m, refs) =>
    `Lets in only what ${joined(ids(m['ip_policies']).map((id) => named(refs, id)))} ${ids(m['ip_policies']).length === 1 ? 'allows' : 'allow'}`,
  mutual_tls: (m, refs) =>
    `Asks clients for a certificate signed by ${joined(ids(m['certificate_authorities']).map((id) => named(refs, id)))}`,
  tls_termination: tlsTermination,
  circuit_breaker: (m) =>
    `Stops traffic for ${String(m['tripped_duration'])} s when ${Math.round(Number(m['error_threshold_percentage']) * 100)}% of at least ${String(m['volume_threshold'])} requests fail within ${String(m['rolling_window'])} s`,
  compression: () => 'Compresses responses',
  request_headers: (m) => headers(m, 'on requests'),
  response_headers: (m) => headers(m, 'on responses'),
  webhook_verification: (m) =>
    `Checks the signature of ${webhookProviderName(String(m['provider']))} webhooks`,
  oauth,
  oidc: (m) => `Login with ${hostOf(m['issuer'])} (OpenID Connect)`,
  saml: (m) => {
    const groups = strings(m['authorized_groups']);
    return groups.length > 0
      ? `Login with SAML — members of ${joined(groups)}`
      : 'Login with SAML — anyone the identity provider signs in';
  },
  websocket_tcp_converter: () => 'Converts websocket traffic to TCP',
};

/** The module in one sentence; a disabled one says so first. */
export function moduleSentence(spec: ModuleSpec, m: Module, refs: References): string {
  const sentence = SENTENCES[spec.name]?.(m, refs) ?? spec.label;
  return m['enabled'] === false
    ? `Off: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`
    : sentence;
}

/** Names shown in the sentence or worth nothing apart: left out of the details. */
const SAID = new Set(['enabled']);

/** The module's settings under their labels: only what is set, providers by product name. */
export function moduleDetails(spec: ModuleSpec, m: Module): Detail[] {
  const [providerName, providerSettings] = spec.name === 'oauth' ? (oauthProvider(m) ?? []) : [];
  const flat: Module =
    spec.name === 'oauth'
      ? {
          ...Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'provider')),
          provider: providerName ? (OAUTH_PROVIDER_NAMES[providerName] ?? providerName) : null,
          ...providerSettings,
        }
      : spec.name === 'webhook_verification'
        ? { ...m, provider: webhookProviderName(String(m['provider'])) }
        : m;
  return Object.entries(flat)
    .filter(([name, value]) => !SAID.has(name) && value !== null && value !== undefined)
    .map(([name, value]) => ({
      name,
      label: spec.fields.find((f) => (f.read ?? f.name) === name)?.label ?? fieldLabel(name),
      value,
    }));
}

/** What removing a module takes away, asked before it goes. */
export function removeQuestion(spec: ModuleSpec, owner: Item, refs: References): string {
  const now = moduleSentence(spec, (owner[spec.name] ?? {}) as Module, refs);
  const open = (AUTH_MODULES as readonly string[]).includes(spec.name)
    ? ' Without it, anyone reaches the route without logging in.'
    : '';
  return `Remove ${spec.label} from ${nameOf(owner)}? It does this now: ${now}.${open}`;
}
