/**
 * The create form of an SSH certificate authority, read out of its public key: the private key
 * never leaves the service, so applying the snapshot elsewhere makes a new key of the same type.
 */
export function sshCaCreateFields(
  resource: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const keyType = resource['key_type'];
  const [algorithm = '', blob = ''] = String(resource['public_key'] ?? '').split(' ');
  const fields: Record<string, unknown> = { ...resource, private_key_type: keyType };
  if (keyType === 'ecdsa') {
    const curve = /^ecdsa-sha2-nist(p\d+)$/.exec(algorithm)?.[1];
    if (curve !== undefined) fields['elliptic_curve'] = curve;
  }
  if (keyType === 'rsa') {
    const bits = rsaModulusBits(Buffer.from(blob, 'base64'));
    if (bits !== undefined) fields['key_size'] = bits;
  }
  return fields;
}

/** ssh-rsa wire format: string "ssh-rsa", mpint e, mpint n. */
function rsaModulusBits(key: Buffer): number | undefined {
  let offset = 0;
  const next = (): Buffer | undefined => {
    if (offset + 4 > key.length) return undefined;
    const length = key.readUInt32BE(offset);
    const part = key.subarray(offset + 4, offset + 4 + length);
    offset += 4 + length;
    return part;
  };
  next();
  next();
  const modulus = next();
  if (modulus === undefined || modulus.length === 0) return undefined;
  const leadingZero = modulus[0] === 0 ? 1 : 0;
  return (modulus.length - leadingZero) * 8;
}
