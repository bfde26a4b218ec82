import type { SSHCertificateAuthority } from '../../../../shared/api/kinds/ssh-certificate-authorities.ts';
import { SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS } from '../../../../shared/api/kinds/ssh-certificates.ts';
import {
  DEFAULT_VALIDITY,
  VALIDITY_PRESETS,
  type ValidityPreset,
} from '../../../../shared/app/ssh/requests.ts';
import { localInputToIso } from '../../lib/time.ts';

/** OpenSSH's own extensions of user certificates, in ssh-keygen's order. */
export const EXTENSIONS = [
  'permit-X11-forwarding',
  'permit-agent-forwarding',
  'permit-port-forwarding',
  'permit-pty',
  'permit-user-rc',
] as const;

export const PRESET_LABELS: Record<ValidityPreset, string> = {
  '1h': '1 hour',
  '8h': '8 hours',
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
  '1y': '1 year',
};

/** What the contract's signing options take, as this form fills them. */
type SigningInput = {
  caId: string;
  kind: 'user' | 'host';
  principals: string[];
  validity:
    | { preset: ValidityPreset }
    | { seconds: number }
    | { validAfter: string; validUntil: string };
  criticalOptions: Record<string, string>;
  extensions: Record<string, string>;
};

/**
 * The certificate half of both forms (new key, existing key): the choices as a person makes them,
 * turned into the service's SigningOptions. Validation proper is core's; this only keeps the
 * form's own rules (host certificates take no options) and the plain warning for no principals.
 */
export class SigningDraft {
  caId = $state('');
  kind = $state<'user' | 'host'>('user');
  principals = $state('');
  /** A preset, 'custom' for a length in hours, or 'window' for a start and an end. */
  validity = $state<ValidityPreset | 'custom' | 'window'>(DEFAULT_VALIDITY.user);
  customHours = $state(24);
  /** datetime-local values: the person's local time, without a zone. */
  windowFrom = $state('');
  windowUntil = $state('');
  forceCommand = $state('');
  sourceAddress = $state('');
  extensions = $state<Record<string, boolean>>(
    Object.fromEntries(
      EXTENSIONS.map((e) => [e, Object.hasOwn(SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS, e)]),
    ),
  );

  /** The principals typed, split on commas and blanks as ssh-keygen -n reads them. */
  readonly principalList = $derived(this.principals.split(/[\s,]+/).filter((p) => p !== ''));

  readonly warning = $derived(
    this.principalList.length > 0
      ? undefined
      : this.kind === 'user'
        ? 'No principals: the certificate lets its holder log in as any user on every server that trusts the CA.'
        : 'No principals: the host certificate is valid for any host name.',
  );

  /** The spec's default validity follows the kind, unless the person already chose one. */
  setKind(kind: 'user' | 'host'): void {
    if (this.validity === DEFAULT_VALIDITY[this.kind]) this.validity = DEFAULT_VALIDITY[kind];
    this.kind = kind;
  }

  /**
   * Keeps the chosen CA while it exists. The only CA is chosen for the person; among several,
   * none is, so a key is never signed by the first of a list unasked.
   */
  follow(cas: readonly SSHCertificateAuthority[]): void {
    if (!cas.some((ca) => ca.id === this.caId))
      this.caId = cas.length === 1 ? (cas[0]?.id ?? '') : '';
  }

  private validityChoice(): SigningInput['validity'] {
    if (this.validity === 'custom') return { seconds: Math.round(this.customHours * 3600) };
    if (this.validity === 'window')
      return {
        validAfter: localInputToIso(this.windowFrom),
        validUntil: localInputToIso(this.windowUntil),
      };
    return { preset: this.validity };
  }

  options(): SigningInput {
    const user = this.kind === 'user';
    const critical: Record<string, string> = {};
    if (user && this.forceCommand.trim()) critical['force-command'] = this.forceCommand.trim();
    if (user && this.sourceAddress.trim())
      critical['source-address'] = this.sourceAddress.replace(/\s+/g, '');
    return {
      caId: this.caId,
      kind: this.kind,
      principals: this.principalList,
      validity: this.validityChoice(),
      criticalOptions: critical,
      extensions: user
        ? Object.fromEntries(EXTENSIONS.filter((e) => this.extensions[e]).map((e) => [e, '']))
        : {},
    };
  }
}

export const VALIDITY_CHOICES = Object.keys(VALIDITY_PRESETS) as ValidityPreset[];
