#!/usr/bin/env node
'use strict';
// cuzk.Prover against snarkjs.groth16.prove on one BN254 key and witness of
// the native partition circuit (made by the cuzk CLI): the median time of a
// proof, one after another, through one reused Prover (keys loaded once),
// and through snarkjs (which reads the zkey on every proof, as its API must).
//   node bench.js [--cuzk PATH] [--constraints N] [--proofs N] [--snarkjs-proofs N] [--backend cpu|cuda|auto]
// From a cuzk build tree: CUZK_NODE_ADDON=build/bindings/node/cuzk.node
//   node bindings/node/bench.js --cuzk build/src/cuzk
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const snarkjs = require('snarkjs');
const cuzk = require('./lib/index.js');

const { values: args } = parseArgs({
  options: {
    cuzk: { type: 'string', default: 'cuzk' },
    constraints: { type: 'string', default: '65536' },
    proofs: { type: 'string', default: '10' },
    'snarkjs-proofs': { type: 'string', default: '5' },
    backend: { type: 'string', default: 'cpu' },
  },
});

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Times `prove` n times, one after another; every proof must verify with
// snarkjs. Returns the wall times (ms) and cuzk's stage times (s) when given.
async function timeProofs(n, vk, prove) {
  const ms = [];
  const stages = [];
  for (let i = 0; i < n; ++i) {
    const t0 = process.hrtime.bigint();
    const { proof, publicSignals, times } = await prove();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (times) stages.push(times);
    if (!(await snarkjs.groth16.verify(vk, publicSignals, proof))) throw new Error('a proof did not verify');
  }
  return { ms, stages };
}

function summary({ ms }) {
  return `${ms.length} proofs, median ${median(ms).toFixed(1)} ms (min ${Math.min(...ms).toFixed(1)}, ` +
         `max ${Math.max(...ms).toFixed(1)})`;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuzk-node-bench-'));
  try {
    const zkey = path.join(dir, 'key.zkey');
    const vkFile = path.join(dir, 'vk.json');
    const wtns = path.join(dir, 'w.wtns');
    const circuit = ['--circuit', 'partition', '--curve', 'bn254', '--constraints', args.constraints];
    execFileSync(args.cuzk, ['setup', ...circuit, zkey, '--vk', vkFile], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync(args.cuzk, ['witness', ...circuit, '--seed', '1', wtns], { stdio: ['ignore', 'ignore', 'inherit'] });
    const vk = JSON.parse(fs.readFileSync(vkFile, 'utf8'));

    const prover = new cuzk.Prover({ backend: args.backend });
    const t0 = process.hrtime.bigint();
    const id = await prover.loadKey(zkey);
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
    await prover.prove(id, wtns);  // warm-up: first-touch of the prover's buffers
    const cuzkRun = await timeProofs(Number(args.proofs), vk, () => prover.prove(id, wtns));
    const where = prover.describe();
    prover.close();

    const snarkjsRun = await timeProofs(Number(args['snarkjs-proofs']), vk, () => snarkjs.groth16.prove(zkey, wtns));

    // The machine may be shared: its load average says how far to trust the figures.
    const cpu = os.cpus();
    console.log(`cuzk ${cuzk.version} (${cuzk.backends.join(',')}), node ${process.version}, ` +
                `${cpu.length} x ${cpu[0] ? cpu[0].model.trim() : 'CPU'}, ${new Date().toISOString()}, ` +
                `load average (1, 5, 15 min) ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`BN254 partition circuit, ${args.constraints} constraints (key ` +
                `${(fs.statSync(zkey).size / 2 ** 20).toFixed(1)} MiB, witness ${(fs.statSync(wtns).size / 2 ** 20).toFixed(1)} MiB)`);
    console.log(`cuzk.Prover [${where}]: key loaded in ${loadMs.toFixed(0)} ms; ${summary(cuzkRun)}`);
    const stage = (name) => (1000 * median(cuzkRun.stages.map((t) => t[name]))).toFixed(1);
    console.log(`  median stages: synthesis ${stage('synthesis')} ms, prove ${stage('prove')} ms, ` +
                `finish ${stage('finish')} ms`);
    console.log(`snarkjs.groth16.prove: ${summary(snarkjsRun)}`);
    console.log(`cuzk is ${(median(snarkjsRun.ms) / median(cuzkRun.ms)).toFixed(1)}x faster (median over median)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    for (const name of ['curve_bn128', 'curve_bls12381']) {
      if (globalThis[name]) await globalThis[name].terminate();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
