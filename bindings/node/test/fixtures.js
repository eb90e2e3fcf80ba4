'use strict';
// What the binding's tests share: the addon (lib/index.js), the circuits'
// fixtures of both curves (the multiplier's unless another is named), and
// snarkjs as the independent verifier.
const fs = require('fs');
const path = require('path');
const snarkjs = require('snarkjs');
const cuzk = require('../lib/index.js');

const CURVES = ['bn128', 'bls12381'];
const CPU = Object.freeze({ backend: 'cpu' });

function fixture(curve, name, circuit = 'multiplier') {
  return path.join(__dirname, '..', '..', '..', 'tests', 'fixtures', curve, circuit, name);
}

function readJson(curve, name, circuit = 'multiplier') {
  return JSON.parse(fs.readFileSync(fixture(curve, name, circuit), 'utf8'));
}

// snarkjs keeps its curves' worker threads, and so the process, alive until
// they are terminated: every test file that uses snarkjs calls this in after().
async function releaseSnarkjs() {
  for (const name of ['curve_bn128', 'curve_bls12381']) {
    if (globalThis[name]) await globalThis[name].terminate();
  }
}

module.exports = { cuzk, snarkjs, CURVES, CPU, fixture, readJson, releaseSnarkjs };
