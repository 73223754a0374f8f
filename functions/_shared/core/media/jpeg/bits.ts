// Reading a JPEG's entropy-coded data: bits, most significant first, with the stuffed zero after
// each 0xFF byte dropped, and Huffman codes decoded through a lookup of their first 9 bits (most
// codes of a photo are shorter), with the longer ones found by the canonical code's bounds.

/** A Huffman table of a DHT segment, ready to decode. */
export interface HuffmanTable {
  /** Indexed by the next 9 bits: (code length << 8) | symbol, or 0 when the code is longer. */
  fast: Uint16Array;
  /** For each length 1..16, the largest code of that length (-1 when there is none). */
  maxCode: Int32Array;
  /** For each length, the index in `symbols` of its first code, less that code. */
  offset: Int32Array;
  symbols: Uint8Array;
}

const FAST_BITS = 9;

/** Builds a table from a DHT segment's 16 counts and its symbols; throws when the counts over-fill the code space. */
export function huffmanTable(counts: Uint8Array, symbols: Uint8Array): HuffmanTable {
  const fast = new Uint16Array(1 << FAST_BITS);
  const maxCode = new Int32Array(18).fill(-1);
  const offset = new Int32Array(18);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const n = counts[length - 1];
    offset[length] = k - code;
    for (let i = 0; i < n; i++, k++, code++) {
      if (length <= FAST_BITS) {
        // Every 9-bit pattern that starts with this code decodes to its symbol.
        const shift = FAST_BITS - length;
        for (let j = 0; j < 1 << shift; j++) fast[(code << shift) | j] = (length << 8) | symbols[k];
      }
    }
    if (n) maxCode[length] = code - 1;
    if (code > 1 << length) throw new JpegError('a Huffman table has more codes than fit');
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff; // past 16 bits the data is corrupt: the loop ends there
  return { fast, maxCode, offset, symbols };
}

/** A JPEG this decoder does not read (corrupt, or a kind it leaves to MozJPEG). */
export class JpegError extends Error {}

export class BitReader {
  private buffer = 0;
  private count = 0;
  /** True once a marker has been reached: from then on the reader gives zeros, as libjpeg does. */
  private atMarker = false;

  constructor(private readonly data: Uint8Array, public position: number) {}

  /** Tops the buffer up to at least 25 bits. */
  private fill() {
    const d = this.data;
    while (this.count <= 24) {
      let byte = 0;
      if (!this.atMarker && this.position < d.length) {
        byte = d[this.position];
        if (byte === 0xff) {
          const next = d[this.position + 1];
          if (next === 0x00) this.position += 2;
          else {
            this.atMarker = true;
            byte = 0;
          }
        } else this.position += 1;
      }
      this.buffer = (this.buffer << 8) | byte;
      this.count += 8;
    }
  }

  bit(): number {
    if (this.count < 1) this.fill();
    this.count -= 1;
    return (this.buffer >>> this.count) & 1;
  }

  bits(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.buffer >>> this.count) & ((1 << n) - 1);
  }

  /** n bits read as a signed value (the JPEG's "receive and extend"). */
  signed(n: number): number {
    if (n === 0) return 0;
    const v = this.bits(n);
    return v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  }

  decode(t: HuffmanTable): number {
    if (this.count < 16) this.fill();
    const entry = t.fast[(this.buffer >>> (this.count - FAST_BITS)) & ((1 << FAST_BITS) - 1)];
    if (entry) {
      this.count -= entry >> 8;
      return entry & 0xff;
    }
    let length = FAST_BITS + 1;
    let code = (this.buffer >>> (this.count - length)) & ((1 << length) - 1);
    while (code > t.maxCode[length]) {
      length += 1;
      if (length > 16) throw new JpegError('a Huffman code is not in its table');
      code = (this.buffer >>> (this.count - length)) & ((1 << length) - 1);
    }
    this.count -= length;
    return t.symbols[t.offset[length] + code];
  }

  /**
   * At a restart interval's end: drops the last byte's padding and steps over the RSTn marker
   * (or up to the next one, when bytes were lost), so that decoding starts afresh after it.
   */
  restart() {
    this.buffer = 0;
    this.count = 0;
    this.atMarker = false;
    const d = this.data;
    let at = this.position;
    while (at + 1 < d.length) {
      if (d[at] === 0xff && d[at + 1] >= 0xd0 && d[at + 1] <= 0xd7) {
        this.position = at + 2;
        return;
      }
      if (d[at] === 0xff && d[at + 1] !== 0x00 && d[at + 1] !== 0xff) break; // another marker: no restart here
      at += 1;
    }
    this.position = at;
  }
}
