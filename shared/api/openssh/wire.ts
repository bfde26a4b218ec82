/**
 * The SSH wire encoding (RFC 4251 §5) of keys, certificates and private key files, on plain
 * Uint8Arrays so that the sandbox, the main process and the renderer all read and write it alike.
 */
const utf8 = new TextEncoder();

export class WireWriter {
  private readonly parts: Uint8Array[] = [];

  uint32(n: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n);
    this.parts.push(b);
    return this;
  }

  uint64(n: bigint): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, n);
    this.parts.push(b);
    return this;
  }

  string(s: string | Uint8Array): this {
    const bytes = typeof s === 'string' ? utf8.encode(s) : s.slice();
    this.uint32(bytes.length);
    this.parts.push(bytes);
    return this;
  }

  /** A non-negative big-endian integer: leading zeros dropped, a zero byte added if the top bit is set. */
  mpint(magnitude: Uint8Array): this {
    let start = 0;
    while (start < magnitude.length && magnitude[start] === 0) start++;
    const trimmed = magnitude.subarray(start);
    const first = trimmed[0];
    return this.string(
      first !== undefined && first & 0x80 ? concatBytes([Uint8Array.of(0), trimmed]) : trimmed,
    );
  }

  raw(bytes: Uint8Array): this {
    this.parts.push(bytes.slice());
    return this;
  }

  bytes(): Uint8Array {
    return concatBytes(this.parts);
  }
}

/** Reads a wire blob field by field, in order; throws RangeError on a truncated blob. */
export class WireReader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly blob: Uint8Array) {
    this.view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  }

  private need(bytes: number): number {
    const start = this.at;
    if (start + bytes > this.blob.length) throw new RangeError('truncated SSH blob');
    this.at = start + bytes;
    return start;
  }

  uint32(): number {
    return this.view.getUint32(this.need(4));
  }

  uint64(): bigint {
    return this.view.getBigUint64(this.need(8));
  }

  string(): Uint8Array {
    const length = this.uint32();
    const start = this.need(length);
    return this.blob.subarray(start, start + length);
  }

  /** A string field read as UTF-8 text. */
  text(): string {
    return new TextDecoder().decode(this.string());
  }

  get done(): boolean {
    return this.at === this.blob.length;
  }
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
