import { z } from 'zod';
import { byteLimitedString } from './bytes.ts';
import { idSchema, type IdKind } from './ids.ts';

export const DESCRIPTION_MAX_BYTES = 255;
export const METADATA_MAX_BYTES = 4096;

export const Description = byteLimitedString(DESCRIPTION_MAX_BYTES, 'descriptionTooLong');
export const Metadata = byteLimitedString(METADATA_MAX_BYTES, 'metadataTooLong');

/** description and metadata, as every create and update body that has them takes them. */
export const describedFields = {
  description: Description.optional(),
  metadata: Metadata.optional(),
};

/** A body of only description and metadata: most update bodies, and the IP policy create body. */
export const DescribedBody = z.strictObject(describedFields);

/** RFC 3339 as a caller may write it, with any offset. */
export const Timestamp = z.iso.datetime({ offset: true });
/** RFC 3339 as the server writes it: UTC, ending in Z. */
export const UtcTimestamp = z.iso.datetime();

export const Uint32 = z.uint32();
export const NonEmptyString = z.string().min(1);
export const StringMap = z.record(z.string(), z.string());

/**
 * A reference to another resource. The id is not checked against the known prefixes: a future
 * version may refer to kinds this model does not know yet, and readers must tolerate them.
 */
export const Ref = z.looseObject({ id: z.string(), uri: z.url() });
export type Ref = z.output<typeof Ref>;

/** A module or member counts as set unless it is null or left out. */
export function isSet<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** The fields every ordinary resource representation starts with. */
export function resourceFields(kind: IdKind) {
  return {
    id: idSchema(kind),
    uri: z.url(),
    created_at: UtcTimestamp,
    description: z.string().optional(),
    metadata: z.string().optional(),
  };
}
