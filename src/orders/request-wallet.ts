import type { Request } from 'express';
import { AppError } from '../errors';

/** The wallet a guard (`requireL2`) authenticated, lower-case. */
export function walletOf(req: Request): string {
  const wallet = (req as Request & { auth?: { wallet?: string } }).auth?.wallet;
  if (!wallet) throw new AppError('AUTH_MISSING');
  return wallet.toLowerCase();
}
