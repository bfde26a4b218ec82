import { TLS_VERSIONS } from '../../../../shared/api/kinds/edge-modules.ts';
import { BACKEND_KINDS } from '../../../../shared/api/kinds/backends.ts';
import type { Field, ModuleSpec } from './kind-shape.ts';

/*
 * The modules of TLS and HTTPS edges as forms, each set with its own endpoint. An HTTPS route
 * takes the TLS edge's backend and IP restriction as they are (route-modules.ts).
 */

/** Whether a module applies: every module's first field. */
export const enabled = { name: 'enabled', label: 'Enabled', type: 'boolean' } as const;
const minVersion = {
  name: 'min_version',
  label: 'Minimum TLS version',
  type: 'select',
  options: ['', ...TLS_VERSIONS],
  help: 'Default: the service chooses a safe minimum.',
} as const satisfies Field;

const mutualTls: ModuleSpec = {
  name: 'mutual_tls',
  label: 'Mutual TLS',
  fields: [
    enabled,
    {
      name: 'certificate_authority_ids',
      read: 'certificate_authorities',
      label: 'Trusted CAs',
      type: 'refs',
      kinds: ['certificateAuthority'],
      offers: 'certificateAuthority',
      required: true,
    },
  ],
};

export const TLS_EDGE_MODULES: readonly ModuleSpec[] = [
  {
    name: 'backend',
    label: 'Backend',
    fields: [
      enabled,
      {
        name: 'backend_id',
        read: 'backend',
        label: 'Backend',
        type: 'ref',
        kinds: BACKEND_KINDS,
        required: true,
      },
    ],
  },
  {
    name: 'ip_restriction',
    label: 'IP restriction',
    fields: [
      enabled,
      {
        name: 'ip_policy_ids',
        read: 'ip_policies',
        label: 'IP policies',
        type: 'refs',
        kinds: ['ipPolicy'],
        required: true,
      },
    ],
  },
  mutualTls,
  {
    name: 'tls_termination',
    label: 'TLS termination',
    fields: [
      enabled,
      {
        name: 'terminate_at',
        label: 'Terminate at',
        type: 'select',
        options: ['edge', 'upstream'],
        help: 'Upstream: TLS passes through to the agent; no minimum version, no mutual TLS.',
      },
      // Passing TLS through leaves no version for the edge to enforce: the field goes away.
      { ...minVersion, when: (v) => v['terminate_at'] !== 'upstream' },
    ],
  },
];

export const HTTPS_EDGE_MODULES: readonly ModuleSpec[] = [
  mutualTls,
  { name: 'tls_termination', label: 'TLS termination', fields: [enabled, minVersion] },
];
