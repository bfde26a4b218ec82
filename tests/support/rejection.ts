import { expect } from 'vitest';

/** What `promise` rejects with, checked to be an instance of `type`. */
export async function rejection<E>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
