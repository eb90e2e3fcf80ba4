'use strict';
// The witness of a circom circuit computed by the circuit's own .wasm
// (`circom --wasm`), written as a .wtns file's bytes. The wasm is a small
// machine driven through its exports: it hands out its prime, takes each
// input value by the FNV-1a hash of the signal's name and an index, computes
// every signal once the last input is set, then hands out the witness one
// value at a time. Every number crosses in a shared buffer of 32-bit limbs,
// least significant first, in normal (not Montgomery) form.
const fs = require('fs');
const { cuzkError } = require('./errors.js');

// The scalar fields cuzk proves over, by prime (a zkey's curve names them too).
const CURVES = new Map([
  [21888242871839275222246405745257275088548364400416034343698204186575808495617n, 'bn128'],
  [52435875175126190479447740508185965837690552500527637822603658699938581184513n, 'bls12381'],
]);

// The exports a circom 2 witness calculator has; its one supported version.
const EXPORTS = ['getVersion', 'getFieldNumLen32', 'getRawPrime', 'readSharedRWMemory', 'writeSharedRWMemory',
                 'init', 'getInputSignalSize', 'setInputSignal', 'getInputSize', 'getWitnessSize', 'getWitness',
                 'getMessageChar'];
const VERSION = 2;

// What the wasm's exceptionHandler is called with, as circom's runtime names
// them, and the code each failure carries: a failed assert is an input the
// circuit does not accept.
const FAILURES = new Map([
  [1, ['a signal was not found', 'internal']],
  [2, ['too many signals were set', 'internal']],
  [3, ['a signal was set twice', 'internal']],
  [4, ['an assert failed', 'unsatisfied']],
  [5, ['it ran out of memory', 'resource_exhausted']],
  [6, ['an input signal array was indexed beyond its size', 'internal']],
  [7, ['an array was indexed out of bounds', 'internal']],
]);

const DECIMAL = /^-?[0-9]+$/;

class WitnessCalculator {
  // `wasm`: the file's name, or its bytes (a Buffer or Uint8Array).
  static async load(wasm) {
    const name = typeof wasm === 'string' ? wasm : 'the circuit wasm';
    let bytes = wasm;
    if (typeof wasm === 'string') {
      try {
        bytes = await fs.promises.readFile(wasm);
      } catch (e) {
        throw cuzkError(e.code === 'ENOENT' ? 'not_found' : 'invalid_argument', `${name}: cannot open (${e.code})`);
      }
    }
    let module;
    try {
      module = await WebAssembly.compile(bytes);
    } catch (e) {
      throw cuzkError('invalid_argument', `${name}: not WebAssembly (${e.message})`);
    }
    const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
    const missing = EXPORTS.find((e) => !exported.has(e));
    if (missing) throw cuzkError('invalid_argument', `${name}: not a circom witness calculator (no export ${missing})`);
    const runtime = new Runtime(name);
    const instance = await WebAssembly.instantiate(module, { runtime: runtime.imports() });
    runtime.calculator = new WitnessCalculator(name, instance);
    return runtime.calculator;
  }

  constructor(name, instance) {
    this.name = name;
    this.wasm = instance.exports;
    const version = this.wasm.getVersion();
    if (version !== VERSION) {
      throw cuzkError('invalid_argument', `${name}: a circom ${version} witness calculator, cuzk reads version ${VERSION}`);
    }
    this.n32 = this.wasm.getFieldNumLen32();
    this.wasm.getRawPrime();
    this.prime = this.readNumber();
    this.curve = CURVES.get(this.prime);
    if (!this.curve) throw cuzkError('invalid_argument', `${name}: its field (prime ${this.prime}) is neither bn128's nor bls12381's`);
  }

  // The .wtns file's bytes (version 2: a header section with the field's size
  // and prime and the witness's length, then the values) for `input`, an
  // object from signal names to values as snarkjs takes it.
  wtns(input) {
    this.setInputs(input);
    const n8 = this.n32 * 4;
    const count = this.wasm.getWitnessSize();
    const out = Buffer.alloc(12 + (12 + 8 + n8) + (12 + n8 * count));
    let at = out.write('wtns', 0, 'latin1');
    at = out.writeUInt32LE(2, at);                 // format version
    at = out.writeUInt32LE(2, at);                 // sections
    at = out.writeUInt32LE(1, at);                 // section 1: the field and the length
    at = out.writeBigUInt64LE(BigInt(8 + n8), at);
    at = out.writeUInt32LE(n8, at);
    this.wasm.getRawPrime();
    at = this.copyLimbs(out, at);
    at = out.writeUInt32LE(count, at);
    at = out.writeUInt32LE(2, at);                 // section 2: the values
    at = out.writeBigUInt64LE(BigInt(n8 * count), at);
    for (let i = 0; i < count; ++i) {
      this.wasm.getWitness(i);
      at = this.copyLimbs(out, at);
    }
    return out;
  }

  setInputs(input) {
    this.wasm.init(0);
    let set = 0;
    for (const [signal, values] of inputSignals(input)) {
      const [hi, lo] = fnv1a64(signal);
      // circom 2.2's wasm answers 0 for a name it does not know, not the
      // negative size circom_runtime's driver tests for.
      const size = this.wasm.getInputSignalSize(hi, lo);
      if (size <= 0) throw cuzkError('invalid_argument', `input: ${signal} is not an input signal of the circuit`);
      if (values.length !== size) {
        throw cuzkError('invalid_argument', `input: ${signal} has ${count(values.length)}, the circuit's has ${size}`);
      }
      values.forEach(({ path, value }, i) => {
        this.writeNumber(this.fieldElement(path, value));
        this.wasm.setInputSignal(hi, lo, i);
      });
      set += size;
    }
    const needed = this.wasm.getInputSize();
    if (set < needed) throw cuzkError('invalid_argument', `input: ${set} of the circuit's ${needed} input values given`);
  }

  // A value as circom reads it: an integer (a safe Number, a BigInt or a
  // decimal string) in the field, a negative one standing for prime + value.
  fieldElement(path, value) {
    const ok = (typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint' ||
               (typeof value === 'string' && DECIMAL.test(value));
    if (!ok) {
      throw cuzkError('invalid_argument', `input: ${path} is ${describe(value)}, not an integer (a number, a BigInt or a decimal string)`);
    }
    const v = BigInt(value);
    if (v >= this.prime || v <= -this.prime) {
      throw cuzkError('invalid_argument', `input: ${path} = ${v} is outside ${this.curve}'s scalar field (|value| >= its modulus)`);
    }
    return v < 0n ? v + this.prime : v;
  }

  readNumber() {
    let v = 0n;
    for (let j = this.n32 - 1; j >= 0; --j) v = (v << 32n) | BigInt(this.wasm.readSharedRWMemory(j) >>> 0);
    return v;
  }

  writeNumber(v) {
    for (let j = 0; j < this.n32; ++j, v >>= 32n) this.wasm.writeSharedRWMemory(j, Number(v & 0xffffffffn));
  }

  copyLimbs(out, at) {
    for (let j = 0; j < this.n32; ++j) at = out.writeUInt32LE(this.wasm.readSharedRWMemory(j) >>> 0, at);
    return at;
  }
}

// The functions the wasm imports: its failures, which end the computation
// with an Error carrying a code, and circom's log(), printed as snarkjs does.
class Runtime {
  constructor(name) {
    this.name = name;
    this.errors = [];
    this.line = [];
    this.calculator = null;  // set once the instance it serves exists
  }

  imports() {
    return {
      exceptionHandler: (code) => {
        const [what, status] = FAILURES.get(code) ?? [`it failed (code ${code})`, 'internal'];
        const detail = this.errors.length ? `: ${this.errors.join('; ')}` : '';
        throw cuzkError(status, `${this.name}: computing the witness, ${what}${detail}`);
      },
      printErrorMessage: () => this.errors.push(this.message().trim()),
      writeBufferMessage: () => {
        const part = this.message();
        if (part !== '\n') return void this.line.push(part);
        console.log(this.line.join(' '));
        this.line = [];
      },
      showSharedRWMemory: () => this.line.push(String(this.calculator.readNumber())),
    };
  }

  message() {
    let text = '';
    for (let c = this.calculator.wasm.getMessageChar(); c !== 0; c = this.calculator.wasm.getMessageChar()) {
      text += String.fromCharCode(c);
    }
    return text;
  }
}

// [signal name, [{path, value}]] for each signal the input gives, named as
// circom names main's inputs: `a`, a bus's field `a.x`, an element of an
// array of buses `a[1].x`; the values of an array signal (of any
// dimension) in row-major order, each with its own path (`a[1][2]`).
function inputSignals(input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new TypeError('input must be an object of signal names and values');
  }
  const signals = [];
  const visit = (name, value) => {
    if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) visit(name ? `${name}.${k}` : k, v);
    } else if (Array.isArray(value) && value.flat(Infinity).some(isRecord)) {
      value.forEach((v, i) => visit(`${name}[${i}]`, v));
    } else {
      const values = [];
      const flatten = (path, v) => (Array.isArray(v) ? v.forEach((e, i) => flatten(`${path}[${i}]`, e))
                                                     : values.push({ path, value: v }));
      flatten(name, value);
      signals.push([name, values]);
    }
  };
  visit('', input);
  return signals;
}

function count(n) {
  return `${n} value${n === 1 ? '' : 's'}`;
}

function isRecord(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || value === null || value === undefined) return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

// circom's signal key: the 64-bit FNV-1a hash of the name, as two 32-bit halves.
function fnv1a64(name) {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(name, 'utf8')) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return [Number(h >> 32n) | 0, Number(h & 0xffffffffn) | 0];
}

module.exports = { WitnessCalculator };
