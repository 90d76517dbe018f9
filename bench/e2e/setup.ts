/**
 * Bench setup against a running service: markets through /admin, trader wallets funded on the
 * embedded chain (collateral minted and approved for buyers; YES tokens split from collateral for
 * sellers), and a dev JWT per wallet (HS256 with DATA_DIR/dev-secrets.json's secret).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SignJWT } from 'jose';
import { createChainPort, devAccounts, type ChainPort, type LocalDeployment } from '../../src/chain';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { waitForReceipt } from '../../src/chain/wait-for-receipt';
import { createWalletClient } from 'viem';
import { transportOf } from '../../src/chain/chain-context';
import { devSecretsFile } from '../../src/supervisor/dev-secrets';
import type { MarketForSigning } from '../../src/signing';

export const E18 = 10n ** 18n;

export interface BenchMarket {
  condition_id: string;
  chain_id: number;
  signing: MarketForSigning;
}

export interface Trader {
  address: Address;
  privateKey: Hex;
  role: 'buyer' | 'seller';
  jwt: string;
}

export async function json<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000), ...init });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body: body as T };
}

export function devSecrets(dataDir: string): { AUTH_JWT_SECRET: string; ADMIN_TOKEN: string } {
  return JSON.parse(readFileSync(devSecretsFile(dataDir), 'utf8')) as { AUTH_JWT_SECRET: string; ADMIN_TOKEN: string };
}

interface PublicMarket {
  condition_id: string;
  chain_id: number;
  ctf_exchange_address: Address;
  fee_rate_bps: number;
  tokens: { outcome: number; token_id: string; decimals: number }[];
}

export async function createMarkets(api: string, adminToken: string, count: number, label: string): Promise<BenchMarket[]> {
  const markets: BenchMarket[] = [];
  for (let i = 0; i < count; i += 1) {
    const { status, body } = await json<PublicMarket>(`${api}/admin/markets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': adminToken, 'x-operator': 'e2e-bench' },
      body: JSON.stringify({ question: `Bench ${label} market ${i} (${Date.now()})?`, end_date: new Date(Date.now() + 30 * 86_400_000).toISOString(), fee_rate_bps: 0 }),
    });
    if (status !== 201) throw new Error(`POST /admin/markets answered ${status}: ${JSON.stringify(body)}`);
    markets.push({
      condition_id: body.condition_id,
      chain_id: body.chain_id,
      signing: {
        exchange: body.ctf_exchange_address,
        chainId: body.chain_id,
        tokens: body.tokens,
        decimals: body.tokens[0].decimals,
        feeRateBps: body.fee_rate_bps,
      },
    });
  }
  return markets;
}

export function chainPortFor(dataDir: string): ChainPort {
  const deployment = JSON.parse(readFileSync(join(dataDir, 'chain', 'deployment.json'), 'utf8')) as LocalDeployment;
  return createChainPort({
    rpcUrl: deployment.rpcUrl,
    chainId: deployment.chainId,
    operatorKey: devAccounts()[0].privateKey,
    addresses: deployment.addresses,
    confirmations: 0,
    pollingIntervalMs: 50,
  });
}

/** A dev JWT for `address`, signed with DATA_DIR/dev-secrets.json's AUTH_JWT_SECRET (encoded). */
export function devJwt(secret: Uint8Array, address: string): Promise<string> {
  return new SignJWT({ wallet_address: address.toLowerCase() }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('12h').sign(secret);
}

/** Dev accounts 1..9 first (they hold native gas), then deterministic generated keys (funded with gas). */
export function traderKeys(count: number): { address: Address; privateKey: Hex; needsGas: boolean }[] {
  const dev = devAccounts().slice(1);
  return Array.from({ length: count }, (_, i) => {
    if (i < dev.length) return { ...dev[i], needsGas: false };
    const privateKey = keccak256(toHex(`predex e2e bench trader ${i}`));
    return { address: privateKeyToAccount(privateKey).address, privateKey, needsGas: true };
  });
}

/**
 * Buyers get `collateral` minted and approved; sellers get it too and split `yesPerMarket` of it into
 * YES + NO on every market's condition (approvals for the exchange are set by fundWallet).
 * Sequential on purpose: the operator key signs the mints and must not race its own nonces.
 */
export async function fundTraders(
  port: ChainPort, dataDir: string, markets: BenchMarket[], count: number, collateral: bigint, yesPerMarket: bigint,
): Promise<Trader[]> {
  const secret = new TextEncoder().encode(devSecrets(dataDir).AUTH_JWT_SECRET);
  const { conditionalTokens, collateral: collateralToken } = port.addresses;
  const traders: Trader[] = [];
  for (const [i, key] of traderKeys(count).entries()) {
    const role: Trader['role'] = i % 2 === 0 ? 'buyer' : 'seller';
    const split = role === 'seller' ? yesPerMarket * BigInt(markets.length) : 0n;
    await port.fundWallet(key.address, collateral + split, { privateKey: key.privateKey, nativeAmount: key.needsGas ? 10n * E18 : undefined });
    if (split > 0n) {
      const wallet = createWalletClient({ chain: port.context.chain, transport: transportOf(port.context.config), account: privateKeyToAccount(key.privateKey) });
      const confirm = async (what: string, hash: Hex) => {
        const receipt = await waitForReceipt(port.context, hash, 0);
        if (receipt.status !== 'success') throw new Error(`${what} reverted`);
      };
      await confirm('approve split', await wallet.writeContract({ address: collateralToken, abi: collateralAbi, functionName: 'approve', args: [conditionalTokens, split] }));
      for (const m of markets) {
        await confirm('split', await wallet.writeContract({
          address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'splitPosition', args: [collateralToken, m.condition_id as Hex, yesPerMarket],
        }));
      }
    }
    traders.push({ address: key.address, privateKey: key.privateKey, role, jwt: await devJwt(secret, key.address) });
  }
  return traders;
}
