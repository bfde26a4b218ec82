import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import { crud } from './crud.ts';
import { refuseDeleteWhileReferenced } from './references.ts';
import { describedFields, storedFields } from './render.ts';
import { readCaCertificate } from './x509.ts';

export const certificateAuthorityHandlers = crud<
  'certificateAuthority',
  ParsedBodyOf<'certificateAuthorities.create'>,
  ParsedBodyOf<'certificateAuthorities.update'>
>({
  group: 'certificateAuthorities',
  kind: 'certificateAuthority',
  create: (ctx, fields) => {
    const read = readCaCertificate(ctx.body.ca_pem);
    if ('problem' in read)
      throw new SandboxApiError('invalidValue', `"ca_pem" ${read.problem}`, { field: 'ca_pem' });
    return { ...fields, ca_pem: ctx.body.ca_pem, ...read };
  },
  render: (record, base) => ({
    ...describedFields(record, base),
    ...storedFields(record, [
      'ca_pem',
      'subject_common_name',
      'not_before',
      'not_after',
      'key_usages',
      'extended_key_usages',
    ]),
  }),
  checkDelete: refuseDeleteWhileReferenced,
});
