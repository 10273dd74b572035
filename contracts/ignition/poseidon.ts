/**
 * circomlibjs's Poseidon contracts as Ignition artifacts: their bytecode is generated (not compiled from
 * Solidity), and Ignition deploys an artifact object as it deploys a compiled contract.
 */
import type { Artifact } from '@nomicfoundation/ignition-core';
import { poseidonContract } from 'circomlibjs';

/** The circomlibjs Poseidon contract of `arity` inputs (`poseidon(uint256[arity])`). */
export function poseidonArtifact(arity: number): Artifact {
  return {
    // Hardhat 3's artifact format (Ignition's tasks refuse the Hardhat 2 one as needing migration).
    _format: 'hh3-artifact-1',
    contractName: `Poseidon${arity}`,
    sourceName: 'circomlibjs/poseidon_gencontract',
    abi: poseidonContract.generateABI(arity),
    bytecode: poseidonContract.createCode(arity),
    // Not used for deployment; Ignition reconciles resumed runs on `bytecode`.
    deployedBytecode: '0x',
    linkReferences: {},
    deployedLinkReferences: {},
  };
}
