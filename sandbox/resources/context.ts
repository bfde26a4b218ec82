import type { ENDPOINTS } from '../../shared/api/catalog/endpoints.ts';
import type { Account, User } from '../store/account.ts';
import type { Store } from '../store/store.ts';
import type { SshSigner } from '../ssh/signer.ts';

/**
 * Where a new report goes for review. The review (which moves hostnames to BANNED, UNBANNED or
 * IGNORE and the report to PROCESSED or PARTIALLY_PROCESSED) replaces the record in the account's
 * collection; the sandbox's reviewer is `TimedAbuseReview` (`sandbox/abuse/review.ts`).
 */
export interface AbuseReview {
  submitted(account: string, reportId: string): void;
}

/** What the handlers need beyond the request: the store and the seams later issues fill in. */
export type Services = {
  readonly store: Store;
  readonly ssh: SshSigner;
  readonly abuseReview: AbuseReview;
};

export type ListQuery = { readonly limit: number; readonly before_id?: string | undefined };

/** One validated request, as a handler sees it. */
export type Ctx<Body = unknown> = {
  readonly account: Account;
  readonly user: User;
  /** The base URL of uri and next_page_uri, without a trailing slash. */
  readonly base: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: ListQuery;
  readonly body: Body;
  readonly services: Services;
};

/** Answers with the representation, or undefined for a 204. */
export type Handler = (ctx: Ctx) => unknown;
export type HandlerTable = Readonly<Record<(typeof ENDPOINTS)[number]['name'], Handler>>;
