import { z } from 'zod';

const LABEL_PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A label key or value, as agents declare them (`env=prod`) and tunnel groups select them. */
export function isLabelPart(s: string): boolean {
  return LABEL_PART.test(s);
}

const labelPart = z
  .string()
  .refine(isLabelPart, 'must be letters, digits, ".", "_" or "-", starting with a letter or digit');

export const Labels = z
  .record(labelPart, labelPart)
  .refine((labels) => Object.keys(labels).length > 0, 'must hold at least one label');
