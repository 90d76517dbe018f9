import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { secretsEqual } from '../auth/secrets';

/** `x-admin-token` must equal ADMIN_TOKEN (constant-time). Missing: AUTH_MISSING; wrong: AUTH_INVALID. */
export function requireAdminToken(adminToken: string) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const given = req.header('x-admin-token');
    if (given === undefined || given === '') throw new AppError('AUTH_MISSING', 'x-admin-token header is required');
    if (!secretsEqual(given, adminToken)) throw new AppError('AUTH_INVALID', 'Wrong admin token');
    next();
  };
}

/** Operator name for the audit trail: header `x-operator` when it is a short plain name, else "admin". */
export function operatorOf(req: Request): string {
  const name = req.header('x-operator');
  return name && /^[A-Za-z0-9._@-]{1,64}$/.test(name) ? name : 'admin';
}
