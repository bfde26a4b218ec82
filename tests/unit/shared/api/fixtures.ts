import {
  endpoint,
  type AnyEndpoint,
  type EndpointName,
} from '../../../../shared/api/catalog/endpoints.ts';
import { ERRORS, type ErrorName } from '../../../../shared/api/errors/errors.ts';

// Real keys and a real certificate, made with ssh-keygen and openssl for these tests only.
export const PUBLIC_KEYS = {
  ed25519:
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMMSLXS0duRMYMN2sGRAamKIbhq0CWPO/PPzPB9epkZs alice@laptop',
  rsa: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDF5spXJqx2mVUj6T7CzTjYunwPcIj430rESqWp7IQ0mU33V3FObSJNoIJtQ2FHchwaRp7GemfpC+SpI6fyM2eexzAyn9+36dH8cmYfuRrc+U0dRnQio9uROGz0/brQyb8HSCGzZ5o2SHi8TDXkE1NnfZYrYfbreZQJBVJejUqDuZCbvSOP41joIy0ddQRqxX3Fa3KaxEEsNKX7c9OXO5sI0ypn3XhcVx79GspnJO/ClBCxG7z14spMiGpWDy7zD3B0OjzP5TDUFpmQyJEXFgyZvAcN+aEgK3Hu/cyr8O2B7EtmmNF6aBwOWyNdakPLL7NvgRN6aorPsx//dBHy3Lu7 root@vm',
  ecdsa256:
    'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBKL1Q9xJJMw+gr9mwNR1qrgGY87EEAz7EI70bI2QJ9zT3gzPXBnNLLQlvT4lY1I3VcH9My3T3LNJSCgjkpXeT2U=',
  ecdsa384:
    'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBEwgpXO8x0cEmuQNSd0L7CM2huvnS9nknRA3Jt0GyytuH5wd5hiPu3q5PH+pDc7Rf4M3JcIAQHoRiobzxhcFcOJBDV7AZVA6O4GoGx6Ux8gez1QGOSFeCPwEnrqRmfST9w== root@vm',
  ecdsa521:
    'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAC1FOaUJWotjiwjpM6rmwM1ZU+BnNmOeK/EeCoDsK9toEkoqEibv2H1GrG126WjuVceJFfXxCqcINOq71vEbjexbwB8cGW2vOiVVb2DmEUm85rn0r+QmSeoNHdet6rdkZ6csNo/nMpdqfCJzFKJ266pCDRVnAhTr3A+10Z8Xwh1y0hjYg== root@vm',
} as const;

export const CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBhzCCAS2gAwIBAgIUAMuoB7JPFnjdQ51d0NzQeS+hVi0wCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOQnVycm93IFRlc3QgQ0EwHhcNMjYxMTIxMjIyODMwWhcNMzYx
MTE4MjIyODMwWjAZMRcwFQYDVQQDDA5CdXJyb3cgVGVzdCBDQTBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABJlOX8kAHVZN1sjiigls+roPQFWE33JSxTc1EDp7troA
p01FJNVW/K555NDrM5XDlq4/jAriDreOAwUb3+JTrJCjUzBRMB0GA1UdDgQWBBSd
148oX1J2RVp8yg1k6Eu9+C+GjTAfBgNVHSMEGDAWgBSd148oX1J2RVp8yg1k6Eu9
+C+GjTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDlEvB7Gaze
3DQoLSrXDYUxtEWS28G4F4OVBT0Wd2jV9QIgJUy8GOrt19BSwOqwsR4ewF54yx0F
eHcCQDgvWOaNRrA=
-----END CERTIFICATE-----
`;

const BASE = 'https://api.example.com';

/** A server-side representation's common fields. */
export function resource(path: string, id: string) {
  return { id, uri: `${BASE}${path}/${id}`, created_at: '2025-01-31T12:00:00Z' };
}

export function ref(path: string, id: string) {
  return { id, uri: `${BASE}${path}/${id}` };
}

export function listOf(key: string, path: string, items: readonly unknown[]) {
  return { [key]: items, uri: `${BASE}${path}`, next_page_uri: null };
}

/** What a list endpoint's response schema reads under `key` out of one page of `items`. */
export function listed(
  name: `${string}.list` & EndpointName,
  key: string,
  items: readonly unknown[],
) {
  const { path, response } = endpoint(name);
  return (response.parse(listOf(key, path, items)) as Record<string, unknown>)[key];
}

/** A catalog group whose resources are created, read and updated: `ipPolicies`, and more. */
type CollectionGroup = {
  [N in EndpointName]: N extends `${infer G}.update` ? G : never;
}[EndpointName];

type Operation<G extends string, O extends string> = Extract<
  AnyEndpoint,
  { readonly name: `${G}.${O}` }
>;

/**
 * The schemas the API checks a collection's bodies with and answers in, as the catalog gives
 * them to the server and the client: what a test of a kind's rules reads is what is served.
 */
export function collectionSchemas<G extends CollectionGroup>(group: G) {
  const of = (operation: string) => endpoint(`${group}.${operation}` as EndpointName);
  // The catalog's names are typed one by one; a name built from `group` is not, so its schemas
  // are given the types the catalog has for that name.
  return {
    create: of('create').body,
    created: of('create').response,
    update: of('update').body,
    item: of('get').response,
  } as {
    readonly create: Operation<G, 'create'>['body'];
    readonly created: Operation<G, 'create'>['response'];
    readonly update: Operation<G, 'update'>['body'];
    readonly item: Operation<G, 'get'>['response'];
  };
}

/** The body the service answers one of its errors with; `details` adds to the operation id. */
export function errorBody(name: ErrorName, msg: string, details: Record<string, unknown> = {}) {
  const { code, status } = ERRORS[name];
  return {
    error_code: code,
    status_code: status,
    msg,
    details: { operation_id: 'op_1', ...details },
  };
}
