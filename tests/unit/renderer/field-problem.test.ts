import { describe, expect, it } from 'vitest';
import { problemTies } from '../../../renderer/src/lib/field-problem.ts';

describe('problemTies', () => {
  it('marks the input invalid only while there is a problem, and always names where it shows', () => {
    expect(problemTies('Name is required', 'x-name-problem')).toEqual({
      'aria-invalid': 'true',
      'aria-describedby': 'x-name-problem',
    });
    expect(problemTies(undefined, 'x-name-problem')).toEqual({
      'aria-invalid': undefined,
      'aria-describedby': 'x-name-problem',
    });
  });
});
