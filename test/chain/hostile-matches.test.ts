/**
 * Matches one order of which fails on chain: a hostile contract wallet (burning gas in its
 * signature check or its receiver hook, refusing tokens) or a trader who moved what its order
 * needs. The rest of a batch settles, a hostile match burns no more than its cap, and the per-leg
 * checks (blame-legs.ts) name the order that failed and nobody else.
 */
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { orderFillFor, sumFills, type MatchSubmission } from '../../src/chain';
import { blameLegs, matchLegsOf, RECEIVER_GAS, WALLET_CALL_GAS } from '../../src/chain/blame-legs';
import { BATCH_GAS_OVERHEAD, batchItemGas } from '../../src/chain/submit-match-batches';
import { matchGasLimit } from '../../src/chain/submit-matches';
import { collateralAbi, conditionalTokensAbi, contractWalletAbi, contractWalletBytecode, exchangeAbi } from '../../src/chain/generated';
import { orderDigest, signDigest } from '../../src/signing';
import type { DevAccount } from '../../src/chain';
import { E18, startFixture, withoutHash, type Fixture } from './chain-fixture';

let fx: Fixture;
let walletOwner: DevAccount;
let hostile: Address;
beforeAll(async () => {
  fx = await startFixture();
  walletOwner = fx.traders[5];
  hostile = await deployWallet(walletOwner);
  // Two more traders with collateral only (the fixture funds six).
  for (const trader of fx.traders.slice(6, 8)) await fx.port.fundWallet(trader.address, 100n * E18, { privateKey: trader.privateKey });
}, 60_000);
afterAll(async () => {
  await fx.stop();
});

const MODES = { HONEST: 0, BURN_IN_SIGNATURE: 1, BURN_IN_RECEIVER: 2, REFUSE_TOKENS: 3 } as const;

/** A ContractWallet of `owner` holding collateral and YES/NO, with the exchange approved for both. */
async function deployWallet(owner: DevAccount): Promise<Address> {
  const client = fx.walletOf(owner);
  const deployed = await client.deployContract({ abi: contractWalletAbi, bytecode: contractWalletBytecode, args: [owner.address] });
  const wallet = (await fx.port.context.publicClient.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
  await fx.port.fundWallet(wallet, 200n * E18);
  const { collateral, conditionalTokens, exchange } = fx.local.addresses;
  const calls: [Address, Hex][] = [
    [collateral, encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [conditionalTokens, 50n * E18] })],
    [conditionalTokens, encodeFunctionData({ abi: conditionalTokensAbi, functionName: 'splitPosition', args: [collateral, fx.condition.conditionId, 50n * E18] })],
    [conditionalTokens, encodeFunctionData({ abi: conditionalTokensAbi, functionName: 'setApprovalForAll', args: [exchange, true] })],
    [collateral, encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [exchange, 10n ** 30n] })],
  ];
  for (const [target, data] of calls) {
    await fx.port.waitForReceipt(await client.writeContract({ address: wallet, abi: contractWalletAbi, functionName: 'execute', args: [target, data] }), 0);
  }
  return wallet;
}

async function setMode(mode: number): Promise<void> {
  await fx.port.waitForReceipt(await fx.walletOf(walletOwner).writeContract({ address: hostile, abi: contractWalletAbi, functionName: 'setMode', args: [mode] }), 0);
}

type Signed = ReturnType<Fixture['sign']>;

/** An order of the contract wallet, signed by its owner (EIP-1271). */
function walletOrder(input: Parameters<Fixture['sign']>[1]): Signed {
  const built = fx.sign(walletOwner, { ...input, signatureType: 1 }, { maker: hostile, signer: hostile });
  return { ...built, signature: signDigest(orderDigest(built, { chainId: 56, verifyingContract: fx.local.addresses.exchange }), walletOwner.privateKey) };
}

/**
 * One taker against two one-share makers at 0.55 (the taker at 0.60 BUY, or 0.50 SELL): `side` is
 * the makers' side. Returns the submission and the orders with their hashes.
 */
function twoMakerMatch(side: 'BUY' | 'SELL', makers: [Signed, Signed], taker: Signed): { match: MatchSubmission; taker: Signed; makers: Signed[] } {
  const legs = makers.map(() => orderFillFor(side, E18, 55));
  const takerSide = side === 'BUY' ? 'SELL' : 'BUY';
  return { match: { taker: withoutHash(taker), makers: makers.map(withoutHash), takerFill: sumFills(makers.map(() => orderFillFor(takerSide, E18, 55))), makerFills: legs }, taker, makers };
}

const sellerAt55 = (who: DevAccount) => fx.sign(who, { side: 'SELL', outcome: 1, price: '0.55', size: '1' });
const buyerAt55 = (who: DevAccount) => fx.sign(who, { side: 'BUY', outcome: 1, price: '0.55', size: '1' });
const takerBuying = () => fx.sign(fx.traders[0], { side: 'BUY', outcome: 1, price: '0.6', size: '2' });
const takerSelling = () => fx.sign(fx.traders[0], { side: 'SELL', outcome: 1, price: '0.5', size: '2' });

/** Sends the matches in one batch transaction; its gas used, gas limit, block, and settled/refused takers. */
async function sendBatch(matches: MatchSubmission[]) {
  const outcomes = await fx.port.submitMatchBatches(matches);
  const hash = outcomes[0] as Hex;
  expect(outcomes.every((o) => o === hash)).toBe(true);
  const state = await fx.port.getReceiptState(hash);
  if (state.status !== 'success') throw new Error(`batch ${hash} ${state.status}`);
  const [receipt, sent] = await Promise.all([
    fx.port.context.publicClient.getTransactionReceipt({ hash }),
    fx.port.context.publicClient.getTransaction({ hash }),
  ]);
  return { gasUsed: receipt.gasUsed, gasLimit: sent.gas, block: state.blockNumber, matched: state.matchedTakers, refused: state.refusedTakers };
}

const honestPair = () => twoMakerMatch('SELL', [sellerAt55(fx.traders[1]), sellerAt55(fx.traders[2])], takerBuying());
const lower = (h: string) => h.toLowerCase();

describe('gas caps: a contract wallet cannot burn a batch', () => {
  it('when the exchange and the token are read, then their gas caps are the ones settlement assumes', async () => {
    const read = (address: Address, abi: typeof exchangeAbi | typeof conditionalTokensAbi, functionName: string, args: unknown[] = []) =>
      fx.port.context.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<bigint>;
    expect(await read(fx.local.addresses.exchange, exchangeAbi, 'WALLET_CALL_GAS')).toBe(WALLET_CALL_GAS);
    expect(await read(fx.local.addresses.conditionalTokens, conditionalTokensAbi, 'RECEIVER_GAS')).toBe(RECEIVER_GAS);
    for (const makers of [1, 2, 64]) expect(await read(fx.local.addresses.exchange, exchangeAbi, 'matchGasCap', [BigInt(makers)])).toBe(matchGasLimit(makers));
  });

  const cases = [
    { name: 'loops in isValidSignature', mode: MODES.BURN_IN_SIGNATURE, side: 'SELL' as const, reason: 'Exchange: invalid signature', blame: 'GAS_BURNED' },
    { name: 'loops in its ERC-1155 receiver hook', mode: MODES.BURN_IN_RECEIVER, side: 'BUY' as const, reason: '', blame: 'GAS_BURNED' },
    { name: 'refuses the tokens it bought', mode: MODES.REFUSE_TOKENS, side: 'BUY' as const, reason: 'Wallet: tokens refused', blame: 'TOKENS_REFUSED' },
  ];
  it.each(cases)('when a contract maker $name, then its match alone is refused, the next match of the batch settles, the hostile match costs less than its gas cap, and the blame names the wallet order alone ($blame)', async ({ mode, side, reason, blame }) => {
    const honestOnly = await sendBatch([honestPair().match]);
    expect(honestOnly.matched).toHaveLength(1);
    await setMode(mode);
    try {
      const bad = side === 'SELL'
        ? twoMakerMatch('SELL', [walletOrder({ side: 'SELL', outcome: 1, price: '0.55', size: '1' }), sellerAt55(fx.traders[3])], takerBuying())
        : twoMakerMatch('BUY', [walletOrder({ side: 'BUY', outcome: 1, price: '0.55', size: '1' }), buyerAt55(fx.traders[3])], takerSelling());
      const good = honestPair();
      const sent = await sendBatch([bad.match, good.match]);
      expect(sent.matched).toEqual([lower(good.taker.hash)]);
      expect(sent.refused).toEqual([{ taker: lower(bad.taker.hash), reason }]);
      // The transaction carried the caps of its two matches, and the hostile one used far less than its own.
      expect(sent.gasLimit).toBe(BATCH_GAS_OVERHEAD + 2n * batchItemGas(2));
      expect(sent.gasUsed - honestOnly.gasUsed).toBeLessThan(matchGasLimit(2) / 2n);
      const blamed = await blameLegs(fx.port.context, matchLegsOf(bad.match, bad.taker.hash, bad.makers.map((m) => m.hash)), sent.block);
      expect(blamed).toEqual([{ hash: bad.makers[0].hash, reason: blame }]);
    } finally {
      await setMode(MODES.HONEST);
    }
  });
});

describe('blame: the order whose trader moved what it needs', () => {
  const { collateral, conditionalTokens, exchange } = { collateral: () => fx.local.addresses.collateral, conditionalTokens: () => fx.local.addresses.conditionalTokens, exchange: () => fx.local.addresses.exchange };
  const send = async (who: DevAccount, address: Address, data: Hex) => {
    await fx.port.waitForReceipt(await fx.walletOf(who).sendTransaction({ to: address, data }), 0);
  };
  // Each attacker (a trader index) is one whose later orders no earlier case spoiled.
  const attacks: { name: string; attacker: number; side: 'BUY' | 'SELL'; expiring?: boolean; attack: (who: DevAccount, order: Signed) => Promise<void>; undo?: (who: DevAccount) => Promise<void>; blame: string; reason: string }[] = [
    {
      name: 'revokes its collateral allowance', attacker: 6, side: 'BUY', blame: 'BALANCE_CHANGED', reason: 'Collateral: allowance',
      attack: (who) => send(who, collateral(), encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [exchange(), 0n] })),
      undo: (who) => send(who, collateral(), encodeFunctionData({ abi: collateralAbi, functionName: 'approve', args: [exchange(), 10n ** 30n] })),
    },
    {
      name: 'moves its collateral away', attacker: 7, side: 'BUY', blame: 'BALANCE_CHANGED', reason: 'Collateral: balance',
      attack: async (who) => send(who, collateral(), encodeFunctionData({ abi: collateralAbi, functionName: 'transfer', args: [fx.traders[4].address, await balanceOf(who.address)] })),
    },
    {
      name: 'moves its outcome tokens away (SELL)', attacker: 5, side: 'SELL', blame: 'BALANCE_CHANGED', reason: 'CTF: insufficient balance',
      attack: async (who) => send(who, conditionalTokens(), encodeFunctionData({
        abi: conditionalTokensAbi, functionName: 'safeTransferFrom', args: [who.address, fx.traders[4].address, fx.condition.yesTokenId, (await fx.balances(who.address)).yes, '0x'],
      })),
    },
    {
      name: 'bumps its nonce', attacker: 3, side: 'SELL', blame: 'NONCE_BUMPED', reason: 'Exchange: invalid nonce',
      attack: (who) => send(who, exchange(), encodeFunctionData({ abi: exchangeAbi, functionName: 'incrementNonce' })),
    },
    {
      name: 'cancels the order on chain', attacker: 4, side: 'SELL', blame: 'ONCHAIN_CANCEL', reason: 'Exchange: order filled or cancelled',
      attack: (who, order) => send(who, exchange(), encodeFunctionData({ abi: exchangeAbi, functionName: 'cancelOrder', args: [withoutHash(order)] })),
    },
    {
      name: 'signed an expiration that has passed by the block', attacker: 4, side: 'SELL', expiring: true, blame: 'EXPIRED', reason: 'Exchange: order expired',
      attack: async () => {
        await fx.rpc('evm_increaseTime', [120]);
      },
    },
  ];
  const balanceOf = (address: Address) => fx.port.context.publicClient.readContract({ address: fx.local.addresses.collateral, abi: collateralAbi, functionName: 'balanceOf', args: [address] });

  it.each(attacks)('when a maker $name after the match, then the match is refused and the blame names that maker alone ($blame), not the honest maker or the taker', async ({ attacker: index, side, expiring, attack, undo, blame, reason }) => {
    const attacker = fx.traders[index];
    const when = async () => Number((await fx.port.context.publicClient.getBlock()).timestamp);
    const order = fx.sign(attacker, { side, outcome: 1, price: '0.55', size: '1', ...(expiring ? { expiration: BigInt((await when()) + 60) } : {}) });
    const bad = side === 'SELL'
      ? twoMakerMatch('SELL', [order, sellerAt55(fx.traders[1])], takerBuying())
      : twoMakerMatch('BUY', [order, buyerAt55(fx.traders[1])], takerSelling());
    await attack(attacker, order);
    try {
      const sent = await sendBatch([bad.match, honestPair().match]);
      expect(sent.refused).toEqual([{ taker: lower(bad.taker.hash), reason }]);
      expect(sent.matched).toHaveLength(1);
      const blamed = await blameLegs(fx.port.context, matchLegsOf(bad.match, bad.taker.hash, bad.makers.map((m) => m.hash)), sent.block);
      expect(blamed).toEqual([{ hash: order.hash, reason: blame }]);
    } finally {
      await undo?.(attacker);
    }
  });
});
