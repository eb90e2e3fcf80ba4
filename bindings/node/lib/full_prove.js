'use strict';
// groth16.fullProve(input, wasm, zkey, options?), as snarkjs's: the witness
// computed by the circuit's own wasm (witness.js), then proved by a Prover
// made for this one proof. The key loads (on a pool thread) while the wasm
// compiles; the wasm's prime must be the key's curve's.
const { cuzkError } = require('./errors.js');
const { WitnessCalculator } = require('./witness.js');

module.exports = function makeFullProve(addon) {
  // Not async: a wrong argument throws a TypeError at once, as every other
  // call of the binding does.
  return function fullProve(input, wasmFile, zkeyFile, options) {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new TypeError('input must be an object of signal names and values');
    }
    for (const [name, value] of [['wasmFile', wasmFile], ['zkeyFile', zkeyFile]]) {
      if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
        throw new TypeError(`${name} must be a file name, a Buffer or a Uint8Array`);
      }
    }
    const prover = new addon.Prover(options);
    return prove(prover, input, wasmFile, zkeyFile).finally(() => prover.close());
  };
};

async function prove(prover, input, wasmFile, zkeyFile) {
  const [calculator, keyId] = await Promise.all([WitnessCalculator.load(wasmFile), prover.loadKey(zkeyFile)]);
  const { curve } = prover.keyInfo(keyId);
  if (calculator.curve !== curve) {
    const zkeyName = typeof zkeyFile === 'string' ? zkeyFile : 'the zkey';
    throw cuzkError('invalid_argument', `${calculator.name} computes ${calculator.curve} witnesses, but ${zkeyName} is a ${curve} key`);
  }
  const { proof, publicSignals } = await prover.prove(keyId, calculator.wtns(input));
  return { proof, publicSignals };
}
