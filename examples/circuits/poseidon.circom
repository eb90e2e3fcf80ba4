pragma circom 2.0.0;

// Knowledge of a preimage: the prover knows two field elements whose Poseidon
// hash is the public output (circomlib's Poseidon with BN254's constants; on
// BLS12-381 the same permutation structure over that curve's scalar field).
include "circomlib/circuits/poseidon.circom";

template Preimage() {
    signal input left;
    signal input right;
    signal output hash;

    component h = Poseidon(2);
    h.inputs[0] <== left;
    h.inputs[1] <== right;
    hash <== h.out;
}

component main = Preimage();
