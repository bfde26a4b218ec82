/** The SSH wire encoding (RFC 4251 §5) of keys and certificates. */
export class WireWriter {
  private readonly parts: Buffer[] = [];

  uint32(n: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    this.parts.push(b);
    return this;
  }

  uint64(n: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(n);
    this.parts.push(b);
    return this;
  }

  string(s: string | Uint8Array): this {
    const bytes = typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s);
    this.uint32(bytes.length);
    this.parts.push(bytes);
    return this;
  }

  /** A non-negative big-endian integer: leading zeros dropped, a zero byte added if the top bit is set. */
  mpint(magnitude: Uint8Array): this {
    let start = 0;
    while (start < magnitude.length && magnitude[start] === 0) start++;
    const trimmed = Buffer.from(magnitude.subarray(start));
    const first = trimmed[0];
    return this.string(
      first !== undefined && first & 0x80 ? Buffer.concat([Buffer.of(0), trimmed]) : trimmed,
    );
  }

  raw(bytes: Uint8Array): this {
    this.parts.push(Buffer.from(bytes));
    return this;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Reads the strings of a wire blob in order; throws on a truncated blob. */
export class WireReader {
  private at = 0;

  constructor(private readonly blob: Buffer) {}

  string(): Buffer {
    if (this.at + 4 > this.blob.length) throw new RangeError('truncated SSH blob');
    const length = this.blob.readUInt32BE(this.at);
    const end = this.at + 4 + length;
    if (end > this.blob.length) throw new RangeError('truncated SSH blob');
    const out = this.blob.subarray(this.at + 4, end);
    this.at = end;
    return out;
  }
}
