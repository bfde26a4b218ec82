import { expect, it } from 'vitest';
import { placeRefusal, problemsOf } from '../../../renderer/src/resources/form/form.ts';
import { KINDS } from '../../../renderer/src/resources/kinds/kind-list.ts';

const failover = KINDS.find((k) => k.group === 'failoverBackends');
const fields = failover?.create ?? [];

it('asks for a pick where a list of picks is left empty, whoever finds it empty', () => {
  const own = problemsOf(fields, { backends: [] }, 'failoverBackends.create', {});
  expect(own.fields['backends']?.message).toBe('Choose one or more child backends');

  const refused = placeRefusal(
    fields,
    { backends: [] },
    { code: 'ERR_SERVICE_400', message: 'missing required property backends', field: 'backends' },
  );
  expect(refused).toEqual({
    name: 'backends',
    problem: { message: 'Choose one or more child backends' },
  });
});

it('says "is required" of a field filled in, as before', () => {
  const refused = placeRefusal(
    fields,
    {},
    {
      code: 'ERR_SERVICE_400',
      message: 'missing required property description',
      field: 'description',
    },
  );
  expect(refused?.problem.message).toBe('Description is required');
});
