/**
 * Condition and position ids, computed exactly as contracts/ConditionalTokens.sol does:
 *   conditionId = keccak256(oracle ++ questionId ++ uint256(2))
 *   positionId  = uint256(keccak256(collateral ++ conditionId ++ uint256(indexSet)))
 * Outcome i has indexSet 1 << i: NO (0) is indexSet 1, YES (1) is indexSet 2.
 */
import { encodePacked, keccak256, type Address, type Hex } from 'viem';

export function conditionIdOf(oracle: Address, questionId: Hex): Hex {
  return keccak256(encodePacked(['address', 'bytes32', 'uint256'], [oracle, questionId, 2n]));
}

export function positionIdOf(collateral: Address, conditionId: Hex, indexSet: bigint): bigint {
  return BigInt(keccak256(encodePacked(['address', 'bytes32', 'uint256'], [collateral, conditionId, indexSet])));
}

export function outcomeTokenIds(collateral: Address, conditionId: Hex): { yes: bigint; no: bigint } {
  return { no: positionIdOf(collateral, conditionId, 1n), yes: positionIdOf(collateral, conditionId, 2n) };
}
