import { expect, it } from 'vitest';
import { KINDS } from '../../../renderer/src/resources/kinds/kind-list.ts';
import { PURPOSES } from '../../../renderer/src/resources/kinds/purposes.ts';

it('says what every kind the window lists is for, in one sentence, for its empty list', () => {
  for (const kind of KINDS) {
    const purpose = PURPOSES[kind.group];
    expect(purpose, kind.group).toMatch(/^[A-Z].*\.$/);
    // One sentence: no full stop before its end.
    expect(purpose?.slice(0, -1), kind.group).not.toMatch(/\.\s/);
  }
});
