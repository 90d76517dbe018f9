/**
 * The two demo markets `npm start` seeds. Their fixed question ids make every start and every
 * process agree on one condition each; their questions let the demo bots find exactly those
 * markets in the public list (never an operator's or a test's market that happens to be the
 * newest open one).
 */
import { keccak256, toHex } from 'viem';

export const DEMO_QUESTION_ID = keccak256(toHex('predex demo market v1'));
export const DEMO_AMM_QUESTION_ID = keccak256(toHex('predex demo AMM market v1'));

export const DEMO_QUESTION = 'Will the demo market resolve YES?';
export const DEMO_AMM_QUESTION = 'Will the demo pool resolve YES?';
