import { parseAclRule } from '../../../shared/api/acl.ts';
import type { IdKind } from '../../../shared/api/ids.ts';
import { describedFields, kind, type Column, type Field, type ResourceKind } from './kind.ts';

/*
 * Every kind of resource the window shows, in sidebar order. Adding one is an entry here (its
 * words, columns and fields) and, if its section is new, a line in ResourceSection's caller.
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

/** A column of one field written as text. */
const column = (label: string, name: string): Column => ({
  label,
  value: (item) => String(item[name] ?? ''),
});
const owner = column('Owner', 'owner_id');

export const KINDS: readonly ResourceKind[] = [
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
];

export function kindOf(idKind: IdKind): ResourceKind | undefined {
  return KINDS.find((k) => k.idKind === idKind);
}

export function kindsIn(section: string): readonly ResourceKind[] {
  return KINDS.filter((k) => k.section === section);
}
