// Generated from /v1/openapi.json by scripts/generate-client-types.ts: do not edit.
export interface paths {
    "/auth/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List non-revoked API keys
         * @description Tier L1. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description {data: [metadata]} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                created_at: string;
                                key_id: string;
                                /**
                                 * Format: date-time
                                 * @description Updated within a few seconds of use
                                 */
                                last_used_at: string | null;
                                permissions: ("read" | "trade")[];
                                /** Format: date-time */
                                revoked_at: string | null;
                            }[];
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key
         * @description Tier L1. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Default ["read"] */
                        permissions?: ("read" | "trade")[];
                    };
                };
            };
            responses: {
                /** @description The secret is shown once */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            key_id: string;
                            /** @description Shown once; only a hash is kept */
                            secret: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key (soft, immediate)
         * @description Tier L1. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The revoked key */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            created_at: string;
                            key_id: string;
                            /**
                             * Format: date-time
                             * @description Updated within a few seconds of use
                             */
                            last_used_at: string | null;
                            permissions: ("read" | "trade")[];
                            /** Format: date-time */
                            revoked_at: string | null;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/api-keys/{key_id}/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New secret for the same key id; the old one stops working at once
         * @description Tier L1. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    key_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description {key_id, secret} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            key_id: string;
                            /** @description Shown once; only a hash is kept */
                            secret: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/ws-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Single-use WebSocket token (60 s)
         * @description Tier L2. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description {token, expires_in} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @constant */
                            expires_in: 60;
                            token: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the wallet holds, has reserved and can still commit, per collateral and token
         * @description Tier L2, API-key permission `read`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The numbers INSUFFICIENT_BALANCE is decided from */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            collateral: {
                                /** @description Decimal string in the asset's units */
                                allowance: string;
                                /** @description min(balance, allowance) - reserved: what new BUY orders may commit */
                                available: string;
                                /** @description Decimal string in the asset's units */
                                balance: string;
                                /** @description Decimal string in the asset's units */
                                reserved: string;
                                token: string;
                            } | null;
                            tokens: {
                                approved: boolean;
                                /** @description balance (0 without approval) - reserved: what new SELL orders may commit */
                                available: string;
                                /** @description Decimal string in the asset's units */
                                balance: string;
                                condition_id: string;
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                /** @description Decimal string in the asset's units */
                                reserved: string;
                                token_id: string;
                            }[];
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The wallet's fills, newest first
         * @description Tier L2, API-key permission `read`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    condition_id?: string;
                    cursor?: string;
                    limit?: number;
                    trade_ids?: string[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of Fill */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                chain_id: number;
                                condition_id: string;
                                /** Format: date-time */
                                created_at: string;
                                fee: string;
                                order_hash: string;
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                price: string;
                                /** @enum {string} */
                                role: "maker" | "taker";
                                /** @enum {string} */
                                settlement_status: "PENDING" | "MINED" | "CONFIRMED" | "RETRYING" | "FAILED";
                                /** @enum {string} */
                                side: "BUY" | "SELL";
                                size: string;
                                trade_id: string;
                                /** @description "" until a transaction exists */
                                tx_hash: string;
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Arm or reset the wallet's dead-man switch (timeout_s 5..300; 0 disarms)
         * @description Tier L2, API-key permission `trade`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        timeout_s: number | 0 | unknown;
                    };
                };
            };
            responses: {
                /** @description {armed, expires_at} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            armed: boolean;
                            /** Format: date-time */
                            expires_at: string | null;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List markets
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    cursor?: string;
                    limit?: number;
                    status?: "open" | "closed" | "resolved" | "paused";
                };
                header?: {
                    /** @description Language of summary and rules; unknown values fall back to en */
                    "X-Language"?: "en" | "cn";
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of Market */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description AMM markets only: the on-chain pool. prices are null until the pool is deployed and funded (a SEEDING market) */
                                amm?: {
                                    /** @description The block the prices are exact at */
                                    block_number: string | null;
                                    fee_rate_bps: number;
                                    /** @description Collateral the operator has funded the pool with */
                                    liquidity: string;
                                    /** @description null until the pool is deployed */
                                    pool_address: string | null;
                                    /** @description [p0, p1] implied by the pool balances, p_i = b_j / (b_0 + b_1), rounded down to 6 decimals */
                                    prices: string[] | null;
                                };
                                chain_id: number;
                                collateral_token: string;
                                condition_id: string;
                                conditional_tokens_address: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description EIP-712 verifyingContract */
                                ctf_exchange_address: string;
                                /** Format: date-time */
                                end_date: string;
                                fee_rate_bps: number;
                                question: string;
                                /** @description Resolution rules, translated per X-Language */
                                rules: string;
                                /** @enum {string} */
                                status: "OPEN" | "CLOSED" | "RESOLVED" | "PAUSED" | "SEEDING";
                                /** @description Translated per X-Language (en, cn; default en) */
                                summary: string;
                                /** @description camelCase numbers; null until the first order or trade fills the cache */
                                ticker: {
                                    bestAsk: number | null;
                                    bestBid: number | null;
                                    displayPriceNO: number | null;
                                    displayPriceYES: number | null;
                                    lastPrice: number | null;
                                    spread: number | null;
                                } | null;
                                tokens: {
                                    decimals: number;
                                    /** @enum {integer} */
                                    outcome: 0 | 1;
                                    /** @enum {string} */
                                    outcome_label: "NO" | "YES";
                                    /** @description ERC-1155 position id */
                                    token_id: string;
                                }[];
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets/{condition_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a market (any status)
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                };
                header?: {
                    /** @description Language of summary and rules; unknown values fall back to en */
                    "X-Language"?: "en" | "cn";
                };
                path: {
                    condition_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Market */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description AMM markets only: the on-chain pool. prices are null until the pool is deployed and funded (a SEEDING market) */
                            amm?: {
                                /** @description The block the prices are exact at */
                                block_number: string | null;
                                fee_rate_bps: number;
                                /** @description Collateral the operator has funded the pool with */
                                liquidity: string;
                                /** @description null until the pool is deployed */
                                pool_address: string | null;
                                /** @description [p0, p1] implied by the pool balances, p_i = b_j / (b_0 + b_1), rounded down to 6 decimals */
                                prices: string[] | null;
                            };
                            chain_id: number;
                            collateral_token: string;
                            condition_id: string;
                            conditional_tokens_address: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description EIP-712 verifyingContract */
                            ctf_exchange_address: string;
                            /** Format: date-time */
                            end_date: string;
                            fee_rate_bps: number;
                            question: string;
                            /** @description Resolution rules, translated per X-Language */
                            rules: string;
                            /** @enum {string} */
                            status: "OPEN" | "CLOSED" | "RESOLVED" | "PAUSED" | "SEEDING";
                            /** @description Translated per X-Language (en, cn; default en) */
                            summary: string;
                            /** @description camelCase numbers; null until the first order or trade fills the cache */
                            ticker: {
                                bestAsk: number | null;
                                bestBid: number | null;
                                displayPriceNO: number | null;
                                displayPriceYES: number | null;
                                lastPrice: number | null;
                                spread: number | null;
                            } | null;
                            tokens: {
                                decimals: number;
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                /** @enum {string} */
                                outcome_label: "NO" | "YES";
                                /** @description ERC-1155 position id */
                                token_id: string;
                            }[];
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets/{condition_id}/book": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Order book snapshot (YES terms, best first)
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    depth?: number;
                };
                header?: never;
                path: {
                    condition_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Orderbook snapshot */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description YES asks, best (lowest) first */
                            asks: {
                                price: string;
                                remainingSize: string;
                            }[];
                            /** @description YES bids, best (highest) first */
                            bids: {
                                price: string;
                                remainingSize: string;
                            }[];
                            chain_id: number;
                            condition_id: string;
                            /** @description Book sequence number; realtime deltas continue from it */
                            seq: number;
                            /** Format: date-time */
                            timestamp: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets/{condition_id}/candles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OHLCV candles of settled trades (YES prices), oldest first, at most 1,000
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query: {
                    chain_id?: number;
                    end?: number;
                    interval: "1m" | "5m" | "1h" | "1d";
                    start?: number;
                };
                header?: never;
                path: {
                    condition_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description {data: [candle]}; intervals without trades left out */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                close: string;
                                high: string;
                                low: string;
                                open: string;
                                /** @description Interval start, unix seconds */
                                t: number;
                                /** @description Shares traded */
                                volume: string;
                            }[];
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets/{condition_id}/ticker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Standalone ticker
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                };
                header?: never;
                path: {
                    condition_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Ticker (snake_case strings or null) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            best_ask: string | null;
                            best_bid: string | null;
                            chain_id: number;
                            condition_id: string;
                            display_price_no: string | null;
                            display_price_yes: string | null;
                            last_price: string | null;
                            spread: string | null;
                            /** Format: date-time */
                            timestamp: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets/{condition_id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A market's outcome tokens
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                };
                header?: never;
                path: {
                    condition_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tokens */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            chain_id: number;
                            condition_id: string;
                            tokens: {
                                decimals: number;
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                /** @enum {string} */
                                outcome_label: "NO" | "YES";
                                /** @description ERC-1155 position id */
                                token_id: string;
                            }[];
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/markets/{condition_id}/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public trades (settled prints)
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    condition_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of Public trade */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                chain_id: number;
                                condition_id: string;
                                /** Format: date-time */
                                created_at: string;
                                price: string;
                                size: string;
                                trade_id: string;
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The wallet's orders, newest first
         * @description Tier L2, API-key permission `read`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    client_order_id?: string;
                    condition_id?: string;
                    cursor?: string;
                    limit?: number;
                    status?: "open" | "filled" | "cancelled" | "all";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of Order record */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                book_added_at: string | null;
                                chain_id: number;
                                /** @description The id the trader gave the order, null when none */
                                client_order_id: string | null;
                                condition_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description unix seconds, 0 = no expiry */
                                expiration: string;
                                fee_rate_bps: number;
                                order_hash: string;
                                /** @enum {string} */
                                order_type: "LIMIT" | "MARKET" | "GTD" | "FOK";
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                /** @description The order may only add liquidity (LIMIT and GTD) */
                                post_only: boolean;
                                price: string;
                                remaining_size: string;
                                /** @enum {string} */
                                side: "BUY" | "SELL";
                                size: string;
                                /** @enum {string} */
                                status: "OPEN" | "PARTIALLY_FILLED" | "MATCHED" | "FILLED" | "CANCELLED" | "EXPIRED" | "MATCH_FAILED";
                                /**
                                 * @description Why the order ended: null while it lives and when FILLED or MATCHED; for CANCELLED, EXPIRED and MATCH_FAILED one of: USER_CANCEL (its owner cancelled it (POST /v1/orders/cancel: by hash, filter or all)); MARKET_CLOSED (its market closed); MARKET_RESOLVED (its market resolved); MARKET_NOT_ACTIVE (it reached a market that was paused or not open for trading yet); MARKET_REMAINDER (a MARKET order's part the book could not fill at once); SELF_TRADE (a newer order of the same wallet crossed it (self-trade prevention cancels the resting one)); MAX_MAKERS_REACHED (it took as many makers as one settlement carries and still crossed the book); ONCHAIN_CANCEL (its owner cancelled it on the exchange contract); NONCE_BUMPED (its owner raised the wallet's nonce on the exchange contract past the order's); BALANCE_CHANGED (the wallet's balance or allowance on chain fell below what its orders need); SIGNATURE_REFUSED (its contract wallet (EIP-1271) no longer accepted the order's signature when it settled); TOKENS_REFUSED (its contract wallet refused the outcome tokens it bought (ERC-1155 receiver hook)); GAS_BURNED (its contract wallet ran out of the gas the exchange gives a wallet call, when it settled); POST_ONLY_WOULD_CROSS (a post-only order would have taken liquidity); FOK_NOT_FILLED (a fill-or-kill order could not fill entirely at once); HEARTBEAT_EXPIRED (the wallet's dead-man switch ran out); EXPIRED (its expiration passed); INVALID_ORDER (the matcher found the stored order unusable (it never traded)); SETTLEMENT_FAILED (a fill of it failed settlement for good)
                                 * @enum {string|null}
                                 */
                                status_reason: "USER_CANCEL" | "MARKET_CLOSED" | "MARKET_RESOLVED" | "MARKET_NOT_ACTIVE" | "MARKET_REMAINDER" | "SELF_TRADE" | "MAX_MAKERS_REACHED" | "ONCHAIN_CANCEL" | "NONCE_BUMPED" | "BALANCE_CHANGED" | "SIGNATURE_REFUSED" | "TOKENS_REFUSED" | "GAS_BURNED" | "POST_ONLY_WOULD_CROSS" | "FOK_NOT_FILLED" | "HEARTBEAT_EXPIRED" | "EXPIRED" | "INVALID_ORDER" | "SETTLEMENT_FAILED" | null;
                                token_id: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Place 1..15 signed orders
         * @description Tier L2, API-key permission `trade`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional idempotency key */
                    "fs-idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        orders: {
                            chain_id: number;
                            client_order_id?: string;
                            condition_id: string;
                            expiration: string;
                            fee_rate_bps: number;
                            maker_amount: string;
                            nonce: string;
                            /** @enum {string} */
                            order_type: "LIMIT" | "MARKET" | "GTD" | "FOK";
                            /** @enum {integer} */
                            outcome: 0 | 1;
                            post_only?: boolean;
                            price: string;
                            salt: string;
                            /** @enum {string} */
                            side: "BUY" | "SELL";
                            signature: string;
                            /** @enum {integer} */
                            signature_type: 0 | 1;
                            signer: string;
                            size: string;
                            taker: string;
                            taker_amount: string;
                            token_id: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description One result per order, in request order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @constant */
                            _idempotent_replayed?: true;
                            results: ({
                                book_added_at: null;
                                chain_id: number;
                                client_order_id?: string | null;
                                condition_id: string;
                                /** Format: date-time */
                                created_at: string;
                                fills: unknown[];
                                order_hash: string;
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                price: string;
                                remaining_size: string;
                                /** @enum {string} */
                                side: "BUY" | "SELL";
                                size: string;
                                /** @constant */
                                status: "OPEN";
                            } | {
                                error: {
                                    code: string;
                                    details?: Record<string, never>;
                                    message: string;
                                };
                            })[];
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description IDEMPOTENCY_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR, BATCH_SIZE_EXCEEDED */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{order_hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One order of the wallet
         * @description Tier L2, API-key permission `read`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    order_hash: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Order record */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date-time */
                            book_added_at: string | null;
                            chain_id: number;
                            /** @description The id the trader gave the order, null when none */
                            client_order_id: string | null;
                            condition_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** @description unix seconds, 0 = no expiry */
                            expiration: string;
                            fee_rate_bps: number;
                            order_hash: string;
                            /** @enum {string} */
                            order_type: "LIMIT" | "MARKET" | "GTD" | "FOK";
                            /** @enum {integer} */
                            outcome: 0 | 1;
                            /** @description The order may only add liquidity (LIMIT and GTD) */
                            post_only: boolean;
                            price: string;
                            remaining_size: string;
                            /** @enum {string} */
                            side: "BUY" | "SELL";
                            size: string;
                            /** @enum {string} */
                            status: "OPEN" | "PARTIALLY_FILLED" | "MATCHED" | "FILLED" | "CANCELLED" | "EXPIRED" | "MATCH_FAILED";
                            /**
                             * @description Why the order ended: null while it lives and when FILLED or MATCHED; for CANCELLED, EXPIRED and MATCH_FAILED one of: USER_CANCEL (its owner cancelled it (POST /v1/orders/cancel: by hash, filter or all)); MARKET_CLOSED (its market closed); MARKET_RESOLVED (its market resolved); MARKET_NOT_ACTIVE (it reached a market that was paused or not open for trading yet); MARKET_REMAINDER (a MARKET order's part the book could not fill at once); SELF_TRADE (a newer order of the same wallet crossed it (self-trade prevention cancels the resting one)); MAX_MAKERS_REACHED (it took as many makers as one settlement carries and still crossed the book); ONCHAIN_CANCEL (its owner cancelled it on the exchange contract); NONCE_BUMPED (its owner raised the wallet's nonce on the exchange contract past the order's); BALANCE_CHANGED (the wallet's balance or allowance on chain fell below what its orders need); SIGNATURE_REFUSED (its contract wallet (EIP-1271) no longer accepted the order's signature when it settled); TOKENS_REFUSED (its contract wallet refused the outcome tokens it bought (ERC-1155 receiver hook)); GAS_BURNED (its contract wallet ran out of the gas the exchange gives a wallet call, when it settled); POST_ONLY_WOULD_CROSS (a post-only order would have taken liquidity); FOK_NOT_FILLED (a fill-or-kill order could not fill entirely at once); HEARTBEAT_EXPIRED (the wallet's dead-man switch ran out); EXPIRED (its expiration passed); INVALID_ORDER (the matcher found the stored order unusable (it never traded)); SETTLEMENT_FAILED (a fill of it failed settlement for good)
                             * @enum {string|null}
                             */
                            status_reason: "USER_CANCEL" | "MARKET_CLOSED" | "MARKET_RESOLVED" | "MARKET_NOT_ACTIVE" | "MARKET_REMAINDER" | "SELF_TRADE" | "MAX_MAKERS_REACHED" | "ONCHAIN_CANCEL" | "NONCE_BUMPED" | "BALANCE_CHANGED" | "SIGNATURE_REFUSED" | "TOKENS_REFUSED" | "GAS_BURNED" | "POST_ONLY_WOULD_CROSS" | "FOK_NOT_FILLED" | "HEARTBEAT_EXPIRED" | "EXPIRED" | "INVALID_ORDER" | "SETTLEMENT_FAILED" | null;
                            token_id: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description ORDER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{order_hash}/cancel-onchain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Calldata to cancel an order on chain
         * @description Tier L2, API-key permission `trade`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    order_hash: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description {to, data, chain_id} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            chain_id: number;
                            data: string;
                            to: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description ORDER_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR, ORDER_NOT_OPEN, ORDER_ALREADY_FILLED */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel by hashes, client_order_ids, filter or all
         * @description Tier L2, API-key permission `trade`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        all?: true;
                        client_order_ids?: string[];
                        filter?: {
                            chain_id?: number;
                            condition_id?: string;
                            /** @enum {integer} */
                            outcome?: 0 | 1;
                            /** @enum {string} */
                            side?: "BUY" | "SELL";
                        };
                        order_hashes?: string[];
                    };
                };
            };
            responses: {
                /** @description Cancelled and not cancelled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cancelled: string[];
                            /** @description Cancel by filter or all only: true when more live orders matched than one request ends (1,000); send the same request again until it is false. */
                            has_more?: boolean;
                            not_cancelled: {
                                /** @description Set when the cancel named client_order_ids and no order carries this one */
                                client_order_id?: string;
                                error: {
                                    code: string;
                                    details?: Record<string, never>;
                                    message: string;
                                };
                                /** @description null for a client_order_id no order carries */
                                order_hash: string | null;
                            }[];
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/positions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The wallet's CLOB positions
         * @description Tier L2, API-key permission `read`. Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    condition_id?: string;
                    cursor?: string;
                    limit?: number;
                    status?: "active" | "resolved" | "all";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of Position */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                avg_price: string;
                                chain_id: number;
                                condition_id: string;
                                current_value: string;
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                /** @enum {string} */
                                outcome_label: "NO" | "YES";
                                realized_pnl: string;
                                /** @enum {integer|null} */
                                resolution_outcome: 0 | 1 | null;
                                size: string;
                                /** @enum {string} */
                                status: "active" | "resolved";
                                token_id: string;
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The wallet's transaction (AMM) or order to sign (CLOB) for a quoted trade
         * @description Platform key (fs-platform-key, fs-platform-secret). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Positive decimal string */
                        amount: string;
                        /** @description Chain id, e.g. 56 */
                        chain_id: number;
                        condition_id: string;
                        /** @enum {integer} */
                        outcome: 0 | 1;
                        /** @enum {string} */
                        side: "BUY" | "SELL";
                        /** @default 100 */
                        slippage_bps?: number;
                        wallet: string;
                    };
                };
            };
            responses: {
                /** @description AMM: tx and approvals; CLOB: typed_data and order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approvals?: {
                                data: string;
                                to: string;
                            }[];
                            /** @enum {string} */
                            kind: "AMM" | "CLOB";
                            /** @description The POST /v1/orders item without its signature */
                            order?: Record<string, never>;
                            quote: {
                                amount: string;
                                average_price: string | null;
                                /** @description AMM: the block the quote is exact at; CLOB: null (see book_seq) */
                                block_number: string | null;
                                /** @description CLOB: the book sequence number walked */
                                book_seq?: number;
                                chain_id: number;
                                condition_id: string;
                                /** @description SELL: collateral received, after the fee */
                                expected_collateral?: string;
                                /** @description BUY: shares received */
                                expected_shares?: string;
                                fee: string;
                                /** @description CLOB: the part of amount the book can take, when less than amount */
                                fillable_amount?: string;
                                /** @enum {string} */
                                kind: "AMM" | "CLOB";
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                partial?: boolean;
                                price_after: string | null;
                                price_before: string | null;
                                price_impact_bps: number;
                                /** @enum {string} */
                                side: "BUY" | "SELL";
                            };
                            tx?: {
                                chain_id: number;
                                data: string;
                                to: string;
                                value: string;
                            };
                            typed_data?: {
                                domain: Record<string, never>;
                                message: Record<string, never>;
                                /** @enum {string} */
                                primaryType: "Order";
                                types: Record<string, never>;
                            };
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR, MARKET_NOT_ACTIVE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade/markets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Markets of both kinds; CLOB items with best bid, ask and last price (YES)
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                    cursor?: string;
                    kind?: "amm" | "clob" | "all";
                    limit?: number;
                    status?: "open" | "closed" | "resolved" | "paused";
                };
                header?: {
                    /** @description Language of summary and rules; unknown values fall back to en */
                    "X-Language"?: "en" | "cn";
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of Market with kind */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                amm?: Record<string, never>;
                                best_ask?: string | null;
                                best_bid?: string | null;
                                chain_id: number;
                                collateral_token: string;
                                condition_id: string;
                                conditional_tokens_address: string;
                                /** Format: date-time */
                                created_at: string;
                                /** @description EIP-712 verifyingContract */
                                ctf_exchange_address: string;
                                /** Format: date-time */
                                end_date: string;
                                fee_rate_bps: number;
                                /** @enum {string} */
                                kind: "AMM" | "CLOB";
                                last_price?: string | null;
                                question: string;
                                /** @description Resolution rules, translated per X-Language */
                                rules: string;
                                /** @enum {string} */
                                status: "OPEN" | "CLOSED" | "RESOLVED" | "PAUSED" | "SEEDING";
                                /** @description Translated per X-Language (en, cn; default en) */
                                summary: string;
                                /** @description camelCase numbers; null until the first order or trade fills the cache */
                                ticker: {
                                    bestAsk: number | null;
                                    bestBid: number | null;
                                    displayPriceNO: number | null;
                                    displayPriceYES: number | null;
                                    lastPrice: number | null;
                                    spread: number | null;
                                } | null;
                                tokens: {
                                    decimals: number;
                                    /** @enum {integer} */
                                    outcome: 0 | 1;
                                    /** @enum {string} */
                                    outcome_label: "NO" | "YES";
                                    /** @description ERC-1155 position id */
                                    token_id: string;
                                }[];
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade/positions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Outcome-token balances on chain, per market the wallet holds
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query: {
                    chain_id?: number;
                    cursor?: string;
                    limit?: number;
                    status?: "active" | "resolved" | "all";
                    wallet: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page of trade position */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                avg_price: string | null;
                                chain_id: number;
                                condition_id: string;
                                current_price: string | null;
                                current_value: string | null;
                                /** @enum {string} */
                                kind: "AMM" | "CLOB";
                                /** @enum {integer} */
                                outcome: 0 | 1;
                                /** @enum {string} */
                                outcome_label: "NO" | "YES";
                                redeemable: boolean;
                                size: string;
                                token_id: string;
                            }[];
                            has_more: boolean;
                            /** @description Cursor of the next page; empty when has_more is false */
                            next_cursor: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Quote a BUY (amount: collateral) or SELL (amount: shares) on an AMM pool or the CLOB book
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Positive decimal string */
                        amount: string;
                        /** @description Chain id, e.g. 56 */
                        chain_id: number;
                        condition_id: string;
                        /** @enum {integer} */
                        outcome: 0 | 1;
                        /** @enum {string} */
                        side: "BUY" | "SELL";
                    };
                };
            };
            responses: {
                /** @description Quote */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            amount: string;
                            average_price: string | null;
                            /** @description AMM: the block the quote is exact at; CLOB: null (see book_seq) */
                            block_number: string | null;
                            /** @description CLOB: the book sequence number walked */
                            book_seq?: number;
                            chain_id: number;
                            condition_id: string;
                            /** @description SELL: collateral received, after the fee */
                            expected_collateral?: string;
                            /** @description BUY: shares received */
                            expected_shares?: string;
                            fee: string;
                            /** @description CLOB: the part of amount the book can take, when less than amount */
                            fillable_amount?: string;
                            /** @enum {string} */
                            kind: "AMM" | "CLOB";
                            /** @enum {integer} */
                            outcome: 0 | 1;
                            partial?: boolean;
                            price_after: string | null;
                            price_before: string | null;
                            price_impact_bps: number;
                            /** @enum {string} */
                            side: "BUY" | "SELL";
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR, MARKET_NOT_ACTIVE */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * redeemPositions for the wallet's winning balance, and its payout
         * @description Platform key (fs-platform-key, fs-platform-secret). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Chain id, e.g. 56 */
                        chain_id: number;
                        condition_id: string;
                        wallet: string;
                    };
                };
            };
            responses: {
                /** @description {tx, payout} */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            payout: string;
                            tx: {
                                chain_id: number;
                                data: string;
                                to: string;
                                value: string;
                            };
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR, MARKET_NOT_RESOLVED */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow a wallet's transaction to its end (one workflow per hash)
         * @description Platform key (fs-platform-key, fs-platform-secret). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Chain id, e.g. 56 */
                        chain_id: number;
                        tx_hash: string;
                        wallet: string;
                    };
                };
            };
            responses: {
                /** @description The saved transaction */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            block_number?: string | null;
                            chain_id: number;
                            condition_ids?: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            status: "PENDING" | "CONFIRMED" | "REVERTED" | "NOT_FOUND";
                            status_reason?: string | null;
                            trades?: Record<string, never>[];
                            tx_hash: string;
                            /** Format: date-time */
                            updated_at?: string;
                            wallet: string;
                        };
                    };
                };
                /** @description AUTH_MISSING, AUTH_INVALID, AUTH_REVOKED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description IDEMPOTENCY_CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description SERVICE_DEGRADED */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/trade/save/{tx_hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A saved transaction
         * @description Tier L0 (public). Unknown query parameters are rejected with 422 VALIDATION_ERROR.
         */
        get: {
            parameters: {
                query?: {
                    chain_id?: number;
                };
                header?: never;
                path: {
                    tx_hash: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The saved transaction */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            block_number?: string | null;
                            chain_id: number;
                            condition_ids?: string[];
                            /** Format: date-time */
                            created_at: string;
                            /** @enum {string} */
                            status: "PENDING" | "CONFIRMED" | "REVERTED" | "NOT_FOUND";
                            status_reason?: string | null;
                            trades?: Record<string, never>[];
                            tx_hash: string;
                            /** Format: date-time */
                            updated_at?: string;
                            wallet: string;
                        };
                    };
                };
                /** @description NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description VALIDATION_ERROR */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiKeyMetadata: {
            /** Format: date-time */
            created_at: string;
            key_id: string;
            /**
             * Format: date-time
             * @description Updated within a few seconds of use
             */
            last_used_at: string | null;
            permissions: ("read" | "trade")[];
            /** Format: date-time */
            revoked_at: string | null;
        };
        ErrorEnvelope: {
            /** @enum {string} */
            code: "AUTH_MISSING" | "AUTH_INVALID" | "AUTH_REVOKED" | "FORBIDDEN" | "NOT_FOUND" | "ORDER_NOT_FOUND" | "IDEMPOTENCY_CONFLICT" | "VALIDATION_ERROR" | "MARKET_NOT_ACTIVE" | "MARKET_NOT_CLOB" | "MARKET_NOT_RESOLVED" | "INSUFFICIENT_BALANCE" | "ORDER_EXPIRED" | "ORDER_ALREADY_FILLED" | "ORDER_NOT_OPEN" | "INVALID_SIGNATURE" | "INVALID_ORDER" | "WALLET_MISMATCH" | "PRICE_OUT_OF_RANGE" | "SIZE_TOO_SMALL" | "BATCH_SIZE_EXCEEDED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "SERVICE_DEGRADED";
            correlation_id: string;
            details?: Record<string, never>;
            message: string;
            path: string;
            status_code: number;
            /** Format: date-time */
            timestamp: string;
        };
        Market: {
            /** @description AMM markets only: the on-chain pool. prices are null until the pool is deployed and funded (a SEEDING market) */
            amm?: {
                /** @description The block the prices are exact at */
                block_number: string | null;
                fee_rate_bps: number;
                /** @description Collateral the operator has funded the pool with */
                liquidity: string;
                /** @description null until the pool is deployed */
                pool_address: string | null;
                /** @description [p0, p1] implied by the pool balances, p_i = b_j / (b_0 + b_1), rounded down to 6 decimals */
                prices: string[] | null;
            };
            chain_id: number;
            collateral_token: string;
            condition_id: string;
            conditional_tokens_address: string;
            /** Format: date-time */
            created_at: string;
            /** @description EIP-712 verifyingContract */
            ctf_exchange_address: string;
            /** Format: date-time */
            end_date: string;
            fee_rate_bps: number;
            question: string;
            /** @description Resolution rules, translated per X-Language */
            rules: string;
            /** @enum {string} */
            status: "OPEN" | "CLOSED" | "RESOLVED" | "PAUSED" | "SEEDING";
            /** @description Translated per X-Language (en, cn; default en) */
            summary: string;
            /** @description camelCase numbers; null until the first order or trade fills the cache */
            ticker: {
                bestAsk: number | null;
                bestBid: number | null;
                displayPriceNO: number | null;
                displayPriceYES: number | null;
                lastPrice: number | null;
                spread: number | null;
            } | null;
            tokens: {
                decimals: number;
                /** @enum {integer} */
                outcome: 0 | 1;
                /** @enum {string} */
                outcome_label: "NO" | "YES";
                /** @description ERC-1155 position id */
                token_id: string;
            }[];
        };
        OrderRecord: {
            /** Format: date-time */
            book_added_at: string | null;
            chain_id: number;
            /** @description The id the trader gave the order, null when none */
            client_order_id: string | null;
            condition_id: string;
            /** Format: date-time */
            created_at: string;
            /** @description unix seconds, 0 = no expiry */
            expiration: string;
            fee_rate_bps: number;
            order_hash: string;
            /** @enum {string} */
            order_type: "LIMIT" | "MARKET" | "GTD" | "FOK";
            /** @enum {integer} */
            outcome: 0 | 1;
            /** @description The order may only add liquidity (LIMIT and GTD) */
            post_only: boolean;
            price: string;
            remaining_size: string;
            /** @enum {string} */
            side: "BUY" | "SELL";
            size: string;
            /** @enum {string} */
            status: "OPEN" | "PARTIALLY_FILLED" | "MATCHED" | "FILLED" | "CANCELLED" | "EXPIRED" | "MATCH_FAILED";
            /**
             * @description Why the order ended: null while it lives and when FILLED or MATCHED; for CANCELLED, EXPIRED and MATCH_FAILED one of: USER_CANCEL (its owner cancelled it (POST /v1/orders/cancel: by hash, filter or all)); MARKET_CLOSED (its market closed); MARKET_RESOLVED (its market resolved); MARKET_NOT_ACTIVE (it reached a market that was paused or not open for trading yet); MARKET_REMAINDER (a MARKET order's part the book could not fill at once); SELF_TRADE (a newer order of the same wallet crossed it (self-trade prevention cancels the resting one)); MAX_MAKERS_REACHED (it took as many makers as one settlement carries and still crossed the book); ONCHAIN_CANCEL (its owner cancelled it on the exchange contract); NONCE_BUMPED (its owner raised the wallet's nonce on the exchange contract past the order's); BALANCE_CHANGED (the wallet's balance or allowance on chain fell below what its orders need); SIGNATURE_REFUSED (its contract wallet (EIP-1271) no longer accepted the order's signature when it settled); TOKENS_REFUSED (its contract wallet refused the outcome tokens it bought (ERC-1155 receiver hook)); GAS_BURNED (its contract wallet ran out of the gas the exchange gives a wallet call, when it settled); POST_ONLY_WOULD_CROSS (a post-only order would have taken liquidity); FOK_NOT_FILLED (a fill-or-kill order could not fill entirely at once); HEARTBEAT_EXPIRED (the wallet's dead-man switch ran out); EXPIRED (its expiration passed); INVALID_ORDER (the matcher found the stored order unusable (it never traded)); SETTLEMENT_FAILED (a fill of it failed settlement for good)
             * @enum {string|null}
             */
            status_reason: "USER_CANCEL" | "MARKET_CLOSED" | "MARKET_RESOLVED" | "MARKET_NOT_ACTIVE" | "MARKET_REMAINDER" | "SELF_TRADE" | "MAX_MAKERS_REACHED" | "ONCHAIN_CANCEL" | "NONCE_BUMPED" | "BALANCE_CHANGED" | "SIGNATURE_REFUSED" | "TOKENS_REFUSED" | "GAS_BURNED" | "POST_ONLY_WOULD_CROSS" | "FOK_NOT_FILLED" | "HEARTBEAT_EXPIRED" | "EXPIRED" | "INVALID_ORDER" | "SETTLEMENT_FAILED" | null;
            token_id: string;
            /** Format: date-time */
            updated_at: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
