import { parseAclRule } from '../../../../shared/api/values/acl.ts';
import {
  moduleBlockedByUpstreamTermination,
  type TerminationCheckedEdge,
} from '../../../../shared/api/kinds/edge-modules.ts';
import { isDomainName, parseHostport } from '../../../../shared/api/values/hosts.ts';
import type { IdKind } from '../../../../shared/api/values/ids.ts';
import { BACKEND_KINDS } from '../../../../shared/api/kinds/backends.ts';
import {
  ELLIPTIC_CURVES,
  RSA_KEY_SIZES,
} from '../../../../shared/api/kinds/ssh-certificate-authorities.ts';
import { SSH_KEY_TYPES } from '../../../../shared/api/values/ssh-keys.ts';
import {
  column,
  describedFields,
  type Column,
  kind,
  type Field,
  type ResourceKind,
} from './kind-shape.ts';
import { HTTPS_EDGE_MODULES, TLS_EDGE_MODULES } from './edge-modules.ts';
import { hostCertificateSetup } from './ssh-setup.ts';

/*
 * Every kind of resource the window shows, in sidebar order. Adding one is an entry here (its
 * words, columns and fields) and, if its section is new, a screen in shared/app/routes.ts' SCREENS.
 */

const aclField = {
  name: 'acl',
  label: 'ACL rule',
  type: 'lines',
  help: '"*" permits everything; otherwise bind:example.com, bind:*.example.com, bind:key=value or bind:host:port. No rule means no restriction.',
  check: (line: string) => {
    const parsed = parseAclRule(line);
    return parsed.ok ? undefined : parsed.reason;
  },
} as const satisfies Field<'acl'>;

const failoverChildren = {
  name: 'backends',
  label: 'Child backends',
  type: 'refs',
  kinds: BACKEND_KINDS,
  ordered: true,
  required: true,
} as const satisfies Field<'backends'>;

const httpResponseFields = [
  {
    name: 'status_code',
    label: 'Status code',
    type: 'number',
    help: '100–599; 200 when left empty.',
  },
  { name: 'body', label: 'Body', type: 'textarea' },
  { name: 'headers', label: 'Header', type: 'map' },
] as const satisfies readonly Field<'status_code' | 'body' | 'headers'>[];

const labelsField = {
  name: 'labels',
  label: 'Label',
  type: 'map',
  required: true,
  help: 'Tunnels whose labels include all of these take the traffic.',
} as const satisfies Field<'labels'>;

const certificateFields = [
  {
    name: 'ssh_certificate_authority_id',
    label: 'Certificate authority',
    type: 'ref',
    kinds: ['sshCertificateAuthority'],
    required: true,
  },
  {
    name: 'public_key',
    label: 'Public key',
    type: 'textarea',
    required: true,
    help: 'One OpenSSH line: ssh-ed25519 AAAA… comment',
  },
  { name: 'principals', label: 'Principal', type: 'lines' },
  {
    name: 'valid_after',
    label: 'Valid after',
    type: 'text',
    help: 'RFC 3339, e.g. 2026-01-31T12:00:00Z; now when empty.',
  },
  {
    name: 'valid_until',
    label: 'Valid until',
    type: 'text',
    help: 'RFC 3339; a default lifetime when empty.',
  },
  ...describedFields,
] as const satisfies readonly Field<
  | 'ssh_certificate_authority_id'
  | 'public_key'
  | 'principals'
  | 'valid_after'
  | 'valid_until'
  | 'description'
  | 'metadata'
>[];

const owner = column('Owner', 'owner_id');

/** A column of ids, each as what it names: the references cache resolves them all in one go. */
function referencesColumn(label: string, name: string, refers: readonly IdKind[]): Column {
  return {
    label,
    refers,
    value: (item, nameOf) => {
      const ids = item[name];
      return Array.isArray(ids) ? ids.map((id) => nameOf(String(id))).join(', ') : '';
    },
  };
}

/**
 * What is wrong with a hostport, as the rule after its field's label, or undefined when it is
 * one: an edge's hostports and Expose's "Domain and port" check alike. A host without its port
 * is the usual slip, so the rule then shows the line with one.
 */
export function hostportProblem(line: string): string | undefined {
  if (parseHostport(line)) return undefined;
  const rule = 'must be "<host>:<port>" with a port from 1 to 65535';
  return isDomainName(line) ? `${rule}, such as ${line}:443` : rule;
}

const hostportsField = {
  name: 'hostports',
  label: 'Hostport',
  type: 'lines',
  help: '<host>:<port>, e.g. app.example.com:443 or [2001:db8::1]:443.',
  check: hostportProblem,
} as const satisfies Field<'hostports'>;

/** Edges as plain resources; their modules are set and removed with endpoints of their own. */
const edgeFields = [...describedFields, hostportsField] as const;

export const KINDS: readonly ResourceKind[] = [
  kind({
    group: 'tlsEdges',
    idKind: 'tlsEdge',
    section: 'edges',
    singular: 'TLS edge',
    plural: 'TLS edges',
    columns: [column('Hostports', 'hostports')],
    create: edgeFields,
    update: edgeFields,
    modules: TLS_EDGE_MODULES,
    moduleWarning: (edge, module) =>
      moduleBlockedByUpstreamTermination(edge as TerminationCheckedEdge) === module
        ? 'Conflicts with TLS terminated upstream: the edge never sees the decrypted traffic.'
        : undefined,
  }),
  kind({
    group: 'httpsEdges',
    idKind: 'httpsEdge',
    section: 'edges',
    singular: 'HTTPS edge',
    plural: 'HTTPS edges',
    columns: [column('Hostports', 'hostports')],
    create: edgeFields,
    update: edgeFields,
    modules: HTTPS_EDGE_MODULES,
  }),
  kind({
    group: 'credentials',
    idKind: 'credential',
    section: 'credentials',
    singular: 'tunnel credential',
    plural: 'Tunnel credentials',
    columns: [owner],
    create: [...describedFields, aclField],
    update: [...describedFields, aclField],
  }),
  kind({
    group: 'sshCredentials',
    idKind: 'sshCredential',
    section: 'credentials',
    singular: 'SSH credential',
    plural: 'SSH credentials',
    columns: [owner],
    create: [
      {
        name: 'public_key',
        label: 'Public key',
        type: 'textarea',
        required: true,
        help: 'One OpenSSH line, as in id_ed25519.pub: ssh-ed25519 AAAA… comment',
      },
      ...describedFields,
      aclField,
    ],
    update: [...describedFields, aclField],
  }),
  kind({
    group: 'ipPolicies',
    idKind: 'ipPolicy',
    section: 'ip-policies',
    singular: 'IP policy',
    plural: 'IP policies',
    create: describedFields,
    update: describedFields,
  }),
  kind({
    group: 'failoverBackends',
    idKind: 'failoverBackend',
    section: 'backends',
    singular: 'failover backend',
    plural: 'Failover backends',
    columns: [referencesColumn('Children, in order', 'backends', BACKEND_KINDS)],
    create: [...describedFields, failoverChildren],
    update: [...describedFields, failoverChildren],
  }),
  kind({
    group: 'httpResponseBackends',
    idKind: 'httpResponseBackend',
    section: 'backends',
    singular: 'HTTP response backend',
    plural: 'HTTP response backends',
    columns: [column('Status', 'status_code')],
    create: [...describedFields, ...httpResponseFields],
    update: [...describedFields, ...httpResponseFields],
  }),
  kind({
    group: 'tunnelGroupBackends',
    idKind: 'tunnelGroupBackend',
    section: 'backends',
    singular: 'tunnel group backend',
    plural: 'Tunnel group backends',
    columns: [column('Labels', 'labels')],
    create: [...describedFields, labelsField],
    update: [...describedFields, labelsField],
  }),
  kind({
    group: 'certificateAuthorities',
    idKind: 'certificateAuthority',
    section: 'edges',
    singular: 'certificate authority',
    plural: 'Certificate authorities',
    note: 'CAs that mutual TLS modules trust to sign client certificates.',
    columns: [column('Subject', 'subject_common_name'), column('Expires', 'not_after')],
    create: [
      {
        name: 'ca_pem',
        label: 'CA certificate (PEM)',
        type: 'textarea',
        required: true,
        help: 'One certificate, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.',
      },
      ...describedFields,
    ],
    update: describedFields,
  }),
  kind({
    group: 'sshCertificateAuthorities',
    idKind: 'sshCertificateAuthority',
    section: 'ssh',
    singular: 'SSH certificate authority',
    plural: 'SSH certificate authorities',
    columns: [column('Key type', 'key_type')],
    copyable: ['public_key'],
    create: [
      ...describedFields,
      {
        name: 'private_key_type',
        label: 'Key type',
        type: 'select',
        options: ['', ...SSH_KEY_TYPES],
      },
      {
        name: 'elliptic_curve',
        label: 'Elliptic curve',
        type: 'select',
        options: ['', ...ELLIPTIC_CURVES],
        when: (v) => v['private_key_type'] === 'ecdsa',
      },
      {
        name: 'key_size',
        label: 'Key size (bits)',
        type: 'select',
        numeric: true,
        options: ['', ...RSA_KEY_SIZES.map(String)],
        when: (v) => v['private_key_type'] === 'rsa',
      },
    ],
    update: describedFields,
  }),
  kind({
    group: 'sshUserCertificates',
    idKind: 'sshUserCertificate',
    section: 'ssh',
    singular: 'SSH user certificate',
    plural: 'SSH user certificates',
    columns: [column('Principals', 'principals'), column('Valid until', 'valid_until')],
    copyable: ['certificate', 'public_key'],
    create: [
      ...certificateFields,
      {
        name: 'critical_options',
        label: 'Critical option',
        type: 'map',
        help: 'force-command or source-address.',
      },
      {
        name: 'extensions',
        label: 'Extension',
        type: 'map',
        help: 'Left empty: permit-pty and permit-user-rc.',
      },
    ],
    update: describedFields,
  }),
  kind({
    group: 'sshHostCertificates',
    idKind: 'sshHostCertificate',
    section: 'ssh',
    singular: 'SSH host certificate',
    plural: 'SSH host certificates',
    columns: [column('Principals', 'principals'), column('Valid until', 'valid_until')],
    copyable: ['certificate', 'public_key'],
    setup: { file: 'sshd_config', lines: hostCertificateSetup },
    create: certificateFields,
    update: describedFields,
  }),
  kind({
    group: 'agentIngresses',
    idKind: 'agentIngress',
    section: 'agent-ingresses',
    singular: 'agent ingress',
    plural: 'Agent ingresses',
    note: 'At your registrar, set the NS records of the domain to the NS targets shown on the ingress; agents then connect through its region domains.',
    columns: [column('Domain', 'domain')],
    copyable: ['ns_targets', 'region_domains', 'domain'],
    create: [
      {
        name: 'domain',
        label: 'Domain',
        type: 'text',
        required: true,
        help: 'A domain you own, e.g. tunnels.example.com. It cannot be changed later.',
      },
      ...describedFields,
    ],
    update: describedFields,
  }),
  kind({
    group: 'abuseReports',
    idKind: 'abuseReport',
    section: 'abuse-reports',
    singular: 'abuse report',
    plural: 'Abuse reports',
    listed: false,
    note: 'The API has no list of reports: these are the ones filed from this window for this profile.',
    columns: [column('Status', 'status'), column('URLs', 'urls')],
    create: [
      {
        name: 'urls',
        label: 'URL',
        type: 'lines',
        required: true,
        check: (line) =>
          /^https?:\/\/[^/]/.test(line) ? undefined : 'must be an http or https URL',
      },
      { name: 'metadata', label: 'Metadata', type: 'metadata' },
    ],
    update: [],
  }),
];

export function kindOf(idKind: IdKind): ResourceKind | undefined {
  return KINDS.find((k) => k.idKind === idKind);
}

export function kindsIn(section: string): readonly ResourceKind[] {
  return KINDS.filter((k) => k.section === section);
}

/** The kind a section's address names (its first kind when it names none), and the id after it. */
export function kindAt(
  section: string,
  path: readonly string[],
): { readonly kind: ResourceKind | undefined; readonly id: string | undefined } {
  const kinds = kindsIn(section);
  const named = kinds.find((k) => k.group === path[0]);
  return { kind: named ?? kinds[0], id: named ? path[1] : undefined };
}
