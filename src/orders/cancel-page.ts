/**
 * Live orders one cancel-by-filter or cancel-all request ends at most: the request's reads and
 * the matcher's work stay bounded however many orders a wallet keeps. A response with
 * `has_more: true` had more to cancel: the caller sends the same request again until it is false.
 * 1,000 is one market update's worth (MAX_CANCEL_HASHES).
 */
export const CANCEL_PAGE = 1_000;
