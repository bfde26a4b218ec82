import { SandboxApiError } from '../http/sandbox-api-error.ts';
import { InvalidSshKey } from '../ssh/keys.ts';

/**
 * Runs `use` on a public key from a request body; a key that only key arithmetic can find
 * unusable (an RSA modulus OpenSSH refuses, an ECDSA point off its curve) is the caller's 317,
 * never a 500.
 */
export function withPublicKey<T>(use: () => T): T {
  try {
    return use();
  } catch (error) {
    if (!(error instanceof InvalidSshKey)) throw error;
    throw new SandboxApiError(
      'invalidPublicKey',
      `"public_key" is not a key OpenSSH accepts: ${error.message}`,
      { field: 'public_key' },
    );
  }
}
