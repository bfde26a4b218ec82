import type { CreatableGroup } from './kind-shape.ts';

/**
 * What each kind is for, in one sentence: an empty list says it beside the button that creates
 * the first one. A kind of KINDS without one is caught by tests/unit/renderer/purposes.test.ts.
 */
export const PURPOSES: Readonly<Partial<Record<CreatableGroup, string>>> = {
  tlsEdges:
    'A TLS edge receives TLS connections on its hostports and passes them to a backend, with modules for mutual TLS and termination.',
  httpsEdges:
    'An HTTPS edge serves HTTPS on its hostports and sends each route to a backend, with modules for auth, headers and more.',
  credentials:
    'A tunnel credential is the authtoken an agent starts with; its ACL limits what the agent may bind.',
  sshCredentials:
    'An SSH credential registers a public key, so that ssh can open tunnels with it instead of an agent.',
  ipPolicies:
    'An IP policy names a set of addresses that edges allow or deny with their IP restriction modules.',
  failoverBackends:
    'A failover backend tries its child backends in order, moving on when one is unavailable.',
  httpResponseBackends:
    'An HTTP response backend answers every request itself with a fixed status, headers and body.',
  tunnelGroupBackends:
    'A tunnel group backend sends traffic to the agents whose tunnels carry all of its labels.',
  certificateAuthorities:
    'A certificate authority is a CA certificate that mutual TLS modules trust to sign client certificates.',
  sshCertificateAuthorities:
    'An SSH certificate authority signs the user and host certificates that ssh and sshd trust.',
  sshUserCertificates:
    'An SSH user certificate lets a key log in as its principals on hosts that trust the CA.',
  sshHostCertificates:
    'An SSH host certificate lets clients that trust the CA recognise a host by its key.',
  agentIngresses:
    'An agent ingress lets agents connect through a domain of your own instead of the service’s.',
  abuseReports:
    'An abuse report asks the service to review URLs it serves that are used for abuse; it says what was done.',
};
