// A scan's entropy-coded data, decoded block by block: a baseline scan's blocks are turned into
// pixels at once (their coefficients live in one 64-entry scratch), a progressive scan's add their
// bits to the coefficients the image keeps until its last scan (ITU T.81, G.1.2). Restart
// intervals reset the DC predictions and the end-of-band run.
import { BitReader, type HuffmanTable, JpegError } from './bits.ts';
import { inverseDct } from './idct.ts';

/** The zig-zag order: the natural (row-major) position of the k-th coefficient of a block. */
// deno-fmt-ignore
export const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
]);

export interface Component {
  id: number;
  h: number;
  v: number;
  /** The quantisation table, as of the component's first scan, and its number. */
  quant: Uint16Array;
  quantTable: number;
  /** The blocks that hold the image (a scan of this component alone codes these). */
  blocksPerLine: number;
  blocksPerColumn: number;
  /** The blocks with the MCUs' padding (an interleaved scan codes these); the planes' and coefficients' layout. */
  paddedPerLine: number;
  paddedPerColumn: number;
  /** The inverse transform's size for this component, across and down (idct.ts). */
  nx: number;
  ny: number;
  /** The component's samples at its decoded size, paddedPerLine × nx wide. */
  plane: Uint8ClampedArray;
  /** A progressive image's coefficients, 64 a block, in natural order; null for a baseline one. */
  coefficients: Int16Array | null;
  dc: HuffmanTable | null;
  ac: HuffmanTable | null;
  prediction: number;
}

export interface Scan {
  components: Component[];
  start: number;
  end: number;
  high: number;
  low: number;
}

const scratch = new Int32Array(64);

/** A baseline block: decoded into the scratch and turned into pixels in its plane. */
function baselineBlock(r: BitReader, c: Component, row: number, col: number) {
  scratch.fill(0);
  const t = r.decode(c.dc!);
  c.prediction += r.signed(t);
  scratch[0] = c.prediction;
  const ac = c.ac!;
  for (let k = 1; k < 64;) {
    const rs = r.decode(ac);
    const s = rs & 15;
    const run = rs >> 4;
    if (s === 0) {
      if (run < 15) break;
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) throw new JpegError('a block has more than 64 coefficients');
    scratch[ZIGZAG[k]] = r.signed(s);
    k += 1;
  }
  const stride = c.paddedPerLine * c.nx;
  inverseDct(scratch, 0, c.quant, c.nx, c.ny, c.plane, row * c.ny * stride + col * c.nx, stride);
}

/** The decoding of one progressive block, at its place in the component's coefficients. */
type BlockDecoder = (r: BitReader, c: Component, at: number) => void;

function progressiveDecoders(scan: Scan): BlockDecoder {
  const { start, end, high, low } = scan;
  let eobrun = 0;
  const plus = 1 << low;
  const minus = -1 << low;
  const dcFirst: BlockDecoder = (r, c, at) => {
    c.prediction += r.signed(r.decode(c.dc!));
    c.coefficients![at] = c.prediction * plus;
  };
  const dcRefine: BlockDecoder = (r, c, at) => {
    if (r.bit()) c.coefficients![at] |= plus;
  };
  const acFirst: BlockDecoder = (r, c, at) => {
    if (eobrun > 0) {
      eobrun -= 1;
      return;
    }
    const coefficients = c.coefficients!;
    const ac = c.ac!;
    for (let k = start; k <= end; k++) {
      const rs = r.decode(ac);
      const s = rs & 15;
      const run = rs >> 4;
      if (s === 0) {
        if (run < 15) {
          // An end-of-band run: this block and the next (2^run + bits - 1) end here.
          eobrun = (1 << run) - 1 + r.bits(run);
          break;
        }
        k += 15;
        continue;
      }
      k += run;
      if (k > 63) throw new JpegError('a block has more than 64 coefficients');
      coefficients[at + ZIGZAG[k]] = r.signed(s) * plus;
    }
  };
  // A refinement adds one bit to each coefficient already non-zero in the band, and places the new
  // ones (of magnitude 1 << low) after `run` zero coefficients: the zeros are counted among the
  // coefficients that are still zero, so the history of earlier scans steers the reading.
  const acRefine: BlockDecoder = (r, c, at) => {
    const coefficients = c.coefficients!;
    let k = start;
    if (eobrun === 0) {
      const ac = c.ac!;
      for (; k <= end; k++) {
        const rs = r.decode(ac);
        let run = rs >> 4;
        let value = 0;
        if ((rs & 15) !== 0) value = r.bit() ? plus : minus;
        else if (run < 15) {
          eobrun = (1 << run) + r.bits(run);
          break;
        }
        for (; k <= end; k++) {
          const z = at + ZIGZAG[k];
          const was = coefficients[z];
          if (was !== 0) {
            if (r.bit() && (was & plus) === 0) coefficients[z] = was + (was >= 0 ? plus : minus);
          } else if (--run < 0) break;
        }
        if (value && k <= end) coefficients[at + ZIGZAG[k]] = value;
      }
    }
    if (eobrun > 0) {
      for (; k <= end; k++) {
        const z = at + ZIGZAG[k];
        const was = coefficients[z];
        if (was !== 0 && r.bit() && (was & plus) === 0) coefficients[z] = was + (was >= 0 ? plus : minus);
      }
      eobrun -= 1;
    }
  };
  const decoder = start === 0 ? (high === 0 ? dcFirst : dcRefine) : (high === 0 ? acFirst : acRefine);
  return (r, c, at) => {
    if (at < 0) eobrun = 0; // a restart
    else decoder(r, c, at);
  };
}

/**
 * Decodes one scan from `reader`: the MCUs of its components (interleaved) or the blocks of its
 * one component, with a restart every `restartInterval` of them.
 */
export function decodeScan(
  reader: BitReader,
  scan: Scan,
  mcus: { across: number; down: number },
  restartInterval: number,
  progressive: boolean,
) {
  const progressiveBlock = progressive ? progressiveDecoders(scan) : null;
  const block = (c: Component, row: number, col: number) => {
    if (progressiveBlock) progressiveBlock(reader, c, (row * c.paddedPerLine + col) * 64);
    else baselineBlock(reader, c, row, col);
  };
  const restart = (n: number) => {
    if (!restartInterval || n === 0 || n % restartInterval !== 0) return;
    reader.restart();
    for (const c of scan.components) c.prediction = 0;
    progressiveBlock?.(reader, scan.components[0], -1);
  };
  // The tables this scan needs, checked once: DC for a baseline scan and a first DC scan, AC for the others.
  const needsDc = !progressive || (scan.start === 0 && scan.high === 0);
  const needsAc = !progressive || scan.start > 0;
  for (const c of scan.components) {
    if ((needsDc && !c.dc) || (needsAc && !c.ac)) {
      throw new JpegError('a scan uses a Huffman table that is not defined');
    }
    c.prediction = 0;
  }
  if (scan.components.length === 1) {
    const c = scan.components[0];
    const total = c.blocksPerLine * c.blocksPerColumn;
    for (let n = 0; n < total; n++) {
      restart(n);
      block(c, Math.floor(n / c.blocksPerLine), n % c.blocksPerLine);
    }
    return;
  }
  const total = mcus.across * mcus.down;
  for (let n = 0; n < total; n++) {
    restart(n);
    const mcuRow = Math.floor(n / mcus.across);
    const mcuCol = n % mcus.across;
    for (const c of scan.components) {
      for (let v = 0; v < c.v; v++) {
        for (let h = 0; h < c.h; h++) block(c, mcuRow * c.v + v, mcuCol * c.h + h);
      }
    }
  }
}

/** After a progressive image's last scan: every block of every component turned into pixels. */
export function coefficientsToPlanes(components: Component[]) {
  for (const c of components) {
    const stride = c.paddedPerLine * c.nx;
    for (let row = 0; row < c.paddedPerColumn; row++) {
      for (let col = 0; col < c.paddedPerLine; col++) {
        const at = (row * c.paddedPerLine + col) * 64;
        inverseDct(c.coefficients!, at, c.quant, c.nx, c.ny, c.plane, row * c.ny * stride + col * c.nx, stride);
      }
    }
    c.coefficients = null;
  }
}
