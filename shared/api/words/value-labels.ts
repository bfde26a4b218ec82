/*
 * The words a person reads for the API's enumerated values, one place for every view (details,
 * lists, forms, plans), by the field that holds them: `status` PENDING reads "Pending". A value
 * without an entry reads as itself, so the test that walks the model's enums is what keeps this
 * table whole.
 */
import { OAUTH_PROVIDER_NAMES } from '../kinds/auth-modules.ts';
import { MATCH_TYPE_NAMES } from '../kinds/https-edge-routes.ts';
import { WEBHOOK_PROVIDER_NAMES } from '../kinds/webhook-providers.ts';

const KEY_TYPES = { rsa: 'RSA', ecdsa: 'ECDSA', ed25519: 'Ed25519' };

export const VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // An abuse report's and its hostnames' states.
  status: {
    PENDING: 'Pending',
    PROCESSED: 'Processed',
    PARTIALLY_PROCESSED: 'Partly processed',
    BANNED: 'Banned',
    UNBANNED: 'Unbanned',
    IGNORE: 'Ignored',
  },
  terminate_at: { edge: 'At the edge', upstream: 'Upstream, at the agent' },
  min_version: { '1.0': 'TLS 1.0', '1.1': 'TLS 1.1', '1.2': 'TLS 1.2', '1.3': 'TLS 1.3' },
  private_key_type: KEY_TYPES,
  key_type: KEY_TYPES,
  elliptic_curve: { p256: 'P-256', p384: 'P-384', p521: 'P-521' },
  key_size: { '2048': '2048 bits', '4096': '4096 bits' },
  match_type: MATCH_TYPE_NAMES,
  provider: { ...WEBHOOK_PROVIDER_NAMES, ...OAUTH_PROVIDER_NAMES },
  action: { allow: 'Allow', deny: 'Deny' },
  transport: { 'service/v2': 'Agent protocol (v2)', ssh: 'SSH' },
};

/** What a person reads for `value` in the API field `field`; the value itself if it has no label. */
export function valueLabel(field: string, value: string | number): string {
  return VALUE_LABELS[field]?.[String(value)] ?? String(value);
}
