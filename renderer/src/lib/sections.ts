/** The window's sections, in sidebar order; each has an address (`#/id`) and a promise of what it holds. */
export const SECTIONS = [
  {
    id: 'sessions',
    label: 'Sessions',
    purpose: 'The agents online now, with restart, stop and update.',
  },
  { id: 'edges', label: 'Edges', purpose: 'TLS and HTTPS edges, their routes and modules.' },
  {
    id: 'backends',
    label: 'Backends',
    purpose: 'Failover, HTTP-response and tunnel-group backends.',
  },
  {
    id: 'credentials',
    label: 'Credentials',
    purpose: 'Tunnel credentials and SSH credentials, with their ACL rules.',
  },
  {
    id: 'ssh',
    label: 'SSH',
    purpose: 'SSH certificate authorities, keys and certificates saved ready for ssh.',
  },
  { id: 'ip-policies', label: 'IP policies', purpose: 'IP policies used by IP restrictions.' },
  {
    id: 'agent-ingresses',
    label: 'Agent ingresses',
    purpose: 'Your own domains for agents to connect through.',
  },
  {
    id: 'abuse-reports',
    label: 'Abuse reports',
    purpose: 'Reports of abusive URLs and what became of them.',
  },
  { id: 'settings', label: 'Settings', purpose: 'Profiles, notifications and appearance.' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];

export function sectionOf(hash: string): SectionId {
  const [id] = pathOf(hash);
  return SECTIONS.find((s) => s.id === id)?.id ?? 'sessions';
}

/** The address's segments: `#/credentials/credentials/cr_1` → section, kind, id. */
export function pathOf(hash: string): string[] {
  return hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
}
