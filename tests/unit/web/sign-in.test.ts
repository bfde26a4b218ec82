import { describe, expect, it } from 'vitest';
import { SignIn } from '../../../web/sign-in.ts';

/** A signed-in browser of `signIn`: its address's token, cookie header and page secret. */
function open(signIn: SignIn) {
  const token = signIn.issue();
  const session = signIn.open(`Bearer ${token}`);
  if (!session) throw new Error('the waiting token opened nothing');
  const cookie = signIn.setCookie(session).split(';')[0] ?? '';
  return { token, cookie, page: session.page };
}

describe('browser-mode sign-in', () => {
  it('signs in on the page secret only, never on the cookie', () => {
    const signIn = new SignIn(4000);
    const tab = open(signIn);
    expect(signIn.signedIn(tab.page)).toBe(true);
    expect(signIn.signedIn(tab.cookie.split('=')[1])).toBe(false);
    expect(signIn.signedIn(tab.token)).toBe(false);
    expect(signIn.signedIn(undefined)).toBe(false);
    expect(signIn.signedIn([tab.page, tab.page])).toBe(false);
  });

  it('opens a session once per token', () => {
    const signIn = new SignIn(4000);
    const tab = open(signIn);
    expect(signIn.waiting).toBe(false);
    expect(signIn.open(`Bearer ${tab.token}`)).toBeUndefined();
  });

  it("reopens a session for its own address and its browser's cookie, both", () => {
    const signIn = new SignIn(4000);
    const tab = open(signIn);
    const other = open(signIn);
    const reopen = (token: string, cookie?: string) =>
      signIn.reopen(`Bearer ${token}`, cookie)?.page;
    expect(reopen(tab.token, tab.cookie)).toBe(tab.page);
    expect(reopen(tab.token, `burrow_session_4000=x; a=b; ${tab.cookie}`)).toBe(tab.page);
    expect(reopen(tab.token)).toBeUndefined();
    expect(reopen(tab.token, other.cookie)).toBeUndefined();
    expect(reopen(other.token, tab.cookie)).toBeUndefined();
    // The same value under another server's name is not ours.
    expect(reopen(tab.token, tab.cookie.replace('4000', '4001'))).toBeUndefined();
  });

  it('signs the oldest session out past 32', () => {
    const signIn = new SignIn(4000);
    const first = open(signIn);
    const rest = Array.from({ length: 32 }, () => open(signIn));
    expect(signIn.signedIn(first.page)).toBe(false);
    expect(signIn.reopen(`Bearer ${first.token}`, first.cookie)).toBeUndefined();
    expect(rest.every((tab) => signIn.signedIn(tab.page))).toBe(true);
  });
});
