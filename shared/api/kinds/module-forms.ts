import { z } from 'zod';

/** `enabled` as modules report it. */
export const enabledRead = z.boolean();
/** `enabled` as module write forms take it: a module given without it is applied to traffic. */
export const enabledWrite = z.boolean().default(true);

/** A module's two shapes: as representations hold it, and as request bodies set it. */
export type ModuleForms = { readonly read: z.ZodType; readonly write: z.ZodType };
export type ModuleTable = Readonly<Record<string, ModuleForms>>;

/** The module fields of a representation: a module that is not configured is null. */
export function readModuleFields<T extends ModuleTable>(modules: T) {
  return Object.fromEntries(
    Object.entries(modules).map(([name, forms]) => [name, forms.read.nullable()]),
  ) as {
    [K in keyof T]: z.ZodNullable<T[K]['read']>;
  };
}

/** The module fields of a create or update body: each optional, and replaced whole when given. */
export function writeModuleFields<T extends ModuleTable>(modules: T) {
  return Object.fromEntries(
    Object.entries(modules).map(([name, forms]) => [name, forms.write.optional()]),
  ) as {
    [K in keyof T]: z.ZodOptional<T[K]['write']>;
  };
}
