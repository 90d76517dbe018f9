import { encodePacked, keccak256 } from 'viem';

/** Position ids of a binary condition's two outcomes (uint256 decimal strings). */
export interface BinaryPositionIds {
  yesTokenId: string;
  noTokenId: string;
}

/**
 * Prepares binary conditions on a chain's conditional-tokens contract. Injected into the
 * create-market use case: the chain module provides the real one (it sends prepareCondition with
 * the operator as oracle); tests may use test/api/test-condition-preparer.ts.
 */
export interface ConditionPreparer {
  /** Prepares (or finds already prepared) the condition of `questionId` (bytes32 hex). */
  prepareBinaryCondition(questionId: string): Promise<{ conditionId: string } & BinaryPositionIds>;
  /** Position ids of an existing condition; rejects when the condition is not prepared on chain. */
  positionIdsOf(conditionId: string): Promise<BinaryPositionIds>;
}

/** conditionId = keccak256(abi.encodePacked(oracle, questionId, uint256(2))), as contracts/ConditionalTokens.sol. */
export function binaryConditionId(oracle: `0x${string}`, questionId: `0x${string}`): `0x${string}` {
  return keccak256(encodePacked(['address', 'bytes32', 'uint256'], [oracle, questionId, 2n]));
}

/** positionId = uint256(keccak256(abi.encodePacked(collateral, conditionId, indexSet))); indexSet 2 = YES, 1 = NO. */
export function binaryPositionIds(collateral: `0x${string}`, conditionId: `0x${string}`): BinaryPositionIds {
  const id = (indexSet: bigint) =>
    BigInt(keccak256(encodePacked(['address', 'bytes32', 'uint256'], [collateral, conditionId, indexSet]))).toString();
  return { yesTokenId: id(2n), noTokenId: id(1n) };
}
