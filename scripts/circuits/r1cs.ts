/** An .r1cs file (iden3's binary format): its sections, and the sizes its header gives. */
import { readFileSync } from 'node:fs';

export interface CircuitInfo {
  constraints: number;
  wires: number;
  publicInputs: number;
  publicOutputs: number;
  /** Public signals in a proof: outputs + public inputs. */
  publicSignals: number;
  privateInputs: number;
  /** Smallest ptau power the Groth16 setup needs (snarkjs's domain: constraints + public signals + 1). */
  power: number;
}

/** The file's sections by type (1: header, 2: constraints, 3: wire-to-label map). */
export function r1csSections(file: string): Map<number, Buffer> {
  const buf = readFileSync(file);
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'r1cs')
    throw new Error(`${file}: not an r1cs file`);
  const sections = new Map<number, Buffer>();
  let off = 12;
  for (let i = 0, count = buf.readUInt32LE(8); i < count; i++) {
    const size = Number(buf.readBigUInt64LE(off + 4));
    sections.set(buf.readUInt32LE(off), buf.subarray(off + 12, off + 12 + size));
    off += 12 + size;
  }
  if (!sections.has(1)) throw new Error(`${file}: no header section`);
  return sections;
}

/** The sizes in a header section (field size, prime, then the counts). */
export function headerInfo(h: Buffer): CircuitInfo {
  const at = 4 + h.readUInt32LE(0);
  const publicOutputs = h.readUInt32LE(at + 4);
  const publicInputs = h.readUInt32LE(at + 8);
  const constraints = h.readUInt32LE(at + 24);
  return {
    constraints,
    wires: h.readUInt32LE(at),
    publicInputs,
    publicOutputs,
    publicSignals: publicInputs + publicOutputs,
    privateInputs: h.readUInt32LE(at + 12),
    power: Math.ceil(Math.log2(constraints + publicInputs + publicOutputs + 1)),
  };
}

/** Reads the header of an .r1cs file. */
export const readR1csInfo = (file: string): CircuitInfo => headerInfo(r1csSections(file).get(1)!);
